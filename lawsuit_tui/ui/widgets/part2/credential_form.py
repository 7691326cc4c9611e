"""Register or update a court credential: system, customer_key, username and password.

The password is typed into a masked field that cannot be copied out, is taken out of the
widget the moment the credential is built (before the call starts), travels only inside a
``SecretStr`` to the service, and is never written to the cache, a log or the screen. The
form dismisses with the service's answer: one entry per system it touched (the system and
its siblings, CREDENTIAL_CREATED or CREDENTIAL_UPDATED).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import SecretStr, ValidationError
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Select, Static

from lawsuit_tui.domain.bodies import CredentialItem
from lawsuit_tui.domain.vault import WILDCARD_SYSTEM
from lawsuit_tui.i18n import _
from lawsuit_tui.ui.styles import STYLES
from lawsuit_tui.ui.widgets.part2.fields import FieldBox, validation_by_field
from lawsuit_tui.ui.widgets.part2.support import error_text, service_context

__all__ = ["CredentialFormScreen", "SecretInput"]

_BODY_FIELDS = {
    "system_name": "system",
    "customer_key": "customer-key",
    "username": "username",
    "password": "password",
}


class SecretInput(Input):
    """A masked input whose text cannot be cut or copied out (no clipboard, no OSC 52)."""

    def action_copy(self) -> None:
        return

    def action_cut(self) -> None:
        return


class CredentialFormScreen(ModalScreen[list[Any] | None]):
    """Dismisses with the registration results, or None when cancelled."""

    CSS_PATH = STYLES / "part2" / "forms.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Cancel"), id="vault.form.cancel"),
        Binding("f10", "submit", _("Send"), id="vault.form.submit"),
    ]

    def __init__(
        self,
        systems: Sequence[str],
        *,
        system_name: str | None = None,
        customer_key: str = WILDCARD_SYSTEM,
    ) -> None:
        super().__init__(classes="part2-form")
        names = list(dict.fromkeys(systems))
        if system_name and system_name not in names:
            names.insert(0, system_name)
        self.systems = names
        self.system_name = system_name
        self.customer_key = customer_key or WILDCARD_SYSTEM
        self.sending = False

    def compose(self) -> ComposeResult:
        options = [
            (_("* (wildcard: every system without its own)") if name == "*" else name, name)
            for name in self.systems
        ]
        with Vertical(id="form-frame"):
            yield Static(_("Register or update a credential"), id="form-title")
            with VerticalScroll(id="form-body"):
                yield Static("", id="form-general-error", markup=False)
                yield FieldBox(
                    _("Court system (exact name, from the grid)"),
                    Select[str](
                        options,
                        value=self.system_name if self.system_name else Select.NULL,
                        prompt=_("Choose the court system"),
                        id="cf-system",
                        type_to_search=True,
                    ),
                    field="system",
                )
                yield FieldBox(
                    _("Customer key (* is the default)"),
                    Input(self.customer_key, id="cf-customer-key"),
                    field="customer-key",
                )
                with Horizontal(classes="field-pair"):
                    yield FieldBox(
                        _("Username"),
                        Input(id="cf-username", placeholder=_("login at the court")),
                        field="username",
                    )
                    yield FieldBox(
                        _("Password"),
                        SecretInput(password=True, id="cf-password"),
                        field="password",
                        hint=_("Sent once, never stored or shown."),
                    )
            with Horizontal(id="form-buttons"):
                yield Button(_("Cancel (Esc)"), id="cf-cancel", compact=True)
                yield Button(_("Register (F10)"), id="cf-submit", variant="primary", compact=True)

    def on_mount(self) -> None:
        target = "#cf-username" if self.system_name else "#cf-system"
        self.query_one(target).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    @on(Button.Pressed, "#cf-submit")
    def _submit_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_submit()

    @on(Button.Pressed, "#cf-cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_cancel()

    def action_cancel(self) -> None:
        self._forget_password()
        self.dismiss(None)

    def _forget_password(self) -> None:
        self.query_one("#cf-password", SecretInput).value = ""

    def build_item(self) -> CredentialItem | None:
        """The credential, or None after showing what is wrong. Takes the password out of
        the widget when the credential is complete."""
        errors: dict[str, str] = {}
        general: list[str] = []
        system = self.query_one("#cf-system", Select).value
        if not isinstance(system, str) or not system:
            errors["system"] = _("Choose the court system")
        key = self.query_one("#cf-customer-key", Input).value.strip() or WILDCARD_SYSTEM
        username = self.query_one("#cf-username", Input).value.strip()
        password_input = self.query_one("#cf-password", SecretInput)
        if not username:
            errors["username"] = _("Type the username")
        if not password_input.value:
            errors["password"] = _("Type the password")
        item: CredentialItem | None = None
        if not errors:
            try:
                item = CredentialItem(
                    system_name=str(system),
                    customer_key=key,
                    username=username,
                    password=SecretStr(password_input.value),
                )
            except ValidationError as exc:
                errors, general = validation_by_field(exc, _BODY_FIELDS)
        for box in self.query(FieldBox):
            box.set_error(errors.get(box.field))
        message = self.query_one("#form-general-error", Static)
        message.update("\n".join(general))
        message.set_class(bool(general), "-shown")
        if item is not None:
            password_input.value = ""
        return item

    def action_submit(self) -> None:
        if self.sending:
            return
        item = self.build_item()
        if item is not None:
            self.sending = True
            self._send(item)

    @work(exclusive=True, group="vault.form", exit_on_error=False)
    async def _send(self, item: CredentialItem) -> None:
        submit = self.query_one("#cf-submit", Button)
        submit.disabled = True
        try:
            context = await service_context(self.app)
            results = await context.vault.register([item])
        except Exception as exc:
            message = self.query_one("#form-general-error", Static)
            message.update(error_text(exc) + "\n" + _("Type the password again to retry."))
            message.set_class(True, "-shown")
            self.notify(error_text(exc), title=_("Credential not registered"), severity="error")
            return
        finally:
            submit.disabled = False
            self.sending = False
        self.dismiss(list(results))

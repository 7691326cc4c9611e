"""Register or update a court credential: system, customer_key and one kind of credential.

Kinds (D32): a username and password, optionally with the court's two-factor secret
(``totp_secret``, base32: typed with spaces and in either case, sent normalised); or an A1
certificate, given as the path of its .pfx/.p12 file, with the certificate's password. The
service layer reads and encodes the file (``VaultService.load_certificate``), never this form.

Secrets (the passwords and the two-factor secret) are typed into masked fields that cannot be
copied out. They stay in the widgets until the credential is complete (the certificate file
read), are then taken out of them before the call starts, travel only inside ``SecretStr`` to
the service, and are never written to the cache, a log or the screen. The form dismisses with
the service's answer: one entry per system it touched (the system and its siblings,
CREDENTIAL_CREATED or CREDENTIAL_UPDATED).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, ClassVar

from pydantic import SecretStr, ValidationError
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.suggester import Suggester
from textual.widgets import Button, Input, Select, Static

from lawsuit_tui.domain.bodies import CredentialItem
from lawsuit_tui.domain.vault import WILDCARD_SYSTEM
from lawsuit_tui.i18n import _
from lawsuit_tui.services.vault import (
    MAX_CERTIFICATE_BYTES,
    CertificateFileError,
    normalize_totp_secret,
    suggest_certificate_path,
)
from lawsuit_tui.ui.errors import describe_error
from lawsuit_tui.ui.host import host_of
from lawsuit_tui.ui.keys import named_keys
from lawsuit_tui.ui.widgets.form import (
    FORM_DIALOG_CSS,
    FieldBox,
    FormDialog,
    service_problems,
    show_general,
    show_problems,
    validation_problems,
)

__all__ = [
    "KIND_CERTIFICATE",
    "KIND_LOGIN",
    "CertificatePathSuggester",
    "CredentialFormScreen",
    "SecretInput",
]

KIND_LOGIN = "login"
KIND_CERTIFICATE = "certificate"

# The body's field names -> the form's fields (for the body's and the service's complaints).
_BODY_FIELDS = {
    "system_name": "system",
    "customer_key": "customer-key",
    "username": "username",
    "password": "password",
    "totp_secret": "totp",
    "certificate_pfx": "certificate",
    "certificate_password": "certificate-password",
}

# The masked fields: emptied once the credential is built, and on cancel.
_SECRET_INPUTS = ("#cf-password", "#cf-totp", "#cf-certificate-password")


class CertificatePathSuggester(Suggester):
    """Completes a typed path with a folder or a .pfx/.p12 file (right arrow accepts)."""

    def __init__(self) -> None:
        # paths are case-sensitive, and folders change while the form is open
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        # a folder on a slow disk must not stall the screen
        return await asyncio.to_thread(suggest_certificate_path, value)


class SecretInput(Input):
    """A masked input whose text cannot be cut or copied out (no clipboard, no OSC 52)."""

    def action_copy(self) -> None:
        return

    def action_cut(self) -> None:
        return


@dataclass(slots=True)
class _Form:
    """What the form holds once its own checks pass (secrets not yet taken out)."""

    kind: str
    system_name: str
    customer_key: str
    username: str | None = None
    totp_secret: SecretStr | None = None
    certificate_path: str | None = None
    problems: dict[str, str] = field(default_factory=dict)


class CredentialFormScreen(FormDialog[list[Any] | None]):
    """Dismisses with the registration results, or None when cancelled."""

    # the frame of every modal form, then this form's own
    CSS_PATH: ClassVar[list[str | PurePath]] = [FORM_DIALOG_CSS, "credential_form.tcss"]

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
        kind: str = KIND_LOGIN,
    ) -> None:
        super().__init__()
        names = list(dict.fromkeys(systems))
        if system_name and system_name not in names:
            names.insert(0, system_name)
        self.systems = names
        self.system_name = system_name
        self.customer_key = customer_key or WILDCARD_SYSTEM
        self.initial_kind = kind if kind in (KIND_LOGIN, KIND_CERTIFICATE) else KIND_LOGIN
        self.sending = False

    def compose(self) -> ComposeResult:
        options = [
            (_("* (wildcard: every system without its own)") if name == "*" else name, name)
            for name in self.systems
        ]
        kinds = [
            (_("Username and password"), KIND_LOGIN),
            (_("A1 certificate (.pfx/.p12)"), KIND_CERTIFICATE),
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
                with Horizontal(id="cf-key-kind", classes="field-pair"):
                    yield FieldBox(
                        _("Customer key (* is the default)"),
                        Input(self.customer_key, id="cf-customer-key"),
                        field="customer-key",
                    )
                    yield FieldBox(
                        _("Kind of credential"),
                        Select[str](
                            kinds, value=self.initial_kind, allow_blank=False, id="cf-kind"
                        ),
                        field="kind",
                    )
                with Vertical(id="cf-login", classes="cf-kind-fields"):
                    with Horizontal(id="cf-login-pair", classes="field-pair"):
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
                    yield FieldBox(
                        _("Two-factor secret (optional, base32)"),
                        SecretInput(
                            password=True,
                            id="cf-totp",
                            placeholder=_("only if the court asks for a code"),
                        ),
                        field="totp",
                        hint=_(
                            "As the court's two-factor setup shows it; spaces and case "
                            "do not matter."
                        ),
                    )
                with (
                    Vertical(id="cf-certificate", classes="cf-kind-fields"),
                    Horizontal(classes="field-pair"),
                ):
                    yield FieldBox(
                        _("Certificate file (.pfx or .p12)"),
                        Input(
                            id="cf-certificate-path",
                            placeholder=_("~/a1-certificate.pfx"),
                            suggester=CertificatePathSuggester(),
                        ),
                        field="certificate",
                        hint=_("At most {limit} KB.").format(limit=MAX_CERTIFICATE_BYTES // 1024),
                    )
                    yield FieldBox(
                        _("Certificate password"),
                        SecretInput(password=True, id="cf-certificate-password"),
                        field="certificate-password",
                        hint=_("Sent once, never stored or shown."),
                    )
            with Horizontal(id="form-buttons"):
                keys = named_keys(
                    self.app, {"send": "vault.form.submit", "cancel": "vault.form.cancel"}
                )
                yield Button(
                    _("Cancel ({key})").format(key=keys["cancel"]), id="cf-cancel", compact=True
                )
                yield Button(
                    _("Register ({key})").format(key=keys["send"]),
                    id="cf-submit",
                    variant="primary",
                    compact=True,
                )

    def on_mount(self) -> None:
        self._show_kind(self.initial_kind)
        if not self.system_name:
            self.query_one("#cf-system").focus()
        elif self.initial_kind == KIND_CERTIFICATE:
            self.query_one("#cf-certificate-path").focus()
        else:
            self.query_one("#cf-username").focus()

    # --- the kind of credential ---------------------------------------------------------

    @property
    def kind(self) -> str:
        value = self.query_one("#cf-kind", Select).value
        return value if isinstance(value, str) else KIND_LOGIN

    def _show_kind(self, kind: str) -> None:
        self.query_one("#cf-login").display = kind == KIND_LOGIN
        self.query_one("#cf-certificate").display = kind == KIND_CERTIFICATE

    @on(Select.Changed, "#cf-kind")
    def _kind_changed(self, event: Select.Changed) -> None:
        event.stop()
        kind = event.value if isinstance(event.value, str) else KIND_LOGIN
        self._show_kind(kind)
        # the other kind's complaints no longer apply
        hidden = "#cf-certificate" if kind == KIND_LOGIN else "#cf-login"
        for box in self.query_one(hidden).query(FieldBox):
            box.set_error(None)

    # --- events -------------------------------------------------------------------------

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
        self._forget_secrets()
        self.dismiss(None)

    def _forget_secrets(self) -> None:
        for selector in _SECRET_INPUTS:
            self.query_one(selector, SecretInput).value = ""

    def _forget_certificate(self) -> None:
        self.query_one("#cf-certificate-path", Input).value = ""

    # --- checking and building the credential -------------------------------------------

    def _show_problems(self, errors: dict[str, str], general: Sequence[str] = ()) -> None:
        show_problems(self, errors, go_to_first=True)
        show_general(self.query_one("#form-general-error", Static), list(general))

    def _read_form(self) -> _Form:
        """The form's own checks (every one of them, shown at once); secrets stay put."""
        errors: dict[str, str] = {}
        system = self.query_one("#cf-system", Select).value
        if not isinstance(system, str) or not system:
            errors["system"] = _("Choose the court system")
        key = self.query_one("#cf-customer-key", Input).value.strip() or WILDCARD_SYSTEM
        form = _Form(
            kind=self.kind,
            system_name=system if isinstance(system, str) else "",
            customer_key=key,
            problems=errors,
        )
        if form.kind == KIND_CERTIFICATE:
            path = self.query_one("#cf-certificate-path", Input).value.strip()
            if not path:
                errors["certificate"] = _("Type the path of the certificate file (.pfx or .p12)")
            form.certificate_path = path
            if not self.query_one("#cf-certificate-password", SecretInput).value:
                errors["certificate-password"] = _("Type the certificate's password")
            return form
        form.username = self.query_one("#cf-username", Input).value.strip()
        if not form.username:
            errors["username"] = _("Type the username")
        if not self.query_one("#cf-password", SecretInput).value:
            errors["password"] = _("Type the password")
        # secrets are never held in plain locals: a crash report shows the frames' locals
        totp = self.query_one("#cf-totp", SecretInput)
        if totp.value.strip():
            try:
                form.totp_secret = SecretStr(normalize_totp_secret(totp.value))
            except ValueError as exc:
                errors["totp"] = str(exc)
        return form

    def build_item(
        self, form: _Form | None = None, certificate_pfx: SecretStr | None = None
    ) -> CredentialItem | None:
        """The credential, or None after showing what is wrong. Takes the secrets out of the
        widgets when the credential is complete. For a certificate, ``certificate_pfx`` is
        the file as the service layer read it."""
        form = form or self._read_form()
        errors = dict(form.problems)
        general: list[str] = []
        if form.kind == KIND_CERTIFICATE and certificate_pfx is None and not errors:
            errors["certificate"] = _("The certificate file was not read")
        item: CredentialItem | None = None
        if not errors:
            try:
                item = self._item(form, certificate_pfx)
            except ValidationError as exc:
                errors, general = validation_problems(exc, _BODY_FIELDS)
        self._show_problems(errors, general)
        if item is not None:
            self._forget_secrets()
        return item

    def _item(self, form: _Form, certificate_pfx: SecretStr | None) -> CredentialItem:
        if form.kind == KIND_CERTIFICATE:
            return CredentialItem(
                system_name=form.system_name,
                customer_key=form.customer_key,
                certificate_pfx=certificate_pfx,
                certificate_password=SecretStr(
                    self.query_one("#cf-certificate-password", SecretInput).value
                ),
            )
        return CredentialItem(
            system_name=form.system_name,
            customer_key=form.customer_key,
            username=form.username,
            password=SecretStr(self.query_one("#cf-password", SecretInput).value),
            totp_secret=form.totp_secret,
        )

    # --- sending ------------------------------------------------------------------------

    def action_submit(self) -> None:
        if self.sending:
            return
        form = self._read_form()
        if form.problems:
            self._show_problems(form.problems)
            return
        self.sending = True
        self._send(form)

    @work(exclusive=True, group="vault.form", exit_on_error=False)
    async def _send(self, form: _Form) -> None:
        submit = self.query_one("#cf-submit", Button)
        submit.disabled = True
        try:
            context = await host_of(self.app).context()
            certificate: SecretStr | None = None
            if form.kind == KIND_CERTIFICATE and form.certificate_path:
                try:
                    certificate = await context.vault.load_certificate(form.certificate_path)
                except CertificateFileError as exc:
                    self._show_problems({"certificate": str(exc)})
                    return
            item = self.build_item(form, certificate)
            if item is None:
                return
            try:
                results = await context.vault.register([item])
            except Exception as exc:
                self._registration_failed(exc)
                return
        finally:
            submit.disabled = False
            self.sending = False
        self._forget_certificate()
        self.dismiss(list(results))

    def _registration_failed(self, exc: Exception) -> None:
        # the service's 400 names the fields it refused: put each under its field
        errors, _others = service_problems(exc, _form_field)
        retry = (
            _("Type the certificate's password again to retry.")
            if self.kind == KIND_CERTIFICATE
            else _("Type the password (and the two-factor secret) again to retry.")
        )
        self._show_problems(errors, [describe_error(exc), retry])
        host_of(self.app).report_error(exc, title=_("Credential not registered"))


def _form_field(wire: str | None) -> str | None:
    """The form field a refused body field names (``credentials[0].credential.password``)."""
    return _BODY_FIELDS.get(str(wire or "").rsplit(".", 1)[-1])

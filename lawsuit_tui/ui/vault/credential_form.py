"""Register or update a court credential: system, customer_key and one kind of credential.

Kinds (D67): a username and password, or an A1 certificate given as the path of its
.pfx/.p12 file with the certificate's password; either with the court's two-factor setup key
(base32: typed with spaces and in either case, sent normalised as ``custom_data.secret``). A
certificate goes to its own route. **It is opened here before it is sent**
(``VaultService.check_certificate``): a wrong password, a file that is not a certificate, one
without its key, an expired one: each is said under the field where it was typed, and nothing
is sent. In sandbox mode the form offers the demo certificate of ``assets/demo``.

Updating a credential says what it replaces: its kind and user (or the certificate's holder
and expiry) as this app registered them, else that the vault does not tell.

Secrets (the passwords and the two-factor key) are typed into masked fields that cannot be
copied out. They stay in the widgets until the credential is complete, are then taken out of
them before the call starts, travel only inside ``SecretStr`` to the service, and are never
written to the cache, a log or the screen. The form dismisses with the service's answer: one
entry per system it touched (a login registers the system and its siblings).
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
from textual.containers import Horizontal, Vertical
from textual.suggester import Suggester
from textual.widgets import Button, Input, Select, Static

from lawsuit_tui.domain.bodies import CredentialItem
from lawsuit_tui.domain.formatting import format_date
from lawsuit_tui.domain.vault import WILDCARD_SYSTEM, CredentialCustomData
from lawsuit_tui.domain.vocabulary import CERTIFICATE_FAULT_WORDS, VAULT_REFUSAL_WORDS, word
from lawsuit_tui.i18n import _
from lawsuit_tui.services.vault import (
    DEMO_CERTIFICATE_PASSWORD,
    KIND_CERTIFICATE,
    KIND_LOGIN,
    MAX_CERTIFICATE_BYTES,
    CertificateFileError,
    CheckedCertificate,
    RegisteredCredential,
    normalize_totp_secret,
    suggest_certificate_path,
)
from lawsuit_tui.ui.errors import describe_error
from lawsuit_tui.ui.host import host_of
from lawsuit_tui.ui.widgets.form import (
    FORM_DIALOG_CSS,
    FieldBox,
    FormDialog,
    cancel_button,
    send_button,
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

# The body's field names -> the form's fields (for the body's and the service's complaints).
_BODY_FIELDS = {
    "system_name": "system",
    "customer_key": "customer-key",
    "username": "username",
    "password": "password",
    "secret": "totp",
    "file_base64": "certificate",
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


def current_credential_text(status: str | None, current: RegisteredCredential | None) -> str:
    """What updating replaces, in words (issue 19: show its kind and user)."""
    if status in (None, "", "not exists"):
        return ""
    if current is None:
        return _(
            "A credential exists; it was not registered from this app, so its kind and user "
            "are not known here. What you send replaces it."
        )
    when = format_date(current.registered_at) if current.registered_at else ""
    two_factor = _(", with a two-factor key") if current.two_factor else ""
    if current.kind == KIND_CERTIFICATE:
        return _("Now: A1 certificate of {holder}, valid until {date}{two_factor}.").format(
            holder=current.subject_cn or "?",
            date=format_date(current.not_after) if current.not_after else "?",
            two_factor=two_factor,
        ) + (" " + _("Registered on {date}.").format(date=when) if when else "")
    return _("Now: username and password of user {user}{two_factor}.").format(
        user=current.username or "?", two_factor=two_factor
    ) + (" " + _("Registered on {date}.").format(date=when) if when else "")


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
        kind: str | None = None,
        status: str | None = None,
        current: RegisteredCredential | None = None,
        demo_certificate: str | None = None,
    ) -> None:
        super().__init__()
        names = list(dict.fromkeys(systems))
        if system_name and system_name not in names:
            names.insert(0, system_name)
        self.systems = names
        self.system_name = system_name
        self.customer_key = customer_key or WILDCARD_SYSTEM
        self.status = status
        self.current = current
        chosen = kind or (current.kind if current is not None else KIND_LOGIN)
        self.initial_kind = chosen if chosen in (KIND_LOGIN, KIND_CERTIFICATE) else KIND_LOGIN
        # The path of the sandbox's demo certificate; None in live mode.
        self.demo_certificate = demo_certificate
        self.sending = False

    @property
    def updating(self) -> bool:
        """The system already holds a credential: this one replaces it."""
        return self.status not in (None, "", "not exists")

    def form_title(self) -> str:
        return _("Update a credential") if self.updating else _("Register a credential")

    def compose_fields(self) -> ComposeResult:
        options = [
            (_("* (wildcard: every system without its own)") if name == "*" else name, name)
            for name in self.systems
        ]
        kinds = [
            (_("Username and password"), KIND_LOGIN),
            (_("A1 certificate (.pfx/.p12)"), KIND_CERTIFICATE),
        ]
        now = current_credential_text(self.status, self.current)
        yield Static(now, id="cf-current", markup=False, classes="-shown" if now else "")
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
                Select[str](kinds, value=self.initial_kind, allow_blank=False, id="cf-kind"),
                field="kind",
            )
        with (
            Vertical(id="cf-login", classes="cf-kind-fields"),
            Horizontal(id="cf-login-pair", classes="field-pair"),
        ):
            yield FieldBox(
                _("Username"),
                Input(
                    self._current_username(),
                    id="cf-username",
                    placeholder=_("login at the court"),
                ),
                field="username",
            )
            yield FieldBox(
                _("Password"),
                SecretInput(password=True, id="cf-password"),
                field="password",
                hint=_("Sent once, never stored or shown."),
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
                hint=self._certificate_hint(),
            )
            yield FieldBox(
                _("Certificate password"),
                SecretInput(password=True, id="cf-certificate-password"),
                field="certificate-password",
                hint=_("Checked here before sending."),
            )
        yield FieldBox(
            _("Two-factor setup key (optional, base32)"),
            SecretInput(
                password=True,
                id="cf-totp",
                placeholder=_("only if the court asks for a code"),
            ),
            field="totp",
            hint=_(
                "The fixed key of the court's two-factor setup, never the 6-digit "
                "code; spaces and case do not matter."
            ),
        )

    def compose_buttons(self) -> ComposeResult:
        yield cancel_button(self.app, "vault.form.cancel", button_id="cf-cancel")
        if self.demo_certificate:
            yield Button(_("Demo certificate"), id="cf-demo", compact=True, classes="cf-demo")
        submit = _("Update ({key})") if self.updating else _("Register ({key})")
        yield send_button(self.app, submit, "vault.form.submit", button_id="cf-submit")

    def _current_username(self) -> str:
        current = self.current
        return current.username or "" if current and current.kind == KIND_LOGIN else ""

    def _certificate_hint(self) -> str:
        limit = _("At most {limit} KB.").format(limit=MAX_CERTIFICATE_BYTES // 1024)
        if not self.demo_certificate:
            return limit
        return limit + " " + _("Sandbox: the Demo certificate button fills in a test one.")

    def on_mount(self) -> None:
        self._show_kind(self.initial_kind)
        self.query_one("#cf-current").display = bool(
            current_credential_text(self.status, self.current)
        )
        if not self.system_name:
            self.query_one("#cf-system").focus()
        elif self.initial_kind == KIND_CERTIFICATE:
            self.query_one("#cf-certificate-path").focus()
        elif self.query_one("#cf-username", Input).value:
            self.query_one("#cf-password").focus()
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
        for demo in self.query("#cf-demo"):
            demo.display = kind == KIND_CERTIFICATE

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

    @on(Button.Pressed, "#cf-demo")
    def _demo_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.use_demo_certificate()

    def use_demo_certificate(self) -> None:
        """Fill in the sandbox's demo certificate and its documented password."""
        if not self.demo_certificate:
            return
        self.query_one("#cf-certificate-path", Input).value = self.demo_certificate
        self.query_one("#cf-certificate-password", SecretInput).value = DEMO_CERTIFICATE_PASSWORD
        self.query_one("#cf-submit", Button).focus()

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
        # secrets are never held in plain locals: a crash report shows the frames' locals
        totp = self.query_one("#cf-totp", SecretInput)
        two_factor: SecretStr | None = None
        if totp.value.strip():
            try:
                two_factor = SecretStr(normalize_totp_secret(totp.value))
            except ValueError as exc:
                errors["totp"] = str(exc)
        system = self.query_one("#cf-system", Select).value
        if not isinstance(system, str) or not system:
            errors["system"] = _("Choose the court system")
        key = self.query_one("#cf-customer-key", Input).value.strip() or WILDCARD_SYSTEM
        form = _Form(
            kind=self.kind,
            system_name=system if isinstance(system, str) else "",
            customer_key=key,
            totp_secret=two_factor,
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
        return form

    def build_item(self, form: _Form | None = None) -> CredentialItem | None:
        """The login credential, or None after showing what is wrong. Takes the secrets out
        of the widgets when the credential is complete."""
        form = form or self._read_form()
        errors = dict(form.problems)
        general: list[str] = []
        item: CredentialItem | None = None
        if not errors:
            try:
                item = CredentialItem(
                    system_name=form.system_name,
                    customer_key=form.customer_key,
                    username=form.username,
                    password=SecretStr(self.query_one("#cf-password", SecretInput).value),
                    custom_data=(
                        CredentialCustomData(secret=form.totp_secret) if form.totp_secret else None
                    ),
                )
            except ValidationError as exc:
                errors, general = validation_problems(exc, _BODY_FIELDS)
        self._show_problems(errors, general)
        if item is not None:
            self._forget_secrets()
        return item

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
            if form.kind == KIND_CERTIFICATE:
                results = await self._send_certificate(context, form)
            else:
                item = self.build_item(form)
                if item is None:
                    return
                try:
                    results = list(await context.vault.register([item]))
                except Exception as exc:
                    self._registration_failed(exc)
                    return
            if results is None:
                return
        finally:
            submit.disabled = False
            self.sending = False
        self._forget_certificate()
        self.dismiss(results)

    async def _send_certificate(self, context: Any, form: _Form) -> list[Any] | None:
        """Open the certificate here (D67: the password, the key, the validity), then send it;
        None after showing what is wrong where it was typed."""
        password = SecretStr(self.query_one("#cf-certificate-password", SecretInput).value)
        try:
            checked: CheckedCertificate = await context.vault.check_certificate(
                form.certificate_path or "", password
            )
        except CertificateFileError as exc:
            field = "certificate-password" if exc.field == "password" else "certificate"
            self._show_problems({field: str(exc)})
            return None
        self._show_problems({})
        self._forget_secrets()
        try:
            result = await context.vault.register_certificate(
                form.system_name, form.customer_key, checked, password, form.totp_secret
            )
        except Exception as exc:
            self._registration_failed(exc)
            return None
        return [result]

    def _registration_failed(self, exc: Exception) -> None:
        # the service's 400 names the fields it refused: put each under its field
        errors, _others = service_problems(exc, _form_field)
        code = str(getattr(exc, "name", "") or "")
        refusal = refusal_words(code)
        if refusal is not None:
            # the vault's own code (D67), in words, where the certificate was chosen
            field = "certificate-password" if code == "PFX_PASSWORD_INVALID" else "certificate"
            errors = {field if self.kind == KIND_CERTIFICATE else "system": refusal}
        retry = (
            _("Type the certificate's password (and the two-factor key) again to retry.")
            if self.kind == KIND_CERTIFICATE
            else _("Type the password (and the two-factor key) again to retry.")
        )
        self._show_problems(errors, [describe_error(exc), retry])
        host_of(self.app).report_error(exc, title=_("Credential not registered"))


def refusal_words(code: str) -> str | None:
    """The vault's refusal code (PFX_*, the 409s of D67) in words, None for another code."""
    for table in (CERTIFICATE_FAULT_WORDS, VAULT_REFUSAL_WORDS):
        text = word(table, code)
        if code and text != code:
            return text
    return None


def _form_field(wire: str | None) -> str | None:
    """The form field a refused body field names (``credentials[0].credential.password``)."""
    return _BODY_FIELDS.get(str(wire or "").rsplit(".", 1)[-1])

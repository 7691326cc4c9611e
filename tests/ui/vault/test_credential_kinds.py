"""The vault's register form beyond username/password (D67), on the sandbox at 80x24.

A two-factor setup key next to the login (sent as ``custom_data.secret``), and an A1
certificate read from a .pfx file, opened here before it is sent to its own route: what is
sent on the wire, what the form says when something is wrong (each fault where it was typed),
what an update replaces, the demo certificate of the sandbox, and that no secret is left in
the form, the screen or any cache file afterwards.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Select

from lawsuit_tui.api.errors import BadRequest
from lawsuit_tui.domain.errors import ValidationItem
from lawsuit_tui.sandbox.clock import DEFAULT_START
from lawsuit_tui.services.vault import KIND_CERTIFICATE, KIND_LOGIN, MAX_CERTIFICATE_BYTES
from lawsuit_tui.ui.vault.credential_form import CredentialFormScreen, SecretInput
from lawsuit_tui.ui.vault.screen import VaultScreen
from lawsuit_tui.ui.widgets.form import FieldBox
from tests.support.certificates import HOLDER_CN, make_pfx
from tests.support.ui_harness import ContextClockHarness, samples, settle, wait_for

SMALL = (80, 24)
PASSWORD = "s3nh@-do-tribunal"
# As an authenticator shows it: groups of four, lower case.
TOTP_TYPED = "jbsw y3dp ehpk 3pxp"
TOTP_SENT = "JBSWY3DPEHPK3PXP"
CERTIFICATE_PASSWORD = "pfx-senha-9876"
# A real PKCS#12 file (fictitious holder), opened with CERTIFICATE_PASSWORD.
CERTIFICATE_BYTES = make_pfx(password=CERTIFICATE_PASSWORD)


def system_name() -> str:
    name: str = samples()["secret_lawsuit"]["system_name"]
    return name


async def open_form(pilot: Pilot[Any]) -> tuple[VaultScreen, CredentialFormScreen]:
    """The vault with the secret lawsuit's system selected, and its register form open."""
    app: Any = pilot.app
    app.open_vault(system_name(), "*")
    await wait_for(lambda: isinstance(app.screen, VaultScreen), pilot.pause)
    screen = app.screen
    assert isinstance(screen, VaultScreen)
    await wait_for(lambda: screen.loaded_from_service, pilot.pause)
    await settle(pilot)
    await pilot.press("n")
    await wait_for(lambda: isinstance(app.screen, CredentialFormScreen), pilot.pause)
    form = app.screen
    assert isinstance(form, CredentialFormScreen)
    await pilot.pause()
    return screen, form


async def choose_kind(pilot: Pilot[Any], form: CredentialFormScreen, kind: str) -> None:
    form.query_one("#cf-kind", Select).value = kind
    await pilot.pause()


def errors_of(form: CredentialFormScreen) -> dict[str, str]:
    return {box.field: box.error for box in form.query(FieldBox) if box.error}


def record_wire(context: Any, route: str = "register_credentials") -> list[dict[str, Any]]:
    """Every body the client sends to ``route``, as sent (secrets in clear)."""
    sent: list[dict[str, Any]] = []
    original = getattr(context.api, route)

    async def recording(body: Any) -> Any:
        sent.append(body.to_wire())
        return await original(body)

    setattr(context.api, route, recording)
    return sent


def cache_files(sandbox: ContextClockHarness) -> list[Path]:
    files = [p for p in sandbox.settings.cache_dir.rglob("*") if p.is_file()]
    assert files, "the cache holds the vault grid at least"
    return files


def assert_nowhere(sandbox: ContextClockHarness, screen: VaultScreen, secrets: list[bytes]) -> None:
    """No secret in any cache file, nor on the screen."""
    for path in cache_files(sandbox):
        data = path.read_bytes()
        for secret in secrets:
            assert secret not in data, f"a secret reached {path.name}"
    shown = "\n".join(str(widget.render()) for widget in screen.query("Static"))
    for secret in secrets:
        assert secret.decode(errors="ignore") not in shown


async def test_register_with_a_two_factor_secret() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=SMALL) as pilot:
        screen, form = await open_form(pilot)
        context = await sandbox.app.context()
        sent = record_wire(context)
        assert form.kind == KIND_LOGIN
        assert form.query_one("#cf-certificate").display is False
        totp = form.query_one("#cf-totp", SecretInput)
        assert totp.password  # masked like the password
        form.query_one("#cf-username", Input).value = "analista"
        password = form.query_one("#cf-password", SecretInput)
        password.value = PASSWORD
        totp.value = TOTP_TYPED
        await pilot.press("f10")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)
        # taken out of the widgets once sent
        assert password.value == "" and totp.value == ""
        await settle(pilot)

        [body] = sent
        credential = body["credentials"][0]["credential"]
        # D67: where the provider reads it; spaces and case forgiven
        assert credential["custom_data"] == {"secret": TOTP_SENT}
        assert "totp_secret" not in credential
        assert credential["password"] == PASSWORD
        # issue 19: the answer in words, not CREDENTIAL_CREATED
        assert any(line == f"{system_name()} (*): registered" for line in screen.last_results), (
            screen.last_results
        )
        row = next(r for r in screen.rows if r.name == system_name())
        assert row.credential_status == "active"
        assert_nowhere(
            sandbox,
            screen,
            [PASSWORD.encode(), TOTP_SENT.encode(), TOTP_TYPED.encode()],
        )


async def test_a_two_factor_secret_that_is_not_base32_is_refused_in_the_form() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=SMALL) as pilot:
        _screen, form = await open_form(pilot)
        sent = record_wire(await sandbox.app.context())
        form.query_one("#cf-username", Input).value = "analista"
        form.query_one("#cf-password", SecretInput).value = PASSWORD
        # 0, 1 and 8 are not base32 (O, I and B are): a secret copied by hand
        form.query_one("#cf-totp", SecretInput).value = "JBSW Y3DP 0HPK 1PX8"
        await pilot.press("f10")
        await pilot.pause()
        errors = errors_of(form)
        assert set(errors) == {"totp"}
        assert "0 1 8" in errors["totp"] and "2-7" in errors["totp"]
        assert pilot.app.screen is form and sent == []
        # nothing was sent: the secrets stay for the person to correct the one field
        assert form.query_one("#cf-password", SecretInput).value == PASSWORD

        form.query_one("#cf-totp", SecretInput).value = "jbsw y3dp ehpk 3pxp"
        await pilot.press("f10")
        await wait_for(lambda: pilot.app.screen is not form, pilot.pause)
        assert sent[0]["credentials"][0]["credential"]["custom_data"] == {"secret": TOTP_SENT}


async def test_register_with_an_a1_certificate_file(tmp_path: Path) -> None:
    certificate = tmp_path / "Escritório A1.PFX"  # any case of the suffix, spaces in the name
    certificate.write_bytes(CERTIFICATE_BYTES)
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=SMALL) as pilot:
        screen, form = await open_form(pilot)
        context = await sandbox.app.context()
        logins = record_wire(context)
        sent = record_wire(context, "register_certificate")
        await choose_kind(pilot, form, KIND_CERTIFICATE)
        assert form.query_one("#cf-login").display is False
        assert form.query_one("#cf-certificate").display is True
        path = form.query_one("#cf-certificate-path", Input)
        secret = form.query_one("#cf-certificate-password", SecretInput)
        assert secret.password and not path.password
        path.value = str(certificate)
        secret.value = CERTIFICATE_PASSWORD
        form.query_one("#cf-totp", SecretInput).value = TOTP_TYPED
        await pilot.press("f10")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)
        assert secret.value == "" and path.value == ""
        await settle(pilot)

        # D67: its own route, never POST /credentials
        assert logins == []
        [body] = sent
        assert set(body) == {
            "file_base64",
            "password",
            "system_name",
            "customer_key",
            "custom_data",
        }
        assert body["password"] == CERTIFICATE_PASSWORD
        assert body["custom_data"] == {"secret": TOTP_SENT}
        assert body["system_name"] == system_name()
        [line] = screen.last_results
        assert line.startswith(f"{system_name()} (*): certificate registered · {HOLDER_CN}")
        row = next(r for r in screen.rows if r.name == system_name())
        assert row.credential_status == "active"
        assert_nowhere(
            sandbox,
            screen,
            [CERTIFICATE_PASSWORD.encode(), body["file_base64"].encode(), TOTP_SENT.encode()],
        )


async def test_the_certificate_is_opened_here_before_it_is_sent(tmp_path: Path) -> None:
    """Issue 19: a wrong password is told where it was typed, and nothing is sent; so are
    a file that is no certificate, one without its key, and an expired one (D67)."""
    good = tmp_path / "a1.pfx"
    good.write_bytes(CERTIFICATE_BYTES)
    expired = tmp_path / "vencido.pfx"
    past = make_pfx(password=CERTIFICATE_PASSWORD, not_after=DEFAULT_START - timedelta(days=2))
    expired.write_bytes(past)
    keyless = tmp_path / "sem-chave.pfx"
    keyless.write_bytes(make_pfx(password=CERTIFICATE_PASSWORD, with_key=False))
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=SMALL) as pilot:
        _screen, form = await open_form(pilot)
        sent = record_wire(await sandbox.app.context(), "register_certificate")
        await choose_kind(pilot, form, KIND_CERTIFICATE)
        secret = form.query_one("#cf-certificate-password", SecretInput)
        cases = [
            (good, "wrong-password", "certificate-password", "Wrong password"),
            (expired, CERTIFICATE_PASSWORD, "certificate", "expired on"),
            (keyless, CERTIFICATE_PASSWORD, "certificate", "no private key"),
        ]
        for path, password, field, expected in cases:
            form.query_one("#cf-certificate-path", Input).value = str(path)
            secret.value = password
            await pilot.press("f10")
            await wait_for(lambda: not form.sending, pilot.pause)
            await pilot.pause()
            errors = errors_of(form)
            assert set(errors) == {field}, (path.name, errors)
            assert expected in errors[field], errors
            assert secret.value == password  # kept for another try: nothing was sent
        assert sent == [] and pilot.app.screen is form


async def test_the_sandbox_offers_its_demo_certificate() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=SMALL) as pilot:
        screen, form = await open_form(pilot)
        await choose_kind(pilot, form, KIND_CERTIFICATE)
        assert form.demo_certificate and form.demo_certificate.endswith("a1-demo.pfx")
        await pilot.click("#cf-demo")
        await pilot.pause()
        assert form.query_one("#cf-certificate-path", Input).value == form.demo_certificate
        await pilot.press("f10")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)
        await settle(pilot)
        assert "JOANA DEMONSTRACAO DA SILVA:39053344705" in screen.last_results[0]


async def test_updating_says_the_kind_and_user_it_replaces() -> None:
    """Issue 19: updating a credential shows its kind and user."""
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=SMALL) as pilot:
        screen, form = await open_form(pilot)
        assert form.query_one("#cf-current").display is False  # nothing to replace yet
        form.query_one("#cf-username", Input).value = "analista"
        form.query_one("#cf-password", SecretInput).value = PASSWORD
        form.query_one("#cf-totp", SecretInput).value = TOTP_TYPED
        await pilot.press("f10")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)
        await settle(pilot)
        await pilot.press("n")
        await wait_for(lambda: isinstance(pilot.app.screen, CredentialFormScreen), pilot.pause)
        again = pilot.app.screen
        assert isinstance(again, CredentialFormScreen)
        await pilot.pause()
        now = str(again.query_one("#cf-current").render())
        assert "username and password of user analista, with a two-factor key" in now
        assert again.kind == KIND_LOGIN
        assert again.query_one("#cf-username", Input).value == "analista"
        assert str(again.query_one("#form-title").render()) == "Update a credential"


async def test_certificate_file_problems_are_told_under_the_field(tmp_path: Path) -> None:
    folder = tmp_path / "certificados.pfx"
    folder.mkdir()
    empty = tmp_path / "vazio.p12"
    empty.write_bytes(b"")
    large = tmp_path / "grande.pfx"
    with large.open("wb") as handle:
        handle.truncate(MAX_CERTIFICATE_BYTES + 1)
    pem = tmp_path / "exportado.pfx"
    pem.write_bytes(b"-----BEGIN CERTIFICATE-----\nMIIB\n")
    cases = {
        str(tmp_path / "nao-existe.pfx"): "No file at",
        str(tmp_path / "certificado.pem"): "not a .pfx or .p12 file",
        str(folder): "is a folder",
        str(empty): "is empty",
        str(large): "at most 64 KB",
        str(pem): "not an A1 certificate (PKCS#12)",
    }
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=SMALL) as pilot:
        _screen, form = await open_form(pilot)
        sent = record_wire(await sandbox.app.context())
        await choose_kind(pilot, form, KIND_CERTIFICATE)
        # both fields empty: both told at once, before any file is looked at
        await pilot.press("f10")
        await pilot.pause()
        assert set(errors_of(form)) == {"certificate", "certificate-password"}

        secret = form.query_one("#cf-certificate-password", SecretInput)
        for path, expected in cases.items():
            form.query_one("#cf-certificate-path", Input).value = path
            secret.value = CERTIFICATE_PASSWORD
            await pilot.press("f10")
            await wait_for(lambda: not form.sending, pilot.pause)
            await pilot.pause()
            errors = errors_of(form)
            assert set(errors) == {"certificate"}, path
            assert expected in errors["certificate"], (path, errors)
            # the file was not read: the password stays for another try
            assert secret.value == CERTIFICATE_PASSWORD
        assert sent == [] and pilot.app.screen is form

        # back to a login: the certificate's complaints go with its fields
        await choose_kind(pilot, form, KIND_LOGIN)
        assert errors_of(form) == {}
        await pilot.press("escape")
        await wait_for(lambda: pilot.app.screen is not form, pilot.pause)
        assert secret.value == ""


async def test_certificate_path_with_tilde(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "a1.p12").write_bytes(CERTIFICATE_BYTES)
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=SMALL) as pilot:
        screen, form = await open_form(pilot)
        sent = record_wire(await sandbox.app.context(), "register_certificate")
        await choose_kind(pilot, form, KIND_CERTIFICATE)
        form.query_one("#cf-certificate-path", Input).value = os.path.join("~", "a1.p12")
        form.query_one("#cf-certificate-password", SecretInput).value = CERTIFICATE_PASSWORD
        await pilot.press("f10")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)
        assert len(sent) == 1


async def test_the_service_refusing_a_field_shows_it_under_that_field() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=SMALL) as pilot:
        _screen, form = await open_form(pilot)
        refusal = BadRequest(
            400,
            message="invalid credentials",
            items=[
                ValidationItem(
                    field="credentials[0].credential.custom_data.secret",
                    rule="base32",
                    message="secret must be base32",
                )
            ],
        )
        context: Any = await sandbox.app.context()

        async def refuse(body: Any) -> Any:
            raise refusal

        context.api.register_credentials = refuse
        form.query_one("#cf-username", Input).value = "analista"
        password = form.query_one("#cf-password", SecretInput)
        password.value = PASSWORD
        form.query_one("#cf-totp", SecretInput).value = TOTP_TYPED
        await pilot.press("f10")
        await wait_for(lambda: bool(errors_of(form)), pilot.pause)
        assert errors_of(form) == {"totp": "secret must be base32"}
        general = str(form.query_one("#form-general-error").render())
        assert "again to retry" in general
        # sent once: the secrets are gone from the form even though the service refused
        assert password.value == "" and form.query_one("#cf-totp", SecretInput).value == ""
        assert pilot.app.screen is form


async def test_the_certificate_path_completes_from_the_disk(
    tmp_path: Path, monkeypatch: Any
) -> None:
    (tmp_path / "certificados").mkdir()
    (tmp_path / "certificados" / "escritorio.pfx").write_bytes(CERTIFICATE_BYTES)
    (tmp_path / "certificados" / "leia-me.txt").write_bytes(b"not offered")
    monkeypatch.chdir(tmp_path)
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=SMALL) as pilot:
        screen, form = await open_form(pilot)
        await choose_kind(pilot, form, KIND_CERTIFICATE)
        path = form.query_one("#cf-certificate-path", Input)
        path.focus()
        await pilot.press(*"cer")
        await wait_for(lambda: path._suggestion == f"certificados{os.sep}", pilot.pause)
        await pilot.press("right")
        assert path.value == f"certificados{os.sep}"
        await wait_for(
            lambda: path._suggestion == os.path.join("certificados", "escritorio.pfx"),
            pilot.pause,
        )
        await pilot.press("right")
        assert path.value == os.path.join("certificados", "escritorio.pfx")
        form.query_one("#cf-certificate-password", SecretInput).value = CERTIFICATE_PASSWORD
        await pilot.press("enter")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)

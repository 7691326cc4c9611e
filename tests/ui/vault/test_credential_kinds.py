"""The vault's register form beyond username/password (D32), on the sandbox at 80x24.

A two-factor secret next to the login, and an A1 certificate read from a .pfx file: what is
sent on the wire, what the form says when something is wrong, and that no secret is left in
the form, the screen or any cache file afterwards.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Select

from lawsuit_tui.api.errors import BadRequest
from lawsuit_tui.domain.bodies import CredentialItem
from lawsuit_tui.domain.errors import ValidationItem
from lawsuit_tui.services.vault import MAX_CERTIFICATE_BYTES
from lawsuit_tui.ui.vault.credential_form import (
    KIND_CERTIFICATE,
    KIND_LOGIN,
    CredentialFormScreen,
    SecretInput,
)
from lawsuit_tui.ui.vault.screen import VaultScreen
from lawsuit_tui.ui.widgets.form import FieldBox
from tests.support.ui_harness import ContextClockHarness, samples, settle, wait_for

SMALL = (80, 24)
PASSWORD = "s3nh@-do-tribunal"
# As an authenticator shows it: groups of four, lower case.
TOTP_TYPED = "jbsw y3dp ehpk 3pxp"
TOTP_SENT = "JBSWY3DPEHPK3PXP"
CERTIFICATE_PASSWORD = "pfx-senha-9876"
# A stand-in for a PKCS#12 file: a DER SEQUENCE header, then a marker to look for.
CERTIFICATE_BYTES = b"\x30\x82\x0a\x00" + b"CERT-MARKER-A1-" * 40


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


def record_wire(context: Any) -> list[dict[str, Any]]:
    """Every registration body the client sends, as sent (secrets in clear)."""
    sent: list[dict[str, Any]] = []
    original = context.api.register_credentials

    async def recording(body: Any) -> Any:
        sent.append(body.to_wire())
        return await original(body)

    context.api.register_credentials = recording
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
        assert credential["totp_secret"] == TOTP_SENT  # spaces and case forgiven
        assert credential["password"] == PASSWORD
        assert "certificate_pfx" not in credential
        assert any(
            system_name() in line and "CREDENTIAL_CREATED" in line for line in screen.last_results
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
        assert sent[0]["credentials"][0]["credential"]["totp_secret"] == TOTP_SENT


async def test_register_with_an_a1_certificate_file(tmp_path: Path) -> None:
    certificate = tmp_path / "Escritório A1.PFX"  # any case of the suffix, spaces in the name
    certificate.write_bytes(CERTIFICATE_BYTES)
    encoded = base64.b64encode(CERTIFICATE_BYTES).decode()
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=SMALL) as pilot:
        screen, form = await open_form(pilot)
        sent = record_wire(await sandbox.app.context())
        await choose_kind(pilot, form, KIND_CERTIFICATE)
        assert form.query_one("#cf-login").display is False
        assert form.query_one("#cf-certificate").display is True
        path = form.query_one("#cf-certificate-path", Input)
        secret = form.query_one("#cf-certificate-password", SecretInput)
        assert secret.password and not path.password
        path.value = str(certificate)
        secret.value = CERTIFICATE_PASSWORD
        await pilot.press("f10")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)
        assert secret.value == "" and path.value == ""
        await settle(pilot)

        [body] = sent
        credential = body["credentials"][0]["credential"]
        assert credential["certificate_pfx"] == encoded
        assert credential["certificate_password"] == CERTIFICATE_PASSWORD
        assert not {"username", "password", "totp_secret"} & set(credential)
        assert len(screen.last_results) >= 2  # the system and its sibling
        assert all("CREDENTIAL_CREATED" in line for line in screen.last_results)
        row = next(r for r in screen.rows if r.name == system_name())
        assert row.credential_status == "active"
        assert_nowhere(
            sandbox,
            screen,
            [CERTIFICATE_PASSWORD.encode(), encoded.encode(), b"CERT-MARKER-A1"],
        )


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
        str(large): "at most 384 KB",
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
        sent = record_wire(await sandbox.app.context())
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
                    field="credentials[0].credential.totp_secret",
                    rule="base32",
                    message="totp_secret must be base32",
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
        assert errors_of(form) == {"totp": "totp_secret must be base32"}
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


async def test_the_largest_certificate_allowed_is_accepted_by_the_sandbox(tmp_path: Path) -> None:
    """The client's bound and the sandbox's (512 KiB of base64, a body under 1 MiB) agree."""
    largest = tmp_path / "largest.pfx"
    largest.write_bytes(b"\x30" + os.urandom(MAX_CERTIFICATE_BYTES - 1))
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=SMALL) as pilot:
        await wait_for(lambda: pilot.app.services is not None, pilot.pause)  # type: ignore[attr-defined]
        context = await sandbox.app.context()
        certificate = await context.vault.load_certificate(largest)
        results = await context.vault.register(
            [
                CredentialItem(
                    system_name=system_name(),
                    certificate_pfx=certificate,
                    certificate_password=CERTIFICATE_PASSWORD,
                )
            ]
        )
        assert results and all(r.message == "CREDENTIAL_CREATED" for r in results)

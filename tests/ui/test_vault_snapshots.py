"""Snapshots of the vault's register form: both kinds of credential and their complaints.

Real sandbox, frozen clock, steady cursor (conftest). After checking the pictures, update them
with ``pytest tests/ui/test_vault_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Select

from lawsuit_tui.ui.screens.vault import VaultScreen
from lawsuit_tui.ui.widgets.part2.credential_form import KIND_CERTIFICATE, CredentialFormScreen

from .part2_fakes import Part2Sandbox, samples, settle, wait_for

SMALL = (80, 24)
LARGE = (120, 40)

Scenario = Callable[[Pilot[Any]], Awaitable[None]]


async def open_form(pilot: Pilot[Any]) -> CredentialFormScreen:
    app: Any = pilot.app
    await wait_for(lambda: app.services is not None, pilot.pause)
    app.open_vault(samples()["secret_lawsuit"]["system_name"], "*")
    await wait_for(lambda: isinstance(app.screen, VaultScreen), pilot.pause)
    await wait_for(lambda: app.screen.loaded_from_service, pilot.pause)
    await settle(pilot)
    await pilot.press("n")
    await wait_for(lambda: isinstance(app.screen, CredentialFormScreen), pilot.pause)
    form = app.screen
    assert isinstance(form, CredentialFormScreen)
    await settle(pilot)
    return form


async def finish(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    pilot.app.clear_notifications()
    await pilot.pause()


async def login_with_two_factor(pilot: Pilot[Any]) -> None:
    form = await open_form(pilot)
    form.query_one("#cf-username", Input).value = "analista"
    form.query_one("#cf-password", Input).value = "s3nh@"
    form.query_one("#cf-totp", Input).value = "jbsw y3dp ehpk 3pxp"
    form.query_one("#cf-totp", Input).focus()
    await finish(pilot)


async def login_errors(pilot: Pilot[Any]) -> None:
    form = await open_form(pilot)
    form.query_one("#cf-totp", Input).value = "0000 1111"
    await pilot.press("f10")
    await finish(pilot)


async def certificate_error(pilot: Pilot[Any]) -> None:
    form = await open_form(pilot)
    form.query_one("#cf-kind", Select).value = KIND_CERTIFICATE
    await pilot.pause()
    form.query_one("#cf-certificate-path", Input).value = "vazio.pfx"
    form.query_one("#cf-certificate-password", Input).value = "senha"
    form.query_one("#cf-certificate-path", Input).focus()
    await pilot.press("f10")
    await wait_for(lambda: not form.sending, pilot.pause)
    await finish(pilot)


CASES: list[tuple[str, Scenario, tuple[int, int]]] = [
    ("login_two_factor", login_with_two_factor, SMALL),
    ("login_two_factor", login_with_two_factor, LARGE),
    ("login_errors", login_errors, SMALL),
    ("certificate_error", certificate_error, SMALL),
    ("certificate_error", certificate_error, LARGE),
]


@pytest.mark.parametrize(
    ("scenario", "size"),
    [pytest.param(case, size, id=f"{name}-{size[0]}x{size[1]}") for name, case, size in CASES],
)
def test_credential_form(
    snap_compare: Any,
    scenario: Scenario,
    size: tuple[int, int],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a relative path: the picture must not show the run's temporary folder
    (tmp_path / "vazio.pfx").write_bytes(b"")
    monkeypatch.chdir(tmp_path)
    sandbox = Part2Sandbox()

    async def run_before(pilot: Pilot[Any]) -> None:
        await scenario(pilot)

    assert snap_compare(sandbox.app, terminal_size=size, run_before=run_before)

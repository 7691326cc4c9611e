"""Vault screen: the grid per customer_key, registration, deletion, unlocking a secret lawsuit."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.domain.vault import SystemStatusRow
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.vault.credential_form import CredentialFormScreen, SecretInput
from lawsuit_tui.ui.vault.screen import VaultScreen
from tests.support.ui_harness import (
    ContextClockHarness,
    open_destination,
    samples,
    screen_on_top,
    settle,
    wait_for,
)

PASSWORD = "s3nh@-secreta"


async def open_vault(pilot: Pilot[Any]) -> VaultScreen:
    return await open_destination(
        pilot, "vault", VaultScreen, lambda screen: screen.loaded_from_service
    )


def status_of(rows: list[SystemStatusRow], name: str) -> str | None:
    row = next((r for r in rows if r.name == name), None)
    return None if row is None else str(row.credential_status)


async def secret_request_outcome(sandbox: ContextClockHarness, context: ServiceContext) -> str:
    """Ask for the secret lawsuit; the response type (or error code) it ends with."""
    secret = samples()["secret_lawsuit"]
    body = CreateRequestBody(
        search=SearchBody(search_type="lawsuit_cnj", search_key=secret["code"])
    )
    [record] = await context.requests.create(body)
    await sandbox.advance(5)
    responses = await context.requests.refresh_responses(record.request_id)
    assert responses, "the request completed with a response"
    last = responses[-1]
    error = last.application_error
    return str(error.code) if error is not None else str(last.response_type)


async def test_grid_default_and_named_key_register_and_unlock() -> None:
    sandbox = ContextClockHarness()
    secret = samples()["secret_lawsuit"]
    system = secret["system_name"]
    async with sandbox.app.run_test(size=(120, 40)) as pilot:
        screen = await open_vault(pilot)
        context = await pilot.app.context()  # type: ignore[attr-defined]
        # default key: every system, the * row first with an empty customer_key (no wildcard)
        assert screen.rows[0].is_wildcard and screen.rows[0].customer_key == ""
        assert len(screen.rows) > 100
        assert status_of(screen.rows, system) == "not exists"
        assert screen.grid.row_count == len(screen.rows)

        assert await secret_request_outcome(sandbox, context) == "SECRECY_RESTRICTED"

        # the response view sends the user here with the system and key selected
        pilot.app.open_vault(system, "*")  # type: ignore[attr-defined]
        await wait_for(lambda: screen.selected_system() == system, pilot.pause)
        await settle(pilot)
        assert screen.selected_system() == system
        await pilot.press("n")
        form = await screen_on_top(pilot, CredentialFormScreen)
        form.query_one("#cf-username", Input).value = "analista"
        password = form.query_one("#cf-password", SecretInput)
        assert password.password  # masked
        password.value = PASSWORD
        await pilot.press("f10")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)
        assert password.value == ""  # taken out of the widget once sent
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        # one line per system touched (PROJUDI TJGO has no sibling: one line), in words
        assert screen.last_results == [f"{system} (*): registered"]
        assert status_of(screen.rows, system) == "active"
        assert PASSWORD not in str(screen.query_one("#vault-result").render())

        assert await secret_request_outcome(sandbox, context) == "lawsuit"

        # a named key lists only its own systems; its * row is the key's wildcard
        key_input = screen.query_one("#vault-key", Input)
        key_input.value = "acme"
        key_input.focus()
        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.customer_key == "acme"
        assert [row.name for row in screen.rows] == ["*"]
        assert "acme" in str(screen.query_one("#vault-rule").render())

        # back to *, delete the credential (confirmed)
        key_input.value = "*"
        key_input.focus()
        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        screen.show_params(system_name=system, customer_key="*")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("d")
        await wait_for(lambda: isinstance(pilot.app.screen, ConfirmScreen), pilot.pause)
        await pilot.press("y")
        await wait_for(lambda: status_of(screen.rows, system) == "not exists", pilot.pause)
        # D83: the service answers {}; the screen still says what was deleted, in words
        assert screen.last_results == [f"{system} (*): deleted"]


async def test_open_vault_first_visit_and_incomplete_credentials() -> None:
    sandbox = ContextClockHarness()
    system = samples()["secret_lawsuit"]["system_name"]
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        # the first visit comes from a response view: system and key selected
        app.open_vault(system, "")
        screen = await screen_on_top(pilot, VaultScreen)
        await wait_for(lambda: screen.loaded_from_service, pilot.pause)
        await settle(pilot)
        assert screen.customer_key == "*"
        assert screen.selected_system() == system
        await pilot.press("n")
        form = await screen_on_top(pilot, CredentialFormScreen)
        assert form.system_name == system
        await pilot.press("f10")
        await pilot.pause()
        errors = {box.field: box.error for box in form.query("FieldBox").results() if box.error}  # type: ignore[attr-defined]
        assert set(errors) == {"username", "password"}
        await pilot.press("escape")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)
        assert screen.last_results == []

        # find a system by typing: Enter lands on the first one found
        await pilot.press("slash", *"tjsp", "enter")
        await pilot.pause()
        # the documented names, in the service's order (D83)
        assert [row.name for row in screen.visible_rows()][1:] == [
            "ESAJ - TJSP - 2º grau",
            "ESAJ - TJSP - 1º grau",
        ]
        assert screen.selected_system() == "ESAJ - TJSP - 2º grau"

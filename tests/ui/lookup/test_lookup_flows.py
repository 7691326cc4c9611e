"""Pilot flows of the lookup on the real in-process sandbox (frozen clock, virtual waits)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Static

from lawsuit_tui.domain.identifiers import parse_search_key
from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.lookup.screen import LookupScreen
from tests.support.ui_harness import (
    Harness,
    open_from_lookup,
    ready,
    samples,
    settle,
    wait_for,
)


async def test_type_a_cnj_and_open_it() -> None:
    harness = Harness()
    cnj = samples()["lawsuit_cnj"][0]
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        assert isinstance(pilot.app.focused, Input)  # the search field, ready to type
        screen = await open_from_lookup(pilot, cnj, type_it=True)
        assert screen.code == cnj
        assert screen.view is not None and screen.view.lawsuit.code == cnj
        header = screen.query_one("#lawsuit-header", Static).content
        assert not isinstance(header, str)  # the essentials table replaced "Loading…"
        # Back on the lookup screen, the search is remembered among the recent ones.
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(pilot.app.screen, LookupScreen)
        context = await harness.app.context()
        assert parse_search_key(cnj).display in context.lookup.recent()


async def test_wrong_check_digits_are_explained_and_can_be_sent_after_confirming() -> None:
    harness = Harness()
    cnj = samples()["lawsuit_cnj"][0]
    digits = cnj.replace("-", "").replace(".", "")
    wrong_check = "00" if digits[7:9] != "00" else "11"
    wrong = digits[:7] + wrong_check + digits[9:]
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        pilot.app.screen.query_one("#search", Input).value = wrong
        await pilot.pause()
        hint = pilot.app.screen.query_one("#search-hint", Static)
        assert hint.has_class("-error")
        assert digits[7:9] in str(hint.content)  # the right check digits are named
        await pilot.press("enter")
        await wait_for(lambda: isinstance(pilot.app.screen, ConfirmScreen), pilot.pause)
        # The sandbox says beforehand that it will refuse the number (D52).
        assert "will refuse" in str(pilot.app.screen.query_one(".dialog-text", Static).content)
        await pilot.press("y")
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, LookupScreen)
        title = str(screen.query_one("#results-title", Static).content)
        assert wrong_check in title.replace(".", "").replace("-", "")


async def test_a_secret_lawsuit_lookup_leads_to_the_vault() -> None:
    harness = Harness()
    secret = samples()["secret_lawsuit"]
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        pilot.app.screen.query_one("#search", Input).value = secret["code"]
        await pilot.press("enter")
        await settle(pilot)
        title = str(pilot.app.screen.query_one("#results-title", Static).content)
        assert "secrecy" in title
        await pilot.press("k")
        await wait_for(lambda: harness.app.current_mode == "vault", pilot.pause)
        await settle(pilot)
        selected = getattr(pilot.app.screen, "_pending_system", None)
        assert selected == secret["system_name"]


async def test_copy_and_export_from_the_results(isolated_config: Any, tmp_path: Any) -> None:
    from lawsuit_tui.ui.dialogs.folder_prompt import FolderPrompt

    harness = Harness()
    cnj = samples()["lawsuit_cnj"][0]
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        pilot.app.screen.query_one("#search", Input).value = cnj
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("c")
        assert harness.app.clipboard == cnj  # sent to the terminal with OSC 52
        await pilot.press("e")
        await wait_for(lambda: isinstance(pilot.app.screen, FolderPrompt), pilot.pause)
        await settle(pilot)
        pilot.app.screen.query_one(Input).value = str(tmp_path)
        await pilot.press("enter")
        await wait_for(lambda: any(tmp_path.glob("*.json")), pilot.pause)
        exported = next(tmp_path.glob("*.json")).read_text(encoding="utf-8")
        assert cnj in exported

"""Safe confirmations: a destructive question starts on No."""

from __future__ import annotations

from textual.widgets import Button

from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from tests.support.ui_harness import Harness, settle


async def test_destructive_questions_start_on_no() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        answers: list[bool | None] = []
        pilot.app.push_screen(
            ConfirmScreen("Delete", "Delete it?", destructive=True), answers.append
        )
        await settle(pilot)
        focused = pilot.app.focused
        assert isinstance(focused, Button) and focused.id == "no"
        await pilot.press("enter")
        await settle(pilot)
        assert answers == [False]
        pilot.app.push_screen(ConfirmScreen("Search", "Search anyway?"), answers.append)
        await settle(pilot)
        focused = pilot.app.focused
        assert isinstance(focused, Button) and focused.id == "yes"

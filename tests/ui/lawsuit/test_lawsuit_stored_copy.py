"""The lawsuit screen's "stored copy" (s): the datalake's copy, beside the cache's (D101)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Static

from lawsuit_tui.ui.lawsuit.screen import LawsuitTreeScreen
from tests.support.ui_harness import (
    SIZES,
    Harness,
    open_from_lookup,
    ready,
    samples,
    settle,
    snap,
    wait_for,
)


async def test_s_opens_the_stored_copy_and_escape_comes_back() -> None:
    harness = Harness()
    code = samples()["two_instance_lawsuit"]
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        mine = await open_from_lookup(pilot, code)
        await pilot.press("s")
        await wait_for(lambda: pilot.app.screen is not mine, pilot.pause)
        await settle(pilot)
        copy = pilot.app.screen
        assert isinstance(copy, LawsuitTreeScreen) and copy.stored_copy_at is not None
        assert copy.view is not None and copy.view.lawsuit.code == code
        assert "stored copy" in copy.screen_title()
        banner = str(copy.query_one("#lawsuit-banner", Static).content)
        assert banner.startswith("Stored copy at the service") and "r asks the court" in banner
        assert copy.check_action("stored_copy", ()) is False  # already the stored copy
        await pilot.press("escape")
        await wait_for(lambda: pilot.app.screen is mine, pilot.pause)


async def test_no_stored_copy_is_said_plainly() -> None:
    harness = Harness()
    never = samples()["never_captured_lawsuit"]
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        pilot.app.open_lawsuit(never)
        await wait_for(lambda: isinstance(pilot.app.screen, LawsuitTreeScreen), pilot.pause)
        await settle(pilot)
        screen = pilot.app.screen
        await pilot.press("s")
        await settle(pilot)
        notices = [str(n.message) for n in pilot.app._notifications]
        assert any("holds no stored copy" in n for n in notices)
        assert pilot.app.screen is screen


@pytest.mark.parametrize("size", SIZES)
def test_lawsuit_stored_copy(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        mine = await open_from_lookup(pilot, samples()["two_instance_lawsuit"])
        await pilot.press("s")
        await wait_for(lambda: pilot.app.screen is not mine, pilot.pause)

    assert snap(snap_compare, size, steps)

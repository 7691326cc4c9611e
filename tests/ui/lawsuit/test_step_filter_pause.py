"""The step filter echoes every character at once and filters after a pause (issue 19)."""

from __future__ import annotations

from textual.widgets import Input

from lawsuit_tui.ui.lawsuit.tree import LawsuitTree
from tests.support.ui_harness import Harness, open_from_lookup, ready, samples, type_text, wait_for


async def test_typing_echoes_and_the_filter_waits_for_a_pause() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await open_from_lookup(pilot, samples()["big_lawsuit"])
        tree = screen.query_one(LawsuitTree)
        total = len(tree._index.steps)
        await pilot.press("slash")
        await type_text(pilot, "desp")
        field = screen.query_one("#filter", Input)
        assert field.value == "desp"  # echoed
        assert tree.step_filter == ""  # not yet filtered: the typing goes on
        await wait_for(lambda: tree.step_filter == "desp", pilot.pause)
        assert 0 < len(tree._step_items()) < total
        # Enter does not wait for the pause.
        await type_text(pilot, "a")
        await pilot.press("enter")
        assert tree.step_filter == "despa"

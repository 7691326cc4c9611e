"""Issue 19.4 on screen (D92): a lawsuit whose court is down shows its stored copy as possibly
out of date, never as "current", beside the error that names the court."""

from __future__ import annotations

from typing import Any

from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.ui.language import interface_language
from lawsuit_tui.ui.requests.responses import ResponsesScreen, detail_renderable
from tests.support.ui_harness import Harness, open_new_request, ready, samples, snap


async def court_down(pilot: Any, harness: Harness) -> ResponsesScreen:
    code = samples()["court_down_lawsuit"]
    body = CreateRequestBody(search=SearchBody(search_type="lawsuit_cnj", search_key=code))
    return await open_new_request(pilot, harness, body)


async def test_the_copy_of_a_court_that_is_down_is_not_current() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await court_down(pilot, harness)
        copies = [row for row in screen.rows.loaded() if row.response.lawsuit is not None]
        assert copies
        for row in copies:
            assert row.provisional and not row.confirmed and row.unreachable
            text = str(detail_renderable(row, "k", "Enter"))
            assert "TJAP could not be reached" in text
            assert "nothing newer" not in text


def test_the_copy_of_a_court_that_is_down_in_portuguese(snap_compare: Any) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        screen = await court_down(pilot, harness)
        screen.table.move_cursor(row=0)

    with interface_language("pt-BR"):
        assert snap(snap_compare, (80, 24), steps)

"""Columns sized to their content and the terminal; the whole selected row shown (issue 19)."""

from __future__ import annotations

import pytest
from textual.widgets import Static
from textual.widgets.data_table import ColumnKey

from lawsuit_tui.ui.lookup.screen import LookupScreen
from lawsuit_tui.ui.widgets.lawsuit_summaries import lawsuit_class, lawsuit_parties
from lawsuit_tui.ui.widgets.paged_table import PagedTable, share_room
from tests.support.ui_harness import Harness, look_up, ready, samples


def test_a_column_that_wants_little_gets_it_and_leaves_the_rest() -> None:
    widths = share_room(90, {"class": 20, "parties": 60}, {"class": 1, "parties": 2})
    assert widths["class"] == 20 and widths["parties"] == 70
    # Not enough for both: shared by weight, never below the least width.
    assert share_room(25, {"class": 23, "parties": 40}, {"class": 3, "parties": 2}) == {
        "class": 15,
        "parties": 10,
    }
    assert share_room(4, {"a": 30}, {"a": 1}) == {"a": 8}
    # A header is never cut ("What chan"): its width is the column's floor.
    widths = share_room(36, {"about": 35, "news": 33}, {"about": 3, "news": 1}, floors={"news": 12})
    assert widths == {"about": 24, "news": 12}


@pytest.mark.parametrize("width", [160, 200])
async def test_the_class_is_whole_when_there_is_room(width: int) -> None:
    harness = Harness()
    async with harness.app.run_test(size=(width, 40)) as pilot:
        await ready(pilot)
        await look_up(pilot, samples()["busy_person"])
        table = pilot.app.screen.query_one("#results", PagedTable)
        longest = max(len(lawsuit_class(item)) for item in table.items[: table.page_size])
        assert table.columns[ColumnKey("class")].width >= longest
        # Parties take what the class leaves (the columns fill the width)
        assert table.columns[ColumnKey("parties")].width >= width - 55 - longest - 2


async def test_at_80_columns_the_selected_row_is_shown_whole() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await look_up(pilot, samples()["busy_person"])
        screen = pilot.app.screen
        assert isinstance(screen, LookupScreen)
        table = screen.query_one("#results", PagedTable)
        await pilot.press("down")
        lawsuit = table.selected_item()
        assert lawsuit is not None
        detail = str(screen.query_one("#result-detail", Static).content)
        assert lawsuit_class(lawsuit) in detail and lawsuit_parties(lawsuit) in detail

"""Keys that a new user reached for (issue 19, item 12): End in tables, a destination's key
again, Down to the suggestions, and notices that do not pile up over the content."""

from __future__ import annotations

from textual.widgets import OptionList

from lawsuit_tui.ui.requests.request_list import RequestsScreen
from lawsuit_tui.ui.requests.responses import ResponsesScreen
from lawsuit_tui.ui.widgets.paged_table import PagedTable
from tests.support.ui_harness import Harness, look_up, ready, samples, settle, wait_for


async def test_end_and_home_move_to_the_ends_of_a_list() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await look_up(pilot, samples()["busy_person"])
        table = pilot.app.screen.query_one("#results", PagedTable)
        assert table.row_count > 2 and pilot.app.focused is table
        await pilot.press("end")
        assert table.cursor_row == table.row_count - 1
        await pilot.press("home")
        assert table.cursor_row == 0


async def test_a_destinations_key_again_goes_back_to_its_list() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.press("f3")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestsScreen), pilot.pause)
        pilot.app.open_request("0123456789abcdef")
        await wait_for(lambda: isinstance(pilot.app.screen, ResponsesScreen), pilot.pause)
        await pilot.press("f2")
        await settle(pilot)
        await pilot.press("f3")  # from elsewhere: back where the user was in Requests
        await wait_for(lambda: isinstance(pilot.app.screen, ResponsesScreen), pilot.pause)
        await pilot.press("f3")  # on it: its list
        await wait_for(lambda: isinstance(pilot.app.screen, RequestsScreen), pilot.pause)


async def test_down_from_the_lookup_field_reaches_the_suggestions() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        suggestions = pilot.app.screen.query_one("#suggestions", OptionList)
        assert suggestions.display and suggestions.option_count
        await pilot.press("down")
        assert pilot.app.focused is suggestions
        highlighted = suggestions.highlighted
        assert highlighted is not None and not suggestions.get_option_at_index(highlighted).disabled


async def test_notices_do_not_pile_up_at_80x24() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        pilot.app.clear_notifications()
        for n in range(6):
            pilot.app.notify(f"notice {n}")
        pilot.app.notify("notice 5")  # the same words again: one notice
        await pilot.pause()
        shown = [n.message for n in pilot.app._notifications]
        assert shown == ["notice 4", "notice 5"]

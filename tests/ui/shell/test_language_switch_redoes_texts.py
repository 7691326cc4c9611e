"""A language switch redoes every visible text and keeps every screen as it is (D148)."""

from __future__ import annotations

from rich.console import Console
from textual.widgets import Input, Static

from lawsuit_tui.ui.language import switch_language
from lawsuit_tui.ui.lawsuit.tree import LawsuitTree, _node_key
from lawsuit_tui.ui.lookup.screen import LookupScreen
from lawsuit_tui.ui.widgets.paged_table import PagedTable
from tests.support.ui_harness import Harness, look_up, open_from_lookup, ready, samples, settle


async def test_lookup_results_and_an_open_lawsuit_follow_the_switch() -> None:
    harness = Harness()
    code = samples()["lawsuit_cnj"][0]
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await look_up(pilot, code)
        lookup = pilot.app.screen
        assert isinstance(lookup, LookupScreen)
        switch_language(pilot.app, "pt-BR", remember=False)
        await settle(pilot)
        assert pilot.app.screen is lookup  # not built again: the results are still there
        title = str(lookup.query_one("#results-title", Static).content)
        assert "processo" in title and "lawsuit" not in title
        table = lookup.query_one("#results", PagedTable)
        assert table.display and table.row_count >= 1
        headers = [column.label.plain for column in table.columns.values()]
        assert headers[0] == "Número CNJ"
        assert lookup.query_one("#search", Input).value  # what was searched stays
        assert "Número CNJ" in lookup.query_one("#search", Input).placeholder

        await pilot.press("escape")  # to the field, then search and open as a user would
        screen = await open_from_lookup(pilot, code)
        tree = screen.query_one(LawsuitTree)
        parties = tree.root.children[0]
        parties.expand()
        await settle(pilot)
        tree.move_cursor(tree.root.children[1])
        await settle(pilot)
        assert tree.cursor_node is tree.root.children[1]
        switch_language(pilot.app, "en", remember=False)
        await settle(pilot)
        assert pilot.app.screen is screen
        labels = [str(node.label) for node in tree.root.children]
        assert labels[0].startswith("Parties") and labels[1].startswith("Steps")
        banner = str(screen.query_one("#lawsuit-banner", Static).content)
        assert banner.startswith("Provisional copy of")
        console = Console(width=120, record=True)
        console.print(screen.query_one("#lawsuit-header", Static).content)
        assert "Court" in console.export_text() and "Tribunal" not in console.export_text()
        assert tree.root.children[0].is_expanded  # the place is kept across the switch
        assert tree.cursor_node is not None and _node_key(tree.cursor_node).startswith("group:")

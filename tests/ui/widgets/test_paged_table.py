"""Widgets on their own: the paged table holds one page of a long list."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import App, ComposeResult

from lawsuit_tui.ui.widgets.paged_table import PagedTable


@dataclass(frozen=True)
class Item:
    key: str
    text: str


class TableApp(App[None]):
    def compose(self) -> ComposeResult:
        yield PagedTable[Item](
            [("key", "Key", 8), ("text", "Text", None)],
            lambda item: (item.key, item.text),
            lambda item: item.key,
            page_size=100,
        )


async def test_ten_thousand_items_only_one_page_in_the_table() -> None:
    items = [Item(f"k{n}", f"item {n}") for n in range(10_000)]
    app = TableApp()
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one(PagedTable)
        table.set_items(items)
        table.focus()
        await pilot.pause()
        assert table.row_count == 100
        assert table.position_text().startswith("1–100")
        # Down past the last row of the page turns to the next page.
        table.move_cursor(row=99)
        await pilot.press("down")
        assert table.page == 1 and table.cursor_row == 0
        assert table.selected_item() == items[100]
        await pilot.press("up")
        assert table.page == 0 and table.selected_item() == items[99]
        await pilot.press("ctrl+end")
        assert table.selected_item() == items[-1]
        # A live update changes the row in place.
        table.update_item(Item("k9999", "changed"))
        assert "changed" in str(table.get_row("k9999")[1])
        # A new list keeps the selected item when it is still there.
        table.set_items(items[5000:])
        assert table.selected_item() == items[-1]

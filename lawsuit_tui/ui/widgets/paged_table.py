"""A DataTable that holds one page of a long list, keyed rows, paging at the edges.

DataTable measures every cell of every row synchronously (0.75 s at 10,000 rows), so a list of
any length is shown ``page_size`` rows at a time: moving past the last row of the page turns
to the next page, ``PageDown`` on the last row too; ``Home``/``End`` of the whole list with
``ctrl+home``/``ctrl+end``. Rows are keyed by the item's id, so live updates change cells in
place (``update_item``) instead of clearing and refilling.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import ClassVar, Generic, TypeVar, overload

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import DataTable
from textual.widgets.data_table import CellDoesNotExist, ColumnKey, RowDoesNotExist

from lawsuit_tui.domain.formatting import format_int
from lawsuit_tui.i18n import _

T = TypeVar("T")
Cell = str | Text


class LazyItems(Sequence[T]):
    """A long list read a page at a time: ``total`` items known by count, fetched by
    ``fetch(offset, limit)`` (awaited, e.g. a thread) only when a page is shown; items added
    by :meth:`append` (live ones) follow them. PagedTable asks :meth:`has` before showing a
    page and awaits :meth:`load` when it is missing."""

    def __init__(
        self, total: int, fetch: Callable[[int, int], Awaitable[list[T]]], *, block: int = 200
    ) -> None:
        self.total = max(0, total)
        self._fetch = fetch
        self._block = max(1, block)
        self._blocks: dict[int, list[T]] = {}
        self._tail: list[T] = []

    def __len__(self) -> int:
        return self.total + len(self._tail)

    def _blocks_of(self, start: int, stop: int) -> range:
        stop = min(stop, self.total)
        if stop <= start:
            return range(0)
        return range(start // self._block, (stop - 1) // self._block + 1)

    def has(self, start: int, stop: int) -> bool:
        return all(b in self._blocks for b in self._blocks_of(max(0, start), stop))

    async def load(self, start: int, stop: int) -> None:
        for block in self._blocks_of(max(0, start), stop):
            if block not in self._blocks:
                offset = block * self._block
                self._blocks[block] = await self._fetch(
                    offset, min(self._block, self.total - offset)
                )

    def append(self, item: T) -> None:
        self._tail.append(item)

    def replace(self, index: int, item: T) -> None:
        """Put ``item`` in place of a read item (a record that changed)."""
        if index >= self.total:
            self._tail[index - self.total] = item
        else:
            self._blocks[index // self._block][index % self._block] = item

    def loaded(self) -> Iterator[T]:
        """The items read so far (pages shown, then the appended ones)."""
        for block in sorted(self._blocks):
            yield from self._blocks[block]
        yield from self._tail

    def find(self, predicate: Callable[[T], bool]) -> int | None:
        """The index of the first item read so far that matches."""
        for block in sorted(self._blocks):
            for number, item in enumerate(self._blocks[block]):
                if predicate(item):
                    return block * self._block + number
        for number, item in enumerate(self._tail):
            if predicate(item):
                return self.total + number
        return None

    def _item(self, index: int) -> T | None:
        if index >= self.total:
            number = index - self.total
            return self._tail[number] if 0 <= number < len(self._tail) else None
        chunk = self._blocks.get(index // self._block)
        number = index % self._block
        return chunk[number] if chunk is not None and number < len(chunk) else None

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...

    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            found = (self._item(i) for i in range(*index.indices(len(self))))
            return [item for item in found if item is not None]
        if index < 0:
            index += len(self)
        item = self._item(index)
        if item is None:
            raise IndexError(index)
        return item


MIN_FLEX = 8
"""The narrowest a flexible column gets, whatever the terminal."""


def share_room(
    room: int,
    wanted: dict[str, int],
    weights: dict[str, int],
    *,
    least: int = MIN_FLEX,
    floors: dict[str, int] | None = None,
) -> dict[str, int]:
    """Widths for columns that want ``wanted`` cells, sharing ``room`` by ``weights``: a
    column wanting less than its share gets what it wants and leaves the rest to the others;
    room left once every column has what it wants goes to the heaviest (a list's main text).
    No column gets less than ``least`` nor its ``floors`` entry (its header: never cut)."""
    widths: dict[str, int] = {}
    floor = {key: max(least, (floors or {}).get(key, 0)) for key in weights}
    pending = dict(weights)
    left = room
    while pending:
        total = sum(pending.values())
        content = {key: max(floor[key], wanted.get(key, 0)) for key in pending}
        satisfied = [key for key in pending if content[key] <= left * pending[key] // total]
        if not satisfied:
            # Shares by weight, raised to their floors; what that overdraws is taken back
            # from the columns above their floor.
            shares = {key: max(floor[key], left * pending[key] // total) for key in pending}
            over = sum(shares.values()) - left
            for key in sorted(pending, key=lambda k: shares[k] - floor[k], reverse=True):
                if over <= 0:
                    break
                cut = min(over, shares[key] - floor[key])
                shares[key] -= cut
                over -= cut
            widths.update(shares)
            return widths
        for key in satisfied:
            widths[key] = content[key]
            left -= content[key]
            del pending[key]
    if left > 0 and widths:
        heaviest = max(weights, key=lambda key: (weights[key], wanted.get(key, 0)))
        widths[heaviest] += left
    return widths


class PagedTable(DataTable[Cell], Generic[T]):
    """Shows ``items[page * page_size : (page + 1) * page_size]``."""

    DEFAULT_CSS = """
    PagedTable { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+home", "first_item", _("First"), show=False, id="list.first"),
        Binding("ctrl+end", "last_item", _("Last"), show=False, id="list.last"),
    ]

    class PageChanged(Message):
        """The page shown changed (``first`` and ``last`` are 1-based item numbers)."""

        def __init__(self, table: PagedTable[object], first: int, last: int, total: int) -> None:
            super().__init__()
            self.table = table
            self.first = first
            self.last = last
            self.total = total

        @property
        def control(self) -> PagedTable[object]:
            return self.table

    def __init__(
        self,
        columns: Sequence[tuple[str, str, int | None]],
        # (key, label, width): None or a negative weight makes the column share the room left
        render_row: Callable[[T], Sequence[Cell]],
        item_key: Callable[[T], str],
        *,
        page_size: int = 200,
        id: str | None = None,  # noqa: A002 - Textual's own parameter name
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes, cursor_type="row", zebra_stripes=True)
        self._column_spec = list(columns)
        self._render_row = render_row
        self._item_key = item_key
        self.page_size = page_size
        self.items: Sequence[T] = ()
        self.page = 0
        self._keys_on_page: dict[str, int] = {}
        self._page_cells: list[Sequence[Cell]] = []

    def on_mount(self) -> None:
        for key, label, width in self._column_spec:
            self.add_column(label, key=key, width=width if width and width > 0 else 10)
        self._fit_columns()

    def on_resize(self) -> None:
        self._fit_columns()

    def _fit_columns(self) -> None:
        """Columns given no width (None, or a negative weight such as -2) share what the
        fixed ones leave, sized to what they hold (DataTable has no flexible width).

        Each flexible column wants the width of its header and of its longest cell on the
        page; the room is shared by water-filling: a column that wants less than its share
        (in proportion to its weight) gets what it wants, the others share the rest. So a short
        column (a class) is never cut while a long one (parties) takes 90 columns, and at 80
        columns the cut falls where the weights say."""
        flexible = [
            (key, label, 1 if width is None else -width)
            for key, label, width in self._column_spec
            if width is None or width < 0
        ]
        if not flexible or not self.size.width:
            return
        padding = 2 * self.cell_padding * len(self._column_spec)
        fixed = sum(width for _key, _label, width in self._column_spec if width and width > 0)
        room = max(0, self.size.width - fixed - padding - 2)  # the vertical scrollbar
        headers = {key: Text(label).cell_len for key, label, _w in flexible}
        wanted = {key: max(headers[key], self._content_width(key)) for key, _l, _w in flexible}
        weights = {key: weight for key, _label, weight in flexible}
        widths = share_room(room, wanted, weights, least=MIN_FLEX, floors=headers)
        for key, width in widths.items():
            self.columns[ColumnKey(key)].width = width
        self._require_update_dimensions = True
        self._clear_caches()
        self.refresh()

    def _content_width(self, key: str) -> int:
        column = next((n for n, (k, _l, _w) in enumerate(self._column_spec) if k == key), None)
        if column is None:
            return 0
        widest = 0
        for cells in self._page_cells:
            if column < len(cells):
                cell = cells[column]
                widest = max(
                    widest, cell.cell_len if isinstance(cell, Text) else Text(cell).cell_len
                )
        return widest

    # --- data ----------------------------------------------------------------------------

    @property
    def page_count(self) -> int:
        return max(1, -(-len(self.items) // self.page_size))

    def set_items(self, items: Sequence[T], *, keep_position: bool = True) -> None:
        """Show a new list; keeps the selected item (by key) when it is still there."""
        selected = self.selected_key() if keep_position else None
        self.items = items
        index = 0
        if selected is not None and isinstance(items, LazyItems):
            index = items.find(lambda item: self._item_key(item) == selected) or 0
        elif selected is not None:
            for number, item in enumerate(items):
                if self._item_key(item) == selected:
                    index = number
                    break
        self._show_page(index // self.page_size, index % self.page_size)

    def redraw_rows(self) -> None:
        """Draw the page again, the cursor kept (its words follow a language switch)."""
        if self.items:
            self._show_page(self.page, self.cursor_row)

    def show_index(self, index: int) -> None:
        """Select the item at ``index`` of the list, showing its page."""
        self._show_page(index // self.page_size, index % self.page_size)

    def update_item(self, item: T) -> None:
        """Replace one item (found by key) and redraw its row if it is on the page."""
        key = self._item_key(item)
        row = self._keys_on_page.get(key)
        if row is None:
            return
        cells = self._render_row(item)
        for (column_key, _label, _width), value in zip(self._column_spec, cells, strict=False):
            try:
                self.update_cell(key, column_key, value, update_width=False)
            except (CellDoesNotExist, RowDoesNotExist):
                return

    def selected_item(self) -> T | None:
        if not self.items or self.row_count == 0:
            return None
        index = self.page * self.page_size + self.cursor_row
        return self.items[index] if 0 <= index < len(self.items) else None

    def selected_key(self) -> str | None:
        item = self.selected_item()
        return None if item is None else self._item_key(item)

    def _show_page(self, page: int, row: int = 0) -> None:
        page = max(0, min(page, self.page_count - 1))
        start = page * self.page_size
        items = self.items
        if isinstance(items, LazyItems) and not items.has(start, start + self.page_size):
            self.run_worker(
                self._fetch_page(items, page, row),
                group="paged-table.fetch",
                exclusive=True,
                exit_on_error=False,
            )
            return
        self.page = page
        chunk = self.items[start : start + self.page_size]
        self.clear()
        self._keys_on_page = {}
        self._page_cells = []
        for number, item in enumerate(chunk):
            key = self._item_key(item)
            if key in self._keys_on_page:
                key = f"{key}#{start + number}"
            self._keys_on_page[key] = number
            cells = self._render_row(item)
            self._page_cells.append(cells)
            self.add_row(*cells, key=key)
        self._fit_columns()
        if chunk:
            self.move_cursor(row=max(0, min(row, len(chunk) - 1)), animate=False)
        total = len(self.items)
        self.post_message(
            self.PageChanged(self, start + 1 if total else 0, start + len(chunk), total)  # type: ignore[arg-type]
        )

    async def _fetch_page(self, items: LazyItems[T], page: int, row: int) -> None:
        start = page * self.page_size
        await items.load(start, start + self.page_size)
        if self.items is items:
            self._show_page(page, row)

    def position_text(self) -> str:
        total = len(self.items)
        if total <= self.page_size:
            return ""
        start = self.page * self.page_size
        return _("{first}–{last} of {total}").format(
            first=format_int(start + 1),
            last=format_int(min(total, start + self.page_size)),
            total=format_int(total),
        )

    # --- paging at the edges -------------------------------------------------------------

    def _turned_at_bottom_edge(self) -> bool:
        """Whether the cursor is on the page's last row, where going down turns to the next
        page's first row (on the last page, it stays)."""
        if not (self.row_count and self.cursor_row >= self.row_count - 1):
            return False
        if self.page < self.page_count - 1:
            self._show_page(self.page + 1, 0)
        return True

    def _turned_at_top_edge(self) -> bool:
        """Whether the cursor is on the first row of a page after the first, where going up
        turns to the previous page's last row."""
        if self.cursor_row <= 0 and self.page > 0:
            self._show_page(self.page - 1, self.page_size - 1)
            return True
        return False

    def action_cursor_down(self) -> None:
        if not self._turned_at_bottom_edge():
            super().action_cursor_down()

    def action_cursor_up(self) -> None:
        if not self._turned_at_top_edge():
            super().action_cursor_up()

    def action_page_down(self) -> None:
        if not self._turned_at_bottom_edge():
            super().action_page_down()

    def action_page_up(self) -> None:
        if not self._turned_at_top_edge():
            super().action_page_up()

    def action_scroll_home(self) -> None:
        # Home and End move the row cursor to the ends of the whole list (DataTable's own
        # scroll sideways, which a row list never needs: End "did nothing").
        self.action_first_item()

    def action_scroll_end(self) -> None:
        self.action_last_item()

    def action_first_item(self) -> None:
        self._show_page(0, 0)

    def action_last_item(self) -> None:
        self._show_page(self.page_count - 1, self.page_size)

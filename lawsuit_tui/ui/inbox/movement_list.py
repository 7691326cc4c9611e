"""The inbox's list: a virtual list of movement ids that draws only the lines on screen.

It holds the ids of what the filter keeps (100,000 are 800 KB of pointers) and reads the
movements themselves a block at a time, in a worker, only for the lines it draws (Textual's
line API: ``render_line``); a line whose block is not read yet shows a placeholder for the
moment it takes. Moving the cursor is O(1) whatever the length; the blocks read stay in a
bounded cache.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from lawsuit_tui.domain.inbox import Movement
from lawsuit_tui.i18n import _, current_language
from lawsuit_tui.ui.inbox.inbox_text import movement_cells

__all__ = ["BLOCK", "MovementList"]

BLOCK = 100
"""Movements read together (one worker, one batch of reads from the cache)."""
KEPT_BLOCKS = 40
"""Blocks kept read (4,000 movements); the least recently drawn go first."""
KEPT_STRIPS = 600
"""Lines kept drawn, the least recently drawn going first."""

Loader = Callable[[Sequence[str]], Awaitable[list[Movement]]]


class MovementList(ScrollView, can_focus=True):
    """Ids of movements, newest first; a cursor, a selection, and lines drawn on demand."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "movement-list--cursor",
        "movement-list--unread",
        "movement-list--selected",
        "movement-list--pending",
        "movement-list--term",
    }

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor_up", _("Up"), show=False, id="inbox.list.up"),
        Binding("down", "cursor_down", _("Down"), show=False, id="inbox.list.down"),
        Binding("pageup", "page_up", _("Page up"), show=False, id="inbox.list.page_up"),
        Binding("pagedown", "page_down", _("Page down"), show=False, id="inbox.list.page_down"),
        Binding("home,ctrl+home", "first", _("First"), show=False, id="inbox.list.first"),
        Binding("end,ctrl+end", "last", _("Last"), show=False, id="inbox.list.last"),
        Binding("enter", "choose", _("Open"), show=False, id="inbox.list.open"),
        Binding("space", "toggle_selected", _("Select"), show=False, id="inbox.list.select"),
    ]

    cursor: reactive[int] = reactive(0, always_update=True, init=False)

    class Highlighted(Message):
        """The cursor moved to another movement (None: the list is empty)."""

        def __init__(self, movement_id: str | None) -> None:
            super().__init__()
            self.movement_id = movement_id

    class Chosen(Message):
        """Enter on a movement."""

        def __init__(self, movement_id: str) -> None:
            super().__init__()
            self.movement_id = movement_id

    class SelectionChanged(Message):
        """The selection grew or shrank."""

    def __init__(self, loader: Loader, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self._loader = loader
        self.ids: list[str] = []
        self.selection: set[str] = set()
        self._blocks: OrderedDict[int, dict[str, Movement]] = OrderedDict()
        self._loading: set[int] = set()
        self._generation = 0
        self._strips: OrderedDict[tuple[object, ...], Strip] = OrderedDict()

    # ------------------------------------------------------------------ data

    def set_ids(self, ids: list[str], *, keep: str | None = None, top: bool = False) -> None:
        """Show ``ids``; the cursor stays on ``keep`` (else the current one) when it is
        still there, else (or with ``top``) goes to the top. Selected ids that left are
        unselected."""
        current = None if top else (keep or self.current_id)
        self.ids = ids
        self._generation += 1
        self._blocks.clear()
        self._loading.clear()
        if self.selection:
            kept = set(ids)
            self.selection &= kept
        index = 0
        if current is not None:
            try:
                index = ids.index(current)
            except ValueError:
                index = 0
        self.virtual_size = Size(self.size.width, len(ids))
        self._move(index, force=True)
        self.refresh()

    def forget(self, movement_ids: Sequence[str]) -> None:
        """Read these movements again next time they are drawn (their read mark changed)."""
        wanted = set(movement_ids)
        for number, block in list(self._blocks.items()):
            if wanted & block.keys():
                del self._blocks[number]
        self.refresh()

    @property
    def current_id(self) -> str | None:
        if 0 <= self.cursor < len(self.ids):
            return self.ids[self.cursor]
        return None

    def movement(self, movement_id: str | None) -> Movement | None:
        """The movement if its block is read (the highlighted one always is, once drawn)."""
        if movement_id is None:
            return None
        for block in self._blocks.values():
            found = block.get(movement_id)
            if found is not None:
                return found
        return None

    async def load_around(self, index: int) -> None:
        """Read the block holding ``index`` now (a caller that needs the movement)."""
        await self._load(index // BLOCK, self._generation)

    def _want(self, number: int) -> None:
        if number in self._blocks or number in self._loading:
            return
        self._loading.add(number)
        self.run_worker(
            self._load(number, self._generation),
            group=f"movement-list.load.{number}",
            exit_on_error=False,
        )

    async def _load(self, number: int, generation: int) -> None:
        chunk = self.ids[number * BLOCK : (number + 1) * BLOCK]
        try:
            found = await self._loader(chunk) if chunk else []
        finally:
            self._loading.discard(number)
        if generation != self._generation:
            return  # another list was set meanwhile
        self._blocks[number] = {m.movement_id: m for m in found}
        while len(self._blocks) > KEPT_BLOCKS:
            self._blocks.popitem(last=False)
        self.refresh()
        if self.cursor // BLOCK == number:
            self.post_message(self.Highlighted(self.current_id))

    # ------------------------------------------------------------------ drawing

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.size.width
        base = self.rich_style
        if row >= len(self.ids):
            return Strip.blank(width, base)
        number = row // BLOCK
        block = self._blocks.get(number)
        if block is not None:
            self._blocks.move_to_end(number)
        movement = block.get(self.ids[row]) if block is not None else None
        cursor = Style()
        if row == self.cursor:
            cursor = (
                self.get_component_rich_style("movement-list--cursor")
                if self.has_focus
                else Style(reverse=True)
            )
        if movement is None:
            if block is None:
                self._want(number)
            style = base + self.get_component_rich_style("movement-list--pending") + cursor
            text_line = f"  {_('reading…') if block is None else _('(gone)')}"
            strip = Strip([Segment(text_line.ljust(width), style)])
        else:
            strip = self._strip(movement, width, base, cursor, row == self.cursor)
        return strip.crop_extend(scroll_x, scroll_x + width, base)

    def _strip(
        self, movement: Movement, width: int, base: Style, cursor: Style, at_cursor: bool
    ) -> Strip:
        """The movement's line, drawn once for each look it can have (the theme and the
        language are part of it), and kept: a change of filter or a scroll draws the lines
        again, most of them already seen."""
        selected = movement.movement_id in self.selection
        look = (self.app.theme, current_language(), at_cursor and self.has_focus)
        key = (movement.movement_id, width, selected, movement.unread, at_cursor, look)
        found = self._strips.get(key)
        if found is not None:
            self._strips.move_to_end(key)
            return found
        style = base
        if movement.unread:
            style += self.get_component_rich_style("movement-list--unread")
        if selected:
            style += self.get_component_rich_style("movement-list--selected")
        term = self.get_component_rich_style("movement-list--term")
        segments = [
            Segment(text, style + term if part == "terms" else style)
            for text, part in movement_cells(movement, width, selected=selected)
        ]
        strip = Strip(segments)
        if at_cursor:  # over everything: the cursor's colours win
            strip = Strip([Segment(t, (s or Style()) + cursor) for t, s, _c in segments])
            strip = strip.extend_cell_length(width, base + cursor)
        self._strips[key] = strip
        if len(self._strips) > KEPT_STRIPS:
            self._strips.popitem(last=False)
        return strip

    def on_resize(self) -> None:
        self.virtual_size = Size(self.size.width, len(self.ids))
        self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    # ------------------------------------------------------------------ moving

    def _move(self, index: int, *, force: bool = False) -> None:
        last = len(self.ids) - 1
        index = max(0, min(index, last)) if last >= 0 else 0
        if index == self.cursor and not force:
            return
        self.cursor = index
        self._reveal_cursor()
        if force:  # a new list: its size is known only once laid out
            self.call_after_refresh(self._reveal_cursor)
        self.refresh()
        self.post_message(self.Highlighted(self.current_id))

    def _reveal_cursor(self) -> None:
        index = self.cursor
        top = self.scroll_offset.y
        height = max(1, self.size.height)
        if index < top:
            self.scroll_to(y=index, animate=False)
        elif index >= top + height:
            self.scroll_to(y=index - height + 1, animate=False)

    def action_cursor_up(self) -> None:
        self._move(self.cursor - 1)

    def action_cursor_down(self) -> None:
        self._move(self.cursor + 1)

    def action_page_up(self) -> None:
        self._move(self.cursor - max(1, self.size.height - 1))

    def action_page_down(self) -> None:
        self._move(self.cursor + max(1, self.size.height - 1))

    def action_first(self) -> None:
        self._move(0)

    def action_last(self) -> None:
        self._move(len(self.ids) - 1)

    def action_choose(self) -> None:
        current = self.current_id
        if current is not None:
            self.post_message(self.Chosen(current))

    def action_toggle_selected(self) -> None:
        current = self.current_id
        if current is None:
            return
        if current in self.selection:
            self.selection.discard(current)
        else:
            self.selection.add(current)
        self.post_message(self.SelectionChanged())
        self._move(self.cursor + 1, force=True)  # on to the next, as a mail client does

    def select_all(self) -> None:
        """Select every id shown, or none when all already are."""
        if len(self.selection) == len(self.ids):
            self.selection.clear()
        else:
            self.selection = set(self.ids)
        self.post_message(self.SelectionChanged())
        self.refresh()

    def on_click(self, event: object) -> None:
        offset = getattr(event, "y", None)
        if isinstance(offset, int):
            self._move(self.scroll_offset.y + offset)

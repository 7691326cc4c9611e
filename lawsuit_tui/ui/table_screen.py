"""``TableScreen``: a full screen whose main part is its one :class:`PagedTable`.

The list is what the user came for, so the table has the keys when the screen opens; the
screen reaches it as ``self.table``. A subclass yields the table in ``compose_body`` (one
PagedTable per screen) and says what its rows are: ``TableScreen[RequestRecord]``.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from lawsuit_tui.ui.framed_screen import FramedScreen
from lawsuit_tui.ui.widgets.paged_table import PagedTable

__all__ = ["TableScreen"]

ItemT = TypeVar("ItemT")


class TableScreen(FramedScreen, Generic[ItemT]):
    """A framed screen around one PagedTable of ``ItemT``, which is focused on mount."""

    @property
    def table(self) -> PagedTable[ItemT]:
        return self.query_one(PagedTable)

    def on_mount(self) -> None:
        super().on_mount()
        self.table.focus()

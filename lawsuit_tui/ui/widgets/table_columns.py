"""A plain DataTable's last column given the width its fixed columns leave.

DataTable has no flexible width (PagedTable shares the room among its own flexible columns):
a screen with a small table of fixed columns sizes the last one with :func:`room_left` when it
adds it, and again with :func:`set_column_width` when the terminal is resized.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

__all__ = ["room_left", "set_column_width"]


def room_left(width: int, fixed: Sequence[int], *, least: int) -> int:
    """What the ``fixed`` columns leave of ``width`` to one more column, never under ``least``:
    every column's padding (a cell on each side) and the vertical scrollbar (2) taken off."""
    return max(least, width - sum(fixed) - 2 * (len(fixed) + 1) - 2)


def set_column_width(table: DataTable[Any], key: str, width: int) -> None:
    """Give the column ``key`` of a mounted table a new width, and redraw the table."""
    column = table.columns.get(ColumnKey(key))
    if column is not None:
        column.width = width
        table.refresh()

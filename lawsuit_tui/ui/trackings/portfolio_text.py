"""How a portfolio's rows read on screen (no Textual): columns for the width at hand, the words
of a tracking's status and tier, its recurrence and fixed time in the reader's time."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len

from lawsuit_tui.domain.formatting import format_date, format_time_of_day
from lawsuit_tui.domain.vocabulary import TRACKING_STATUS_WORDS, word
from lawsuit_tui.i18n import _, pgettext
from lawsuit_tui.services.portfolio import PortfolioEntry, tier_word

__all__ = [
    "Column",
    "entry_matches",
    "every_text",
    "portfolio_columns",
    "status_word",
]

Column = tuple[str, str, int | None]
# The key column (a CNJ is 25 characters) and, when there is room, the name take what is left.
KEY_WIDTH = 25
WIDE_FROM = 110


def status_word(status: str) -> str:
    return word(TRACKING_STATUS_WORDS, status) if status else ""


def every_text(entry: PortfolioEntry, *, wide: bool = True) -> str:
    """``7 d`` or ``1 d 08:30``: the recurrence, and (``wide``) the fixed time in the reader's
    time; narrow, a fixed time is only hinted by a ``*`` (the detail says it whole)."""
    text = _("{n} d").format(n=entry.recurrence)
    if entry.fixed_time is not None:
        text += " " + format_time_of_day(*entry.fixed_time) if wide else "*"
    return text


def _fit(key: str, label: str, least: int | None) -> Column:
    return (key, label, None if least is None else max(least, cell_len(label)))


def portfolio_columns(width: int) -> list[Column]:
    """The list's columns for a terminal ``width`` columns wide (every header whole)."""
    columns = [
        _fit("mark", " ", 1),
        _fit("status", pgettext("portfolio column", "Status"), 10),
        _fit("key", pgettext("portfolio column", "Key"), KEY_WIDTH),
        _fit("tier", pgettext("portfolio column", "Tier"), 6),
        _fit("court", pgettext("portfolio column", "Court"), 6),
        _fit("every", pgettext("portfolio column", "Every"), 5),
        ("labels", pgettext("portfolio column", "Labels"), None),
    ]
    if width >= WIDE_FROM:
        columns[5] = _fit("every", pgettext("portfolio column", "Every"), 10)
        columns.insert(3, ("name", pgettext("portfolio column", "Name"), None))
        columns.append(_fit("updated", pgettext("portfolio column", "Updated"), 10))
    return columns


def row_cells(entry: PortfolioEntry, columns: Sequence[Column], marked: bool) -> list[str]:
    """The plain text of each column (the screen colours the status)."""
    values = {
        "mark": "✓" if marked else " ",
        "status": status_word(entry.status),
        "key": entry.display,
        "name": entry.name or "",
        "tier": tier_word(entry.tier) if entry.tier else "—",
        "court": entry.court or "—",
        "every": every_text(entry, wide=any(key == "updated" for key, _l, _w in columns)),
        "labels": ", ".join(entry.labels),
        "updated": format_date(entry.updated_at or entry.created_at),
    }
    return [values[key] for key, _label, _width in columns]


def entry_matches(entry: PortfolioEntry, words: Sequence[str]) -> bool:
    """Every word (folded) is found in the entry's key, name, tier, labels, court or id."""
    if not words:
        return True
    haystack = entry.haystack() + " " + status_word(entry.status).casefold()
    if entry.tier:
        haystack += " " + tier_word(entry.tier).casefold()
    return all(w in haystack for w in words)

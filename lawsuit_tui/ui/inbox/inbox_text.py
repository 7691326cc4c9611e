"""How the inbox reads: a movement's line, its detail, the filter in words (no Textual).

A line is laid out for the width it has: at 80 columns the mark, when, court, tier, the CNJ
number and what moved; from 110 columns the parties and the matched terms too.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

from lawsuit_tui.domain import identifiers as ids
from lawsuit_tui.domain.formatting import format_date, format_datetime, format_int, format_money
from lawsuit_tui.domain.inbox import KIND_ERROR, KIND_LAWSUIT, InboxFilter, Movement
from lawsuit_tui.domain.vocabulary import MOVEMENT_KIND_WORDS, SEARCH_TYPE_WORDS, TIER_WORDS, word
from lawsuit_tui.i18n import _, ngettext

__all__ = [
    "Layout",
    "count_words",
    "detail_text",
    "filter_words",
    "layout_for",
    "movement_cells",
    "search_label",
    "short_when",
    "what_moved",
]

WIDE = 110
"""From this width a line also shows the parties and the matched terms."""


@dataclass(frozen=True, slots=True)
class Layout:
    """Column widths of a line (0: the column is left out); ``what`` takes the rest."""

    when: int = 11
    court: int = 6
    tier: int = 6
    code: int = 25
    parties: int = 0
    terms: int = 0


def layout_for(width: int) -> Layout:
    if width >= WIDE:
        parties = max(20, min(36, (width - 70) // 2))
        return Layout(when=16, court=9, tier=7, parties=parties, terms=18)
    return Layout()


def short_when(value: str | None, *, full: bool = False) -> str:
    """``21/11 09:05`` (``full``: ``21/11/2026 09:05``), where the user is."""
    text = format_datetime(value)
    if full or len(text) < 16:
        return text
    return f"{text[:5]} {text[11:16]}"


def what_moved(movement: Movement) -> str:
    """One line of what moved: the newest new step, and how many more."""
    if movement.kind == KIND_ERROR:
        return f"{word(MOVEMENT_KIND_WORDS, movement.kind)}: {movement.error_code}"
    steps = movement.steps
    if not steps:
        return word(MOVEMENT_KIND_WORDS, movement.kind)
    newest = steps[0]
    text = " ".join(newest.content.split())
    line = f"{newest.step_type}: {text}" if newest.step_type else text
    if movement.kind == KIND_LAWSUIT:
        line = f"{word(MOVEMENT_KIND_WORDS, movement.kind)} · {line}"
    if len(steps) > 1:
        line = f"(+{format_int(len(steps) - 1)}) {line}"
    return line


def _cell(text: str, width: int) -> str:
    if width <= 0:
        return ""
    if len(text) > width:
        return text[: max(0, width - 1)] + "…"
    return text.ljust(width)


def movement_cells(movement: Movement, width: int, *, selected: bool) -> list[tuple[str, str]]:
    """The movement's line in ``width`` cells as ``(text, part)`` pieces: mark (✓ selected,
    ● unread), when, court, tier, CNJ, [parties], what moved, [terms]; ``part`` names the
    piece (``terms`` is drawn in the accent colour). Plain strings: the list draws 40 of
    these on every change, Rich's Text costs ten times as much."""
    layout = layout_for(width)
    mark = "✓ " if selected else ("● " if movement.unread else "  ")
    court = movement.court
    if movement.instance and layout.court >= 9:
        court = f"{court} {movement.instance}º"
    head = (
        mark
        + _cell(short_when(movement.received_at, full=layout.when >= 16), layout.when)
        + " "
        + _cell(court, layout.court)
        + " "
        + _cell(word(TIER_WORDS, movement.tier) if movement.tier else "", layout.tier)
        + " "
        + _cell(movement.code, layout.code)
        + " "
    )
    if layout.parties:
        head += _cell(movement.name, layout.parties) + " "
    terms = ", ".join(movement.terms) if layout.terms else ""
    room = width - len(head) - (layout.terms + 1 if terms else 0)
    cells = [(head + _cell(what_moved(movement), max(0, room)), "line")]
    if terms:
        cells.append((" " + _cell(terms, layout.terms).rstrip(), "terms"))
    return cells


def search_label(movement: Movement) -> str:
    """The tracking's search: ``CNJ 0001234-56.2023.8.26.0100``, ``CPF 123.456.789-09``."""
    kind, key = movement.search_type, movement.search_key
    if not kind or not key:
        return ""
    if kind in ("cpf", "cnpj", "oab", "lawsuit_cnj"):
        with contextlib.suppress(ids.InvalidSearchKey):
            key = ids.parse_search_key(key, allow_wrong_check_digits=True).display
    return f"{word(SEARCH_TYPE_WORDS, kind)} {key}"


def detail_text(movement: Movement | None, *, muted: Style, accent: Style) -> Text:
    """The highlighted movement: where and when, the tracking, terms, then each new step."""
    text = Text()
    if movement is None:
        text.append(_("No movement is selected."), muted)
        return text
    head = [movement.code]
    if movement.court:
        head.append(
            f"{movement.court} {movement.instance}º" if movement.instance else movement.court
        )
    if movement.tier:
        head.append(_("{tier} tier").format(tier=word(TIER_WORDS, movement.tier)))
    head.append(short_when(movement.received_at, full=True))
    text.append(" · ".join(head), "bold")
    text.append("\n")
    facts: list[str] = []
    if movement.name:
        facts.append(movement.name)
    if movement.county:
        facts.append(movement.county)
    if movement.amount is not None:
        facts.append(_("Amount {amount}").format(amount=format_money(movement.amount)))
    if facts:
        text.append(" · ".join(facts) + "\n", muted)
    tracking = search_label(movement)
    if tracking:
        text.append(_("Tracking: {search}").format(search=tracking) + "\n", muted)
    if movement.terms:
        text.append(_("Step terms found: "), muted)
        text.append(", ".join(movement.terms) + "\n", accent)
    if movement.kind == KIND_ERROR:
        message = movement.extra.get("error_message")
        text.append(f"{movement.error_code}: {message or ''}".rstrip(": ") + "\n")
    for step in movement.steps:
        text.append(format_date(step.step_date) or "—", "bold")
        if step.step_type:
            text.append(" · ")
            text.append(step.step_type, accent)
        text.append("\n")
        text.append(" ".join(step.content.split()) + "\n")
    text.rstrip()
    return text


def filter_words(query: InboxFilter, *, tracking: str = "") -> str:
    """The filter in force, in words: ``hot · TJSP · unread · since 20/11/2026 · “penhora”``."""
    parts: list[str] = []
    if query.tracking_id:
        parts.append(tracking or _("one tracking"))
    if query.unread:
        parts.append(_("unread"))
    if query.tier:
        parts.append(word(TIER_WORDS, query.tier))
    if query.court:
        parts.append(query.court)
    if query.step_type:
        parts.append(query.step_type)
    if query.term:
        parts.append(_("term “{term}”").format(term=query.term))
    if query.since is not None:
        parts.append(_("since {date}").format(date=short_when(query.since.isoformat(), full=True)))
    if query.until is not None:
        parts.append(_("until {date}").format(date=short_when(query.until.isoformat(), full=True)))
    if query.text.strip():
        parts.append(f"“{query.text.strip()}”")
    return " · ".join(parts)


def count_words(shown: int, total: int, unread: int, selected: int) -> str:
    """``1.234 of 100.000 movements · 56 unread · 3 selected``."""
    if shown == total:
        head = ngettext("{n} movement", "{n} movements", total).format(n=format_int(total))
    else:
        head = ngettext("{shown} of {n} movement", "{shown} of {n} movements", total).format(
            shown=format_int(shown), n=format_int(total)
        )
    parts = [head, ngettext("{n} unread", "{n} unread", unread).format(n=format_int(unread))]
    if selected:
        parts.append(
            ngettext("{n} selected", "{n} selected", selected).format(n=format_int(selected))
        )
    return " · ".join(parts)

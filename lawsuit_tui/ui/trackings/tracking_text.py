"""How a tracking reads on screen: its search, recurrence, status and dates (no Textual)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from datetime import datetime

from lawsuit_tui.domain import identifiers as ids
from lawsuit_tui.domain.base import as_datetime
from lawsuit_tui.domain.formatting import format_date, format_datetime, format_time_of_day
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.i18n import N_, _, ngettext

__all__ = [
    "STATUS_VARIABLES",
    "TYPE_LABELS",
    "Movement",
    "last_update",
    "matches_text",
    "movements",
    "recurrence_text",
    "search_label",
    "type_label",
]

# Theme variables giving each status its colour (text-* variables read well on any surface).
STATUS_VARIABLES: dict[str, str] = {
    "created": "text-primary",
    "updating": "text-accent",
    "updated": "text-success",
    "paused": "text-warning",
    "deleted": "foreground-muted",
    "suspended": "text-error",
}

TYPE_LABELS: dict[str, str] = {
    "lawsuit_cnj": "CNJ",
    "lawsuit_id": "ID",
    "cpf": "CPF",
    "cnpj": "CNPJ",
    "oab": "OAB",
    "name": N_("Name"),
}


def search_label(record: TrackingRecord) -> str:
    """``CNJ 0001234-56.2023.8.26.0100``: the search type's short name and the formatted key."""
    search = record.search
    if search is None:
        return ""
    kind = str(search.search_type or "")
    key = search.search_key or ""
    if kind in ("cpf", "cnpj", "oab", "lawsuit_cnj"):
        with contextlib.suppress(ids.InvalidSearchKey):
            key = ids.parse_search_key(key, allow_wrong_check_digits=True).display
    return f"{type_label(kind)} {key}".strip()


def type_label(search_type: str) -> str:
    """The short name of a search type (CNJ, CPF, CNPJ, OAB, Name)."""
    label = TYPE_LABELS.get(search_type)
    return _(label) if label else search_type


def recurrence_text(record: TrackingRecord, *, short: bool = False) -> str:
    """``every 7 days, at 05:30`` (the reader's time); short: ``7 d 05:30``."""
    days = record.recurrence or 1
    if short:
        every = _("{n} d").format(n=days)
    else:
        every = ngettext("every day", "every {n} days", days).format(n=days)
    if record.fixed_time and record.hour_range is not None:
        # The service keeps the time of day in UTC; the reader sees their own.
        clock = format_time_of_day(record.hour_range, record.execution_minute or 0)
        template = "{every} {clock}" if short else _("{every}, at {clock}")
        return template.format(every=every, clock=clock)
    return every


def last_update(record: TrackingRecord, *, date_only: bool = False) -> str:
    stamps = [
        as_datetime(value)
        for value in (record.updated_at, record.updating_at, record.paused_at, record.created_at)
    ]
    known = [stamp for stamp in stamps if stamp is not None]
    if not known:
        return ""
    return format_date(max(known)) if date_only else format_datetime(max(known))


def matches_text(record: TrackingRecord, text: str) -> bool:
    """True when every word of ``text`` is found in the tracking's key, tags, e-mails or id."""
    words = text.casefold().split()
    if not words:
        return True
    search = record.search
    parts: list[str] = [record.tracking_id, search_label(record)]
    if search is not None:
        parts.append(search.search_key or "")
    parts.extend(record.notification_emails or [])
    for key, value in (record.tags or {}).items():
        parts.append(f"{key}={value}")
    if record.notification_filters and record.notification_filters.step_terms:
        parts.extend(record.notification_filters.step_terms)
    haystack = " ".join(parts).casefold()
    return all(word in haystack for word in words)


class Movement:
    """A response a tracking produced: when, which lawsuit, and how many steps are new."""

    def __init__(
        self, response: ResponseRecord, new_steps: int | None, lawsuit: Lawsuit | None
    ) -> None:
        self.response = response
        self.new_steps = new_steps
        self.lawsuit = lawsuit

    @property
    def key(self) -> str:
        return self.response.response_id or str(id(self))

    @property
    def when(self) -> datetime | None:
        return as_datetime(self.response.created_at)


def _step_ids(lawsuit: Lawsuit) -> set[str]:
    return {step.step_id for step in lawsuit.steps or [] if step.step_id}


def _steps_after(lawsuit: Lawsuit, moment: datetime | None) -> int | None:
    if moment is None:
        return None
    count = 0
    for step in lawsuit.steps or []:
        when = as_datetime(step.step_date)
        if when is not None and when >= moment:
            count += 1
    return count


def _order(response: ResponseRecord) -> tuple[float, str]:
    stamp = as_datetime(response.created_at)
    return (stamp.timestamp() if stamp else float("-inf"), response.response_id or "")


def movements(record: TrackingRecord, responses: Iterable[ResponseRecord]) -> list[Movement]:
    """The tracking's responses, newest first, each with its count of new steps.

    A step is new in a movement when the previous movement of the same lawsuit did not have
    it; in a lawsuit's first movement, when it is dated after the tracking was created.
    """
    ordered: Sequence[ResponseRecord] = sorted(responses, key=_order)
    seen: dict[tuple[str, int | None], set[str]] = {}
    created = as_datetime(record.created_at)
    found: list[Movement] = []
    for response in ordered:
        lawsuit = response.lawsuit
        if lawsuit is None:
            found.append(Movement(response, None, None))
            continue
        key = (lawsuit.code, lawsuit.instance)
        ids_now = _step_ids(lawsuit)
        before = seen.get(key)
        new = len(ids_now - before) if before is not None else _steps_after(lawsuit, created)
        seen[key] = ids_now
        found.append(Movement(response, new, lawsuit))
    found.reverse()
    return found

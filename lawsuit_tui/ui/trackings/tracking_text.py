"""How a tracking reads on screen: its search, recurrence, status and dates (no Textual)."""

from __future__ import annotations

import contextlib

from lawsuit_tui.domain import identifiers as ids
from lawsuit_tui.domain.base import as_datetime
from lawsuit_tui.domain.formatting import (
    format_date,
    format_datetime,
    utc_clock_to_local,
    zone_label,
)
from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.i18n import N_, _, ngettext

__all__ = [
    "STATUS_VARIABLES",
    "TYPE_LABELS",
    "last_update",
    "matches_text",
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
    """``every 7 days, 05:30 (Brasília time)``; short: ``7 d 05:30``, in the user's zone
    (the service keeps the hour in UTC; D146)."""
    days = record.recurrence or 1
    if short:
        every = _("{n} d").format(n=days)
    else:
        every = ngettext("every day", "every {n} days", days).format(n=days)
    if record.fixed_time and record.hour_range is not None:
        hour, minute = utc_clock_to_local(record.hour_range, record.execution_minute or 0)
        template = (
            "{every} {hour:02d}:{minute:02d}"
            if short
            else _("{every}, {hour:02d}:{minute:02d} ({zone})")
        )
        return template.format(every=every, hour=hour, minute=minute, zone=zone_label())
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

"""The inbox of movements: what one movement holds, and how the inbox is filtered (pure).

A movement is one response a tracking produced (its ``response_id`` names it): when it came,
which lawsuit, its court and the tracking's tier, the steps it brought that were new, and which
of the tracking's ``step_terms`` they matched. :mod:`lawsuit_tui.services.inbox` makes them and
keeps them in the cache; this module is what every layer shares about them: the record's
fields (:class:`Movement` reads one), the filter (:class:`InboxFilter`) and the folding that
makes a search or a step term match as a lawyer types it (``sentenca`` finds "SENTENÇA").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from enum import StrEnum
from typing import Any

from lawsuit_tui.domain.folding import fold
from lawsuit_tui.i18n import _

__all__ = [
    "KIND_ERROR",
    "KIND_LAWSUIT",
    "KIND_STEPS",
    "InboxFilter",
    "Movement",
    "MovementKind",
    "MovementStep",
    "as_instant",
    "day_start",
    "fold",
    "matched_terms",
    "parse_when",
]


class MovementKind(StrEnum):
    STEPS = "steps"
    """A lawsuit tracking's lawsuit moved: new steps."""
    LAWSUIT = "lawsuit"
    """A document tracking found a lawsuit it did not know."""
    ERROR = "error"
    """A run could not look (the court was down, a credential failed): an application error."""


KIND_STEPS = MovementKind.STEPS
KIND_LAWSUIT = MovementKind.LAWSUIT
KIND_ERROR = MovementKind.ERROR


def as_instant(value: object) -> datetime | None:
    """An ISO 8601 instant (``Z`` or an offset; none: UTC), or None when it is not one."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def day_start(day: date, zone: tzinfo) -> datetime:
    """Midnight of ``day`` where the user is (``zone``)."""
    return datetime.combine(day, time(0, 0), tzinfo=zone)


_DURATION = re.compile(r"(\d+)\s*(m|min|h|d|w)", re.IGNORECASE)
_UNITS = {"m": 60, "min": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_when(text: str, *, now: datetime, zone: tzinfo) -> datetime:
    """The instant a person means by ``text`` (D175): ``today``/``hoje`` and
    ``yesterday``/``ontem`` (midnight where they are), a duration back from now (``24h``,
    ``7d``, ``30m``, ``2w``), a date (``21/11/2026`` or ``2026-11-21``: its midnight) or an ISO
    date-time (no offset: their zone). ValueError, with a message for them, otherwise."""
    value = text.strip()
    word = fold(value)
    today = now.astimezone(zone).date()
    if word in ("today", "hoje"):
        return day_start(today, zone)
    if word in ("yesterday", "ontem"):
        return day_start(today - timedelta(days=1), zone)
    duration = _DURATION.fullmatch(value)
    if duration:
        seconds = int(duration.group(1)) * _UNITS[duration.group(2).lower()]
        return now - timedelta(seconds=seconds)
    brazilian = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", value)
    try:
        if brazilian:
            day, month, year = (int(part) for part in brazilian.groups())
            return day_start(date(year, month, day), zone)
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            return day_start(date.fromisoformat(value), zone)
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        moment = None
    if moment is None:
        raise ValueError(
            _(
                "{text!r} is not a moment: use today, yesterday, 24h, 7d, 21/11/2026 or "
                "2026-11-21T08:00"
            ).format(text=text)
        )
    return moment if moment.tzinfo else moment.replace(tzinfo=zone)


def matched_terms(terms: Iterable[str], texts: Iterable[str]) -> list[str]:
    """The ``terms`` (as the tracking spells them) found in any of ``texts``, accent- and
    case-insensitively, each once, in the tracking's order."""
    haystack = "\n".join(fold(text) for text in texts)
    found: list[str] = []
    for term in terms:
        needle = fold(term.strip())
        if needle and needle in haystack and term not in found:
            found.append(term)
    return found


@dataclass(frozen=True, slots=True)
class MovementStep:
    """A step a movement brought: its id, date, type and text (as the service wrote them)."""

    step_id: str
    step_date: str | None
    step_type: str
    content: str

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> MovementStep:
        return cls(
            step_id=str(data.get("step_id") or ""),
            step_date=data.get("step_date") if isinstance(data.get("step_date"), str) else None,
            step_type=str(data.get("step_type") or ""),
            content=str(data.get("content") or ""),
        )

    @property
    def when(self) -> datetime | None:
        return as_instant(self.step_date)


@dataclass(frozen=True, slots=True)
class Movement:
    """One movement of the inbox, read from its cached record (see services/inbox.py)."""

    movement_id: str
    tracking_id: str
    request_id: str
    kind: str
    received_at: str
    code: str
    instance: int | None
    name: str
    court: str
    county: str
    amount: float | None
    tier: str
    search_type: str
    search_key: str
    steps: tuple[MovementStep, ...]
    terms: tuple[str, ...]
    error_code: str
    source: str
    read_at: str | None
    stored_at: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> Movement:
        def text(name: str) -> str:
            value = record.get(name)
            return value if isinstance(value, str) else ""

        instance = record.get("instance")
        amount = record.get("amount")
        steps = record.get("steps")
        terms = record.get("terms")
        return cls(
            movement_id=text("movement_id"),
            tracking_id=text("tracking_id"),
            request_id=text("request_id"),
            kind=text("kind") or KIND_STEPS,
            received_at=text("received_at"),
            code=text("code"),
            instance=instance if isinstance(instance, int) else None,
            name=text("name"),
            court=text("court"),
            county=text("county"),
            amount=float(amount) if isinstance(amount, int | float) else None,
            tier=text("tier"),
            search_type=text("search_type"),
            search_key=text("search_key"),
            steps=tuple(MovementStep.of(s) for s in steps if isinstance(s, dict))
            if isinstance(steps, list)
            else (),
            terms=tuple(t for t in terms if isinstance(t, str)) if isinstance(terms, list) else (),
            error_code=text("error_code"),
            source=text("source"),
            read_at=record.get("read_at") if isinstance(record.get("read_at"), str) else None,
            stored_at=record.get("stored_at") if isinstance(record.get("stored_at"), str) else None,
            extra=record,
        )

    @property
    def unread(self) -> bool:
        return self.read_at is None

    @property
    def when(self) -> datetime | None:
        return as_instant(self.received_at)

    @property
    def step_ids(self) -> list[str]:
        return [step.step_id for step in self.steps if step.step_id]

    @property
    def step_types(self) -> list[str]:
        """The types of the new steps, each once, newest step's first."""
        return list(dict.fromkeys(step.step_type for step in self.steps if step.step_type))


@dataclass(frozen=True, slots=True)
class InboxFilter:
    """What the inbox shows: every field narrows it; the default shows everything.

    ``text`` holds words that must all be found (accent- and case-insensitive) in the lawsuit's
    number, name, court, tier, the tracking's search, or the new steps' types and texts.
    ``since``/``until`` bound when the movement came (``until`` excluded).
    """

    tier: str | None = None
    court: str | None = None
    step_type: str | None = None
    term: str | None = None
    tracking_id: str | None = None
    unread: bool = False
    since: datetime | None = None
    until: datetime | None = None
    text: str = ""

    @property
    def words(self) -> Sequence[str]:
        return [fold(word) for word in self.text.split() if word.strip()]

    @property
    def is_empty(self) -> bool:
        return self == InboxFilter()

    def but(self, **changes: Any) -> InboxFilter:
        """A copy with ``changes`` (a field set to None or False is cleared)."""
        return replace(self, **changes)

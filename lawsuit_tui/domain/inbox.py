"""The inbox of movements: what one movement holds, and how the inbox is filtered (pure).

A movement is one response a tracking produced (its ``response_id`` names it): when it came,
which lawsuit, its court and the tracking's tier, the steps it brought that were new, and which
of the tracking's ``step_terms`` they matched. :mod:`lawsuit_tui.services.inbox` makes them and
keeps them in the cache; this module is what every layer shares about them: the record's
fields (:class:`Movement` reads one), the filter (:class:`InboxFilter`) and the folding that
makes a search or a step term match as a lawyer types it (``sentenca`` finds "SENTENÇA").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Final

from lawsuit_tui.domain.base import as_datetime

__all__ = [
    "KIND_ERROR",
    "KIND_LAWSUIT",
    "KIND_STEPS",
    "InboxFilter",
    "Movement",
    "MovementStep",
    "fold",
    "matched_terms",
]

KIND_STEPS: Final = "steps"
"""A lawsuit tracking's lawsuit moved: new steps."""
KIND_LAWSUIT: Final = "lawsuit"
"""A document tracking found a lawsuit it did not know."""
KIND_ERROR: Final = "error"
"""A run could not look (the court was down, a credential failed): an application error."""


def fold(text: str) -> str:
    """``text`` in lower case without accents or cedillas, for matching as people type:
    ``fold("Sentença")`` == ``fold("SENTENCA")`` == ``"sentenca"``."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


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
        return as_datetime(self.step_date)


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
    search: str
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
            search=text("search"),
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
        return as_datetime(self.received_at)

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

"""What the services hand back: plain dataclasses over the domain models (no Textual)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from lawsuit_tui.domain.identifiers import SearchKey
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.store import LawsuitChange

__all__ = [
    "CancelOutcome",
    "Completed",
    "FollowEvent",
    "LawsuitView",
    "LookupResult",
    "Progress",
    "ResponseArrived",
    "StatusChanged",
    "SyncReport",
]


@dataclass(frozen=True)
class LookupResult:
    """The lawsuits held for a key; ``from_cache``: read from the local cache, no call made."""

    key: SearchKey
    lawsuits: list[Lawsuit]
    request_id: str | None
    from_cache: bool
    fetched_at: datetime

    @property
    def barred_by_secrecy(self) -> bool:
        """A lawsuit number whose every instance came under secrecy with its public fields
        only (D102): no credential opens it; the vault does."""
        return bool(self.lawsuits) and all(
            lawsuit.is_secret and not lawsuit.parties and not lawsuit.steps
            for lawsuit in self.lawsuits
        )


@dataclass(frozen=True)
class LawsuitView:
    """A lawsuit as the cache holds it. ``provisional``: only the service's cached copy is
    known so far; the ``new_*`` ids are what the latest version brought."""

    lawsuit: Lawsuit
    provisional: bool
    stored_at: datetime
    new_step_ids: set[str] = field(default_factory=set)
    new_attachment_ids: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class CancelOutcome:
    """What "cancel or delete" did to a request (D62), as the service shows it afterwards.

    ``outcome``: ``cancelling``/``cancelled`` (no more responses), ``deleted`` (a finished
    request soft-deleted: gone from the list, its responses still readable), ``refused`` (the
    service answered ``success: false``), ``still_running`` (taken, but the query the court
    already started goes on: the FAQ says a started query cannot be cancelled), ``unchanged``
    (nothing to cancel). ``record``: the request re-read after the call (None when the
    service no longer shows it and the cache never held it)."""

    request_id: str
    outcome: str
    record: RequestRecord | None
    answered_at: datetime | str | None = None


@dataclass(frozen=True)
class StatusChanged:
    """The request moved to another status (pending, started, cancelling...)."""

    record: RequestRecord


@dataclass(frozen=True)
class ResponseArrived:
    """A response of the followed request. ``provisional``: from the service's cached data;
    ``replaces``: the response_id of the provisional response this definitive one replaces;
    ``change``: what it changed in the cached lawsuit (None for other response types, or when
    the cache ignored it)."""

    response: ResponseRecord
    provisional: bool
    replaces: str | None
    change: LawsuitChange | None


@dataclass(frozen=True)
class Completed:
    """The request ended (completed or cancelled): no more responses will come."""

    record: RequestRecord


FollowEvent = StatusChanged | ResponseArrived | Completed


@dataclass(frozen=True)
class Progress:
    """Progress of long work, for a progress bar (TUI) or a line on standard error (CLI)."""

    done: int
    total: int | None
    calls: int
    waiting_for_rate_limit: bool
    message: str


@dataclass
class SyncReport:
    """What a sync did. ``calls``: HTTP attempts made (retries included)."""

    requests_updated: int = 0
    trackings_updated: int = 0
    responses_read: int = 0
    responses_new: int = 0
    lawsuits_changed: int = 0
    pages: int = 0
    calls: int = 0
    rate_limited: int = 0
    resumed_from_page: int = 1
    seconds: float = 0.0
    open_requests: int = 0

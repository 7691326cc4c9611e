"""The inbox: every movement of every tracking, from webhooks and from polling, in the cache.

Movements come two ways, and each is stored once (by its response id, D171):

- **Webhooks.** The receiver's ``tracking_response`` deliveries go through
  :mod:`lawsuit_tui.services.webhooks`, which stores the movement, then the response and the
  delivery's mark in one batch (a redelivery, same ``callback_id``, changes nothing).
- **Polling** (:meth:`InboxService.poll`, D173). The tracking runs made since the last poll
  that produced responses (``GET /requests`` with ``origin=tracking``, filtered again here,
  D23) name the trackings that moved; only those are asked for their responses
  (``GET /responses/tracking/{id}``, D77) over the window of those runs. The runs already
  handled are remembered, so each is asked about once, whatever the poll's frequency.

Read marks live in the cache too (``store.inbox``): the inbox a teammate's process or a
command sees is the one the app shows. Everything the screens and commands need is here:
:meth:`select` (ids, newest first, from the filter columns in memory and the text index),
:meth:`movements` (a page of them), :meth:`facets`, :meth:`mark`, the unread count and the
exports.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any

from lawsuit_tui.api.errors import NotFound
from lawsuit_tui.api.filters import RequestFilters
from lawsuit_tui.domain.base import as_datetime
from lawsuit_tui.domain.inbox import InboxFilter, Movement, day_start
from lawsuit_tui.services.deps import Deps
from lawsuit_tui.services.inbox_export import export_file
from lawsuit_tui.services.movements import ingest_tracking_responses
from lawsuit_tui.services.trackings import TrackingService
from lawsuit_tui.store import Store

__all__ = ["Facets", "InboxService", "PollOutcome"]

POLL_STATE = "inbox.poll"
FIRST_LOOK = timedelta(days=7)
"""How far back the first poll of a cache looks (D173)."""
OVERLAP = timedelta(hours=1)
"""Runs are listed again this far before the last poll (D173): a run listed while it ran is
seen again once it has its responses; the runs already handled are skipped."""
AHEAD = timedelta(minutes=5)
"""The window's end is the service's time plus this (a response made while the poll runs)."""
FINISHED = frozenset({"completed", "cancelled"})
REFRESH_FROM = 10
"""More moved trackings than this that the cache does not know: the list is read once instead."""


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def _stamp(value: object) -> datetime | None:
    return as_datetime(value) if isinstance(value, str) else None


@dataclass(frozen=True)
class PollOutcome:
    """What a poll found: the new movements' ids, and how many trackings it asked."""

    new: list[str] = field(default_factory=list)
    trackings: int = 0
    runs: int = 0


@dataclass(frozen=True)
class Facets:
    """The values the inbox holds for each filter, most frequent first, with their counts."""

    tiers: list[tuple[str, int]]
    courts: list[tuple[str, int]]
    step_types: list[tuple[str, int]]
    terms: list[tuple[str, int]]

    @classmethod
    def of(cls, counts: Mapping[str, Counter[str]]) -> Facets:
        def ordered(name: str) -> list[tuple[str, int]]:
            found = counts.get(name) or Counter()
            return sorted(found.items(), key=lambda item: (-item[1], item[0]))

        return cls(ordered("tier"), ordered("court"), ordered("step_type"), ordered("term"))


Progress = Callable[[int, int], None]


class InboxService:
    """The inbox over the cache and the client. ``server_now`` is the service's time (the
    sandbox's own clock in sandbox mode), which the polling windows are taken in."""

    def __init__(
        self,
        deps: Deps,
        trackings: TrackingService,
        *,
        server_now: Callable[[], datetime] | None = None,
    ) -> None:
        self._d = deps
        self._trackings = trackings
        self._server_now = server_now or deps.now
        self._lock = asyncio.Lock()

    @property
    def store(self) -> Store:
        return self._d.cache.store

    # ------------------------------------------------------------------ reading

    def select(self, query: InboxFilter) -> list[str]:
        """The ids of the movements ``query`` keeps, newest first (from memory, no parsing)."""
        return self.store.inbox.select(query)

    def movements(self, ids: Sequence[str]) -> list[Movement]:
        """The movements of ``ids`` (a page), in that order (blocks on disk briefly)."""
        return [Movement.of(record) for record in self.store.inbox.records(ids)]

    def get(self, movement_id: str) -> Movement | None:
        record = self.store.inbox.get(movement_id)
        return None if record is None else Movement.of(record)

    def facets(self) -> Facets:
        return Facets.of(self.store.inbox.facets())

    def unread_count(self) -> int:
        return self.store.inbox.unread_count()

    def count(self) -> int:
        return self.store.inbox.count()

    @property
    def version(self) -> int:
        """Changes whenever a movement is added or marked (a screen reloads when it does)."""
        return self.store.inbox.version

    def warm(self) -> None:
        """Read what the filters need now (blocks about 0.2 s for 100,000 movements: call it
        in a thread), so that the inbox opens at once later."""
        self.store.inbox.select(InboxFilter(tracking_id="\x00"))

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` (on the writing thread) after every change of the inbox made
        in this process; returns the function that unsubscribes it."""
        return self.store.inbox.subscribe(listener)

    # ------------------------------------------------------------------ marks

    async def mark(self, ids: Sequence[str], *, read: bool = True) -> int:
        """Mark movements read (or unread again); how many changed. Beside the process that
        holds the cache, the marks are handed to it (0 when nothing could keep them)."""
        if not self._d.cache.writable or not ids:
            return 0
        return await self._d.cache.mark_inbox(list(ids), read=read, at=_iso(self._d.now()))

    # ------------------------------------------------------------------ export

    def now(self) -> datetime:
        """The service's time (what "today" and "the last 7 days" of the inbox are in)."""
        return self._server_now()

    def today(self, zone: tzinfo) -> InboxFilter:
        """The movements that came today where the user is (``zone``)."""
        start = day_start(self._server_now().astimezone(zone).date(), zone)
        return InboxFilter(since=start, until=start + timedelta(days=1))

    async def export(
        self, ids: Sequence[str], *, file_format: str, folder: Path, zone: tzinfo
    ) -> Path:
        """Write the movements of ``ids`` as CSV or JSON into ``folder`` (D176); the file."""
        now = self._server_now()
        stem = "inbox-" + now.astimezone(zone).strftime("%Y-%m-%d-%H%M")
        chosen = list(ids)
        return await asyncio.to_thread(
            lambda: export_file(
                chosen,
                self.movements,
                file_format=file_format,
                folder=folder,
                stem=stem,
                exported_at=now,
            )
        )

    # ------------------------------------------------------------------ ingestion

    async def ingest(self, responses: Sequence[Mapping[str, Any]], *, source: str) -> list[str]:
        """Store tracking responses read by hand (or by a poll) with their movements; the
        ids of the movements new to the inbox."""
        if not self._d.cache.writable or not responses:
            return []
        now = self._d.now()
        done = await asyncio.to_thread(
            ingest_tracking_responses, self.store, responses, source=source, now=now
        )
        return done.movements

    async def poll(self, progress: Progress | None = None) -> PollOutcome:
        """Ask the service for the movements made since the last poll (D173); the new ones
        are stored and their ids returned. One poll at a time; nothing on a read-only cache
        (the process that holds it polls)."""
        if not self._d.cache.writable:
            return PollOutcome()
        async with self._lock:
            return await self._poll(progress)

    async def _poll(self, progress: Progress | None) -> PollOutcome:
        d = self._d
        state = d.cache.get_meta(POLL_STATE)
        state = dict(state) if isinstance(state, dict) else {}
        now = self._server_now()
        through = _stamp(state.get("through"))
        since = (through - OVERLAP) if through is not None else now - FIRST_LOOK
        pending = _stamp(state.get("pending"))
        if pending is not None:
            since = min(since, pending)  # a run still going at the last poll: list it again
        seen: dict[str, str] = {
            k: v for k, v in (state.get("runs") or {}).items() if isinstance(v, str)
        }
        moved: dict[str, datetime] = {}
        handled: dict[str, str] = {}
        unfinished: list[datetime] = []
        latest = now
        runs = 0
        filters = RequestFilters(origin="tracking", created_at_gte=since)
        async for run in d.api.iter_requests(filters=filters):
            runs += 1
            created = as_datetime(run.created_at)
            stamps = [as_datetime(run.updated_at), created]
            latest = max([latest, *(s for s in stamps if s is not None)])
            if run.request_id in seen or not run.origin_id:
                continue
            if run.status in FINISHED and created is not None:
                handled[run.request_id] = _iso(created)
            elif created is not None:
                unfinished.append(created)
            if (run.responses_count or 0) > 0 and created is not None:
                earliest = moved.get(run.origin_id)
                moved[run.origin_id] = created if earliest is None else min(earliest, created)
        new: list[str] = []
        until = latest + AHEAD
        unknown = [t for t in moved if self.store.get_tracking(t) is None]
        if len(unknown) > REFRESH_FROM:
            # Their tiers and terms: one listing (a page per thousand) rather than a call each.
            await self._trackings.refresh()
        for done, (tracking_id, first_run) in enumerate(sorted(moved.items())):
            if progress is not None:
                progress(done, len(moved))
            new.extend(await self._poll_tracking(tracking_id, first_run, until))
        if progress is not None:
            progress(len(moved), len(moved))
        keep_from = _iso(since)
        remembered = {k: v for k, v in {**seen, **handled}.items() if v >= keep_from}
        await d.cache.set_meta(
            POLL_STATE,
            {
                "through": _iso(now),
                "pending": _iso(min(unfinished)) if unfinished else None,
                "runs": remembered,
            },
        )
        return PollOutcome(new=new, trackings=len(moved), runs=runs)

    async def _poll_tracking(self, tracking_id: str, since: datetime, until: datetime) -> list[str]:
        d = self._d
        if self.store.get_tracking(tracking_id) is None:
            # Its tier and step terms, cached; deleted since, its movements count without.
            with contextlib.suppress(NotFound):
                await self._trackings.get(tracking_id)
        try:
            found = [
                r
                async for r in d.api.iter_tracking_responses_raw(
                    tracking_id, since=since - timedelta(seconds=1), until=until
                )
            ]
        except NotFound:
            return []
        return await self.ingest(found, source="poll")

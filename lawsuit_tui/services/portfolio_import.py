"""Importing a portfolio: every row checked first, then the trackings created in bulk, once.

1. **Check** (:meth:`PortfolioImporter.read`, :meth:`check_text`): the file's rows, each valid,
   invalid (why) or a duplicate (domain/portfolio.py).
2. **Plan** (:meth:`plan`): which valid rows are tracked already, in the cache at once and, when
   asked, at the service (its whole list, read a thousand at a time), and what the others will
   cost a month per tier.
3. **Run** (:meth:`run`): the rows left are sent in chunks of up to 1000
   (``POST /tracking/bulk``, D73), each call taking one slot of the shared rate window (D74),
   so the import runs as fast as the window allows and never draws a 429 of its own.

Never a tracking created twice (D161). A bulk call is never repeated once it may have reached
the service, and its answer can be lost (Ctrl-C, ``kill -9``, a dropped connection). So:

- before each call, an *intent* naming its keys is made durable in the cache
  (store/tables/portfolio_imports.py);
- the answer settles the intent in the same durable batch as the trackings it made;
- an intent left open (by a kill at any moment, or a call whose outcome is unknown) is
  *reconciled* before anything else is sent: the service's list of trackings is read, the
  intent's keys found there are taken as created, and only the others may be sent again;
- the service's own refusal of a key it tracks already (``TRACKING_ALREADY_EXISTS``, D73) is
  "already tracked", with its id.

A second import of the same file, or a re-run after a kill, therefore creates only what is
missing. The cache must be writable for a run (the intents live there); a check and a plan are
not.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lawsuit_tui.api.filters import TrackingFilters
from lawsuit_tui.domain.bodies import SearchBody, TrackingBulkBody, TrackingCreateBody
from lawsuit_tui.domain.formatting import format_int
from lawsuit_tui.domain.portfolio import (
    ImportRow,
    PortfolioCheck,
    TierChoice,
    check_rows,
    key_identity,
)
from lawsuit_tui.domain.requests import CredentialRef, SearchParams
from lawsuit_tui.domain.tiers import LABELS_TAG, TIER_TAG
from lawsuit_tui.domain.trackings import NotificationFilters, TrackingRecord
from lawsuit_tui.i18n import _
from lawsuit_tui.services.deps import Deps
from lawsuit_tui.services.errors import (
    ApiError,
    CacheReadOnly,
    Forbidden,
    Maintenance,
    OperationNotAvailable,
    RateLimited,
    TransportFailure,
    Unauthorized,
)
from lawsuit_tui.services.portfolio_files import read_pasted_list, read_portfolio_file

__all__ = [
    "ImportOutcome",
    "ImportPlan",
    "ImportProgress",
    "PortfolioImporter",
    "row_body",
    "rows_summary",
]

Identity = tuple[str, str]
# Bulk calls under way at once: enough to overlap one call's round trip and cache writes with
# the next; the shared rate window still decides when each may go (D74, D161).
IN_FLIGHT = 3
NAME_TAG = "name"  # D162: the row's name, kept in the tracking's tags beside tier and labels
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)


def rows_summary(source: str, check: PortfolioCheck) -> str:
    """``carteira.csv: 2.900 rows · 2.803 valid · 58 invalid · 39 repeated``."""
    return _(
        "{source}: {rows} rows · {valid} valid · {invalid} invalid · {repeated} repeated"
    ).format(
        source=source,
        rows=format_int(len(check.rows)),
        valid=format_int(len(check.valid)),
        invalid=format_int(len(check.invalid)),
        repeated=format_int(len(check.duplicates)),
    )


def row_body(row: ImportRow, choice: TierChoice) -> TrackingCreateBody:
    """The ``POST /tracking`` body of a valid row (D162): its tier's recurrence, step terms
    and fixed time; tier, labels and name in its tags (domain/tiers.py)."""
    assert row.key is not None and row.tier is not None
    tier = choice.tiers[row.tier]
    params = None
    if row.customer_key:
        params = SearchParams(credential=CredentialRef(customer_key=row.customer_key))  # D87
    tags: dict[str, Any] = {TIER_TAG: tier.name}
    if row.labels:
        tags[LABELS_TAG] = list(row.labels)
    if row.name:
        tags[NAME_TAG] = row.name
    return TrackingCreateBody(
        search=SearchBody(
            search_type=row.key.search_type, search_key=row.key.key, search_params=params
        ),
        recurrence=tier.recurrence,
        notification_filters=NotificationFilters(step_terms=list(tier.step_terms)),
        tags=tags,
        fixed_time=tier.hour is not None,
        hour_range=tier.hour,
        execution_minute=tier.minute if tier.hour is not None else None,
    )


@dataclass(frozen=True)
class ImportPlan:
    """What an import of ``check`` will do: ``tracked`` names the tracking of each valid row
    tracked already; ``service_checked`` says the service's list was read (not only the
    cache); ``open_intents``: chunks of an earlier run whose outcome is unknown (reconciled
    first by :meth:`PortfolioImporter.run`)."""

    check: PortfolioCheck
    tracked: dict[Identity, str]
    service_checked: bool
    open_intents: int = 0

    @property
    def already_tracked(self) -> list[tuple[ImportRow, str]]:
        return [
            (row, self.tracked[row.identity])
            for row in self.check.valid
            if row.identity is not None and row.identity in self.tracked
        ]

    @property
    def to_create(self) -> list[ImportRow]:
        return [row for row in self.check.valid if row.identity not in self.tracked]

    def monthly_runs(self) -> dict[str, float]:
        """Runs a month the new trackings add, per tier."""
        return self.check.monthly_runs(self.to_create)


@dataclass(frozen=True)
class ImportProgress:
    """Where a run is: rows settled of ``total``, and the time it should still take."""

    done: int
    total: int
    created: int
    already: int
    failed: int
    calls: int
    eta_seconds: float | None
    waiting_for_rate_limit: bool
    message: str


@dataclass
class ImportOutcome:
    """What a run did, row by row."""

    created: list[tuple[ImportRow, str]] = field(default_factory=list)
    already: list[tuple[ImportRow, str]] = field(default_factory=list)
    failed: list[tuple[ImportRow, str, str]] = field(default_factory=list)
    reconciled: int = 0
    calls: int = 0
    rate_limited: int = 0

    @property
    def complete(self) -> bool:
        """Every valid row is tracked (none refused, none left unsent)."""
        return not self.failed


ProgressCallback = Callable[[ImportProgress], None]


class PortfolioImporter:
    """Checks and imports portfolio files for one service context."""

    def __init__(
        self,
        deps: Deps,
        tiers: TierChoice,
        *,
        chunk_size: int = 1000,
        in_flight: int = IN_FLIGHT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._d = deps
        self.tiers = tiers
        self.chunk_size = max(1, min(1000, chunk_size))
        self.in_flight = max(1, in_flight)
        self._clock = clock

    # --- check and plan --------------------------------------------------------------------

    async def read(self, path: Path) -> PortfolioCheck:
        """Read and check a file (in a worker thread); PortfolioFileError when unreadable."""
        return await asyncio.to_thread(lambda: check_rows(read_portfolio_file(path), self.tiers))

    def check_text(self, text: str) -> PortfolioCheck:
        """Check a pasted list."""
        return check_rows(read_pasted_list(text), self.tiers)

    def _service_id(self) -> str:
        """Which service and key an intent was sent to (the key only as a fingerprint)."""
        api = self._d.api
        fingerprint = hashlib.blake2b(api.config.api_key.encode(), digest_size=6).hexdigest()
        return f"{api.base_urls.tracking_url}#{fingerprint}"

    def _cached_index(self) -> dict[Identity, str]:
        index: dict[Identity, str] = {}
        for record in self._d.cache.store.list_trackings():
            identity = _identity_of(record)
            if identity is not None and record.get("status") != "deleted":
                index.setdefault(identity, str(record.get("tracking_id")))
        return index

    async def plan(self, check: PortfolioCheck, *, ask_service: bool = True) -> ImportPlan:
        """Which rows are tracked already: the cache's knowledge, then (``ask_service``) the
        service's whole list, which replaces it."""
        store = self._d.cache.store
        opened = await asyncio.to_thread(store.portfolio_imports.open_intents, self._service_id())
        if ask_service:
            listing = await self._listing()
            tracked = {identity: str(r["tracking_id"]) for identity, r in listing.items()}
        else:
            tracked = await asyncio.to_thread(self._cached_index)
        return ImportPlan(check, tracked, ask_service, len(opened))

    async def _listing(self) -> dict[Identity, dict[str, Any]]:
        """Every live tracking at the service (kept in the cache), by key."""
        found: list[TrackingRecord] = [t async for t in self._d.api.iter_trackings()]
        records = [t.to_json_dict() for t in found]
        await self._d.cache.upsert_trackings(records)
        index: dict[Identity, dict[str, Any]] = {}
        for record in records:
            identity = _identity_of(record)
            if identity is not None:
                index.setdefault(identity, record)
        return index

    # --- run -------------------------------------------------------------------------------

    async def run(
        self, plan: ImportPlan, progress: ProgressCallback | None = None
    ) -> ImportOutcome:
        """Create the trackings ``plan`` leaves to create, never one twice (see the module)."""
        if not self._d.cache.writable:
            raise CacheReadOnly(
                _(
                    "The cache is open read-only (another lawsuit-tui holds it): an import "
                    "needs it to remember what it sent. Close the other one, or import from it."
                )
            )
        run = _Run(self, plan, progress)
        await run.start()
        await run.send_all()
        run.report(_("Done"))
        return run.outcome

    async def reconcile(self) -> int:
        """Settle every open intent of this service against its list; keys found, in all."""
        run = _Run(self, None, None)
        await run.reconcile_open()
        return run.outcome.reconciled


def _identity_of(record: dict[str, Any]) -> Identity | None:
    search = record.get("search")
    if not isinstance(search, dict):
        return None
    kind, key = search.get("search_type"), search.get("search_key")
    if not isinstance(kind, str) or not isinstance(key, str):
        return None
    return key_identity(kind, key)


def _label(identity: Identity) -> str:
    return f"{identity[0]} {identity[1]}"


class _Run:
    """One run of an import: its outcome so far, its progress, its chunks."""

    def __init__(
        self,
        importer: PortfolioImporter,
        plan: ImportPlan | None,
        progress: ProgressCallback | None,
    ) -> None:
        self.importer = importer
        self.d = importer._d
        self.plan = plan
        self.progress = progress
        self.outcome = ImportOutcome()
        self.service = importer._service_id()
        self.tracked: dict[Identity, str] = dict(plan.tracked) if plan else {}
        self.total = len(plan.check.valid) if plan else 0
        self.started = importer._clock()
        self.sent_rows = 0
        self.sent_seconds = 0.0
        self.calls_before = self.d.api.stats.calls
        self.rate_limited_before = self.d.api.stats.rate_limited

    # --- progress ---------------------------------------------------------------------------

    @property
    def done(self) -> int:
        o = self.outcome
        return len(o.created) + len(o.already) + len(o.failed)

    def report(self, message: str) -> None:
        stats = self.d.api.stats
        self.outcome.calls = stats.calls - self.calls_before
        self.outcome.rate_limited = stats.rate_limited - self.rate_limited_before
        if self.progress is None:
            return
        left = self.total - self.done
        eta = None
        if self.sent_rows and left > 0:
            eta = self.sent_seconds / self.sent_rows * left
        wait = self.d.api.rate_wait
        if wait is not None and eta is not None:
            eta += wait.seconds_left()
        o = self.outcome
        self.progress(
            ImportProgress(
                self.done,
                self.total,
                len(o.created),
                len(o.already),
                len(o.failed),
                self.outcome.calls,
                eta,
                wait is not None,
                message,
            )
        )

    # --- reconciliation ----------------------------------------------------------------------

    async def start(self) -> None:
        """Reconcile what an earlier run left open, then take what is tracked already."""
        assert self.plan is not None
        listing = await self.reconcile_open()
        if listing is None and not self.plan.service_checked:
            self.report(_("Reading what the service tracks"))
            listing = await self.importer._listing()
        if listing is not None:
            self.tracked = {identity: str(r["tracking_id"]) for identity, r in listing.items()}
        for row in self.plan.check.valid:
            if row.identity is not None and row.identity in self.tracked:
                self.outcome.already.append((row, self.tracked[row.identity]))
        self.report(_("Checked what is tracked already"))

    async def reconcile_open(self) -> dict[Identity, dict[str, Any]] | None:
        """Settle the intents left open; the service's list when it had to be read."""
        store = self.d.cache.store
        opened = await asyncio.to_thread(store.portfolio_imports.open_intents, self.service)
        if not opened:
            return None
        self.report(_("Finding out what an interrupted import created"))
        listing = await self.importer._listing()
        for intent in opened:
            await self._settle_from(intent["intent_id"], intent.get("keys") or [], listing)
        return listing

    async def _settle_from(
        self,
        intent_id: str,
        keys: Iterable[Sequence[str]],
        listing: dict[Identity, dict[str, Any]],
    ) -> dict[Identity, str]:
        """Close an intent with the trackings the service lists for its keys."""
        found: dict[Identity, str] = {}
        records: list[dict[str, Any]] = []
        for kind, key in keys:
            identity = key_identity(kind, key)
            record = listing.get(identity)
            if record is not None:
                found[identity] = str(record["tracking_id"])
                records.append(record)
        ids = {_label(identity): tid for identity, tid in found.items()}
        await self.d.cache.settle_portfolio_import(intent_id, "reconciled", ids, records)
        self.outcome.reconciled += len(found)
        return found

    # --- chunks ------------------------------------------------------------------------------

    async def send_all(self) -> None:
        """Send every chunk, ``in_flight`` at a time: while one call is under way the next is
        recorded and sent, so the window, not the round trips, sets the pace (D161)."""
        assert self.plan is not None
        rows = [r for r in self.plan.check.valid if r.identity not in self.tracked]
        size = self.importer.chunk_size
        pending: deque[tuple[list[ImportRow], bool]] = deque(
            (rows[i : i + size], False) for i in range(0, len(rows), size)
        )

        async def sender() -> None:
            while pending:
                chunk, retried = pending.popleft()
                again = await self._send(chunk)
                if again and retried:
                    self.outcome.failed.extend(
                        (row, "NOT_CREATED", _("the service did not take it twice"))
                        for row in again
                    )
                elif again:
                    pending.append((again, True))
                self.report(_("Creating trackings"))

        senders = [
            asyncio.ensure_future(sender())
            for _n in range(max(1, min(self.importer.in_flight, len(pending))))
        ]
        try:
            done, _pending = await asyncio.wait(senders, return_when=asyncio.FIRST_EXCEPTION)
        finally:
            # A failure (or a cancel) stops the other senders too: what they had under way
            # stays an open intent, reconciled by the next run.
            for task in senders:
                task.cancel()
            await asyncio.gather(*senders, return_exceptions=True)
        for task in done:
            if not task.cancelled() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]

    async def _send(self, chunk: list[ImportRow]) -> list[ImportRow]:
        """Send one chunk; the rows to send again (certainly not created)."""
        cache = self.d.cache
        keys = [(row.key.search_type, row.key.key) for row in chunk if row.key is not None]
        body = TrackingBulkBody(trackings=[row_body(row, self.importer.tiers) for row in chunk])
        # Kept here or by the process that holds the cache (D137), before anything is sent.
        intent_id = await cache.begin_portfolio_import(self.service, keys)
        if intent_id is None:
            raise CacheReadOnly(
                _(
                    "The cache could not keep the record of the next call (the process that "
                    "held it is gone): it was not sent. Run the import again to go on."
                )
            )

        async def not_sent() -> None:
            await cache.settle_portfolio_import(intent_id, "not_sent", {})

        began = self.importer._clock()
        try:
            result = await self.d.api.create_trackings_bulk(body)
        except (Unauthorized, Forbidden, OperationNotAvailable):
            # Every other chunk would be refused alike (a service without the bulk route
            # answers 404/405 before doing anything).
            await not_sent()
            raise
        except (RateLimited, Maintenance):
            # Never processed: the rows go back in the queue (once).
            await not_sent()
            return chunk
        except TransportFailure as exc:
            if exc.sent:
                return await self._unknown(intent_id, chunk)
            await not_sent()
            return chunk
        except ApiError as exc:
            status = exc.status or 0
            if 400 <= status < 500:  # refused whole: nothing was made
                await not_sent()
                code = exc.name or str(status)
                self.outcome.failed.extend((row, code, str(exc)) for row in chunk)
                return []
            return await self._unknown(intent_id, chunk)
        self.sent_rows += len(chunk)
        self.sent_seconds += self.importer._clock() - began
        await self._answered(intent_id, chunk, result.trackings, result.errors)
        return []

    async def _unknown(self, intent_id: str, chunk: list[ImportRow]) -> list[ImportRow]:
        """A call that may have reached the service: what it made is read from its list."""
        self.report(_("Finding out what the last call created"))
        listing = await self.importer._listing()
        found = await self._settle_from(
            intent_id,
            [(row.key.search_type, row.key.key) for row in chunk if row.key is not None],
            listing,
        )
        missing: list[ImportRow] = []
        for row in chunk:
            tracking_id = found.get(row.identity) if row.identity else None
            if tracking_id is not None:
                self.outcome.created.append((row, tracking_id))
                self.tracked[row.identity] = tracking_id  # type: ignore[index]
            else:
                missing.append(row)
        return missing

    async def _answered(
        self,
        intent_id: str,
        chunk: list[ImportRow],
        made: list[TrackingRecord],
        errors: Sequence[Any],
    ) -> None:
        by_identity: dict[Identity, TrackingRecord] = {}
        for record in made:
            identity = _identity_of(record.to_json_dict())
            if identity is not None:
                by_identity[identity] = record
        ids = {_label(identity): r.tracking_id for identity, r in by_identity.items()}
        await self.d.cache.settle_portfolio_import(
            intent_id, "answered", ids, [record.to_json_dict() for record in made]
        )
        refused = {error.index: error for error in errors}
        unknown_ids: list[ImportRow] = []
        for index, row in enumerate(chunk):
            assert row.identity is not None
            made_now = by_identity.get(row.identity)
            error = refused.get(index)
            if made_now is not None:
                self.outcome.created.append((row, made_now.tracking_id))
                self.tracked[row.identity] = made_now.tracking_id
            elif error is not None and error.already_exists:
                found = _UUID.search(error.message)
                if found:
                    self.outcome.already.append((row, found.group(0)))
                else:
                    unknown_ids.append(row)
            elif error is not None:
                self.outcome.failed.append((row, error.code, error.message))
            else:
                # Neither made nor refused: the answer does not say; the list will.
                unknown_ids.append(row)
        if unknown_ids:
            await self._look_up(unknown_ids)

    async def _look_up(self, rows: list[ImportRow]) -> None:
        """The ids of rows the service says it tracks, or lists without saying."""
        api = self.d.api
        if len(rows) > 5:
            listing = await self.importer._listing()
            found = {identity: str(r["tracking_id"]) for identity, r in listing.items()}
        else:
            found = {}
            for row in rows:
                assert row.key is not None
                page = await api.list_trackings(
                    1, 5, filters=TrackingFilters(search_key=row.key.key)
                )
                for record in page.page_data:
                    identity = _identity_of(record.to_json_dict())
                    if identity is not None:
                        found[identity] = record.tracking_id
        for row in rows:
            tracking_id = found.get(row.identity) if row.identity else None
            if tracking_id is None:
                self.outcome.failed.append(
                    (row, "NOT_FOUND", _("the service neither made nor lists this tracking"))
                )
            else:
                self.outcome.already.append((row, tracking_id))

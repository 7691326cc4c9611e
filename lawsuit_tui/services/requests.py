"""Submit a request and follow it to its end; the request and response lists."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from lawsuit_tui.api.filters import RequestFilters, ResponseFilters
from lawsuit_tui.domain.base import as_datetime
from lawsuit_tui.domain.bodies import CreateRequestBody
from lawsuit_tui.domain.completion import is_completion_notice
from lawsuit_tui.domain.enums import RequestStatus, SearchType
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.services.cache import Cache
from lawsuit_tui.services.court_failures import CourtFailures
from lawsuit_tui.services.deps import Deps
from lawsuit_tui.services.errors import NotFound
from lawsuit_tui.services.results import (
    CancelOutcome,
    Completed,
    FollowEvent,
    ResponseArrived,
    StatusChanged,
)
from lawsuit_tui.store import LawsuitChange, LawsuitState

__all__ = ["FollowPolicy", "RequestService", "replacement_key"]

_FINISHED = (RequestStatus.COMPLETED, RequestStatus.CANCELLED)


@dataclass(frozen=True)
class FollowPolicy:
    """Polling of a followed request: ``base`` seconds between looks while things change,
    growing by ``factor`` up to ``ceiling`` while nothing does."""

    base: float = 0.5
    factor: float = 1.6
    ceiling: float = 8.0
    page_size: int = 100


def replacement_key(response: ResponseRecord) -> tuple[str, str, int | None] | None:
    """What a response is about (type, lawsuit code, instance): a definitive response
    replaces the provisional one with the same key."""
    data = response.response_data
    rtype = str(response.response_type or "")
    if isinstance(data, Lawsuit):
        return rtype, data.code, data.instance
    if isinstance(data, dict) and isinstance(data.get("code"), str):
        instance = data.get("instance")
        return rtype, data["code"], instance if isinstance(instance, int) else None
    return None


def _finished(status: object) -> bool:
    return status in _FINISHED


def completed_by(record: RequestRecord, notice: dict[str, Any]) -> RequestRecord:
    """``record`` completed by a completion notice (D69), at the notice's time."""
    when = notice.get("created_at") or record.updated_at
    return record.model_copy(
        update={"status": RequestStatus.COMPLETED, "completed_at": when, "updated_at": when}
    )


async def complete_from_notices(cache: Cache, notices: Iterable[dict[str, Any]]) -> None:
    """Mark completed, in the cache, the requests these completion notices name (D69); a
    request the cache does not hold is kept as the notice names it."""
    records: list[dict[str, Any]] = []
    for notice in notices:
        request_id = notice.get("request_id")
        if not isinstance(request_id, str):
            continue
        raw = await asyncio.to_thread(cache.store.get_request, request_id)
        cached = RequestRecord.model_validate(raw or {"request_id": request_id})
        if not _finished(cached.status):
            records.append(completed_by(cached, notice).to_json_dict())
    if records:
        await cache.upsert_requests(records)


def _now() -> datetime:
    return datetime.now(UTC)


def _cancel_outcome(success: bool, record: RequestRecord | None) -> str:
    """D62: what a cancel-or-delete did, from the answer and the request read after it."""
    if not success:
        return "refused"
    if record is None or record.deleted_at:
        return "deleted"
    if record.status in (RequestStatus.CANCELLING, RequestStatus.CANCELLED):
        return str(record.status)
    if record.status in (RequestStatus.PENDING, RequestStatus.STARTED):
        return "still_running"
    return "unchanged"


class RequestHistory:
    """Every request of the key, newest first, one service page per :meth:`next_page`.

    The walk is fixed when it starts (up to now): requests made meanwhile come from their
    own events, not from here. Each request is handed out once although the walk may meet
    it twice (a window's edge), and every page is kept in the cache as it is read."""

    def __init__(self, deps: Deps) -> None:
        self._d = deps
        self.total: int | None = None
        self.read = 0
        self.exhausted = False
        self._seen: set[str] = set()
        self._pages = deps.api.iter_request_pages(on_total=self._set_total)

    def _set_total(self, total: int) -> None:
        self.total = total

    async def next_page(self) -> list[RequestRecord]:
        """The next requests not handed out yet ([] once the history is read whole)."""
        while not self.exhausted:
            try:
                page = await anext(self._pages)
            except StopAsyncIteration:
                self.exhausted = True
                break
            fresh = [r for r in page.page_data if r.request_id not in self._seen]
            self._seen.update(r.request_id for r in fresh)
            self.read += len(fresh)
            if self.total is not None and self.read >= self.total:
                self.exhausted = True  # no need to ask for a page known to be empty
            if fresh:
                await self._d.cache.upsert_requests(r.to_json_dict() for r in fresh)
                return fresh
        return []

    async def aclose(self) -> None:
        await self._pages.aclose()  # type: ignore[attr-defined]


class RequestService:
    def __init__(self, deps: Deps, policy: FollowPolicy | None = None) -> None:
        self._d = deps
        self.policy = policy or FollowPolicy()

    # --- create -----------------------------------------------------------------------------

    async def create(self, body: CreateRequestBody) -> list[RequestRecord]:
        """Create a request (one per branch too, with should_search_branches on a CNPJ);
        the original comes first. Every record is kept in the cache."""
        records = await self._d.api.create_request(body)
        search = body.search
        if (
            search.should_search_branches
            and search.search_type == SearchType.CNPJ
            and len(records) == 1
        ):
            original = records[0]
            # The branches are made with the original: from its creation on (D17, D63).
            since = as_datetime(original.created_at)
            filters = RequestFilters(origin_id=original.request_id, created_at_gte=since)
            async for branch in self._d.api.iter_requests(filters=filters):
                if branch.request_id != original.request_id:
                    records.append(branch)
        await self._d.cache.upsert_requests(r.to_json_dict() for r in records)
        return records

    # --- follow -----------------------------------------------------------------------------

    async def follow(self, request_id: str) -> AsyncIterator[FollowEvent]:
        """Events of ``request_id`` until it ends: status changes, each response once as it
        arrives (kept in the cache), then Completed.

        Each look costs one GET /responses; its ``request_status`` (D24) tells whether the
        status moved, and only then is GET /requests/{id} asked. A service that does not fill
        ``request_status`` costs one GET /requests/{id} more per look.
        """
        status = self._d.status
        status.update(following=status.current.following + 1)
        try:
            async for event in self._follow(request_id):
                yield event
        finally:
            status.update(following=max(0, status.current.following - 1))

    async def _follow(self, request_id: str) -> AsyncIterator[FollowEvent]:
        api, policy = self._d.api, self.policy
        seen: set[str] = set()
        provisional_of: dict[tuple[str, str, int | None], str] = {}
        next_page = 1
        last_status: object = None
        interval = policy.base
        filters = ResponseFilters(request_id=request_id)
        # D69: the completion notice found among the responses (it is not one of them).
        notice: dict[str, Any] | None = None
        failures = CourtFailures()  # D92

        async def read_new() -> tuple[list[ResponseArrived], object]:
            nonlocal next_page, notice
            fresh: list[dict[str, Any]] = []
            reported: object = None
            while True:
                page = await api.list_responses_raw(next_page, policy.page_size, filters=filters)
                reported = page.request_status
                for item in page.page_data:
                    ident = item["response_id"]
                    if ident in seen:
                        continue
                    seen.add(ident)
                    if is_completion_notice(item.get("response_type"), item.get("response_data")):
                        notice = item
                        continue
                    fresh.append(item)
                full = (
                    page.page_count >= policy.page_size or len(page.page_data) >= policy.page_size
                )
                # Empty as sent: a page that only the client-side filter emptied (a service
                # ignoring request_id, D23) does not end the list.
                if page.page >= page.all_pages_count or (
                    not page.page_data and page.page_count <= 0
                ):
                    if full:
                        next_page += 1
                    break
                next_page += 1
            arrived = await self._arrived(fresh, provisional_of)
            for event in arrived:
                failures.note(event.response)
            return arrived, reported

        while True:
            arrived, reported = await read_new()
            if notice is not None:
                reported = RequestStatus.COMPLETED  # D69: every response is in
            changed = bool(arrived)
            record: RequestRecord | None = None
            if reported is None or reported != last_status:
                record = await api.get_request(request_id)
                if notice is not None and not _finished(record.status):
                    record = completed_by(record, notice)
                await self._d.cache.upsert_requests([record.to_json_dict()])
            for event in arrived:
                yield event
            if record is not None and record.status != last_status:
                last_status = record.status
                changed = True
                if _finished(record.status):
                    if not _finished(reported):
                        # The status was read after the responses: read them once more.
                        final, _reported = await read_new()
                        for event in final:
                            yield event
                    if record.status == RequestStatus.COMPLETED:
                        await self._confirm_copies(request_id, provisional_of, failures)
                    yield Completed(record)
                    return
                yield StatusChanged(record)
            interval = policy.base if changed else min(policy.ceiling, interval * policy.factor)
            await self._d.sleep(interval)

    async def _confirm_copies(
        self,
        request_id: str,
        keys: Iterable[tuple[str, str, int | None]],
        failures: CourtFailures,
    ) -> None:
        """The request ended with only the stored copy of a lawsuit (the court had nothing
        newer): that copy is confirmed, so the cache keeps it as definitive (source: the
        request) and stops calling it provisional. A copy whose court the request could not
        reach stays provisional (D92)."""
        cache = self._d.cache
        wanted = [
            (code, instance)
            for kind, code, instance in keys
            if kind == "lawsuit" and not failures.failure_for_code(code)
        ]
        if not wanted or not cache.writable:
            return

        def still_provisional() -> list[tuple[dict[str, Any], bool, str]]:
            items: list[tuple[dict[str, Any], bool, str]] = []
            for code, instance in wanted:
                entry = cache.lawsuit_entry(code, instance)
                if entry is not None and entry.provisional:
                    items.append((entry.lawsuit, False, request_id))
            return items

        items = await asyncio.to_thread(still_provisional)
        if items:
            await cache.upsert_lawsuits(items)

    async def _arrived(
        self,
        fresh: list[dict[str, Any]],
        provisional_of: dict[tuple[str, str, int | None], str],
    ) -> list[ResponseArrived]:
        if not fresh:
            return []
        # Kept as received (every unknown field too); the models are for the caller.
        changes = await self._d.cache.upsert_responses(fresh)
        by_source: dict[str, LawsuitChange] = {c.source: c for c in changes}
        events: list[ResponseArrived] = []
        for raw in fresh:
            response = ResponseRecord.model_validate(raw)
            key = replacement_key(response)
            replaces: str | None = None
            if key is not None:
                if response.is_cached:
                    if response.response_id:
                        provisional_of[key] = response.response_id
                else:
                    replaces = provisional_of.pop(key, None)
            events.append(
                ResponseArrived(
                    response=response,
                    provisional=response.is_cached,
                    replaces=replaces,
                    change=by_source.get(response.response_id or ""),
                )
            )
        return events

    # --- lists ------------------------------------------------------------------------------

    def cached_list(self) -> list[RequestRecord]:
        """Requests kept in the cache, newest first."""
        return [RequestRecord.model_validate(d) for d in self._d.cache.store.list_requests()]

    def cached_list_page(self, offset: int, limit: int) -> tuple[list[RequestRecord], int]:
        """One page of :meth:`cached_list` (newest first): the records at ``offset`` ..
        ``offset + limit - 1`` and how many the cache holds in all. Only the page is parsed
        and validated; a blocking call (a store read): call it from a worker thread."""
        store = self._d.cache.store
        rows = store.list_requests(offset=offset, limit=max(0, limit))
        return [RequestRecord.model_validate(d) for d in rows], store.count_requests()

    def history(self) -> RequestHistory:
        """The service's request list, newest first, read a page at a time on demand (each
        page kept in the cache): a fresh walk of the whole history (D63, D88)."""
        return RequestHistory(self._d)

    async def get(self, request_id: str) -> RequestRecord:
        record = await self._d.api.get_request(request_id)
        await self._d.cache.upsert_requests([record.to_json_dict()])
        return record

    async def response(self, response_id: str) -> ResponseRecord:
        """One response by its id, from the service (D90), kept in the cache. A completion
        notice (D69) completes its request instead of being kept."""
        raw = await self._d.api.get_response_raw(response_id)
        # The status of its request at the time of reading: not part of the response.
        raw.pop("request_status", None)
        response = ResponseRecord.model_validate(raw)
        if response.is_completion_notice:
            await complete_from_notices(self._d.cache, [raw])
        else:
            await self._d.cache.upsert_responses([raw])
        return response

    def cached_response(self, response_id: str) -> ResponseRecord | None:
        """A response as the cache keeps it (None when it does not); a blocking call."""
        raw = self._d.cache.store.get_response(response_id)
        return ResponseRecord.model_validate(raw) if raw is not None else None

    def cached_position(self, request_id: str, response_id: str) -> int | None:
        """Where a response is among its request's cached responses (oldest first, from 0);
        None when the cache does not hold it. A blocking call (store reads)."""
        store = self._d.cache.store
        offset, block = 0, 500
        while True:
            rows = store.responses_of(request_id, offset=offset, limit=block, oldest_first=True)
            for number, row in enumerate(rows):
                if row.get("response_id") == response_id:
                    return offset + number
            if len(rows) < block:
                return None
            offset += block

    def cached_errors(self, request_id: str) -> list[ResponseRecord]:
        """The application errors among a request's cached responses; a blocking call."""
        store = self._d.cache.store
        found: list[ResponseRecord] = []
        offset, block = 0, 500
        while True:
            rows = store.responses_of(request_id, offset=offset, limit=block, oldest_first=True)
            found.extend(
                ResponseRecord.model_validate(row)
                for row in rows
                if row.get("response_type") == "application_error"
            )
            if len(rows) < block:
                return found
            offset += block

    def cached_responses(self, request_id: str) -> list[ResponseRecord]:
        """Responses of a request kept in the cache, in the order they were made."""
        rows: list[dict[str, Any]] = self._d.cache.store.responses_of(request_id)
        return [ResponseRecord.model_validate(d) for d in reversed(rows)]

    def cached_record(self, request_id: str) -> RequestRecord | None:
        """The request as the cache keeps it (None when it does not); a blocking call."""
        raw = self._d.cache.store.get_request(request_id)
        return RequestRecord.model_validate(raw) if raw is not None else None

    def cached_overview(
        self, request_id: str
    ) -> tuple[RequestRecord | None, int, ResponseRecord | None]:
        """The cached record of a request, how many responses the cache holds for it, and
        the last of them; a blocking call (store reads): call it from a worker thread."""
        record = self.cached_record(request_id)
        total = self.cached_responses_page(request_id, 0, 0)[1]
        last, _total = self.cached_responses_page(request_id, total - 1, 1)
        return record, total, last[-1] if total and last else None

    def cached_responses_with_states(
        self, request_id: str, offset: int, limit: int
    ) -> tuple[list[ResponseRecord], dict[tuple[str, int | None], LawsuitState]]:
        """One page of :meth:`cached_responses_page` and the cache's state of each lawsuit it
        holds (read once per lawsuit, without validating it); a blocking call."""
        page, _total = self.cached_responses_page(request_id, offset, limit)
        states: dict[tuple[str, int | None], LawsuitState] = {}
        for response in page:
            data = response.response_data
            if isinstance(data, Lawsuit) and (data.code, data.instance) not in states:
                state = self._d.cache.lawsuit_state(data.code, data.instance)
                if state is not None:
                    states[(data.code, data.instance)] = state
        return page, states

    def cached_responses_page(
        self, request_id: str, offset: int, limit: int
    ) -> tuple[list[ResponseRecord], int]:
        """One page of :meth:`cached_responses` (in the order they were made, oldest first):
        the records at ``offset`` .. ``offset + limit - 1`` and how many responses of the
        request the cache holds in all. Only the page is parsed and validated; a blocking
        call (a store read): call it from a worker thread."""
        store = self._d.cache.store
        rows = store.responses_of(request_id, offset=offset, limit=max(0, limit), oldest_first=True)
        return [ResponseRecord.model_validate(d) for d in rows], store.count_responses_of(
            request_id
        )

    async def refresh_responses(self, request_id: str) -> list[ResponseRecord]:
        """Every response of a request from the service (oldest first), kept in the cache.
        A completion notice among them completes the request instead (D69)."""
        found = [
            r
            async for r in self._d.api.iter_responses(
                page_size=self.policy.page_size, filters=ResponseFilters(request_id=request_id)
            )
        ]
        notices = [r.to_json_dict() for r in found if r.is_completion_notice]
        found = [r for r in found if not r.is_completion_notice]
        await self._d.cache.upsert_responses(r.to_json_dict() for r in found)
        if notices:
            await complete_from_notices(self._d.cache, notices)
        return found

    async def cancel(self, request_id: str) -> CancelOutcome:
        """Cancel a running request, or delete a finished one (D62), then read it again to
        say what happened. OperationNotAvailable when the service has no such operation."""
        api = self._d.api
        answer = await api.cancel_request(request_id)
        record = answer.record
        if record is None:
            try:
                record = await api.get_request(request_id)
            except NotFound:
                record = None  # a service that hides what it deleted
        if record is None and answer.success:
            cached = await asyncio.to_thread(self.cached_record, request_id)
            if cached is not None:
                record = cached.model_copy(update={"deleted_at": answer.time or _now()})
        if record is not None:
            await self._d.cache.upsert_requests([record.to_json_dict()])
        outcome = _cancel_outcome(answer.success, record)
        return CancelOutcome(request_id, outcome, record, answer.time)

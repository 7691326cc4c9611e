"""Requests: create, read, list and cancel the searches sent to the courts.

``GET /requests`` is read under requests.json's strict reading (D63, D88): every call names a
creation window (``created_at_gte`` and ``created_at_lte``) and asks at most 100 per page; a
whole history is walked window by window, newest first (:func:`walk_windows`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta

import httpx
import orjson

from lawsuit_tui.api.filters import RequestFilters
from lawsuit_tui.api.models import CancelAnswer
from lawsuit_tui.api.pagination import (
    HISTORY_START,
    Window,
    WindowPolicy,
    iter_items,
    walk_windows,
)
from lawsuit_tui.api.resources.base import RouteCaller, wire_of
from lawsuit_tui.domain.bodies import CreateRequestBody, RequestsPageParams
from lawsuit_tui.domain.pagination import Page
from lawsuit_tui.domain.requests import RequestDeletion, RequestRecord

__all__ = ["REQUESTS_PAGE_SIZE", "RequestRoutes", "history_end"]

REQUESTS_PAGE_SIZE = RequestsPageParams.max_page_size

# The upper bound of "everything until now": a day ahead, so that a clock of the service
# running ahead of ours (or the sandbox's, sped up) never hides the newest requests.
_AHEAD = timedelta(days=1)


def history_end() -> datetime:
    """The ``created_at_lte`` of a walk through the whole history, fixed when it starts."""
    return datetime.now(UTC) + _AHEAD


class RequestRoutes(RouteCaller):
    async def create_request(self, body: CreateRequestBody) -> list[RequestRecord]:
        """POST {requests_url}/requests (201, D82). One record, or several when the service
        answers a list (the original first)."""

        def parse(response: httpx.Response) -> list[RequestRecord]:
            data = orjson.loads(response.content)
            items = data if isinstance(data, list) else [data]
            return [RequestRecord.model_validate(item) for item in items]

        return await self._call("create_request", parse, body=wire_of(body))

    async def get_request(self, request_id: str) -> RequestRecord:
        return await self._call(
            "get_request", self._model(RequestRecord), path={"request_id": request_id}
        )

    async def list_requests(
        self,
        page: int = 1,
        page_size: int = REQUESTS_PAGE_SIZE,
        *,
        filters: RequestFilters | None = None,
        window: Window | None = None,
    ) -> Page[RequestRecord]:
        """One page of GET {requests_url}/requests, newest first (D22), created within
        ``window`` (default: from ``filters.created_at_gte``, or the start of history, to
        now; D63). Items the filters exclude are dropped even if the service sent them."""
        chosen = filters or RequestFilters()
        if window is None:
            window = Window(chosen.created_at_gte or HISTORY_START, history_end())
        query = RequestsPageParams(page=page, page_size=page_size).to_query()
        query.update(chosen.to_query())
        query.update(window.to_query())
        result = await self._call("list_requests", self._model(Page[RequestRecord]), params=query)
        result.page_data = [r for r in result.page_data if chosen.keep(r)]
        return result

    def iter_request_pages(
        self,
        *,
        filters: RequestFilters | None = None,
        until: datetime | None = None,
        policy: WindowPolicy | None = None,
        on_total: Callable[[int], object] | None = None,
    ) -> AsyncIterator[Page[RequestRecord]]:
        """Every page of the requests created from ``filters.created_at_gte`` (or the start
        of history) to ``until`` (default: now), newest window first (D63, D88). A request
        may come twice (at a window's edge, or when the list moves): merge by id.
        ``on_total``: told how many the whole range holds, once the service said."""
        chosen = filters or RequestFilters()

        async def fetch(page: int, size: int, window: Window) -> Page[RequestRecord]:
            return await self.list_requests(page, size, filters=chosen, window=window)

        end = until or history_end()
        return walk_windows(fetch, chosen.created_at_gte, end, policy, on_total=on_total)

    def iter_requests(
        self, *, filters: RequestFilters | None = None, until: datetime | None = None
    ) -> AsyncIterator[RequestRecord]:
        """Every request matching ``filters``, each once, newest first."""
        return iter_items(
            self.iter_request_pages(filters=filters, until=until), key=lambda r: r.request_id
        )

    async def cancel_request(self, request_id: str) -> CancelAnswer:
        """DELETE {requests_url}/requests/{id} (D62): cancel a running request, soft-delete a
        finished one. The service answers ``{success, time}``; an older one answered with the
        request record, also read. Re-read the request to know its state."""

        def parse(response: httpx.Response) -> CancelAnswer:
            data = orjson.loads(response.content)
            if isinstance(data, dict) and "request_id" in data:
                record = RequestRecord.model_validate(data)
                return CancelAnswer(True, record.updated_at, record)
            answer = RequestDeletion.model_validate(data)
            # A 2xx without ``success`` is taken as done: the status says it was accepted.
            return CancelAnswer(answer.success is not False, answer.time)

        return await self._call("cancel_request", parse, path={"request_id": request_id})

"""Requests: create, read, list and cancel the searches sent to the courts."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import orjson

from lawsuit_tui.api.filters import RequestFilters
from lawsuit_tui.api.models import CancelAnswer
from lawsuit_tui.api.pagination import iter_items, iter_pages
from lawsuit_tui.api.resources.base import BULK_PAGE_SIZE, RouteCaller, wire_of
from lawsuit_tui.domain.bodies import CreateRequestBody, PageParams
from lawsuit_tui.domain.pagination import Page
from lawsuit_tui.domain.requests import RequestDeletion, RequestRecord

__all__ = ["RequestRoutes"]


class RequestRoutes(RouteCaller):
    async def create_request(self, body: CreateRequestBody) -> list[RequestRecord]:
        """POST {requests_url}/requests. One record, or several when the service answers a
        list (the original first)."""

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
        self, page: int = 1, page_size: int = 20, *, filters: RequestFilters | None = None
    ) -> Page[RequestRecord]:
        """One page of GET {requests_url}/requests, newest first (D22)."""
        query = PageParams(page=page, page_size=page_size).to_query()
        chosen = filters or RequestFilters()
        query.update(chosen.to_query())
        result = await self._call("list_requests", self._model(Page[RequestRecord]), params=query)
        result.page_data = [r for r in result.page_data if chosen.keep(r)]
        return result

    def iter_request_pages(
        self,
        *,
        page_size: int = BULK_PAGE_SIZE,
        filters: RequestFilters | None = None,
        start_page: int = 1,
    ) -> AsyncIterator[Page[RequestRecord]]:
        return iter_pages(
            lambda n: self.list_requests(n, page_size, filters=filters), start_page=start_page
        )

    def iter_requests(
        self, *, page_size: int = BULK_PAGE_SIZE, filters: RequestFilters | None = None
    ) -> AsyncIterator[RequestRecord]:
        """Every request matching ``filters``, each once."""
        return iter_items(
            self.iter_request_pages(page_size=page_size, filters=filters),
            key=lambda r: r.request_id,
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

"""Responses: the answers the courts gave to requests (and a tracking's, D77), as models or as
the dicts received."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import datetime
from typing import Any

import httpx
import orjson

from lawsuit_tui.api.filters import ResponseFilters
from lawsuit_tui.api.models import RawPage
from lawsuit_tui.api.pagination import iter_items, iter_pages
from lawsuit_tui.api.resources.base import BULK_PAGE_SIZE, RouteCaller
from lawsuit_tui.domain.bodies import ResponsesPageParams, TrackingResponsesParams
from lawsuit_tui.domain.responses import ResponseRecord, ResponsesPage

__all__ = ["ResponseRoutes"]


class ResponseRoutes(RouteCaller):
    @staticmethod
    def _responses_query(
        page: int, page_size: int, filters: ResponseFilters | None
    ) -> tuple[dict[str, str], ResponseFilters]:
        """The query of a page of GET /responses, and the filters its answer is checked
        against again (D23)."""
        chosen = filters or ResponseFilters()
        query = ResponsesPageParams(page=page, page_size=page_size).to_query()
        query.update(chosen.to_query())
        return query, chosen

    async def get_response(self, response_id: str) -> ResponseRecord:
        """GET {requests_url}/responses/{response_id} (D90): one response by its id; the
        ``request_status`` the page's example adds is kept as an extra field."""
        return await self._call(
            "get_response", self._model(ResponseRecord), path={"response_id": response_id}
        )

    async def get_response_raw(self, response_id: str) -> dict[str, Any]:
        """``get_response`` as the dict received (to keep in the cache as it came)."""

        def parse(response: httpx.Response) -> dict[str, Any]:
            data = orjson.loads(response.content)
            if not isinstance(data, dict) or not isinstance(data.get("response_id"), str):
                raise ValueError("not a response: response_id is missing")
            return data

        return await self._call("get_response", parse, path={"response_id": response_id})

    async def list_responses(
        self, page: int = 1, page_size: int = 100, *, filters: ResponseFilters | None = None
    ) -> ResponsesPage:
        """One page of GET {requests_url}/responses, oldest first (D22)."""
        query, chosen = self._responses_query(page, page_size, filters)
        result = await self._call("list_responses", self._model(ResponsesPage), params=query)
        result.page_data = [r for r in result.page_data if chosen.keep(r)]
        return result

    def iter_response_pages(
        self,
        *,
        page_size: int = BULK_PAGE_SIZE,
        filters: ResponseFilters | None = None,
        start_page: int = 1,
    ) -> AsyncIterator[ResponsesPage]:
        return iter_pages(
            lambda n: self.list_responses(n, page_size, filters=filters), start_page=start_page
        )

    async def list_responses_raw(
        self, page: int = 1, page_size: int = 100, *, filters: ResponseFilters | None = None
    ) -> RawPage:
        """``list_responses`` without building models: each item is the dict received
        (the fast path for bulk reads such as a sync)."""
        query, chosen = self._responses_query(page, page_size, filters)

        def parse(response: httpx.Response) -> RawPage:
            return RawPage.parse(response.content, id_field="response_id")

        result = await self._call("list_responses", parse, params=query)
        result.page_data = [r for r in result.page_data if chosen.keep_raw(r)]
        return result

    def iter_response_pages_raw(
        self,
        *,
        page_size: int = BULK_PAGE_SIZE,
        filters: ResponseFilters | None = None,
        start_page: int = 1,
    ) -> AsyncIterator[RawPage]:
        return iter_pages(
            lambda n: self.list_responses_raw(n, page_size, filters=filters),
            start_page=start_page,
        )

    def iter_responses(
        self, *, page_size: int = BULK_PAGE_SIZE, filters: ResponseFilters | None = None
    ) -> AsyncIterator[ResponseRecord]:
        """Every response matching ``filters``, each once, oldest first."""
        return iter_items(
            self.iter_response_pages(page_size=page_size, filters=filters),
            key=lambda r: r.response_id,
        )

    # ------------------------------------------------------------ a tracking's responses

    @staticmethod
    def _tracking_window(
        tracking_id: str, since: datetime, until: datetime, page: int, page_size: int
    ) -> tuple[dict[str, str], ResponseFilters, Callable[[dict[str, Any]], bool]]:
        query = TrackingResponsesParams(
            page=page, page_size=page_size, created_at_gte=since, created_at_lte=until
        ).to_query()
        # D23: what comes back is checked again (the origin, and the window's start; the
        # end is the service's business: a response made meanwhile is news, not noise).
        chosen = ResponseFilters(origin_id=tracking_id, created_at_gte=since)
        return query, chosen, chosen.keep_raw

    async def list_tracking_responses(
        self,
        tracking_id: str,
        *,
        since: datetime,
        until: datetime,
        page: int = 1,
        page_size: int = BULK_PAGE_SIZE,
    ) -> ResponsesPage:
        """One page of GET {requests_url}/responses/tracking/{origin_id} (D77): for each
        lawsuit (CNJ and instance) the tracking reported inside the window, its latest
        response, oldest first; ``request_status`` is that of the tracking's latest run."""
        query, chosen, _keep = self._tracking_window(tracking_id, since, until, page, page_size)
        result = await self._call(
            "list_tracking_responses",
            self._model(ResponsesPage),
            path={"origin_id": tracking_id},
            params=query,
        )
        result.page_data = [r for r in result.page_data if chosen.keep(r)]
        return result

    async def list_tracking_responses_raw(
        self,
        tracking_id: str,
        *,
        since: datetime,
        until: datetime,
        page: int = 1,
        page_size: int = BULK_PAGE_SIZE,
    ) -> RawPage:
        """``list_tracking_responses`` with each item the dict received (what the inbox
        stores as it came)."""
        query, _chosen, keep = self._tracking_window(tracking_id, since, until, page, page_size)

        def parse(response: httpx.Response) -> RawPage:
            return RawPage.parse(response.content, id_field="response_id")

        result = await self._call(
            "list_tracking_responses", parse, path={"origin_id": tracking_id}, params=query
        )
        result.page_data = [r for r in result.page_data if keep(r)]
        return result

    def iter_tracking_responses(
        self,
        tracking_id: str,
        *,
        since: datetime,
        until: datetime,
        page_size: int = BULK_PAGE_SIZE,
    ) -> AsyncIterator[ResponseRecord]:
        """Every response of :meth:`list_tracking_responses`, each once, oldest first."""
        return iter_items(
            iter_pages(
                lambda n: self.list_tracking_responses(
                    tracking_id, since=since, until=until, page=n, page_size=page_size
                )
            ),
            key=lambda r: r.response_id,
        )

    def iter_tracking_responses_raw(
        self,
        tracking_id: str,
        *,
        since: datetime,
        until: datetime,
        page_size: int = BULK_PAGE_SIZE,
    ) -> AsyncIterator[dict[str, Any]]:
        """Every response of :meth:`list_tracking_responses_raw`, each once, oldest first."""
        return iter_items(
            iter_pages(
                lambda n: self.list_tracking_responses_raw(
                    tracking_id, since=since, until=until, page=n, page_size=page_size
                )
            ),
            key=lambda r: r.get("response_id"),
        )

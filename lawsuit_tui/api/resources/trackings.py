"""Trackings: the monitoring of a key, created, listed, paused, resumed, changed and deleted."""

from __future__ import annotations

from collections.abc import AsyncIterator

from lawsuit_tui.api.filters import TrackingFilters
from lawsuit_tui.api.pagination import iter_items, iter_pages
from lawsuit_tui.api.resources.base import BULK_PAGE_SIZE, RouteCaller, wire_of
from lawsuit_tui.domain.bodies import TrackingCreateBody, TrackingPatchBody, TrackingsPageParams
from lawsuit_tui.domain.pagination import Page
from lawsuit_tui.domain.trackings import TrackingRecord

__all__ = ["TrackingRoutes"]


class TrackingRoutes(RouteCaller):
    async def get_tracking(self, tracking_id: str) -> TrackingRecord:
        return await self._call(
            "get_tracking", self._model(TrackingRecord), path={"tracking_id": tracking_id}
        )

    async def list_trackings(
        self, page: int = 1, page_size: int = 20, *, filters: TrackingFilters | None = None
    ) -> Page[TrackingRecord]:
        chosen = filters or TrackingFilters()
        query = TrackingsPageParams(page=page, page_size=page_size).to_query()
        query.update(chosen.to_query())
        result = await self._call("list_trackings", self._model(Page[TrackingRecord]), params=query)
        result.page_data = [t for t in result.page_data if chosen.keep(t)]
        return result

    def iter_tracking_pages(
        self,
        *,
        page_size: int = BULK_PAGE_SIZE,
        filters: TrackingFilters | None = None,
        start_page: int = 1,
    ) -> AsyncIterator[Page[TrackingRecord]]:
        return iter_pages(
            lambda n: self.list_trackings(n, page_size, filters=filters), start_page=start_page
        )

    def iter_trackings(
        self, *, page_size: int = BULK_PAGE_SIZE, filters: TrackingFilters | None = None
    ) -> AsyncIterator[TrackingRecord]:
        return iter_items(
            self.iter_tracking_pages(page_size=page_size, filters=filters),
            key=lambda t: t.tracking_id,
        )

    async def create_tracking(self, body: TrackingCreateBody) -> TrackingRecord:
        return await self._call("create_tracking", self._model(TrackingRecord), body=wire_of(body))

    async def pause_tracking(self, tracking_id: str) -> TrackingRecord:
        return await self._call(
            "pause_tracking", self._model(TrackingRecord), path={"tracking_id": tracking_id}
        )

    async def resume_tracking(self, tracking_id: str) -> TrackingRecord:
        return await self._call(
            "resume_tracking", self._model(TrackingRecord), path={"tracking_id": tracking_id}
        )

    async def patch_tracking(self, tracking_id: str, body: TrackingPatchBody) -> TrackingRecord:
        return await self._call(
            "patch_tracking",
            self._model(TrackingRecord),
            path={"tracking_id": tracking_id},
            body=wire_of(body),
        )

    async def delete_tracking(self, tracking_id: str) -> TrackingRecord:
        return await self._call(
            "delete_tracking", self._model(TrackingRecord), path={"tracking_id": tracking_id}
        )

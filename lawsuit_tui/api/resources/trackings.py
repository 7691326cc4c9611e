"""Trackings: the monitoring of a key, created (one or a thousand at a time), listed, paused,
resumed, changed and deleted; and the tracked items, what each tracking follows."""

from __future__ import annotations

from collections.abc import AsyncIterator

from lawsuit_tui.api.filters import TrackingFilters
from lawsuit_tui.api.pagination import iter_items, iter_pages
from lawsuit_tui.api.resources.base import BULK_PAGE_SIZE, RouteCaller, wire_of
from lawsuit_tui.domain.bodies import (
    TrackedItemsPageParams,
    TrackingBulkBody,
    TrackingCreateBody,
    TrackingPatchBody,
    TrackingsPageParams,
)
from lawsuit_tui.domain.pagination import Page
from lawsuit_tui.domain.trackings import (
    BulkTrackingResult,
    TrackedItem,
    TrackedItemCount,
    TrackedItemsPage,
    TrackingRecord,
)

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

    async def create_trackings_bulk(self, body: TrackingBulkBody) -> BulkTrackingResult:
        """D73: each item made or refused on its own; never retried once it may have
        reached the service (the caller reconciles a call whose outcome it did not see)."""
        return await self._call(
            "create_trackings_bulk", self._model(BulkTrackingResult), body=wire_of(body)
        )

    async def list_tracked_items(
        self,
        page: int = 1,
        page_size: int = 100,
        *,
        tracking_id: str | None = None,
        tribunal_acronym: str | None = None,
    ) -> TrackedItemsPage:
        query = TrackedItemsPageParams(
            page=page,
            page_size=page_size,
            tracking_id=tracking_id,
            tribunal_acronym=tribunal_acronym,
        ).to_query()
        result = await self._call("list_tracked_items", self._model(TrackedItemsPage), params=query)
        # D23: the filters are checked again on what came back.
        result.page_data = [
            item
            for item in result.page_data
            if (tracking_id is None or item.tracking_id in (None, tracking_id))
            and (tribunal_acronym is None or item.tribunal_acronym == tribunal_acronym)
        ]
        return result

    def iter_tracked_items(
        self, *, tracking_id: str | None = None, page_size: int = BULK_PAGE_SIZE
    ) -> AsyncIterator[TrackedItem]:
        return iter_items(
            iter_pages(lambda n: self.list_tracked_items(n, page_size, tracking_id=tracking_id)),
            key=lambda item: item.tracked_item_id,
        )

    async def count_tracked_items(self, *, tracking_id: str | None = None) -> int:
        query = {"tracking_id": tracking_id} if tracking_id else None
        result = await self._call(
            "count_tracked_items", self._model(TrackedItemCount), params=query
        )
        return result.count

    async def get_tracked_item(self, tracked_item_id: str) -> TrackedItem:
        return await self._call(
            "get_tracked_item",
            self._model(TrackedItem),
            path={"tracked_item_id": tracked_item_id},
        )

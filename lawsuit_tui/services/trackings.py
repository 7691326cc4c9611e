"""Trackings: the list, and each operation on one."""

from __future__ import annotations

import asyncio
from typing import Any

from lawsuit_tui.api.filters import ResponseFilters
from lawsuit_tui.domain.bodies import TrackingCreateBody, TrackingPatchBody
from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.domain.trackings import TrackedItem, TrackingRecord
from lawsuit_tui.services.deps import Deps
from lawsuit_tui.services.errors import OperationNotAvailable

__all__ = ["TrackingService"]


class TrackingService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    async def _keep(self, record: TrackingRecord) -> TrackingRecord:
        await self._d.cache.upsert_trackings([record.to_json_dict()])
        return record

    def cached_list(self, status: str | None = None) -> list[TrackingRecord]:
        """Trackings kept in the cache, newest first."""
        rows = self._d.cache.store.list_trackings(status)
        return [TrackingRecord.model_validate(row) for row in rows]

    def cached(self, tracking_id: str) -> TrackingRecord | None:
        """The cache's copy of one tracking (None when it holds none)."""
        row = self._d.cache.store.get_tracking(tracking_id)
        return TrackingRecord.model_validate(row) if isinstance(row, dict) else None

    async def refresh(self) -> list[TrackingRecord]:
        """Every (non-deleted) tracking from the service, kept in the cache: only those that
        changed are written (the app asks every minute, and a portfolio holds thousands),
        compared off the event loop."""
        found = [t async for t in self._d.api.iter_trackings()]
        changed = await asyncio.to_thread(self._changed, found)
        if changed:
            await self._d.cache.upsert_trackings(changed)
        return found

    def _changed(self, found: list[TrackingRecord]) -> list[dict[str, Any]]:
        store = self._d.cache.store
        records = (t.to_json_dict() for t in found)
        return [r for r in records if store.get_tracking(str(r.get("tracking_id"))) != r]

    async def get(self, tracking_id: str) -> TrackingRecord:
        return await self._keep(await self._d.api.get_tracking(tracking_id))

    async def create(self, body: TrackingCreateBody) -> TrackingRecord:
        return await self._keep(await self._d.api.create_tracking(body))

    async def pause(self, tracking_id: str) -> TrackingRecord:
        return await self._keep(await self._d.api.pause_tracking(tracking_id))

    async def resume(self, tracking_id: str) -> TrackingRecord:
        return await self._keep(await self._d.api.resume_tracking(tracking_id))

    async def delete(self, tracking_id: str) -> TrackingRecord:
        return await self._keep(await self._d.api.delete_tracking(tracking_id))

    async def patch(self, tracking_id: str, body: TrackingPatchBody) -> TrackingRecord:
        return await self._keep(await self._d.api.patch_tracking(tracking_id, body))

    async def tracked_items(self, tracking_id: str) -> list[TrackedItem]:
        """What the tracking follows, one item per lawsuit instance (D157)."""
        return [item async for item in self._d.api.iter_tracked_items(tracking_id=tracking_id)]

    async def tracked_item_count(self) -> int | None:
        """How many lawsuit instances every tracking of this key follows (None when the
        service does not say)."""
        try:
            return await self._d.api.count_tracked_items()
        except OperationNotAvailable:
            return None

    async def responses(self, tracking_id: str) -> list[ResponseRecord]:
        """Responses produced by a tracking (origin_id = tracking_id), kept in the cache."""
        found = [
            r
            async for r in self._d.api.iter_responses(
                filters=ResponseFilters(origin_id=tracking_id)
            )
        ]
        await self._d.cache.upsert_responses(r.to_json_dict() for r in found)
        return found

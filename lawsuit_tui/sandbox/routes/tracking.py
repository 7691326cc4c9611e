"""``{tracking_url}/tracking`` (D27-D30): register, list, get, pause, resume, patch, delete."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query

from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.sandbox.auth import rate_limited, require_key
from lawsuit_tui.sandbox.dependencies import State, Trackings
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.pagination import PageParams, page_params, paginate
from lawsuit_tui.sandbox.routes._common import FastJSON, answer, documented
from lawsuit_tui.sandbox.schemas import TrackingIn, TrackingPatchIn, TrackingsPage
from lawsuit_tui.sandbox.world.world import compact_key

__all__ = ["router"]

router = APIRouter(prefix="/tracking", tags=["tracking"])

TrackingKey = Annotated[KeyConfig, Depends(require_key("tracking"))]
Limited = Depends(rate_limited)
TrackingStatusIn = Literal["created", "updating", "updated", "paused", "deleted", "suspended"]


@router.post(
    "/tracking",
    summary="Register a tracking (D27)",
    response_class=FastJSON,
    responses=documented(TrackingRecord, 409, 429),
    dependencies=[Limited],
)
async def create_tracking(
    body: TrackingIn, config: TrackingKey, state: State, engine: Trackings
) -> FastJSON:
    await state.world_ready()
    return answer(engine.create(config, body).record)


@router.get(
    "/tracking",
    summary="List trackings (newest first; deleted ones only with status=deleted)",
    response_class=FastJSON,
    responses=documented(TrackingsPage, 429),
    dependencies=[Limited],
)
async def list_trackings(
    config: TrackingKey,
    state: State,
    paging: Annotated[PageParams, Depends(page_params(5))],
    status: TrackingStatusIn | None = None,
    search_key: Annotated[str | None, Query(max_length=200)] = None,
) -> FastJSON:
    wanted = compact_key(search_key) if search_key else None
    items: list[dict[str, Any]] = []
    for entry in reversed(state.trackings.values()):  # D22: newest first
        record = entry.record
        if entry.key != config.key:
            continue
        if status is None and record["status"] == "deleted":
            continue
        if status is not None and record["status"] != status:
            continue
        key = compact_key(str(record["search"].get("search_key", "")))
        if wanted is not None and key != wanted:
            continue
        items.append(record)
    return answer(paginate(items, paging.page, paging.page_size))


@router.get(
    "/tracking/{tracking_id}",
    summary="Get a tracking",
    response_class=FastJSON,
    responses=documented(TrackingRecord, 404, 429),
    dependencies=[Limited],
)
async def get_tracking(tracking_id: str, config: TrackingKey, engine: Trackings) -> FastJSON:
    return answer(engine.get(config, tracking_id).record)


@router.post(
    "/tracking/{tracking_id}/pause",
    summary="Pause a tracking (D28, D29)",
    response_class=FastJSON,
    responses=documented(TrackingRecord, 404),
)
async def pause_tracking(tracking_id: str, config: TrackingKey, engine: Trackings) -> FastJSON:
    entry = engine.get(config, tracking_id, live=True)
    engine.pause(entry)
    return answer(entry.record)


@router.post(
    "/tracking/{tracking_id}/resume",
    summary="Resume a tracking (D29)",
    response_class=FastJSON,
    responses=documented(TrackingRecord, 404),
)
async def resume_tracking(tracking_id: str, config: TrackingKey, engine: Trackings) -> FastJSON:
    entry = engine.get(config, tracking_id, live=True)
    engine.resume(entry)
    return answer(entry.record)


@router.patch(
    "/tracking/{tracking_id}",
    summary="Change a tracking (D28)",
    response_class=FastJSON,
    responses=documented(TrackingRecord, 404),
)
async def patch_tracking(
    tracking_id: str, body: TrackingPatchIn, config: TrackingKey, engine: Trackings
) -> FastJSON:
    entry = engine.get(config, tracking_id, live=True)
    engine.patch(entry, body)
    return answer(entry.record)


@router.delete(
    "/tracking/{tracking_id}",
    summary="Delete a tracking (logical, D28)",
    response_class=FastJSON,
    responses=documented(TrackingRecord, 404),
)
async def delete_tracking(tracking_id: str, config: TrackingKey, engine: Trackings) -> FastJSON:
    entry = engine.get(config, tracking_id)
    engine.delete(entry)
    return answer(entry.record)

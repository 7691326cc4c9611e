"""``{tracking_url}/tracking`` (D27-D30): register, list, get, pause, resume, patch, delete."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request

from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.sandbox.auth import KeyConfig, require_key, sandbox_state
from lawsuit_tui.sandbox.pagination import PageParams, page_params, paginate
from lawsuit_tui.sandbox.ratelimit import rate_limited
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
async def create_tracking(request: Request, body: TrackingIn, config: TrackingKey) -> FastJSON:
    state = sandbox_state(request)
    await state.world_ready()
    entry = state.tracking_engine.create(config, body)
    return answer(entry.record)


@router.get(
    "/tracking",
    summary="List trackings (newest first; deleted ones only with status=deleted)",
    response_class=FastJSON,
    responses=documented(TrackingsPage, 429),
    dependencies=[Limited],
)
async def list_trackings(
    request: Request,
    config: TrackingKey,
    paging: Annotated[PageParams, Depends(page_params(5))],
    status: TrackingStatusIn | None = None,
    search_key: Annotated[str | None, Query(max_length=200)] = None,
) -> FastJSON:
    state = sandbox_state(request)
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
async def get_tracking(request: Request, tracking_id: str, config: TrackingKey) -> FastJSON:
    return answer(sandbox_state(request).tracking_engine.get(config, tracking_id).record)


@router.post(
    "/tracking/{tracking_id}/pause",
    summary="Pause a tracking (D28, D29)",
    response_class=FastJSON,
    responses=documented(TrackingRecord, 404),
)
async def pause_tracking(request: Request, tracking_id: str, config: TrackingKey) -> FastJSON:
    engine = sandbox_state(request).tracking_engine
    entry = engine.get(config, tracking_id, live=True)
    engine.pause(entry)
    return answer(entry.record)


@router.post(
    "/tracking/{tracking_id}/resume",
    summary="Resume a tracking (D29)",
    response_class=FastJSON,
    responses=documented(TrackingRecord, 404),
)
async def resume_tracking(request: Request, tracking_id: str, config: TrackingKey) -> FastJSON:
    engine = sandbox_state(request).tracking_engine
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
    request: Request, tracking_id: str, body: TrackingPatchIn, config: TrackingKey
) -> FastJSON:
    engine = sandbox_state(request).tracking_engine
    entry = engine.get(config, tracking_id, live=True)
    engine.patch(entry, body)
    return answer(entry.record)


@router.delete(
    "/tracking/{tracking_id}",
    summary="Delete a tracking (logical, D28)",
    response_class=FastJSON,
    responses=documented(TrackingRecord, 404),
)
async def delete_tracking(request: Request, tracking_id: str, config: TrackingKey) -> FastJSON:
    engine = sandbox_state(request).tracking_engine
    entry = engine.get(config, tracking_id)
    engine.delete(entry)
    return answer(entry.record)

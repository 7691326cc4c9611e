"""``{tracking_url}/tracking`` and ``/tracked-item`` (D27-D30, D65, D66, D73, D156, D163):
register one or a thousand, list, get, pause, resume, change, delete; and what each tracking
follows (D157)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from fastapi import APIRouter, Body, Depends, Query
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lawsuit_tui.domain.trackings import (
    BulkTrackingResult,
    TrackedItem,
    TrackedItemCount,
    TrackedItemsPage,
    TrackingRecord,
)
from lawsuit_tui.sandbox.auth import rate_limited, require_key
from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.dependencies import State, Trackings
from lawsuit_tui.sandbox.errors import ServiceError, validation_items
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.pagination import (
    PageParams,
    ValuesQuery,
    date_query,
    listed_values,
    page_params,
    paginate,
    query_instant,
)
from lawsuit_tui.sandbox.routes._common import FastJSON, answer, documented
from lawsuit_tui.sandbox.schemas import TrackingIn, TrackingPatchIn, TrackingsPage
from lawsuit_tui.sandbox.searches import normalize_search_key
from lawsuit_tui.sandbox.world.world import compact_key

__all__ = ["router"]

router = APIRouter(prefix="/tracking", tags=["tracking"], default_response_class=FastJSON)

TrackingKey = Annotated[KeyConfig, Depends(require_key("tracking"))]
Limited = Depends(rate_limited)
TrackingStatusIn = Literal["created", "updating", "updated", "paused", "deleted", "suspended"]

# D65: what a PATCH may name (the union of the documents); "paused" is Postman's pause.
PATCHABLE = frozenset(TrackingPatchIn.model_fields) | {"search", "paused"}
# tracked-item page bounds (tracking.json: 5..10,000, default 10; D75).
ITEMS_MAX_PAGE_SIZE = 10_000


class TrackingBulkIn(BaseModel):
    """D73: ``{trackings: [...]}``, 1..1000 items, each validated on its own."""

    model_config = ConfigDict(extra="ignore")

    trackings: Annotated[list[Any], Field(min_length=1, max_length=1000)]


def _created(model: Any, *errors: int) -> dict[Any, Any]:
    """``responses=`` of a creation route: its body under 201 (D82)."""
    responses = documented(model, *errors, description="Created (D82)")
    responses[201] = responses.pop(200)
    return responses


@router.post(
    "/tracking",
    summary="Register a tracking (D27, D66)",
    status_code=201,
    responses=_created(TrackingRecord, 409, 429),
    dependencies=[Limited],
)
async def create_tracking(
    body: TrackingIn, config: TrackingKey, state: State, engine: Trackings
) -> FastJSON:
    await state.world_ready()
    return answer(engine.create(config, body).record, status_code=201)


@router.post(
    "/tracking/bulk",
    summary="Register up to 1000 trackings (D73)",
    description=(
        "Each item is validated and registered on its own, in order; refused items (invalid, "
        "or a key tracked already, in the store or earlier in the batch) are listed in "
        "`errors` as `{index, error: '<CODE>: <message>', input}`. 201 even when every item "
        "failed. One call of the shared rate window whatever the item count (D74)."
    ),
    status_code=201,
    responses=_created(BulkTrackingResult, 429),
    dependencies=[Limited],
)
async def create_trackings_bulk(
    body: TrackingBulkIn, config: TrackingKey, state: State, engine: Trackings
) -> FastJSON:
    await state.world_ready()
    made, errors = engine.create_bulk(config, body.trackings)
    return answer({"trackings": [e.record for e in made], "errors": errors}, status_code=201)


@router.get(
    "/tracking",
    summary="List trackings (newest first; deleted ones only with status=deleted)",
    responses=documented(TrackingsPage, 429),
    dependencies=[Limited],
)
async def list_trackings(
    config: TrackingKey,
    state: State,
    paging: Annotated[PageParams, Depends(page_params(5))],
    status: ValuesQuery,
    search_key: ValuesQuery,
    search_type: ValuesQuery,
    tracking_id: ValuesQuery,
    created_at_gte: Annotated[str | None, date_query()] = None,
    created_at_lte: Annotated[
        str | None, date_query("date-time, or YYYY-MM-DD for the end of that day (UTC)")
    ] = None,
) -> FastJSON:
    statuses = set(listed_values("status", status))
    unknown = statuses - set(get_args(TrackingStatusIn))
    if unknown:
        # D94: the documented filter is any string (an enum would refuse D76's JSON array).
        raise ServiceError.unusable("status", f"unknown status {sorted(unknown)[0]}")
    since = query_instant(created_at_gte, "created_at_gte")
    until = query_instant(created_at_lte, "created_at_lte", end_of_day=True)
    since_text, until_text = (iso(t) if t is not None else None for t in (since, until))
    wanted = {compact_key(key) for key in listed_values("search_key", search_key)}
    types = set(listed_values("search_type", search_type))
    ids = set(listed_values("tracking_id", tracking_id))
    items: list[dict[str, Any]] = []
    for entry in reversed(state.trackings.values()):  # D22: newest first
        record = entry.record
        if entry.key != config.key:
            continue
        if not statuses and record["status"] == "deleted":
            continue
        if statuses and record["status"] not in statuses:
            continue
        if types and entry.search.search_type not in types:
            continue
        if ids and entry.tracking_id not in ids:
            continue
        if wanted and compact_key(str(record["search"].get("search_key", ""))) not in wanted:
            continue
        # ISO 8601 UTC texts of one form (D2) compare as their instants.
        if since_text is not None and record["created_at"] < since_text:
            continue
        if until_text is not None and record["created_at"] > until_text:
            continue
        items.append(record)
    return answer(paginate(items, paging.page, paging.page_size))


@router.get(
    "/tracking/{tracking_id}",
    summary="Get a tracking",
    responses=documented(TrackingRecord, 404, 429),
    dependencies=[Limited],
)
async def get_tracking(tracking_id: str, config: TrackingKey, engine: Trackings) -> FastJSON:
    return answer(engine.get(config, tracking_id).record)


@router.post(
    "/tracking/{tracking_id}/pause",
    summary="Pause a tracking (D28, D29)",
    responses=documented(TrackingRecord, 404),
)
async def pause_tracking(tracking_id: str, config: TrackingKey, engine: Trackings) -> FastJSON:
    entry = engine.get(config, tracking_id, live=True)
    engine.pause(entry)
    return answer(entry.record)


@router.post(
    "/tracking/{tracking_id}/resume",
    summary="Resume a tracking (D29)",
    responses=documented(TrackingRecord, 404),
)
async def resume_tracking(tracking_id: str, config: TrackingKey, engine: Trackings) -> FastJSON:
    entry = engine.get(config, tracking_id, live=True)
    engine.resume(entry)
    return answer(entry.record)


@router.patch(
    "/tracking/{tracking_id}",
    summary="Change a tracking (D65)",
    description=(
        "Any of the fields of a registration but its search; a `search` equal to the "
        'tracking\'s own is accepted, another is 400. `{"paused": true|false}` pauses or '
        "resumes (Postman). Any other key is 400, naming it."
    ),
    responses=documented(TrackingRecord, 404),
)
async def patch_tracking(
    tracking_id: str,
    body: Annotated[dict[str, Any], Body()],
    config: TrackingKey,
    engine: Trackings,
) -> FastJSON:
    entry = engine.get(config, tracking_id, live=True)
    unknown = sorted(set(body) - PATCHABLE)
    if unknown:
        raise ServiceError.bad_request(
            [
                {"field": name, "rule": "unknown", "message": f"{name} cannot be changed"}
                for name in unknown
            ]
        )
    changes = dict(body)
    paused = changes.pop("paused", None)
    if paused is not None and not isinstance(paused, bool):
        raise ServiceError.invalid("paused", "bool_type", "paused must be true or false")
    search = changes.pop("search", None)
    if search is not None and not _same_search(search, entry.search.search_type, entry):
        raise ServiceError.invalid(
            "search", "immutable", "the search of a tracking cannot be changed"
        )
    try:
        patch = TrackingPatchIn.model_validate(changes)
    except ValidationError as exc:
        raise ServiceError.bad_request(validation_items(exc.errors())) from None
    if changes:
        engine.patch(entry, patch)
    if paused is True:
        engine.pause(entry)
    elif paused is False:
        engine.resume(entry)
    return answer(entry.record)


def _same_search(search: object, search_type: str, entry: Any) -> bool:
    """D65: a PATCH may repeat the tracking's own search_type and search_key, nothing else."""
    if not isinstance(search, dict) or search.get("search_type") != search_type:
        return False
    key = search.get("search_key")
    if not isinstance(key, str):
        return False
    try:
        normalized = normalize_search_key(search_type, key)
    except ServiceError:
        return False
    return bool(normalized == entry.search.search_key)


@router.delete(
    "/tracking/{tracking_id}",
    summary="Delete a tracking (logical, D28)",
    responses=documented(TrackingRecord, 404),
)
async def delete_tracking(tracking_id: str, config: TrackingKey, engine: Trackings) -> FastJSON:
    entry = engine.get(config, tracking_id)
    engine.delete(entry)
    return answer(entry.record)


# ----------------------------------------------------------------- tracked items


def _items_of(state: Any, config: KeyConfig) -> list[dict[str, Any]]:
    """The caller's tracked items of live trackings, newest tracking first, then by lawsuit."""
    live = {
        tid: n
        for n, (tid, entry) in enumerate(reversed(state.trackings.items()))
        if entry.key == config.key and entry.status != "deleted"
    }
    items = [item for item in state.tracked_items.values() if item["tracking_id"] in live]
    items.sort(key=lambda i: (live[i["tracking_id"]], i["lawsuit_cnj"], i["lawsuit_instance"]))
    return items


@router.get(
    "/tracked-item",
    summary="List tracked items",
    responses=documented(TrackedItemsPage),
)
async def list_tracked_items(
    config: TrackingKey,
    state: State,
    tracking_id: ValuesQuery,
    tribunal_acronym: ValuesQuery,
    lawsuit_status: ValuesQuery,
    paging: Annotated[
        PageParams, Depends(page_params(5, max_size=ITEMS_MAX_PAGE_SIZE, default_size=10))
    ],
    tracked_side: Annotated[str | None, Query(max_length=20)] = None,
) -> FastJSON:
    ids = set(listed_values("tracking_id", tracking_id))
    courts = {court.upper() for court in listed_values("tribunal_acronym", tribunal_acronym)}
    statuses = {status.casefold() for status in listed_values("lawsuit_status", lawsuit_status)}
    items = [
        item
        for item in _items_of(state, config)
        if (not ids or item["tracking_id"] in ids)
        and (not courts or item["tribunal_acronym"].upper() in courts)
        and (not statuses or item["lawsuit_status"].casefold() in statuses)
        and (tracked_side is None or item["tracked_side"].casefold() == tracked_side.casefold())
    ]
    return answer(paginate(items, paging.page, paging.page_size))


@router.get(
    "/tracked-item-count",
    summary="Count tracked items",
    responses=documented(TrackedItemCount),
)
async def count_tracked_items(
    config: TrackingKey, state: State, tracking_id: ValuesQuery
) -> FastJSON:
    ids = set(listed_values("tracking_id", tracking_id))
    count = sum(1 for item in _items_of(state, config) if not ids or item["tracking_id"] in ids)
    return answer({"count": count})


@router.get(
    "/tracked-item/{tracked_item_id}",
    summary="Get a tracked item",
    responses=documented(TrackedItem, 404),
)
async def get_tracked_item(tracked_item_id: str, config: TrackingKey, state: State) -> FastJSON:
    item = state.tracked_items.get(tracked_item_id)
    entry = state.trackings.get(item["tracking_id"]) if item is not None else None
    if item is None or entry is None or entry.key != config.key:
        raise ServiceError.not_found(
            "TRACKED_ITEM_NOT_FOUND", f"tracked item {tracked_item_id} not found"
        )
    return answer(item)

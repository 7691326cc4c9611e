"""``{requests_url}/requests``: create, list, get, cancel/delete (D11-D19, D62, D20-D23, D25)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query

from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.sandbox.auth import rate_limited, require_key
from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.dependencies import Requests, State
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.pagination import PageParams, page_params, paginate
from lawsuit_tui.sandbox.routes._common import FastJSON, answer, documented
from lawsuit_tui.sandbox.schemas import CreateRequestIn, RequestDeletedOut, RequestsPage
from lawsuit_tui.sandbox.world.world import compact_key

__all__ = ["router"]

router = APIRouter(prefix="/requests", tags=["requests"])

RequestsKey = Annotated[KeyConfig, Depends(require_key("requests"))]
Limited = Depends(rate_limited)

StatusIn = Literal["pending", "started", "cancelling", "cancelled", "completed"]
SearchTypeFilter = Literal["cpf", "cnpj", "oab", "lawsuit_cnj", "lawsuit_id", "name"]
OriginIn = Literal["api", "tracking", "dashboard"]


def _aware(value: datetime | None) -> datetime | None:
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


@router.post(
    "/requests",
    summary="Create a request",
    response_class=FastJSON,
    responses=documented(RequestRecord, 429),
    dependencies=[Limited],
)
async def create_request(
    body: CreateRequestIn, config: RequestsKey, state: State, engine: Requests
) -> FastJSON:
    await state.world_ready()
    entries = engine.create(config, body)
    for entry in entries:
        engine.schedule(entry)
    return answer(entries[0].record)


@router.get(
    "/requests",
    summary="List requests (newest first)",
    response_class=FastJSON,
    responses=documented(RequestsPage, 429),
    dependencies=[Limited],
)
async def list_requests(
    config: RequestsKey,
    state: State,
    paging: Annotated[PageParams, Depends(page_params(1))],
    status: StatusIn | None = None,
    search_type: SearchTypeFilter | None = None,
    search_key: Annotated[str | None, Query(max_length=200)] = None,
    origin: OriginIn | None = None,
    origin_id: Annotated[str | None, Query(max_length=200)] = None,
    created_at_gte: datetime | None = None,
    include_deleted: bool = False,
) -> FastJSON:
    since = _aware(created_at_gte)
    wanted_key = compact_key(search_key) if search_key else None
    items: list[dict[str, Any]] = []
    for entry in reversed(state.requests.values()):  # D22: newest first
        if entry.key != config.key or (entry.deleted and not include_deleted):
            continue
        record = entry.record
        search = record["search"]
        if status is not None and record["status"] != status:
            continue
        if search_type is not None and search["search_type"] != search_type:
            continue
        if wanted_key is not None and compact_key(str(search["search_key"])) != wanted_key:
            continue
        if origin is not None and record["origin"] != origin:
            continue
        if origin_id is not None and record["origin_id"] != origin_id:
            continue
        if since is not None and record["created_at"] < iso(since):
            continue
        items.append(record)
    return answer(paginate(items, paging.page, paging.page_size))


@router.get(
    "/requests/{request_id}",
    summary="Get a request",
    response_class=FastJSON,
    responses=documented(RequestRecord, 404, 429),
    dependencies=[Limited],
)
async def get_request(request_id: str, config: RequestsKey, engine: Requests) -> FastJSON:
    return answer(engine.get(config, request_id).record)


@router.delete(
    "/requests/{request_id}",
    summary="Cancel a running request or soft-delete a finished one (D62)",
    response_class=FastJSON,
    responses=documented(RequestDeletedOut, 404),
)
async def delete_request(request_id: str, config: RequestsKey, engine: Requests) -> FastJSON:
    engine.cancel_or_delete(engine.get(config, request_id))
    return answer({"success": True, "time": iso(engine.state.clock.now())})

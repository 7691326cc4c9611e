"""``{requests_url}/requests``: create, list, get, cancel/delete (D11-D19, D62, D20-D23, D25)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.sandbox.auth import rate_limited, require_key
from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.dependencies import Requests, State
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.pagination import (
    PageParams,
    ValuesQuery,
    date_query,
    order_query,
    page_params,
    paginate,
    query_instant,
    query_order,
    query_values,
)
from lawsuit_tui.sandbox.routes._common import FastJSON, answer, documented
from lawsuit_tui.sandbox.schemas import CreateRequestIn, RequestDeletedOut, RequestsPage
from lawsuit_tui.sandbox.world.world import compact_key

__all__ = ["router"]

router = APIRouter(prefix="/requests", tags=["requests"], default_response_class=FastJSON)

RequestsKey = Annotated[KeyConfig, Depends(require_key("requests"))]
Limited = Depends(rate_limited)

# D63, D76: the OAS types every filter as an array of strings (repeated keys, a JSON array
# string or one value); a value the sandbox does not know matches nothing.
_ORDER_FIELDS = ("created_at", "updated_at")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@router.post(
    "/requests",
    summary="Create a request",
    status_code=201,
    responses=documented(RequestRecord, 429, status=201),
    dependencies=[Limited],
)
async def create_request(
    body: CreateRequestIn, config: RequestsKey, state: State, engine: Requests
) -> FastJSON:
    await state.world_ready()
    entries = engine.create(config, body)
    for entry in entries:
        engine.schedule(entry)
    return answer(entries[0].record, status_code=201)  # D82


@router.get(
    "/requests",
    summary="List requests (newest first) created within a window (D63)",
    responses=documented(RequestsPage, 429),
    dependencies=[Limited],
)
async def list_requests(
    request: Request,
    config: RequestsKey,
    state: State,
    paging: Annotated[PageParams, Depends(page_params(5, max_size=100, default_size=10))],
    created_at_gte: Annotated[str, date_query()],
    created_at_lte: Annotated[
        str, date_query("date-time, or YYYY-MM-DD for the end of that day (UTC)")
    ],
    request_id: ValuesQuery,
    status: ValuesQuery,
    search_type: ValuesQuery,
    search_key: ValuesQuery,
    response_type: ValuesQuery,
    origin: ValuesQuery,
    origin_id: ValuesQuery,
    include_deleted: bool = False,
    order: Annotated[
        str | None,
        order_query(
            _ORDER_FIELDS, '{"created_at":"desc"}, asc|desc (with order_by), or order[field]=dir'
        ),
    ] = None,
) -> FastJSON:
    since = iso(query_instant(created_at_gte, "created_at_gte") or _EPOCH)
    until = iso(query_instant(created_at_lte, "created_at_lte", end_of_day=True) or _EPOCH)
    field, direction = query_order(request, _ORDER_FIELDS, default=("created_at", "desc"))
    wanted: dict[str, set[str]] = {}
    for name in ("request_id", "status", "origin", "origin_id"):
        values = query_values(request, name)
        if values is not None:
            wanted[name] = set(values)
    types = _set(query_values(request, "search_type"))
    responses = _set(query_values(request, "response_type"))
    keys = _set(query_values(request, "search_key"), compact_key)
    items: list[dict[str, Any]] = []
    for entry in state.requests.values():
        if entry.key != config.key or (entry.deleted and not include_deleted):
            continue
        record = entry.record
        if not since <= record["created_at"] <= until:
            continue
        if any(record.get(name) not in values for name, values in wanted.items()):
            continue
        search = record["search"]
        if types is not None and search["search_type"] not in types:
            continue
        if responses is not None and search.get("response_type") not in responses:
            continue
        if keys is not None and compact_key(str(search["search_key"])) not in keys:
            continue
        items.append(record)
    # D22: newest first unless asked otherwise; the id breaks ties the same way every time.
    items.sort(
        key=lambda r: (str(r.get(field) or ""), r["request_id"]), reverse=direction == "desc"
    )
    return answer(paginate(items, paging.page, paging.page_size))


def _set(values: list[str] | None, normalise: Callable[[str], str] = str) -> set[str] | None:
    return None if values is None else {normalise(value) for value in values}


@router.get(
    "/requests/{request_id}",
    summary="Get a request",
    responses=documented(RequestRecord, 404, 429),
    dependencies=[Limited],
)
async def get_request(request_id: str, config: RequestsKey, engine: Requests) -> FastJSON:
    return answer(engine.get(config, request_id).record)


@router.delete(
    "/requests/{request_id}",
    summary="Cancel a running request or soft-delete a finished one (D62)",
    responses=documented(RequestDeletedOut, 404),
)
async def delete_request(request_id: str, config: RequestsKey, engine: Requests) -> FastJSON:
    engine.cancel_or_delete(engine.get(config, request_id))
    return answer({"success": True, "time": iso(engine.state.clock.now())})

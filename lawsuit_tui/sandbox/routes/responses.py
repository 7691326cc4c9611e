"""``GET {requests_url}/responses`` (D20-D24, D48, D75, D76): oldest first, filters,
``request_status``; ``GET {requests_url}/responses/{response_id}`` (D74, D90)."""

from __future__ import annotations

from typing import Annotated

import orjson
from fastapi import APIRouter, Depends, Query, Request

from lawsuit_tui.sandbox.auth import rate_limited, require_key
from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.dependencies import Requests, State
from lawsuit_tui.sandbox.errors import ServiceError
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.pagination import (
    PageParams,
    ValuesQuery,
    date_query,
    order_pattern,
    page_params,
    paginate,
    query_instant,
    query_order,
    query_values,
)
from lawsuit_tui.sandbox.records import StoredResponse
from lawsuit_tui.sandbox.routes._common import FastJSON, answer, documented
from lawsuit_tui.sandbox.schemas import ResponseOut, ResponsesPageOut

__all__ = ["router"]

router = APIRouter(prefix="/requests", tags=["responses"])

ResponsesKey = Annotated[KeyConfig, Depends(require_key("requests"))]
# D76: every filter may come as repeated keys, a JSON array string or one value.
DateQuery = Annotated[str | None, date_query()]


@router.get(
    "/responses",
    summary="List responses (oldest first)",
    response_class=FastJSON,
    responses=documented(ResponsesPageOut, 404, 429),
    dependencies=[Depends(rate_limited)],
)
async def list_responses(
    request: Request,
    config: ResponsesKey,
    state: State,
    engine: Requests,
    paging: Annotated[PageParams, Depends(page_params(5, max_size=1000, default_size=20))],
    request_id: ValuesQuery,
    response_id: ValuesQuery,
    origin_id: ValuesQuery,
    response_type: ValuesQuery,
    cached: bool | None = None,
    created_at_gte: DateQuery = None,
    created_at_lte: DateQuery = None,
    order: Annotated[
        str | None,
        Query(
            max_length=200,
            json_schema_extra={"pattern": order_pattern(("created_at",))},
            description='{"created_at":"asc"}, asc|desc, or order[field]=dir',
        ),
    ] = None,
) -> FastJSON:
    requests = query_values(request, "request_id")
    request_status: str | None = None  # D24: null unless one request is named
    if requests is not None and len(set(requests)) == 1:
        request_status = engine.get(config, requests[0]).status
    since = query_instant(created_at_gte, "created_at_gte")
    until = query_instant(created_at_lte, "created_at_lte", end_of_day=True)
    low = iso(since) if since is not None else None
    high = iso(until) if until is not None else None
    _field, direction = query_order(request, ("created_at",), default=("created_at", "asc"))
    wanted = {
        "request_id": _set(requests),
        "response_id": _set(query_values(request, "response_id")),
        "origin_id": _set(query_values(request, "origin_id")),
        "response_type": _set(query_values(request, "response_type")),
    }

    def keep(r: StoredResponse) -> bool:
        for name, values in wanted.items():
            if values is not None and getattr(r, name) not in values:
                return False
        return (
            (cached is None or r.cached is cached)
            and (low is None or r.created_at >= low)
            and (high is None or r.created_at <= high)
        )

    # D48: kept in the order they were made, oldest first.
    items = [r for r in state.responses.get(config.key, ()) if keep(r)]
    if direction == "desc":
        items.reverse()
    page = paginate(items, paging.page, paging.page_size)
    page["page_data"] = [r.json for r in page["page_data"]]
    return answer({"request_status": request_status, **page})


def _set(values: list[str] | None) -> set[str] | None:
    return None if values is None else set(values)


@router.get(
    "/responses/{response_id}",
    summary="Get a response by its id",
    response_class=FastJSON,
    responses=documented(ResponseOut, 404, 429),
    dependencies=[Depends(rate_limited)],
)
async def get_response(
    response_id: str, config: ResponsesKey, state: State, engine: Requests
) -> FastJSON:
    stored = state.response(config.key, response_id)
    if stored is None:
        raise ServiceError.not_found(
            "RESPONSE_NOT_FOUND", f"response {response_id} not found", response_id=response_id
        )
    # D90: the page's example also names the status of the response's request.
    request = state.requests.get(stored.request_id)
    status = request.status if request is not None and request.key == config.key else None
    return answer({**orjson.loads(stored.raw), "request_status": status})

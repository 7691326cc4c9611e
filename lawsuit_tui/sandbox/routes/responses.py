"""``GET {requests_url}/responses`` (D20-D24, D48, D75, D76): oldest first, filters,
``request_status``; ``GET {requests_url}/responses/{response_id}`` (D74, D90);
``GET {requests_url}/responses/tracking/{origin_id}`` (D77, D170): a tracking's latest response
per lawsuit inside a window."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import orjson
from fastapi import APIRouter, Depends, Path, Request

from lawsuit_tui.sandbox.auth import rate_limited, require_key
from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.dependencies import Requests, State
from lawsuit_tui.sandbox.errors import ServiceError
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
from lawsuit_tui.sandbox.records import StoredResponse
from lawsuit_tui.sandbox.routes._common import FastJSON, answer, documented
from lawsuit_tui.sandbox.schemas import ResponseOut, ResponsesPageOut

__all__ = ["router"]

router = APIRouter(prefix="/requests", tags=["responses"], default_response_class=FastJSON)

ResponsesKey = Annotated[KeyConfig, Depends(require_key("requests"))]
# D76: every filter may come as repeated keys, a JSON array string or one value.
DateQuery = Annotated[str | None, date_query()]
OrderQuery = Annotated[
    str | None,
    order_query(("created_at",), '{"created_at":"asc"}, asc|desc, or order[field]=dir'),
]


@router.get(
    "/responses",
    summary="List responses (oldest first)",
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
    order: OrderQuery = None,
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


# ---------------------------------------------------------------- a tracking's responses


def _window_bound(name: str, text: str, *, end_of_day: bool) -> datetime:
    """A ``created_at_*`` bound of D77, which the route requires (a date alone: its first
    instant, or with ``end_of_day`` its last, as D63 reads it)."""
    moment = query_instant(text, name, end_of_day=end_of_day)
    assert moment is not None  # given: the route requires it
    return moment


def _lawsuit_of(stored: StoredResponse) -> tuple[str, object]:
    """What D77 groups by: the lawsuit's CNJ and instance; a response without a lawsuit (an
    application error) groups by its type and code."""
    record = orjson.loads(orjson.dumps(stored.json))
    data = record.get("response_data")
    if isinstance(data, dict) and isinstance(data.get("code"), str) and data["code"]:
        return data["code"], data.get("instance")
    code = data.get("code") if isinstance(data, dict) else None
    return f"{stored.response_type}:{code}", None


@router.get(
    "/responses/tracking/{origin_id}",
    summary="Responses of a tracking, the latest per CNJ and instance (D77)",
    responses=documented(ResponsesPageOut, 429),
    dependencies=[Depends(rate_limited)],
)
async def list_tracking_responses(
    origin_id: Annotated[str, Path(max_length=200)],
    request: Request,
    config: Annotated[KeyConfig, Depends(require_key("requests"))],
    state: State,
    paging: Annotated[PageParams, Depends(page_params(1))],
    created_at_gte: Annotated[str, date_query()],
    created_at_lte: Annotated[str, date_query()],
    order: OrderQuery = None,
) -> FastJSON:
    """D77: the window is required; for each (CNJ, instance) the origin produced responses
    for inside it, its latest response; ``request_status`` is that of the tracking's latest
    run. An origin that is not the caller's (or has no responses) gives an empty page."""
    since = iso(_window_bound("created_at_gte", created_at_gte, end_of_day=False))
    until = iso(_window_bound("created_at_lte", created_at_lte, end_of_day=True))
    _field, direction = query_order(request, ("created_at",), default=("created_at", "asc"))
    newest_first = direction == "desc"
    latest: dict[tuple[str, object], StoredResponse] = {}
    for stored in state.responses_by_origin.get((config.key, origin_id), ()):
        if since <= stored.created_at <= until:
            latest[_lawsuit_of(stored)] = stored  # made in order: the last one is the latest
    items = sorted(latest.values(), key=lambda r: r.created_at, reverse=newest_first)
    page = paginate(items, paging.page, paging.page_size)
    page["page_data"] = [r.json for r in page["page_data"]]
    tracking = state.trackings.get(origin_id)
    run_status: str | None = None
    if tracking is not None and tracking.key == config.key:
        run = state.requests.get(str(tracking.record.get("request_id") or ""))
        run_status = run.status if run is not None else None
    return answer({"request_status": run_status, **page})

"""``GET {requests_url}/responses`` (D20-D24): oldest first, filters, request_status; and
``GET {requests_url}/responses/tracking/{origin_id}`` (D77): a tracking's latest per lawsuit."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Annotated, Literal

import orjson
from fastapi import APIRouter, Depends, Path, Query, Request

from lawsuit_tui.sandbox.auth import rate_limited, require_key
from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.dependencies import Requests, State
from lawsuit_tui.sandbox.errors import ServiceError
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.pagination import PageParams, page_params, paginate
from lawsuit_tui.sandbox.records import StoredResponse
from lawsuit_tui.sandbox.routes._common import FastJSON, answer, documented
from lawsuit_tui.sandbox.schemas import ResponsesPageOut

__all__ = ["router"]

router = APIRouter(prefix="/requests", tags=["responses"])

ResponseTypeFilter = Literal[
    "lawsuit",
    "parties",
    "attachments",
    "step",
    "lawsuits",
    "application_error",
    "entity",
    "warrant",
    "execution",
]


@router.get(
    "/responses",
    summary="List responses (oldest first)",
    response_class=FastJSON,
    responses=documented(ResponsesPageOut, 404, 429),
    dependencies=[Depends(rate_limited)],
)
async def list_responses(
    config: Annotated[KeyConfig, Depends(require_key("requests"))],
    state: State,
    engine: Requests,
    paging: Annotated[PageParams, Depends(page_params(5))],
    request_id: Annotated[str | None, Query(max_length=200)] = None,
    origin_id: Annotated[str | None, Query(max_length=200)] = None,
    response_type: ResponseTypeFilter | None = None,
    cached: bool | None = None,
    created_at_gte: datetime | None = None,
) -> FastJSON:
    request_status: str | None = None  # D24: null when no request_id is given
    if request_id is not None:
        request_status = engine.get(config, request_id).status
    since: str | None = None
    if created_at_gte is not None:
        aware = created_at_gte if created_at_gte.tzinfo else created_at_gte.replace(tzinfo=UTC)
        since = iso(aware)
    items = [
        r
        for r in state.responses.get(config.key, ())
        if (request_id is None or r.request_id == request_id)
        and (origin_id is None or r.origin_id == origin_id)
        and (response_type is None or r.response_type == response_type)
        and (cached is None or r.cached is cached)
        and (since is None or r.created_at >= since)
    ]
    page = paginate(items, paging.page, paging.page_size)
    page["page_data"] = [r.json for r in page["page_data"]]
    return answer({"request_status": request_status, **page})


# ---------------------------------------------------------------- a tracking's responses


def _window_bound(name: str, text: str | None, *, end_of_day: bool) -> datetime:
    """A required ``created_at_*`` bound (D77): an ISO date-time (no zone: UTC) or a date
    (``_lte``: the end of that day, as D63 reads it). 400 naming the parameter otherwise."""
    if text is None or not text.strip():
        raise ServiceError.invalid(name, "required", f"{name} is required")
    value = text.strip()
    try:
        if len(value) == 10:
            day = datetime.fromisoformat(value).replace(tzinfo=UTC)
            return day + timedelta(days=1, microseconds=-1000) if end_of_day else day
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ServiceError.invalid(
            name, "date-time", f"{name} must be an ISO 8601 date-time, not {value!r}"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _direction(request: Request) -> bool:
    """True for newest first. D76's forms: ``order=desc``, ``order={"created_at":"desc"}``,
    ``order[created_at]=desc``, ``orderDirection=desc``; ascending by default (D77)."""
    query = request.query_params
    values = [
        query.get("order"),
        query.get("order[created_at]"),
        query.get("orderDirection"),
    ]
    for raw in values:
        if raw is None:
            continue
        text = raw.strip()
        if text.startswith("{"):
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = None
            text = str(parsed.get("created_at", "")) if isinstance(parsed, dict) else ""
        if text.lower() in ("asc", "desc"):
            return text.lower() == "desc"
        raise ServiceError.invalid("order", "enum", "order must be asc or desc by created_at")
    return False


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
    response_class=FastJSON,
    responses=documented(ResponsesPageOut, 429),
    dependencies=[Depends(rate_limited)],
)
async def list_tracking_responses(
    origin_id: Annotated[str, Path(max_length=200)],
    request: Request,
    config: Annotated[KeyConfig, Depends(require_key("requests"))],
    state: State,
    paging: Annotated[PageParams, Depends(page_params(1))],
    created_at_gte: Annotated[str | None, Query(max_length=40)] = None,
    created_at_lte: Annotated[str | None, Query(max_length=40)] = None,
    order: Annotated[str | None, Query(max_length=100)] = None,
) -> FastJSON:
    """D77: the window is required; for each (CNJ, instance) the origin produced responses
    for inside it, its latest response; ``request_status`` is that of the tracking's latest
    run. An origin that is not the caller's (or has no responses) gives an empty page."""
    since = iso(_window_bound("created_at_gte", created_at_gte, end_of_day=False))
    until = iso(_window_bound("created_at_lte", created_at_lte, end_of_day=True))
    newest_first = _direction(request)
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

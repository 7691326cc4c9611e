"""``GET {requests_url}/responses`` (D20-D24): oldest first, filters, request_status."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query

from lawsuit_tui.sandbox.auth import rate_limited, require_key
from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.dependencies import Requests, State
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.pagination import PageParams, page_params, paginate
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

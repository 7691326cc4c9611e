"""The Miner's find requests and courts (miner.yaml, D72): ``POST /requests/create``,
``GET /requests/{request_id}``, ``GET /responses``, ``GET /tribunals``.

A find takes the same strict filter as the count (``responses_limit`` caps it), debits its
cost at once (the provider's per-tier prices: 5 credits a lawsuit up to R$ 100 thousand ... 100
over R$ 1.5 million) and answers **201** ``{request_id, status: pending, cost}``; a balance too
small for the cost is **403** ``{errors: ["INSUFFICIENT_CREDITS"]}``. It then processes on the
sandbox clock (``processed_lawsuits`` grows) until ``completed``; its lawsuits are paged by
``GET /responses`` (``{data, page, page_size, total, total_pages}``, page size 1..100, default
10), which answers 422 ``REQUEST_NOT_COMPLETED`` before that, 422 ``INVALID_REQUEST_TYPE`` for a
count and 404 ``REQUEST_NOT_FOUND`` for an unknown id or another key's. Every error is the
Miner's ``{errors: [...]}``. Not rate-limited (D74).

``POST /_sandbox/miner/credits`` (sandbox-only, D45) sets the caller's balance, for tests and
demonstrations of the 403.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from lawsuit_tui.sandbox.auth import require_any_key, require_key
from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.counts import TIER_PRICES, MinerRecord
from lawsuit_tui.sandbox.dependencies import State
from lawsuit_tui.sandbox.errors import CountErrors
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.routes.count import (
    FILTER_BODY,
    UNUSABLE_FILTER,
    CountErrorList,
    CountFilter,
    read_filter,
)
from lawsuit_tui.sandbox.schemas import error_responses
from lawsuit_tui.sandbox.state import SandboxState
from lawsuit_tui.sandbox.world.miner import amount_tier, tribunal_id_of, tribunals

__all__ = ["router"]

DEFAULT_PAGE_SIZE = 10
MAX_PAGE_SIZE = 100

router = APIRouter(tags=["miner"])
MinerKey = Annotated[KeyConfig, Depends(require_key("miner"))]


# -- documented shapes -----------------------------------------------------------------------


class TribunalOut(BaseModel):
    tribunal_id: int
    name: str


class FindCreated(BaseModel):
    request_id: int
    status: Literal["pending"]
    cost: float


class MinerRequestOut(BaseModel):
    request_id: int
    status: Literal["pending", "completed", "failed"]
    type: Literal["count", "find"]
    total_lawsuits: int
    processed_lawsuits: int | None = None
    filter: CountFilter
    created_at: str
    updated_at: str


class MinerLawsuitOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    lawsuit_id: int
    tribunal_id: int | None
    kind: str
    code: str
    instance: int
    name: str
    amount: float | None
    is_enriched: bool
    favorites: dict[str, bool]
    created_at: str
    updated_at: str


class MinerResponsesOut(BaseModel):
    data: list[MinerLawsuitOut]
    page: int
    page_size: int
    total: int
    total_pages: int


class CreditsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    balance: float = Field(ge=0)


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {
        status: {"model": CountErrorList, "description": "{errors: [...]}"} for status in statuses
    }


# -- routes ----------------------------------------------------------------------------------


@router.get(
    "/miner/tribunals",
    summary="The Miner's courts",
    description="Every court the Miner covers, with the id its filters take, sorted by acronym.",
    response_model=list[TribunalOut],
    responses=error_responses(401, 403, miner=True),
)
async def list_tribunals(key: MinerKey) -> list[dict[str, Any]]:
    return [{"tribunal_id": tribunal_id, "name": name} for tribunal_id, name in tribunals()]


@router.post(
    "/miner/requests/create",
    summary="Create a find request (paid)",
    description=(
        "Debits the cost of the lawsuits matching the filter (at most responses_limit), "
        "then materializes them asynchronously."
    ),
    status_code=201,
    response_model=FindCreated,
    responses={
        **error_responses(401, 413, 500, 502, 503, 504, miner=True),
        **_errors(400, 403),
        422: UNUSABLE_FILTER,
    },
    openapi_extra=FILTER_BODY,
)
async def create_find(request: Request, key: MinerKey, state: State) -> dict[str, Any]:
    body, flt = await read_filter(request)
    world = await state.world_ready()
    retrieved = set(state.retrieved.get(key.key, set()))
    codes = await state.run_world(lambda: world.miner_matches(flt, retrieved))
    limit = body.get("responses_limit")
    if isinstance(limit, int):
        codes = codes[:limit]
    cost = await state.run_world(lambda: _cost(state, codes))
    if cost > state.counts.balance(key.key):
        raise CountErrors(["INSUFFICIENT_CREDITS"], status=403)
    entry = state.counts.create_find(key.key, flt, codes, cost, limit, state.clock.now())
    # What a find materializes counts as retrieved: the next count leaves it out.
    for code in codes:
        state.mark_retrieved(key.key, code)
    return {"request_id": entry.request_id, "status": "pending", "cost": entry.cost}


# ``:int``: only digits reach this route, so ``GET /miner/requests/count`` is the count's
# path asked with the wrong method (405 with its Allow), never a malformed id.
@router.get(
    "/miner/requests/{request_id:int}",
    summary="A Miner request",
    response_model=MinerRequestOut,
    response_model_exclude_none=True,
    responses={**error_responses(401, 403, miner=True), **_errors(400, 404)},
)
async def get_request(
    request_id: Annotated[int, Field(ge=1)], key: MinerKey, state: State
) -> dict[str, Any]:
    entry = _owned(state, key, request_id)
    progress = entry.progress(state.clock.now())
    answer: dict[str, Any] = {
        "request_id": entry.request_id,
        "status": progress.status,
        "type": entry.type,
        "total_lawsuits": entry.total_lawsuits,
        "filter": entry.filter,
        "created_at": iso(entry.created_at),
        "updated_at": iso(progress.updated_at),
    }
    if progress.processed:  # miner.yaml: "present when truthy"
        answer["processed_lawsuits"] = progress.processed
    return answer


@router.get(
    "/miner/responses",
    summary="The lawsuits of a completed find request",
    response_model=MinerResponsesOut,
    responses={**error_responses(401, 403, miner=True), **_errors(400, 404, 422)},
)
async def list_responses(
    key: MinerKey,
    state: State,
    request_id: Annotated[int, Query(ge=1)],
    page: Annotated[int, Query(ge=1)] = 1,
    page_size: Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE)] = DEFAULT_PAGE_SIZE,
) -> dict[str, Any]:
    entry = _owned(state, key, request_id)
    if entry.type != "find":
        raise CountErrors(["INVALID_REQUEST_TYPE"], status=422)
    progress = entry.progress(state.clock.now())
    if progress.status != "completed":
        raise CountErrors(["REQUEST_NOT_COMPLETED"], status=422)
    start = (page - 1) * page_size
    codes = entry.codes[start : start + page_size]
    await state.world_ready()
    stamp = iso(progress.updated_at)
    data = await state.run_world(lambda: [_lawsuit(state, code, stamp) for code in codes])
    total = len(entry.codes)
    return {
        "data": data,
        "page": page,
        "page_size": page_size,
        "total": total,
        "total_pages": -(-total // page_size),
    }


@router.post(
    "/_sandbox/miner/credits",
    summary="Set the caller's Miner credits (sandbox only)",
    include_in_schema=False,
)
async def set_credits(
    body: CreditsIn, key: Annotated[KeyConfig, Depends(require_any_key)], state: State
) -> dict[str, float]:
    state.counts.set_balance(key.key, body.balance)
    return {"balance": state.counts.balance(key.key)}


# -- helpers ---------------------------------------------------------------------------------


def _owned(state: SandboxState, key: KeyConfig, request_id: int) -> MinerRecord:
    entry = state.counts.owned(key.key, request_id)
    if entry is None:
        raise CountErrors(["REQUEST_NOT_FOUND"], status=404)
    return entry


def _cost(state: SandboxState, codes: list[str]) -> float:
    """Σ price of each lawsuit's tier (credits page); runs in the world's thread."""
    world = state.world
    total = 0.0
    for code in codes:
        rec = world.record(code)
        total += TIER_PRICES[amount_tier(rec.amount if rec is not None else None)]
    return total


def _lawsuit(state: SandboxState, code: str, stamp: str) -> dict[str, Any]:
    """A materialized lawsuit (``LawsuitRepositoryOutput``): the Miner's fields over the
    stored copy's cover and parties (its steps left out: a page of 100 stays small)."""
    world = state.world
    rec = world.record(code)
    # The datalake's copy, else the court's as of the world's epoch (a find enriches both).
    views = (state.stored_view(code, 1) or world.court_view(code, 1, world.epoch)) if rec else []
    view = dict(views[0]) if views else {}
    for heavy in ("steps", "attachments", "last_step"):
        view.pop(heavy, None)
    active = [p.get("name") for p in view.get("parties") or () if p.get("side") == "Active"]
    passive = [p.get("name") for p in view.get("parties") or () if p.get("side") == "Passive"]
    view.update(
        {
            "lawsuit_id": int("".join(ch for ch in code if ch.isdigit())[:12]),
            "tribunal_id": tribunal_id_of(rec.court.acronym) if rec is not None else None,
            "kind": rec.miner.kind if rec is not None and rec.miner is not None else "",
            "code": code,
            "instance": 1,
            "name": f"{active[0] if active else '?'} X {passive[0] if passive else '?'}",
            "amount": rec.amount if rec is not None else None,
            "is_enriched": True,
            "favorites": {},
            "created_at": stamp,
            "updated_at": stamp,
        }
    )
    return view

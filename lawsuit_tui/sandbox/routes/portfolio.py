"""Sandbox-only: the demo portfolio of 10,000 moving lawsuits (D177, beside D45).

``GET /_sandbox/portfolio`` lists its CNJ numbers with the tier the seeding gives each (for a
portfolio file to import); ``POST /_sandbox/portfolio`` tracks them for the caller's key.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field

from lawsuit_tui.sandbox.auth import require_any_key
from lawsuit_tui.sandbox.dependencies import State
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.portfolio import portfolio_listing, seed_portfolio
from lawsuit_tui.sandbox.routes._common import FastJSON, answer, documented
from lawsuit_tui.sandbox.world.portfolio import PORTFOLIO_SIZE

__all__ = ["router"]

router = APIRouter(prefix="/_sandbox", tags=["sandbox"], default_response_class=FastJSON)

AnyKey = Annotated[KeyConfig, Depends(require_any_key)]


class PortfolioIn(BaseModel):
    model_config = ConfigDict(extra="ignore", title="SandboxPortfolioIn")

    size: Annotated[int, Field(ge=1, le=PORTFOLIO_SIZE)] = PORTFOLIO_SIZE
    callback_url: Annotated[str, Field(max_length=2000)] | None = None


class PortfolioOut(BaseModel):
    model_config = ConfigDict(extra="allow", title="SandboxPortfolioOut")

    created: int
    already_tracked: int
    tiers: dict[str, int]


class PortfolioListOut(BaseModel):
    model_config = ConfigDict(extra="allow", title="SandboxPortfolioList")

    size: int
    lawsuits: list[dict[str, str]]


@router.get(
    "/portfolio",
    summary="The demo portfolio's lawsuits and their tiers (D177)",
    responses=documented(PortfolioListOut),
)
async def list_portfolio(
    _: AnyKey,
    state: State,
    limit: Annotated[int, Query(ge=1, le=PORTFOLIO_SIZE)] = PORTFOLIO_SIZE,
) -> FastJSON:
    await state.world_ready()
    return answer(await state.run_world(lambda: portfolio_listing(state, limit)))


@router.post(
    "/portfolio",
    summary="Track the demo portfolio for this key, tiered (D177)",
    responses=documented(PortfolioOut),
)
async def track_portfolio(body: PortfolioIn, config: AnyKey, state: State) -> FastJSON:
    await state.world_ready()
    report = await seed_portfolio(state, config, body.size, body.callback_url)
    return answer(report.as_dict())

"""The count service's answer: a recorded count request and the echo of its filter."""

from __future__ import annotations

from lawsuit_tui.domain.base import ApiModel, Number
from lawsuit_tui.domain.enums import (
    AmountTier,
    CountKind,
    CountTag,
    MinerRequestStatus,
    Nature,
    Open,
)

__all__ = ["CountFilterEcho", "CountRequestResult"]


class CountFilterEcho(ApiModel):
    kind: Open[CountKind] | None = None
    tribunals: list[int] | None = None
    amount_min: Number | None = None
    amount_max: Number | None = None
    amount_tier: Open[AmountTier] | None = None
    budget_years: list[int] | None = None
    natures: list[Open[Nature]] | None = None
    tags: list[Open[CountTag]] | None = None
    responses_limit: int | None = None


class CountRequestResult(ApiModel):
    """``201`` of ``POST /requests/count`` (D72): status ``completed`` (a count is
    synchronous; our spec showed ``pending``, read too)."""

    request_id: int | None = None
    total_lawsuits: int | None = None
    status: Open[MinerRequestStatus] | None = None
    filter: CountFilterEcho | None = None

"""The count service's answer: a recorded count request and the echo of its filter."""

from __future__ import annotations

from lawsuit_tui.domain.base import ApiModel, Number
from lawsuit_tui.domain.enums import AmountTier, CountKind, CountTag, Nature, Open

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
    limit: int | None = None


class CountRequestResult(ApiModel):
    request_id: int | None = None
    total_lawsuits: int | None = None
    # Only "pending" appears in the spec: not a closed list, so a plain string.
    status: str | None = None
    filter: CountFilterEcho | None = None

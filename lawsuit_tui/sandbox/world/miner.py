"""The count service over the world: which lawsuits a miner filter matches."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lawsuit_tui.sandbox.world.lawsuits import AMOUNT_TIERS, LawsuitRec


def tier_bounds(tier: str) -> tuple[float, float] | None:
    """[low, high) of an amount tier name ("100k-250k"), None for an unknown name."""
    for name, low, high in AMOUNT_TIERS:
        if name == tier:
            return low, high
    return None


def matches(rec: LawsuitRec, flt: dict[str, Any]) -> bool:
    """Does a miner lawsuit match a (validated) count filter?

    Amount tiers are half-open [low, high); amount_min/amount_max are inclusive. List
    filters match when the lawsuit has any of the values; an empty or absent list is no
    filter. ``tags`` matches a lawsuit carrying any of the given tags.
    """
    miner = rec.miner
    if miner is None or miner.kind != flt.get("kind"):
        return False
    tribunals = flt.get("tribunals")
    if tribunals and rec.tribunal_number not in {int(t) for t in tribunals}:
        return False
    amount = rec.amount or 0.0
    tier = flt.get("amount_tier")
    if tier:
        bounds = tier_bounds(str(tier))
        if bounds is None or not bounds[0] <= amount < bounds[1]:
            return False
    low, high = flt.get("amount_min"), flt.get("amount_max")
    if low is not None and amount < float(low):
        return False
    if high is not None and amount > float(high):
        return False
    years = flt.get("budget_years")
    if years and miner.budget_year not in {int(y) for y in years}:
        return False
    natures = flt.get("natures")
    if natures and miner.nature not in set(natures):
        return False
    tags = flt.get("tags")
    return not (tags and not set(tags) & set(miner.tags))


def matching(records: Iterable[LawsuitRec], flt: dict[str, Any], exclude: set[str]) -> list[str]:
    return [rec.code for rec in records if rec.code not in exclude and matches(rec, flt)]

"""The Miner over the world: its courts, which lawsuits a filter matches, what a find returns.

Courts are the Miner's own ids (D72), served by ``GET /tribunals`` exactly as the provider's
Miner courts page lists them (``assets/sandbox/miner_tribunals.json``): TJSP is 10, TRF3 is 1.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from lawsuit_tui.assets_dir import read_asset_json
from lawsuit_tui.domain.vault import court_key
from lawsuit_tui.sandbox.world.lawsuits import AMOUNT_TIERS, LawsuitRec


@cache
def tribunals() -> tuple[tuple[int, str], ...]:
    """``(tribunal_id, acronym)`` of every Miner court, sorted by acronym (the answer of
    ``GET /tribunals``)."""
    rows = read_asset_json("sandbox/miner_tribunals.json")["tribunals"]
    return tuple((int(row["tribunal_id"]), str(row["name"])) for row in rows)


@cache
def _acronym_by_id() -> dict[int, str]:
    return {tribunal_id: court_key(name) for tribunal_id, name in tribunals()}


@cache
def _id_by_acronym() -> dict[str, int]:
    return {court_key(name): tribunal_id for tribunal_id, name in tribunals()}


def tribunal_id_of(acronym: str) -> int | None:
    """The Miner's id of a court (``TJSP`` -> 10; ``TJDFT`` -> the id of ``TJDF``)."""
    return _id_by_acronym().get(court_key(acronym))


def unknown_tribunals(ids: Iterable[object]) -> list[object]:
    """The ids of a filter that are not Miner courts, in order."""
    known = _acronym_by_id()
    return [value for value in ids if not isinstance(value, int) or value not in known]


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
    filter. ``tags`` matches a lawsuit carrying any of the given tags. ``tribunals`` are
    Miner ids (D72), compared by the court's acronym.
    """
    miner = rec.miner
    if miner is None or miner.kind != flt.get("kind"):
        return False
    wanted = flt.get("tribunals")
    if wanted:
        acronyms = {_acronym_by_id().get(int(t)) for t in wanted}
        if court_key(rec.court.acronym) not in acronyms:
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


def amount_tier(amount: float | None) -> str:
    """The tier an amount falls in (half-open bounds, as the filter reads them)."""
    value = amount or 0.0
    for name, low, high in AMOUNT_TIERS:
        if low <= value < high:
            return name
    return AMOUNT_TIERS[-1][0]

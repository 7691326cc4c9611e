"""The world behind the count service: judgement bonds and sentence executions."""

from __future__ import annotations

import pytest

from lawsuit_tui.sandbox.world import World

TIERS = ("0-100k", "100k-250k", "250k-500k", "500k-750k", "750k-1.5M", "1.5M+")
BOUNDS = {
    "0-100k": (0, 100_000),
    "100k-250k": (100_000, 250_000),
    "250k-500k": (250_000, 500_000),
    "500k-750k": (500_000, 750_000),
    "750k-1.5M": (750_000, 1_500_000),
    "1.5M+": (1_500_000, float("inf")),
}


@pytest.fixture(scope="module")
def world() -> World:
    return World.shared(7)


@pytest.mark.parametrize("kind", ["judgement-bond", "sentence-execution"])
def test_tiers_partition_each_kind(world: World, kind: str) -> None:
    total = world.count({"kind": kind}, set())
    assert total >= 80
    per_tier = [world.count({"kind": kind, "amount_tier": t}, set()) for t in TIERS]
    assert all(n >= 5 for n in per_tier)
    assert sum(per_tier) == total
    for tier in TIERS:
        low, high = BOUNDS[tier]
        for code in world.miner_matches({"kind": kind, "amount_tier": tier}, set()):
            rec = world.record(code)
            assert rec is not None and rec.amount is not None
            assert low <= rec.amount < high


def test_kinds_are_disjoint_and_unknown_kinds_match_nothing(world: World) -> None:
    bonds = set(world.miner_matches({"kind": "judgement-bond"}, set()))
    execs = set(world.miner_matches({"kind": "sentence-execution"}, set()))
    assert bonds and execs and not bonds & execs
    assert world.count({"kind": "something"}, set()) == 0


def test_tribunals_are_the_miners_own_ids(world: World) -> None:
    """D72: TJSP is 10 and TRF3 is 1 (the Miner's courts page), not CNJ digits."""
    total = world.count({"kind": "judgement-bond"}, set())
    tjsp = world.count({"kind": "judgement-bond", "tribunals": [10]}, set())
    trf3 = world.count({"kind": "judgement-bond", "tribunals": [1]}, set())
    both = world.count({"kind": "judgement-bond", "tribunals": [10, 1]}, set())
    assert 0 < tjsp < total and 0 < trf3 < total
    assert both == tjsp + trf3
    for code in world.miner_matches({"kind": "judgement-bond", "tribunals": [10]}, set()):
        assert ".8.26." in code
    assert world.count({"kind": "judgement-bond", "tribunals": [826]}, set()) == 0
    assert world.count({"kind": "judgement-bond", "tribunals": []}, set()) == total


def test_amount_range_is_inclusive(world: World) -> None:
    codes = world.miner_matches({"kind": "sentence-execution"}, set())
    rec = world.record(codes[0])
    assert rec is not None and rec.amount is not None
    exact = {"kind": "sentence-execution", "amount_min": rec.amount, "amount_max": rec.amount}
    assert codes[0] in world.miner_matches(exact, set())
    low = world.count({"kind": "sentence-execution", "amount_max": 250_000}, set())
    tiers = sum(
        world.count({"kind": "sentence-execution", "amount_tier": t}, set()) for t in TIERS[:2]
    )
    assert low == tiers


def test_budget_years_and_natures(world: World) -> None:
    total = world.count({"kind": "judgement-bond"}, set())
    alimentary = world.count({"kind": "judgement-bond", "natures": ["alimentary"]}, set())
    common = world.count({"kind": "judgement-bond", "natures": ["common"]}, set())
    assert alimentary and common and alimentary + common == total
    years = [
        world.count({"kind": "judgement-bond", "budget_years": [y]}, set())
        for y in range(2023, 2030)
    ]
    assert sum(years) == total and sum(1 for n in years if n) >= 3
    view = world.court_view(
        world.miner_matches({"kind": "judgement-bond"}, set())[0], 1, world.epoch
    )[0]
    assert view["tags"]["miner_kind"] == "judgement-bond"
    assert view["metadata"]["judgement_bond"]["nature"] in ("alimentary", "common")
    assert view["main_lawsuit"] is not None


def test_execution_tags(world: World) -> None:
    counts = {
        t: world.count({"kind": "sentence-execution", "tags": [t]}, set())
        for t in ("precatory_dispatched", "possible_precatory", "possible_approved_calculation")
    }
    assert all(counts.values()), counts
    either = world.count(
        {"kind": "sentence-execution", "tags": ["precatory_dispatched", "possible_precatory"]},
        set(),
    )
    assert either >= max(counts["precatory_dispatched"], counts["possible_precatory"])
    code = world.miner_matches(
        {"kind": "sentence-execution", "tags": ["precatory_dispatched"]}, set()
    )[0]
    view = world.court_view(code, 1, world.epoch)[0]
    assert view["tags"]["precatory_dispatched"] is True
    assert any(r["classification"]["code"] in ("1265", "1266") for r in view["related_lawsuits"])


def test_exclude_removes_already_retrieved(world: World) -> None:
    flt = {"kind": "sentence-execution", "amount_tier": "1.5M+"}
    codes = world.miner_matches(flt, set())
    assert world.count(flt, set(codes[:3])) == len(codes) - 3
    assert world.count(flt, set(codes)) == 0

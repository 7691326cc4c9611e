"""Tiers: where a tracking's tier lives, and what a month of runs costs."""

from __future__ import annotations

import pytest

from lawsuit_tui.domain.tiers import (
    DEFAULT_TIERS,
    labels_of,
    monthly_runs,
    tier_of,
    with_tier,
)


def test_the_guides_tiers_are_the_defaults() -> None:
    assert [(t.name, t.recurrence) for t in DEFAULT_TIERS] == [
        ("hot", 1),
        ("warm", 7),
        ("cold", 30),
    ]
    assert DEFAULT_TIERS[0].runs_per_month == 30


@pytest.mark.parametrize(
    ("recurrence", "runs"), [(1, 30.0), (7, 30 / 7), (30, 1.0), (None, 30.0), (0, 30.0)]
)
def test_monthly_runs(recurrence: int | None, runs: float) -> None:
    assert monthly_runs(recurrence) == pytest.approx(runs)


def test_tier_and_labels_are_read_from_tags_and_written_without_losing_other_keys() -> None:
    tags = with_tier({"origin": "crm"}, "warm", ("bank", "sp"))
    assert tags == {"origin": "crm", "tier": "warm", "labels": ["bank", "sp"]}
    assert tier_of(tags) == "warm"
    assert labels_of(tags) == ("bank", "sp")
    assert tier_of({"tier": "  "}) is None
    assert tier_of(None) is None
    assert labels_of({"labels": "one"}) == ("one",)
    assert labels_of({"labels": [1, "two"]}) == ("two",)

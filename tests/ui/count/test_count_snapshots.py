"""Snapshots of the count screen, a refused filter, a count made and a find request's
lawsuits, at 80x24 and 120x40.

The states are the scenarios of ``scripts/screenshot_scenarios.py``. After checking the
pictures, update them with ``pytest tests/ui/count/test_count_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest

from scripts.screenshot_scenarios import (
    count_accepted,
    count_find,
    count_rejected,
)
from tests.support.ui_harness import scenario_cases, snap_scenario


@pytest.mark.parametrize(
    ("scenario", "size"),
    scenario_cases(count_rejected, count_accepted, count_find),
)
def test_snapshot(snap_compare: Any, scenario: Any, size: tuple[int, int]) -> None:
    assert snap_scenario(snap_compare, scenario, size)

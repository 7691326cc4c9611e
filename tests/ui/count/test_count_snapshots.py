"""Snapshots of the count screen, a refused filter and a count made, at 80x24 and 120x40.

The states are the scenarios of ``scripts/screenshot_scenarios.py``. After checking the
pictures, update them with ``pytest tests/ui/count/test_count_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from scripts.screenshot_scenarios import (
    Scenario,
    count_accepted,
    count_rejected,
)
from tests.support.ui_harness import ContextClockHarness

SMALL = (80, 24)
LARGE = (120, 40)

CASES: list[tuple[str, Scenario, tuple[int, int]]] = [
    ("count_rejected", count_rejected, SMALL),
    ("count_rejected", count_rejected, LARGE),
    ("count_accepted", count_accepted, SMALL),
    ("count_accepted", count_accepted, LARGE),
]


@pytest.mark.parametrize(
    ("scenario", "size"),
    [pytest.param(case, size, id=f"{name}-{size[0]}x{size[1]}") for name, case, size in CASES],
)
def test_snapshot(snap_compare: Any, scenario: Scenario, size: tuple[int, int]) -> None:
    sandbox = ContextClockHarness()

    async def run_before(pilot: Pilot[Any]) -> None:
        await scenario(sandbox, pilot)

    assert snap_compare(sandbox.app, terminal_size=size, run_before=run_before)

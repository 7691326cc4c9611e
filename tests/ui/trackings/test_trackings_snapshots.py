"""Snapshots of the trackings screens and their main states, at 80x24 and 120x40.

Real sandbox, frozen clock (times on screen come from it), steady cursor (conftest), workers
awaited and notices cleared before each picture; the states are the scenarios of
``scripts/screenshot_scenarios.py``. After checking the pictures, update them with
``pytest tests/ui/trackings/test_trackings_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from scripts.screenshot_scenarios import (
    Scenario,
    tracking_conflict,
    tracking_delete_confirm,
    tracking_detail,
    tracking_form_errors,
    trackings_empty,
    trackings_list,
)
from tests.support.ui_harness import ContextClockHarness

SMALL = (80, 24)
LARGE = (120, 40)

CASES: list[tuple[str, Scenario, tuple[int, int]]] = [
    ("trackings_empty", trackings_empty, SMALL),
    ("trackings_empty", trackings_empty, LARGE),
    ("trackings_list", trackings_list, SMALL),
    ("trackings_list", trackings_list, LARGE),
    ("tracking_detail", tracking_detail, SMALL),
    ("tracking_detail", tracking_detail, LARGE),
    ("tracking_form_errors", tracking_form_errors, SMALL),
    ("tracking_form_errors", tracking_form_errors, LARGE),
    ("tracking_conflict", tracking_conflict, SMALL),
    ("tracking_conflict", tracking_conflict, LARGE),
    ("tracking_delete_confirm", tracking_delete_confirm, SMALL),
    ("tracking_delete_confirm", tracking_delete_confirm, LARGE),
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

"""Snapshots of the trackings screens and their main states, at 80x24 and 120x40.

Real sandbox, frozen clock (times on screen come from it), steady cursor (conftest), workers
awaited and notices cleared before each picture; the states are the scenarios of
``scripts/screenshot_scenarios.py``. After checking the pictures, update them with
``pytest tests/ui/trackings/test_trackings_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest

from scripts.screenshot_scenarios import (
    tracking_conflict,
    tracking_delete_confirm,
    tracking_detail,
    tracking_form_errors,
    trackings_empty,
    trackings_list,
)
from tests.support.ui_harness import scenario_cases, snap_scenario


@pytest.mark.parametrize(
    ("scenario", "size"),
    scenario_cases(
        trackings_empty,
        trackings_list,
        tracking_detail,
        tracking_form_errors,
        tracking_conflict,
        tracking_delete_confirm,
    ),
)
def test_snapshot(snap_compare: Any, scenario: Any, size: tuple[int, int]) -> None:
    assert snap_scenario(snap_compare, scenario, size)

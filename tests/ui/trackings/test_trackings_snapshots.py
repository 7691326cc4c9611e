"""Snapshots of the trackings screens and their main states, at 80x24 and 120x40.

Real sandbox, frozen clock (times on screen come from it), steady cursor (conftest), workers
awaited and notices cleared before each picture; the states are the scenarios of
``scripts/screenshot_scenarios.py``. After checking the pictures, update them with
``pytest tests/ui/trackings/test_trackings_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest

from lawsuit_tui.ui.language import interface_language
from scripts.screenshot_scenarios import (
    portfolio_import_preview,
    portfolio_marked,
    portfolio_tier_picker,
    tracking_conflict,
    tracking_delete_confirm,
    tracking_detail,
    tracking_detail_error,
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
        portfolio_marked,
        portfolio_tier_picker,
        portfolio_import_preview,
        tracking_detail_error,
    ),
)
def test_snapshot(snap_compare: Any, scenario: Any, size: tuple[int, int]) -> None:
    assert snap_scenario(snap_compare, scenario, size)


@pytest.mark.parametrize(
    ("scenario", "size"),
    scenario_cases(trackings_list, portfolio_import_preview, tracking_detail_error),
)
def test_snapshot_pt_br(snap_compare: Any, scenario: Any, size: tuple[int, int]) -> None:
    """Where words matter: the portfolio, its import's preview and an error movement in
    Portuguese."""
    with interface_language("pt-BR"):
        assert snap_scenario(snap_compare, scenario, size)

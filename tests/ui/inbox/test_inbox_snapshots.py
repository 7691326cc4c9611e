"""Snapshots of the inbox: empty, a morning's movements, searched, the filter and export
forms; at 80x24 and 120x40, in English and in pt-BR (where the words matter).

The states are ``scripts/inbox_scenarios.py``'s (real sandbox, frozen clock). After checking
the pictures, update them with ``pytest tests/ui/inbox/test_inbox_snapshots.py
--snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest

from lawsuit_tui.ui.language import interface_language
from scripts.inbox_scenarios import (
    inbox_empty,
    inbox_export,
    inbox_filters,
    inbox_morning,
    inbox_searched,
)
from tests.support.ui_harness import scenario_cases, snap_scenario


@pytest.mark.parametrize(
    ("scenario", "size"),
    scenario_cases(inbox_empty, inbox_morning, inbox_searched, inbox_filters, inbox_export),
)
def test_snapshot(snap_compare: Any, scenario: Any, size: tuple[int, int]) -> None:
    assert snap_scenario(snap_compare, scenario, size)


@pytest.mark.parametrize(
    ("scenario", "size"), scenario_cases(inbox_morning, inbox_filters, inbox_export)
)
def test_snapshot_in_portuguese(snap_compare: Any, scenario: Any, size: tuple[int, int]) -> None:
    with interface_language("pt-BR"):
        assert snap_scenario(snap_compare, scenario, size)

"""Snapshots of the vault grid and its main states, at 80x24 and 120x40.

The states are the scenarios of ``scripts/screenshot_scenarios.py``. After checking the
pictures, update them with ``pytest tests/ui/vault/test_vault_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from scripts.screenshot_scenarios import (
    Scenario,
    vault_default,
    vault_named_key,
    vault_registered,
)
from tests.support.ui_harness import ContextClockHarness

SMALL = (80, 24)
LARGE = (120, 40)

CASES: list[tuple[str, Scenario, tuple[int, int]]] = [
    ("vault_default", vault_default, SMALL),
    ("vault_default", vault_default, LARGE),
    ("vault_named_key", vault_named_key, SMALL),
    ("vault_named_key", vault_named_key, LARGE),
    ("vault_registered", vault_registered, SMALL),
    ("vault_registered", vault_registered, LARGE),
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

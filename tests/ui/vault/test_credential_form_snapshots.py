"""Snapshots of the vault's register form: both kinds of credential and their complaints.

Real sandbox, frozen clock, steady cursor (conftest); the states are the scenarios of
``scripts/screenshot_scenarios.py``. After checking the pictures, update them with
``pytest tests/ui/vault/test_credential_form_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from lawsuit_tui.assets_dir import asset_path
from scripts.screenshot_scenarios import (
    CERTIFICATE_FILE,
    certificate_error,
    credential_update,
    login_errors,
    login_with_two_factor,
)
from scripts.screenshot_scenarios import FormScenario as Scenario
from tests.support.ui_harness import ContextClockHarness

SMALL = (80, 24)
LARGE = (120, 40)

CASES: list[tuple[str, Scenario, tuple[int, int]]] = [
    ("login_two_factor", login_with_two_factor, SMALL),
    ("login_two_factor", login_with_two_factor, LARGE),
    ("login_errors", login_errors, SMALL),
    ("certificate_error", certificate_error, SMALL),
    ("certificate_error", certificate_error, LARGE),
    ("credential_update", credential_update, SMALL),
    ("credential_update", credential_update, LARGE),
]


@pytest.mark.parametrize(
    ("scenario", "size"),
    [pytest.param(case, size, id=f"{name}-{size[0]}x{size[1]}") for name, case, size in CASES],
)
def test_credential_form(
    snap_compare: Any,
    scenario: Scenario,
    size: tuple[int, int],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a relative path: the picture must not show the run's temporary folder
    (tmp_path / CERTIFICATE_FILE).write_bytes(asset_path("demo/a1-demo.pfx").read_bytes())
    monkeypatch.chdir(tmp_path)
    sandbox = ContextClockHarness()

    async def run_before(pilot: Pilot[Any]) -> None:
        await scenario(pilot)

    assert snap_compare(sandbox.app, terminal_size=size, run_before=run_before)

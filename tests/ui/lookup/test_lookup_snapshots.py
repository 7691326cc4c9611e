"""Snapshots of the lookup screen and its main states, at 80x24 and 120x40.

The app runs on the real in-process sandbox with a frozen clock (tests/support/ui_harness.py),
so the data and every time on screen are the same on each run. Layout is what these check;
behaviour is in test_lookup_flows.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input

from tests.support.ui_harness import (
    SIZES,
    Harness,
    look_up,
    samples,
    snap,
)


@pytest.mark.parametrize("size", SIZES)
def test_lookup_loading(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await pilot.pause()  # the first frame, while the service is still opening

    assert snap(snap_compare, size, steps, hold=True)


@pytest.mark.parametrize("size", SIZES)
def test_lookup_empty_with_samples(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        return None

    assert snap(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_lookup_wrong_check_digits(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        digits = "".join(ch for ch in samples()["lawsuit_cnj"][0] if ch.isdigit())
        wrong = digits[:7] + ("00" if digits[7:9] != "00" else "11") + digits[9:]
        pilot.app.screen.query_one("#search", Input).value = wrong
        await pilot.pause()

    assert snap(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_lookup_results(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await look_up(pilot, samples()["cpf"][0])

    assert snap(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_lookup_error_secret_lawsuit(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await look_up(pilot, samples()["secret_lawsuit"]["code"])

    assert snap(snap_compare, size, steps)

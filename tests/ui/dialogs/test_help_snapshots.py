"""Snapshots of the help screen over a lawsuit, at 80x24 and 120x40 (real sandbox, frozen clock)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.ui_harness import (
    SIZES,
    Harness,
    open_from_lookup,
    samples,
    snap,
)


@pytest.mark.parametrize("size", SIZES)
def test_help_screen(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await open_from_lookup(pilot, samples()["lawsuit_cnj"][0])
        await pilot.press("question_mark")

    assert snap(snap_compare, size, steps)

"""The receiver's screen (F8) at 80x24 and 120x40, stopped (a running one shows a port the
system picks: its flows are in test_receiver_screen.py)."""

from __future__ import annotations

from typing import Any

import pytest

from lawsuit_tui.ui.webhooks.screen import ReceiverScreen
from tests.support.ui_harness import SIZES, Harness, settle, snap, wait_for


@pytest.mark.parametrize("size", SIZES)
def test_receiver_screen_stopped(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await pilot.press("f8")
        await wait_for(lambda: isinstance(pilot.app.screen, ReceiverScreen), pilot.pause)
        await settle(pilot)

    assert snap(snap_compare, size, steps)

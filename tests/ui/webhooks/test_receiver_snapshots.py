"""Snapshots of the status line while the embedded webhook receiver listens, at 80x24 and
120x40 (real sandbox, frozen clock).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.ui_harness import (
    SIZES,
    Harness,
    open_requests,
    snap,
)


class _ListeningReceiver:
    """Stands for a running embedded receiver: a fixed port keeps the picture stable."""

    running = True
    host = "127.0.0.1"
    url = "http://127.0.0.1:8080/0123456789abcdef"

    async def stop(self) -> None:
        self.running = False


@pytest.mark.parametrize("size", SIZES)
def test_receiver_running_in_the_status_line(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await open_requests(pilot)
        pilot.app.receiver_switch.receiver = _ListeningReceiver()
        pilot.app.receiver_switch.deliveries = 3
        pilot.app._refresh_status()

    assert snap(snap_compare, size, steps)

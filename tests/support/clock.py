"""The tests' clocks: time that moves only when a test (or a sleep) moves it.

Two kinds, because the code under test reads two kinds of time: the client, the rate window
and the ledger read seconds (``time.monotonic``/``time.time`` style), the store and the
services read aware datetimes. The sandbox has its own, real, ``SandboxClock.frozen()``.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

__all__ = ["FakeClock", "VirtualClock"]


class VirtualClock:
    """Seconds that move only when someone sleeps or a test advances them; each sleep is
    recorded in ``sleeps``."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)


class FakeClock:
    """An aware UTC datetime that moves only when a test advances it."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 10, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)

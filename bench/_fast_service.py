"""The sandbox on a fast clock, and service contexts whose rate limiter reads that clock.

A benchmark that measures pacing (the client's rate window, a portfolio's bulk creation) runs
the sandbox ``speed`` times faster than real time: a 60-second window passes in a fraction of
a second, and the limiter waits on the same clock the sandbox counts its window with.
"""

from __future__ import annotations

import asyncio

import httpx

from lawsuit_tui.api.ratelimit import RateLimiter
from lawsuit_tui.config import Settings
from lawsuit_tui.sandbox.app import create_app, sandbox_state
from lawsuit_tui.sandbox.clock import DEFAULT_START, SandboxClock
from lawsuit_tui.sandbox.world import World
from lawsuit_tui.services.context import ServiceContext


class FastService:
    """The sandbox (seed 7, ``limit`` calls a ``window`` of seconds) on a clock ``speed``
    times real time, and contexts with ``settings`` over it."""

    def __init__(self, speed: float, settings: Settings, *, limit: int, window: float) -> None:
        self.speed = speed
        self.limit = limit
        self.window = window
        self.clock = SandboxClock(DEFAULT_START, speed=speed)
        self.app = create_app(
            seed=7, clock=self.clock, rate_limit=(limit, window), world=World.shared(7)
        )
        self.state = sandbox_state(self.app)
        self.settings = settings

    def now(self) -> float:
        return self.clock.now().timestamp()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds / self.speed)

    async def open(self) -> ServiceContext:
        limiter = RateLimiter(self.limit, self.window, clock=self.now, sleep=self.sleep)
        return await ServiceContext.open(
            self.settings,
            transport=httpx.ASGITransport(app=self.app),
            clock=self.now,
            sleep=self.sleep,
            limiter=limiter,
        )

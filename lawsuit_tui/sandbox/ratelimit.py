"""Sliding-window rate limit per API key (D25, D26), on the sandbox clock.

The limited routes declare the dependency :func:`rate_limited` (it reads the key itself). It
records the call, or raises 429 in the flat shape with ``Retry-After`` in whole seconds. The
``X-RateLimit-*`` headers are left in ``request.state.ratelimit_headers``; the sandbox
middleware adds them to whatever answer the route gives (success or error), so every answer of
a limited route carries them (D26).
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Request

from lawsuit_tui.sandbox.auth import api_key_header
from lawsuit_tui.sandbox.errors import FlatServiceError

if TYPE_CHECKING:
    from lawsuit_tui.sandbox.clock import SandboxClock

__all__ = ["Decision", "SlidingWindowLimiter", "parse_rate_limit", "rate_limited"]


@dataclass(frozen=True)
class Decision:
    allowed: bool
    limit: int
    remaining: int
    reset_epoch: int
    retry_after: int

    def headers(self) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(self.reset_epoch),
        }


def parse_rate_limit(text: str) -> tuple[int, float]:
    """``"CALLS/SECONDS"`` (``"180/60"``) -> (180, 60.0); ValueError otherwise."""
    calls_text, sep, seconds_text = text.partition("/")
    if not sep:
        raise ValueError("rate limit must look like CALLS/SECONDS, for example 180/60")
    calls, seconds = int(calls_text), float(seconds_text)
    if calls < 1 or seconds <= 0:
        raise ValueError("rate limit needs at least 1 call and a positive number of seconds")
    return calls, seconds


class SlidingWindowLimiter:
    """At most ``calls`` in any ``seconds`` (sliding) per key."""

    def __init__(self, clock: SandboxClock, calls: int = 180, seconds: float = 60.0) -> None:
        self.clock = clock
        self.calls = calls
        self.seconds = seconds
        self._windows: dict[str, deque[datetime]] = {}
        self.rejected = 0

    def configure(self, calls: int, seconds: float) -> None:
        self.calls, self.seconds = calls, seconds

    def _window(self, key: str, now: datetime) -> deque[datetime]:
        window = self._windows.setdefault(key, deque())
        horizon = now - timedelta(seconds=self.seconds)
        while window and window[0] <= horizon:
            window.popleft()
        return window

    def hit(self, key: str) -> Decision:
        """Count one call for ``key`` if the window allows it."""
        now = self.clock.now()
        window = self._window(key, now)
        if len(window) >= self.calls:
            self.rejected += 1
            frees_at = window[0] + timedelta(seconds=self.seconds)
            wait = max(1, math.ceil((frees_at - now).total_seconds()))
            return Decision(False, self.calls, 0, math.ceil(frees_at.timestamp()), wait)
        window.append(now)
        oldest_leaves = window[0] + timedelta(seconds=self.seconds)
        return Decision(
            True, self.calls, self.calls - len(window), math.ceil(oldest_leaves.timestamp()), 0
        )


async def rate_limited(
    request: Request, api_key: Annotated[str | None, Depends(api_key_header)]
) -> None:
    """Dependency for the limited routes (D25).

    FastAPI resolves a route's ``dependencies=`` before its parameters, so this reads the key
    itself; an unknown or missing key is not counted (the key dependency answers 401).
    """
    from lawsuit_tui.sandbox.auth import sandbox_state

    state = sandbox_state(request)
    config = state.keys.get(api_key.strip()) if api_key else None
    if config is None:
        return
    decision = state.limiter.hit(config.key)
    headers = decision.headers()
    request.state.ratelimit_headers = headers
    if not decision.allowed:
        state.stats.count_429(config.key)
        raise FlatServiceError(
            429,
            "TOO_MANY_REQUESTS",
            f"rate limit of {decision.limit} calls per {state.limiter.seconds:g} s exceeded",
            "RATE_LIMIT_EXCEEDED",
            headers={**headers, "Retry-After": str(decision.retry_after)},
        )

"""Sliding-window rate limit per API key (D25, D26), on the sandbox clock.

The limited routes declare the dependency :func:`lawsuit_tui.sandbox.auth.rate_limited`, which
asks :meth:`SlidingWindowLimiter.hit` and answers 429 when the window is full.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lawsuit_tui.sandbox.clock import SandboxClock

__all__ = ["Decision", "SlidingWindowLimiter", "parse_rate_limit"]


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

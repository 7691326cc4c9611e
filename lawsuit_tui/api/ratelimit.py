"""The client-side sliding window shared by every task that calls a limited route.

The service allows ``calls`` per ``seconds`` (180 in 60 s) per API key over a sliding
window (D25). A 429 costs a retry and delays everyone, so callers wait here for a slot
instead, and in normal use none is ever received.

Why the window is conservative: a call occupies its slot from the moment it is sent, and
its slot leaves the window ``seconds`` after its *answer* arrived. The service stamps the
call when it receives it, which is between those two instants, so the service always frees
a slot no later than we do. When the service says less is left than we think (another
client using the same key), the difference is added as phantom calls made now.

Waiters are served in arrival order (an ``asyncio.Lock`` is FIFO), so several requests
followed at once share the allowance fairly and none starves.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

__all__ = ["RateLimiter", "Slot"]

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
Listener = Callable[[int, int], None]

# Seconds added to every wait, so that a slot is surely free when we wake up.
_MARGIN = 0.002


@dataclass(eq=False)
class Slot:
    """One call in the window: ``at`` is when it was sent, then when its answer arrived."""

    at: float
    in_flight: bool = True


class RateLimiter:
    """A sliding window of ``calls`` per ``seconds``; ``acquire`` waits for a free slot."""

    def __init__(
        self,
        calls: int,
        seconds: float,
        *,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
    ) -> None:
        if calls <= 0 or seconds <= 0:
            raise ValueError("calls and seconds must be positive")
        self.configured_limit = calls
        self._limit = calls
        self.window = float(seconds)
        self._clock = clock or time.monotonic
        self._sleep = sleep or asyncio.sleep
        self._slots: list[Slot] = []
        self._phantoms: list[float] = []
        self._blocked_until = 0.0
        self._lock = asyncio.Lock()
        self._waiting = 0
        self._listeners: list[Listener] = []
        self._last_reported: tuple[int, int] | None = None
        self.calls_made = 0
        self.corrections = 0
        self.wait_seconds = 0.0

    # --- observation --------------------------------------------------------------------

    @property
    def limit(self) -> int:
        """The number of calls allowed in one window."""
        return self._limit

    @property
    def remaining(self) -> int:
        """Calls that could be made right now without waiting."""
        now = self._clock()
        self._prune(now)
        if now < self._blocked_until:
            return 0
        return max(0, self._limit - len(self._slots) - len(self._phantoms))

    @property
    def waiting(self) -> int:
        """How many callers are waiting for a slot at this moment."""
        return self._waiting

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(remaining, limit)`` whenever the allowance changes; returns an
        unsubscribe function."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def _notify(self) -> None:
        state = (self.remaining, self._limit)
        if state == self._last_reported:
            return
        self._last_reported = state
        for listener in list(self._listeners):
            listener(*state)

    # --- the window ---------------------------------------------------------------------

    def _prune(self, now: float) -> None:
        horizon = now - self.window
        if self._slots and any(not s.in_flight and s.at <= horizon for s in self._slots):
            self._slots = [s for s in self._slots if s.in_flight or s.at > horizon]
        if self._phantoms and self._phantoms[0] <= horizon:
            self._phantoms = [p for p in self._phantoms if p > horizon]

    def _next_free(self) -> float | None:
        """When the earliest occupied slot leaves the window (None: only calls in flight)."""
        times = [s.at for s in self._slots if not s.in_flight]
        times.extend(self._phantoms)
        return min(times) + self.window if times else None

    async def acquire(self) -> Slot:
        """Wait for a free slot and take it. Waiters are served first come, first served."""
        self._waiting += 1
        started = self._clock()
        try:
            async with self._lock:
                while True:
                    now = self._clock()
                    self._prune(now)
                    if now < self._blocked_until:
                        await self._sleep(self._blocked_until - now + _MARGIN)
                        continue
                    if len(self._slots) + len(self._phantoms) < self._limit:
                        slot = Slot(now)
                        self._slots.append(slot)
                        self.calls_made += 1
                        return slot
                    free_at = self._next_free()
                    # Every slot is a call still in flight: its answer will free nothing
                    # sooner than a window from now, so poll at a fraction of the window.
                    delay = (free_at - now) if free_at is not None else self.window / 20
                    await self._sleep(max(delay, 0.0) + _MARGIN)
        finally:
            self._waiting -= 1
            self.wait_seconds += max(0.0, self._clock() - started)
            self._notify()

    def complete(
        self, slot: Slot, *, remaining: int | None = None, limit: int | None = None
    ) -> None:
        """The answer of ``slot``'s call arrived; ``remaining``/``limit`` from its headers."""
        now = self._clock()
        slot.at = now
        slot.in_flight = False
        if limit is not None and 0 < limit < self._limit:
            # The service allows fewer calls than configured: it is the one that counts.
            self._limit = limit
        if remaining is not None and remaining >= 0:
            self._prune(now)
            used_here = len(self._slots) + len(self._phantoms)
            used_there = self._limit - remaining
            if used_there > used_here:
                self.corrections += 1
                self._phantoms.extend([now] * (used_there - used_here))
                self._phantoms.sort()
        self._notify()

    def release(self, slot: Slot) -> None:
        """The call of ``slot`` certainly never reached the service: give the slot back."""
        if slot in self._slots:
            self._slots.remove(slot)
        self.calls_made -= 1
        self._notify()

    def block(self, seconds: float) -> None:
        """The service answered 429: nobody calls for ``seconds``."""
        now = self._clock()
        self._blocked_until = max(self._blocked_until, now + max(0.0, seconds))
        self._notify()

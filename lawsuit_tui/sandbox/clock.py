"""The sandbox's own clock, and the runtime waits that fire on it.

Every time the sandbox shows (created_at, started_at, ...) and every delay it keeps (request
lifecycle D15, tracking runs D27, webhook retries D44) is read from a :class:`SandboxClock`:
``now() = anchor.sandbox_at + (wall clock - anchor.real_at) * speed``. The anchor is plain
data (:class:`ClockAnchor`), saved with a sandbox kept on disk, so that every process sharing
that state reads the same time, and an advance made by one moves it for all (D181). The wall
clock (``time.time``) is the one processes share; a clock never goes backwards within a
process even when the wall clock does. By default it starts at the real time: a request made
now says now. Speed 0 freezes it, so tests move it only by :meth:`SandboxClock.advance`, and
nothing waits in real time.

What the sandbox does over time (requests, trackings, deliveries) is not kept here but follows
from its records (sandbox/timed.py). The clock only holds runtime callbacks (``call_at``,
``sleep_until``): plain synchronous callbacks that receive the sandbox time they were due at
(not the time they happened to run), so an advance of ten seconds past three events fires them
in order, each stamped with its own time. Whoever owns the event loop (the sandbox state's
runner, or ``drain`` in tests) pops due events with :meth:`SandboxClock.pop_due` and runs them.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

__all__ = ["DEFAULT_START", "ClockAnchor", "Event", "SandboxClock", "iso", "real_now"]

DEFAULT_START = datetime(2026, 11, 20, 12, 0, 0, tzinfo=UTC)

EventCallback = Callable[[datetime], None]
Wall = Callable[[], float]


def real_now() -> datetime:
    """The real time, in UTC, to the millisecond (what the service's own timestamps hold)."""
    now = datetime.now(UTC)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


@dataclass
class ClockAnchor:
    """Where the sandbox's time stands, as data: at the wall-clock instant ``real_at``
    (seconds since the Unix epoch) it was ``sandbox_at``, and it runs ``speed`` times real
    time from there (D181)."""

    sandbox_at: datetime
    real_at: float
    speed: float = 1.0


def iso(value: datetime) -> str:
    """D2: ISO 8601 UTC with milliseconds and ``Z``."""
    value = value.astimezone(UTC)
    # %Y does not pad years below 1000 on every platform; the year is written here.
    stamp = value.strftime("-%m-%dT%H:%M:%S.")
    return f"{value.year:04d}{stamp}{value.microsecond // 1000:03d}Z"


@dataclass(order=True)
class Event:
    due: datetime
    seq: int
    callback: EventCallback = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class SandboxClock:
    """A clock that runs at ``speed`` times real time, can be advanced, and holds runtime waits.

    ``start``: the sandbox time it shows now (default: the real time). ``wall``: the wall
    clock (seconds since the Unix epoch; tests may drive one)."""

    def __init__(
        self, start: datetime | None = None, speed: float = 1.0, *, wall: Wall = time.time
    ) -> None:
        if start is None:
            start = real_now()
        elif start.tzinfo is None:
            start = start.replace(tzinfo=UTC)
        if speed < 0:
            raise ValueError("speed must be >= 0")
        self._wall = wall
        self.anchor = ClockAnchor(start.astimezone(UTC), wall(), float(speed))
        self._latest = self.anchor.sandbox_at
        self._events: list[Event] = []
        self._seq = itertools.count()
        self._listeners: list[Callable[[], None]] = []

    # ----------------------------------------------------------------- time

    @classmethod
    def frozen(cls, start: datetime = DEFAULT_START) -> SandboxClock:
        """A clock that moves only when advanced (for tests)."""
        return cls(start, speed=0.0)

    @property
    def speed(self) -> float:
        return self.anchor.speed

    @property
    def is_frozen(self) -> bool:
        return self.anchor.speed == 0.0

    def now(self) -> datetime:
        anchor = self.anchor
        if anchor.speed == 0.0:
            moment = anchor.sandbox_at
        else:
            elapsed = (self._wall() - anchor.real_at) * anchor.speed
            moment = anchor.sandbox_at + timedelta(seconds=elapsed)
        # The wall clock may step back (NTP); the sandbox's time within a process does not,
        # unless the anchor itself moved back (another process's state was read: D181).
        if moment < self._latest and self._latest - moment < timedelta(seconds=5):
            return self._latest
        self._latest = moment
        return moment

    def _rebase(self) -> None:
        anchor = self.anchor
        anchor.sandbox_at = self.now()
        anchor.real_at = self._wall()

    def advance(self, seconds: float) -> datetime:
        """Move the clock forward; events now due fire when their runner next looks."""
        if seconds < 0:
            raise ValueError("the sandbox clock does not go backwards")
        self._rebase()
        self.anchor.sandbox_at += timedelta(seconds=seconds)
        self._notify()
        return self.now()

    def set_speed(self, speed: float) -> None:
        if speed < 0:
            raise ValueError("speed must be >= 0")
        self._rebase()
        self.anchor.speed = float(speed)
        self._notify()

    def moved(self) -> None:
        """The anchor was changed from outside (read from disk): tell the listeners."""
        self._notify()

    def real_seconds(self, sandbox_seconds: float) -> float | None:
        """How long ``sandbox_seconds`` take in real time (None when frozen: forever)."""
        if self.anchor.speed == 0.0:
            return None
        return max(0.0, sandbox_seconds / self.anchor.speed)

    # ----------------------------------------------------------------- events

    def call_at(self, when: datetime, callback: EventCallback) -> Event:
        event = Event(when, next(self._seq), callback)
        heapq.heappush(self._events, event)
        self._notify()
        return event

    def call_later(self, seconds: float, callback: EventCallback) -> Event:
        return self.call_at(self.now() + timedelta(seconds=seconds), callback)

    def next_due(self) -> datetime | None:
        while self._events and self._events[0].cancelled:
            heapq.heappop(self._events)
        return self._events[0].due if self._events else None

    def pop_due(self) -> Event | None:
        """The earliest event due now (or in the past), removed from the queue; else None."""
        due = self.next_due()
        if due is None or due > self.now():
            return None
        return heapq.heappop(self._events)

    def run_due(self) -> int:
        """Run every due event in time order (events they schedule included); how many ran."""
        count = 0
        while (event := self.pop_due()) is not None:
            count += 1
            event.callback(event.due)
        return count

    @property
    def pending_events(self) -> int:
        return sum(1 for e in self._events if not e.cancelled)

    async def sleep_until(self, when: datetime) -> None:
        """Wait until the sandbox clock reaches ``when`` (needs a runner popping events)."""
        if self.now() >= when:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake(_: datetime) -> None:
            if not future.done():
                future.set_result(None)

        event = self.call_at(when, wake)
        try:
            await future
        finally:
            event.cancel()

    # ----------------------------------------------------------------- listeners

    def add_listener(self, listener: Callable[[], None]) -> None:
        """``listener()`` is called whenever the clock moves or an event is added."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _notify(self) -> None:
        for listener in list(self._listeners):
            listener()

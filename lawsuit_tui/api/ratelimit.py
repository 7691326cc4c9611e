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

Other processes on the same key: with a :class:`~lawsuit_tui.api.ledger.RateLedger`, a slot
is also taken from the ledger every process of this user shares (api/ledger.py), answers
and 429 blocks are written to it, and the phantom correction is made there, where every
process's calls are known. Without one (or while it is unavailable) the window is this
process's alone.

Every wait is visible: :meth:`RateLimiter.subscribe_waits` calls a listener with a
:class:`RateWait` when a wait starts or changes and with None when no caller waits any more.
The client adds its own waits of a 429's ``Retry-After`` (``ApiClient.on_rate_wait``)::

    def show(wait: RateWait | None) -> None:
        if wait is None:
            status.clear()
        elif wait.seconds >= 1:  # a wait of milliseconds between two calls is not news
            status.show(wait.describe())  # "waiting 42 s for the rate limit, until 14:03:12"

    unsubscribe = api.on_rate_wait(show)

``describe(now)`` gives the seconds left at ``now`` (a countdown redrawn every second);
``until`` is the local wall-clock time the wait ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from lawsuit_tui.api.ledger import (
    Answered,
    Blocked,
    LedgerUnavailable,
    LedgerUpdate,
    LedgerWait,
    RateLedger,
    Ticket,
    Unsent,
)
from lawsuit_tui.domain.listeners import Listeners
from lawsuit_tui.i18n import _

__all__ = ["RateLimiter", "RateWait", "Slot"]

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
Listener = Callable[[int, int], None]
WaitListener = Callable[["RateWait | None"], None]
WaitReason = Literal["window", "retry_after"]

# Seconds added to every wait, so that a slot is surely free when we wake up.
_MARGIN = 0.002
# After the ledger failed, this process uses its own window alone for so long.
_LEDGER_PAUSE = 30.0


def _local_now() -> datetime:
    return datetime.now().astimezone()


@dataclass(frozen=True)
class RateWait:
    """A wait for the rate limit: ``reason`` "window" (the calls allowed per window are
    spent, on this machine) or "retry_after" (the service answered 429 and said how long);
    ``seconds`` from when it was reported; ``until`` the local wall-clock time it ends."""

    reason: WaitReason
    seconds: float
    until: datetime

    def seconds_left(self, now: datetime | None = None) -> int:
        current = now or datetime.now(self.until.tzinfo)
        return max(0, math.ceil((self.until - current).total_seconds()))

    def describe(self, now: datetime | None = None) -> str:
        """One line for a status bar or stderr, the seconds counted from ``now``."""
        values = {"seconds": self.seconds_left(now), "time": self.until.strftime("%H:%M:%S")}
        if self.reason == "retry_after":
            return _("the service asked to slow down: waiting {seconds} s, until {time}").format(
                **values
            )
        return _("waiting {seconds} s for the rate limit, until {time}").format(**values)


@dataclass(eq=False)
class Slot:
    """One call in the window: ``at`` is when it was sent, then when its answer arrived;
    ``ticket`` its stamp in the shared ledger, if it has one."""

    at: float
    in_flight: bool = True
    ticket: Ticket | None = None
    # Slots this process held, this one included, when the call was sent: what the service
    # counted when the call arrived, unless someone else also called (see ``complete``).
    occupied: int = 0
    seq: int = 0


class RateLimiter:
    """A sliding window of ``calls`` per ``seconds``; ``acquire`` waits for a free slot."""

    def __init__(
        self,
        calls: int,
        seconds: float,
        *,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
        ledger: RateLedger | None = None,
        wall: Callable[[], datetime] = _local_now,
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
        self._listeners: Listeners[Listener] = Listeners()
        self._last_reported: tuple[int, int] | None = None
        self.calls_made = 0
        self.corrections = 0
        self.wait_seconds = 0.0
        self.ledger = ledger
        self.ledger_problem: str | None = None  # why the shared window is paused, if it is
        self._ledger_paused_until = -math.inf
        self._pending: list[LedgerUpdate] = []
        self._flushing: asyncio.Task[None] | None = None
        self._wall = wall
        self._waits: dict[object, RateWait] = {}
        self._wait_listeners: Listeners[WaitListener] = Listeners()
        self._shown_wait: RateWait | None = None

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
        here = max(0, self._limit - len(self._slots) - len(self._phantoms))
        view = self.ledger.view if self.ledger is not None else None
        if view is None or self.ledger is None:
            return here
        return min(here, view.remaining(self.ledger.now(), self._limit))

    @property
    def waiting(self) -> int:
        """How many callers are waiting for a slot at this moment."""
        return self._waiting

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(remaining, limit)`` whenever the allowance changes; returns an
        unsubscribe function."""
        return self._listeners.add(listener)

    @property
    def current_wait(self) -> RateWait | None:
        """The wait that ends last among those under way, or None."""
        if not self._waits:
            return None
        return max(self._waits.values(), key=lambda wait: wait.until)

    def subscribe_waits(self, listener: WaitListener) -> Callable[[], None]:
        """Call ``listener(wait)`` when a wait for the rate limit starts or changes, and
        ``listener(None)`` when nobody waits any more; returns an unsubscribe function."""
        return self._wait_listeners.add(listener)

    def _set_wait(self, key: object, seconds: float, reason: WaitReason) -> None:
        until = self._wall() + timedelta(seconds=seconds)
        self._waits[key] = RateWait(reason, seconds, until)
        self._notify_wait()

    def _end_wait(self, key: object) -> None:
        if self._waits.pop(key, None) is not None:
            self._notify_wait()

    def _notify_wait(self) -> None:
        current = self.current_wait
        if current == self._shown_wait:
            return
        self._shown_wait = current
        for listener in self._wait_listeners:
            listener(current)

    @contextlib.contextmanager
    def showing_wait(self, seconds: float, reason: WaitReason) -> Iterator[None]:
        """Report a wait made elsewhere (the client's sleep after a 429) while it lasts."""
        key = object()
        self._set_wait(key, seconds, reason)
        try:
            yield
        finally:
            self._end_wait(key)

    async def _sleep_visibly(self, key: object, seconds: float, reason: WaitReason) -> None:
        self._set_wait(key, seconds, reason)
        await self._sleep(seconds)

    def _notify(self) -> None:
        state = (self.remaining, self._limit)
        if state == self._last_reported:
            return
        self._last_reported = state
        for listener in self._listeners:
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
        key = object()
        try:
            async with self._lock:
                while True:
                    now = self._clock()
                    self._prune(now)
                    if now < self._blocked_until:
                        delay = self._blocked_until - now + _MARGIN
                        await self._sleep_visibly(key, delay, "retry_after")
                        continue
                    if len(self._slots) + len(self._phantoms) < self._limit:
                        shared = await self._take_shared()
                        if isinstance(shared, LedgerWait):
                            reason: WaitReason = "retry_after" if shared.blocked else "window"
                            await self._sleep_visibly(key, shared.seconds, reason)
                            continue
                        slot = Slot(self._clock(), ticket=shared)
                        self._slots.append(slot)
                        self.calls_made += 1
                        slot.occupied = len(self._slots) + len(self._phantoms)
                        slot.seq = self.calls_made
                        return slot
                    free_at = self._next_free()
                    # Every slot is a call still in flight: its answer will free nothing
                    # sooner than a window from now, so poll at a fraction of the window.
                    delay = (free_at - now) if free_at is not None else self.window / 20
                    await self._sleep_visibly(key, max(delay, 0.0) + _MARGIN, "window")
        finally:
            self._waiting -= 1
            self.wait_seconds += max(0.0, self._clock() - started)
            self._end_wait(key)
            self._notify()

    # --- the ledger shared with other processes ---------------------------------------------

    def _ledger_usable(self) -> bool:
        return self.ledger is not None and time.monotonic() >= self._ledger_paused_until

    async def _take_shared(self) -> Ticket | LedgerWait | None:
        """A stamp in the shared ledger, a wait, or None (no ledger, or it failed)."""
        if self.ledger is None or not self._ledger_usable():
            return None
        updates, self._pending = self._pending, []
        try:
            answer = await self.ledger.take(limit=self._limit, window=self.window, updates=updates)
        except LedgerUnavailable as exc:
            self._ledger_failed(exc)
            return None
        self.ledger_problem = None
        return answer

    def _ledger_failed(self, exc: LedgerUnavailable) -> None:
        # Calls go on with this process's own window; a 429 that follows is waited out.
        if self.ledger_problem is None:
            log.warning("shared rate window unavailable, using this process's own: %s", exc)
        self.ledger_problem = str(exc)
        self._ledger_paused_until = time.monotonic() + _LEDGER_PAUSE

    def _queue(self, update: LedgerUpdate) -> None:
        """Write ``update`` to the ledger soon (at once when a loop runs, else with the next
        slot taken): answers and withdrawals must not wait for this process's next call."""
        if self.ledger is None:
            return
        self._pending.append(update)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._flushing is None or self._flushing.done():
            self._flushing = loop.create_task(self._flush_pending())

    async def _flush_pending(self) -> None:
        while self._pending and self.ledger is not None and self._ledger_usable():
            updates, self._pending = self._pending, []
            try:
                await self.ledger.settle(updates, window=self.window)
            except LedgerUnavailable as exc:
                # Dropped: a stamp left in flight is released when its ttl runs out.
                self._ledger_failed(exc)
                return

    async def flush(self) -> None:
        """Wait until every answer and block so far is written to the ledger."""
        if self._flushing is not None:
            await asyncio.shield(self._flushing)
        await self._flush_pending()

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
        if slot.ticket is not None and self.ledger is not None:
            # The ledger knows every process's calls: the correction is made there.
            self._queue(Answered(slot.ticket, self.ledger.now(), remaining, self._limit))
        elif remaining is not None and remaining >= 0:
            self._prune(now)
            # ``remaining`` was counted when the call arrived: compare with what this process
            # held then (and sent since), not now, when older calls may have left the window
            # while this one was under way (each such call made a spurious phantom that held
            # a slot for a whole window).
            later = sum(1 for s in self._slots if s.seq > slot.seq)
            used_here = max(len(self._slots) + len(self._phantoms), slot.occupied + later)
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
        if slot.ticket is not None:
            self._queue(Unsent(slot.ticket))
        self._notify()

    def block(self, seconds: float) -> None:
        """The service answered 429: nobody calls for ``seconds``."""
        now = self._clock()
        self._blocked_until = max(self._blocked_until, now + max(0.0, seconds))
        if self.ledger is not None and seconds > 0:
            self._queue(Blocked(self.ledger.now() + seconds))
        self._notify()

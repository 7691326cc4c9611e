"""Timed work: what the sandbox does over time, found from its records rather than kept as timers.

A request moves on at fixed moments after its creation (D15), a tracking runs when its
recurrence comes (D27), a webhook is retried after its back-off (D44). None of this is a timer
held in memory: each record says, by its own fields, when its next step is due (a *kind* of
record registers ``due``, which reads that moment off the record, and ``run``, which takes the
step). So a sandbox read back from disk, or a record another process wrote, carries on by
itself: whoever reads the record learns when it is due (:meth:`TimedWork.wake`), and whichever
process notices first takes the step inside a transaction that checks the record again, so it
happens once (D180).

The heap below is only an index of those moments, rebuilt from the records: an entry whose
record has moved on since is skipped when it comes up.
"""

from __future__ import annotations

import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

__all__ = ["Kind", "TimedWork"]

log = logging.getLogger(__name__)

Due = Callable[[str], datetime | None]
Run = Callable[[str, datetime], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of record that has timed steps: ``due(id)`` is when the record's next step is
    due (None: nothing to do), ``run(id, at)`` takes the step due at ``at`` (it checks the
    record again inside its own transactions: another process may have taken it)."""

    due: Due
    run: Run


class TimedWork:
    """The moments at which records are due, by kind (``requests``, ``trackings``...)."""

    def __init__(self) -> None:
        self._kinds: dict[str, Kind] = {}
        self._heap: list[tuple[datetime, int, str, str]] = []
        self._seq = itertools.count()
        self._busy: set[tuple[str, str]] = set()
        self._listeners: list[Callable[[], None]] = []

    def register(self, name: str, kind: Kind) -> None:
        self._kinds[name] = kind

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self._kinds)

    def add_listener(self, listener: Callable[[], None]) -> None:
        """``listener()`` is called whenever a moment is added (the runner looks again)."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    # ----------------------------------------------------------------- the index

    def wake(self, name: str, record_id: str) -> datetime | None:
        """Read when ``record_id`` is next due and index it; that moment (None: never)."""
        kind = self._kinds.get(name)
        if kind is None:
            return None
        due = kind.due(record_id)
        if due is not None:
            heapq.heappush(self._heap, (due, next(self._seq), name, record_id))
            for listener in list(self._listeners):
                listener()
        return due

    def next_due(self) -> datetime | None:
        """The earliest moment indexed (perhaps of a record that has moved on since)."""
        return self._heap[0][0] if self._heap else None

    @property
    def pending(self) -> int:
        """Moments indexed and not yet taken (a record indexed twice counts twice)."""
        return len(self._heap)

    def clear(self) -> None:
        self._heap.clear()

    # ----------------------------------------------------------------- taking steps

    async def run_due(self, now: Callable[[], datetime]) -> int:
        """Take every step due by ``now()``, in the order they were due; how many were taken.

        A record whose step is being taken already (by another task of this process) is left
        to that task, which indexes the record again when done."""
        taken = 0
        while self._heap and self._heap[0][0] <= now():
            _due, _seq, name, record_id = heapq.heappop(self._heap)
            kind = self._kinds.get(name)
            if kind is None or (name, record_id) in self._busy:
                continue
            due = kind.due(record_id)
            if due is None:
                continue
            if due > now():
                heapq.heappush(self._heap, (due, next(self._seq), name, record_id))
                continue
            self._busy.add((name, record_id))
            try:
                await kind.run(record_id, due)
                taken += 1
            except Exception:
                log.exception("sandbox timed step of %s %s failed", name, record_id)
            finally:
                self._busy.discard((name, record_id))
            after = kind.due(record_id)
            if after is not None and after == due:
                # The step did not move the record on (another process holds it, or it
                # failed): look at it again later rather than in a loop.
                log.debug("%s %s did not move on from %s", name, record_id, due)
                continue
            if after is not None:
                heapq.heappush(self._heap, (after, next(self._seq), name, record_id))
        return taken

    def has_due(self, now: datetime) -> bool:
        return bool(self._heap) and self._heap[0][0] <= now

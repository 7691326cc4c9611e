"""What the shared rate ledger costs per call: one ``take`` and one ``settle`` (answer).

    uv run python tests/api/bench_rate_ledger.py [DIR ...]

For each directory (default: /dev/shm when it exists, standing for the tmpfs of
$XDG_RUNTIME_DIR, and a temporary directory on disk, standing for the cache-dir fallback),
runs 5 rounds of 2,000 calls against a window holding about 180 stamps (180 calls per 60 s,
the service's limit) and prints the median microseconds per call, with the in-process
limiter alone (acquire + complete) for comparison. Not collected by pytest.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lawsuit_tui.api.ledger import Answered, FileRateLedger, Ticket
from lawsuit_tui.api.ratelimit import RateLimiter
from tests.support.clock import VirtualClock

ROUNDS = 5
CALLS = 2_000
LIMIT = 180
WINDOW = 60.0
# Allowed per window in the rounds: above the ~180 stamps kept, so that no call ever waits
# (the clock is frozen between calls) and only the bookkeeping is measured.
ROOM = 250


async def ledger_round(directory: Path, n: int) -> float:
    clock = VirtualClock(time.time())
    ledger = FileRateLedger(directory / f"rate-bench-{n}.json", clock=clock)
    step = WINDOW / LIMIT  # a steady full window: one stamp leaves as one arrives
    for _ in range(LIMIT):  # fill the window first
        ticket = await ledger.take(limit=ROOM, window=WINDOW)
        assert isinstance(ticket, Ticket)
        await ledger.settle([Answered(ticket, clock(), None, LIMIT)], window=WINDOW)
        clock.now += step
    started = time.perf_counter()
    for _ in range(CALLS):
        ticket = await ledger.take(limit=ROOM, window=WINDOW)
        assert isinstance(ticket, Ticket)
        await ledger.settle([Answered(ticket, clock(), ROOM - LIMIT, ROOM)], window=WINDOW)
        clock.now += step
    elapsed = time.perf_counter() - started
    ledger.close()
    return elapsed / CALLS * 1e6


async def no_wait(seconds: float) -> None:
    raise AssertionError(f"the benchmark waited {seconds} s: the window is too small")


async def limiter_round() -> float:
    clock = VirtualClock(time.time())
    limiter = RateLimiter(ROOM, WINDOW, clock=clock, sleep=no_wait)
    started = time.perf_counter()
    for _ in range(CALLS):
        slot = await limiter.acquire()
        limiter.complete(slot)
        clock.now += WINDOW / LIMIT
    return (time.perf_counter() - started) / CALLS * 1e6


async def main(directories: list[Path]) -> None:
    local = [await limiter_round() for _ in range(ROUNDS)]
    print(f"in-process limiter alone: {statistics.median(local):.1f} µs per call")
    for directory in directories:
        directory.mkdir(parents=True, exist_ok=True)
        runs = [await ledger_round(directory, n) for n in range(ROUNDS)]
        print(
            f"ledger in {directory}: median {statistics.median(runs):.1f} µs per call "
            f"(take + settle; rounds: {', '.join(f'{r:.1f}' for r in runs)})"
        )


if __name__ == "__main__":
    given = [Path(arg) for arg in sys.argv[1:]]
    with contextlib.ExitStack() as stack:
        if not given:
            if Path("/dev/shm").is_dir():
                given.append(Path(stack.enter_context(tempfile.TemporaryDirectory(dir="/dev/shm"))))
            given.append(Path(stack.enter_context(tempfile.TemporaryDirectory(dir=Path.home()))))
        asyncio.run(main(given))

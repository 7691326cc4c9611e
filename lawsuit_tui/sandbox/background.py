"""The sandbox's background work: timed events on its clock and the tasks they start.

Two kinds:
- timed events on the sandbox clock (request lifecycle steps, tracking runs, webhook retries):
  synchronous callbacks, run in time order by :meth:`Background.pump`;
- asyncio tasks (lifecycle phases, webhook posts), tracked in ``tasks``.

A runner task pumps the clock as real time passes. It is started lazily by the first request
the app serves (``httpx.ASGITransport`` sends no lifespan events), on that request's loop, and
restarted if a later request comes on another loop. Every request also pumps first, so what a
route reads is never behind the clock. Tests use a frozen clock, advance it, and ``await
drain(app)`` to run what is due and wait for the posts it started.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable

from lawsuit_tui.sandbox.clock import SandboxClock

__all__ = ["Background"]

log = logging.getLogger(__name__)

# The runner looks at the clock at least this often (real seconds) when it runs.
_MAX_IDLE = 0.5


class Background:
    def __init__(self, clock: SandboxClock) -> None:
        self.clock = clock
        self.tasks: set[asyncio.Task[None]] = set()
        self._work: set[asyncio.Task[None]] = set()  # tasks that are not webhook posts
        self._runner: asyncio.Task[None] | None = None
        self._runner_loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._closed = False
        clock.add_listener(self._on_clock_change)

    def spawn(self, coro: Awaitable[None], *, delivery: bool = False) -> asyncio.Task[None]:
        """Run ``coro`` as a tracked task on the running loop (``delivery``: a webhook post)."""

        async def wrapper() -> None:
            await coro

        task = asyncio.get_running_loop().create_task(wrapper())
        self.tasks.add(task)
        if not delivery:
            self._work.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        self._work.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("sandbox background task failed", exc_info=task.exception())

    def pump(self) -> int:
        """Run every timed event due by now, in time order; how many ran."""
        ran = 0
        while (event := self.clock.pop_due()) is not None:
            ran += 1
            try:
                event.callback(event.due)
            except Exception:
                log.exception("sandbox timed event failed")
        return ran

    def ensure_running(self) -> None:
        """Start (or restart on a new loop) the task that pumps the clock in real time."""
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        if self._runner is not None and self._runner_loop is loop and not self._runner.done():
            return
        self._runner_loop = loop
        self._wake = asyncio.Event()
        self._runner = loop.create_task(self._run())

    def _on_clock_change(self) -> None:
        if self._wake is not None and self._runner_loop is not None:
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is self._runner_loop:
                self._wake.set()
            elif not self._runner_loop.is_closed():
                self._runner_loop.call_soon_threadsafe(self._wake.set)

    async def _run(self) -> None:
        wake = self._wake
        assert wake is not None
        while not self._closed:
            self.pump()
            wait = _MAX_IDLE
            due = self.clock.next_due()
            if due is not None:
                ahead = (due - self.clock.now()).total_seconds()
                real = self.clock.real_seconds(ahead)
                if real is not None:
                    wait = min(wait, real)
            wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), timeout=max(wait, 0.001))

    async def drain(self, limit: float = 10.0) -> None:
        """Run every event due at the current clock time and wait for the tasks they start.

        Events that those tasks schedule for later (webhook retries) stay queued until the
        clock reaches them. ``limit`` bounds the real time (seconds) spent waiting for tasks.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while True:
            self.pump()
            pending = [t for t in self.tasks if not t.done()]
            if not pending:
                await asyncio.sleep(0)  # let done-callbacks and freshly spawned tasks settle
                if self._has_due() or any(not t.done() for t in self.tasks):
                    continue
                return
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError("sandbox drain: background tasks still running")
            await asyncio.wait(pending, timeout=remaining)

    async def settle(self, limit: float = 30.0) -> None:
        """Run what is due and wait for the lifecycle work it starts, not for webhook posts."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while True:
            self.pump()
            pending = [t for t in self._work if not t.done()]
            if not pending:
                await asyncio.sleep(0)
                if self._has_due() or any(not t.done() for t in self._work):
                    continue
                return
            remaining = deadline - loop.time()
            if remaining <= 0:
                return
            await asyncio.wait(pending, timeout=remaining)

    def _has_due(self) -> bool:
        due = self.clock.next_due()
        return due is not None and due <= self.clock.now()

    async def aclose(self) -> None:
        """Stop the runner and every task started on the current loop."""
        self._closed = True
        self.clock.remove_listener(self._on_clock_change)
        tasks = [t for t in (self._runner, *self.tasks) if t is not None and not t.done()]
        current_loop = asyncio.get_running_loop()
        for task in tasks:
            if task.get_loop() is current_loop:
                task.cancel()
        mine = [t for t in tasks if t.get_loop() is current_loop]
        if mine:
            await asyncio.gather(*mine, return_exceptions=True)

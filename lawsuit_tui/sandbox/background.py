"""The sandbox's background work: the runner that takes timed steps as they fall due, and the
tasks calls start.

Three kinds of work:

- timed steps of the records (request lifecycle, tracking runs, webhook attempts: see
  sandbox/timed.py), taken by the runner as real time passes, by every call first (so a route
  never reads state behind the clock), and by ``drain``/``settle`` in tests;
- *work* spawned (``spawn``): inside a transaction, part of it (the transaction waits for
  it); outside one (a request's phase started by the runner), on its own;
- webhook posts (``spawn(..., delivery=True)``): outside any transaction.

The runner is started lazily by the first call the app serves (``httpx.ASGITransport`` sends
no lifespan events), on that call's loop, and restarted if a later call comes on another
loop. A sandbox kept on disk is also looked at every :data:`_MAX_IDLE` seconds for what other
processes wrote (a request another process made is then due here too). Tests use a frozen
clock, advance it, and ``await drain(app)`` to take what is due and wait for the posts it
started.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any

from lawsuit_tui.sandbox.clock import SandboxClock
from lawsuit_tui.sandbox.timed import TimedWork

__all__ = ["Background"]

log = logging.getLogger(__name__)

# The runner looks at the clock (and at the file of a sandbox kept on disk) at least this
# often (real seconds) when it runs.
_MAX_IDLE = 0.5

# The work spawned inside the current transaction (tasks inherit it).
_WORK: contextvars.ContextVar[set[asyncio.Task[None]] | None] = contextvars.ContextVar(
    "sandbox_work", default=None
)

Refresh = Callable[[], Awaitable[None]]
RunDue = Callable[[], Coroutine[Any, Any, int]]


class Background:
    def __init__(self, clock: SandboxClock, timed: TimedWork) -> None:
        self.clock = clock
        self.timed = timed
        self.tasks: set[asyncio.Task[Any]] = set()
        self._runner: asyncio.Task[None] | None = None
        self._runner_loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._closed = False
        # Set by the state: take the steps due now; read what other processes wrote.
        self.run_due: RunDue | None = None
        self.refresh: Refresh | None = None
        self.sweep: Callable[[], None] | None = None
        clock.add_listener(self._on_change)
        timed.add_listener(self._on_change)

    def spawn(self, coro: Awaitable[None], *, delivery: bool = False) -> asyncio.Task[None]:
        """Run ``coro`` as a tracked task on the running loop (``delivery``: a webhook post,
        else work of the current transaction, if any)."""

        async def wrapper() -> None:
            await coro

        task = asyncio.get_running_loop().create_task(wrapper())
        if isinstance(coro, Coroutine):
            # Cancelled before it ran (the loop closing as a command ends): never started,
            # closed so that it is not reported as never awaited.
            task.add_done_callback(lambda _task: _close_if_unstarted(coro))
        self._track(task)
        work = _WORK.get()
        if not delivery and work is not None:
            work.add(task)
        return task

    def _track(self, task: asyncio.Task[Any]) -> None:
        self.tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("sandbox background task failed", exc_info=task.exception())

    @contextlib.contextmanager
    def collecting_work(self) -> Iterator[None]:
        """Within: work spawned belongs to the current transaction (see ``finish_work``)."""
        token = _WORK.set(set())
        try:
            yield
        finally:
            _WORK.reset(token)

    async def finish_work(self) -> None:
        """Wait for the work the current transaction spawned (before it ends)."""
        work = _WORK.get()
        while work and (pending := [t for t in work if not t.done()]):
            await asyncio.wait(pending)

    def pump(self) -> int:
        """Run the clock's runtime callbacks due now, and start taking the timed steps due now
        in a task of their own (not waited for); how many callbacks ran."""
        ran = self._run_callbacks()
        if self.run_due is not None and self.timed.has_due(self.clock.now()):
            self._track(asyncio.get_running_loop().create_task(self.run_due()))
        return ran

    def _run_callbacks(self) -> int:
        ran = 0
        while (event := self.clock.pop_due()) is not None:
            ran += 1
            try:
                event.callback(event.due)
            except Exception:
                log.exception("sandbox timed event failed")
        return ran

    async def take_due(self) -> None:
        """Run the clock's callbacks and take every timed step due now (waiting for them)."""
        self._run_callbacks()
        if self.run_due is not None:
            await self.run_due()
        self._run_callbacks()

    def ensure_running(self) -> None:
        """Start (or restart on a new loop) the task that takes steps in real time."""
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        if self._runner is not None and self._runner_loop is loop and not self._runner.done():
            return
        self._runner_loop = loop
        self._wake = asyncio.Event()
        self._runner = loop.create_task(self._run())

    def _on_change(self) -> None:
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
        looked = 0
        while not self._closed:
            try:
                if self.refresh is not None:
                    await self.refresh()
                    looked += 1
                    if self.sweep is not None and looked % 30 == 0:  # every 15 s or so
                        self.sweep()
                await self.take_due()
            except Exception:
                log.exception("the sandbox's runner failed; it carries on")
            wait = _MAX_IDLE
            due = _earliest(self.timed.next_due(), self.clock.next_due())
            if due is not None:
                ahead = (due - self.clock.now()).total_seconds()
                real = self.clock.real_seconds(ahead)
                if real is not None:
                    wait = min(wait, real)
            wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), timeout=max(wait, 0.001))

    async def drain(self, limit: float = 10.0) -> None:
        """Take every step due at the current clock time and wait for the tasks they start.

        Steps those tasks schedule for later (webhook retries) stay until the clock reaches
        them. ``limit`` bounds the real time (seconds) spent waiting for tasks.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while True:
            await self.take_due()
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

    async def settle(self) -> None:
        """Inside a transaction: take what is due now and wait for the work it starts (phases
        whose results make further steps due included), not for webhook posts."""
        while True:
            await self.take_due()
            await self.finish_work()
            if not self._has_due():
                return

    def _has_due(self) -> bool:
        now = self.clock.now()
        due = _earliest(self.timed.next_due(), self.clock.next_due())
        return due is not None and due <= now

    async def aclose(self) -> None:
        """Stop the runner and every task started on the current loop."""
        self._closed = True
        self.clock.remove_listener(self._on_change)
        self.timed.remove_listener(self._on_change)
        tasks = [t for t in (self._runner, *self.tasks) if t is not None and not t.done()]
        current_loop = asyncio.get_running_loop()
        for task in tasks:
            if task.get_loop() is current_loop:
                task.cancel()
        mine = [t for t in tasks if t.get_loop() is current_loop]
        if mine:
            await asyncio.gather(*mine, return_exceptions=True)


def _earliest(*moments: Any) -> Any:
    found = [m for m in moments if m is not None]
    return min(found) if found else None


def _close_if_unstarted(coro: Coroutine[Any, Any, None]) -> None:
    if inspect.getcoroutinestate(coro) == inspect.CORO_CREATED:
        coro.close()

"""Everything the sandbox holds while it runs, and the background work on its loop.

Routes reach the one :class:`SandboxState` as ``request.app.state.sandbox``.

Background work has two kinds:
- timed events on the sandbox clock (request lifecycle steps, tracking runs, webhook retries):
  synchronous callbacks, run in time order by :meth:`SandboxState.pump`;
- asyncio tasks (webhook posts), tracked in ``tasks``.

A runner task pumps the clock as real time passes. It is started lazily by the first request
the app serves (``httpx.ASGITransport`` sends no lifespan events), on that request's loop, and
restarted if a later request comes on another loop. Every request also pumps first, so what a
route reads is never behind the clock. Tests use a frozen clock, advance it, and ``await
drain(app)`` (or ``state.drain()``) to run what is due and wait for the posts it started.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import httpx
import orjson

from lawsuit_tui.sandbox.auth import KeyConfig
from lawsuit_tui.sandbox.clock import SandboxClock
from lawsuit_tui.sandbox.faults import Faults
from lawsuit_tui.sandbox.ids import IdGenerator, stable_uuid
from lawsuit_tui.sandbox.ratelimit import SlidingWindowLimiter
from lawsuit_tui.sandbox.stats import Stats
from lawsuit_tui.sandbox.tokens import TokenStore
from lawsuit_tui.sandbox.webhooks import WebhookDispatcher

if TYPE_CHECKING:
    from lawsuit_tui.sandbox.engine import RequestEngine, RequestEntry
    from lawsuit_tui.sandbox.trackings import TrackingEngine, TrackingEntry
    from lawsuit_tui.sandbox.vault import Vault
    from lawsuit_tui.sandbox.world import World

__all__ = ["SandboxState", "StoredResponse"]

T = TypeVar("T")

log = logging.getLogger(__name__)

# Stored copies remembered (a few hundred lawsuits: some tens of MB at most).
_STORED_VIEWS = 256
# A copy with more steps than this is made again each time instead (about 1.5 ms per
# thousand steps from the world's cached history): remembered, the 10,000-step lawsuit held
# 5 MiB for the 15 ms it saves, in the app's own process when the sandbox runs in it.
_STORED_VIEW_MAX_STEPS = 2_000

# The runner looks at the clock at least this often (real seconds) when it runs.
_MAX_IDLE = 0.5


@dataclass(frozen=True, slots=True)
class StoredResponse:
    """A response as listed: the fields the filters read, and the record serialized once.

    A lawsuit response can weigh hundreds of kilobytes; a page of 1000 is the concatenation of
    stored JSON (``orjson.Fragment``) rather than a fresh serialization of nested dicts.
    """

    request_id: str
    origin_id: str | None
    response_type: str
    cached: bool
    created_at: str
    json: orjson.Fragment

    @classmethod
    def of(cls, response: dict[str, Any]) -> StoredResponse:
        return cls(
            request_id=str(response["request_id"]),
            origin_id=response.get("origin_id"),
            response_type=str(response["response_type"]),
            cached=bool(response["cached"]),
            created_at=str(response["created_at"]),
            json=orjson.Fragment(orjson.dumps(response)),
        )


class SandboxState:
    def __init__(
        self,
        *,
        seed: int,
        keys: Mapping[str, KeyConfig],
        clock: SandboxClock,
        rate_limit: tuple[int, float],
        callback_url: str | None = None,
        webhook_transport: httpx.AsyncBaseTransport | None = None,
        world: World | None = None,
        id_salt: str | None = None,
    ) -> None:
        self.seed = seed
        self.keys: dict[str, KeyConfig] = dict(keys)
        self.clock = clock
        self.ids = IdGenerator(seed, id_salt)
        self.tokens = TokenStore(clock)
        self.limiter = SlidingWindowLimiter(clock, *rate_limit)
        self.stats = Stats()
        self.faults = Faults()
        self._world = world
        self._vault: Vault | None = None
        # Records, per request_id / tracking_id; each remembers the key that owns it.
        self.requests: dict[str, RequestEntry] = {}
        # Responses per owning key, in the order they were made (D22: oldest first).
        self.responses: dict[str, list[StoredResponse]] = {}
        self.trackings: dict[str, TrackingEntry] = {}
        # Lawsuit codes each key has retrieved (the count service excludes them).
        self.retrieved: dict[str, set[str]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self._work: set[asyncio.Task[None]] = set()  # tasks that are not webhook posts
        self.webhooks = WebhookDispatcher(
            clock=clock,
            stats=self.stats,
            spawn=self.spawn,
            account_url=callback_url,
            transport=webhook_transport,
        )
        self._engine: RequestEngine | None = None
        self._tracking_engine: TrackingEngine | None = None
        self._runner: asyncio.Task[None] | None = None
        self._runner_loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._closed = False
        self._world_executor: ThreadPoolExecutor | None = None
        self._stored_views: OrderedDict[tuple[str, int | None], list[dict[str, Any]]] = (
            OrderedDict()
        )
        clock.add_listener(self._on_clock_change)

    # ----------------------------------------------------------------- lazy parts

    @property
    def world(self) -> World:
        if self._world is None:
            from lawsuit_tui.sandbox.world import World

            self._world = World.build(self.seed, epoch=self.clock.now())
        return self._world

    @property
    def world_built(self) -> bool:
        return self._world is not None

    @property
    def vault(self) -> Vault:
        if self._vault is None:
            from lawsuit_tui.sandbox.vault import Vault

            self._vault = Vault(self.world.court_systems(), self.clock)
        return self._vault

    @property
    def engine(self) -> RequestEngine:
        if self._engine is None:
            from lawsuit_tui.sandbox.engine import RequestEngine

            self._engine = RequestEngine(self)
        return self._engine

    @property
    def tracking_engine(self) -> TrackingEngine:
        if self._tracking_engine is None:
            from lawsuit_tui.sandbox.trackings import TrackingEngine

            self._tracking_engine = TrackingEngine(self)
        return self._tracking_engine

    # ----------------------------------------------------------------- identities

    def user_id(self, key: str) -> str:
        return stable_uuid("user", self.seed, key)

    def company_id(self, key: str) -> str:
        return stable_uuid("company", self.seed, key)

    def add_response(self, key: str, response: dict[str, Any]) -> StoredResponse:
        stored = StoredResponse.of(response)
        self.responses.setdefault(key, []).append(stored)
        return stored

    def mark_retrieved(self, key: str, code: str) -> None:
        self.retrieved.setdefault(key, set()).add(code)

    # ----------------------------------------------------------------- the world's thread

    async def run_world(self, compute: Callable[[], T]) -> T:
        """Run ``compute`` (world views, CPU-heavy) in the world's one thread.

        One thread only: the world's lazy caches are not shared between threads, and the
        event loop (routes, timers) stays free meanwhile.
        """
        if self._world_executor is None:
            self._world_executor = ThreadPoolExecutor(1, thread_name_prefix="sandbox-world")
        return await asyncio.get_running_loop().run_in_executor(self._world_executor, compute)

    def stored_view(self, code: str, instance: int | None) -> list[dict[str, Any]]:
        """The world's stored copy, remembered (it never changes); call in the world's thread.

        The lists and dicts are shared: callers copy before changing anything.
        """
        key = (code, instance)
        found = self._stored_views.get(key)
        if found is not None:
            self._stored_views.move_to_end(key)
            return found
        view = self.world.stored_view(code, instance)
        if sum(len(lawsuit.get("steps") or ()) for lawsuit in view) > _STORED_VIEW_MAX_STEPS:
            return view
        self._stored_views[key] = view
        if len(self._stored_views) > _STORED_VIEWS:
            self._stored_views.popitem(last=False)
        return view

    async def world_ready(self) -> World:
        """The world, built in the world's thread the first time."""
        if self._world is not None:
            return self._world
        return await self.run_world(lambda: self.world)

    # ----------------------------------------------------------------- background work

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
        """Stop the runner and every background task, and close the webhook client."""
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
        await self.webhooks.aclose()
        if self._world_executor is not None:
            self._world_executor.shutdown(wait=False, cancel_futures=True)
            self._world_executor = None

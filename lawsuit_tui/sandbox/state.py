"""Everything the sandbox holds while it runs: the one place for its state.

Routes reach the one :class:`SandboxState` through :mod:`lawsuit_tui.sandbox.dependencies`;
the engines change it, and nothing else keeps state of its own.

Its parts:

- **what the service holds**, declared in the class body, each a table of plain records (a
  :class:`~lawsuit_tui.sandbox.tables.Table`) or one plain value: a sandbox kept on disk
  saves exactly these (sandbox/persistence.py, D180), so a new plain-data field declared
  there is saved with no other code. Each is reached
  only through the state (never kept in an engine or a route), and changed only inside a
  transaction (:meth:`SandboxState.transaction`: every call is one);
- its settings: ``seed``, ``keys``, ``limiter`` (the rate windows are each process's own,
  D182), ``stats`` (counts of this process's calls);
- what it runs on: ``clock`` (its anchor is the saved ``clock_anchor``), ``world`` (derived
  from the seed and the saved ``epoch``, never saved), ``timed`` (when records are next due,
  read off them), ``background`` (the runner and its tasks), ``webhooks`` (the posting of the
  saved ``deliveries``), caches and indexes derived from the parts (rebuilt by
  :meth:`SandboxState.after_load`).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import random
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import httpx

from lawsuit_tui.sandbox.background import Background
from lawsuit_tui.sandbox.clock import ClockAnchor, SandboxClock
from lawsuit_tui.sandbox.counts import CountLedger
from lawsuit_tui.sandbox.faults import Faults
from lawsuit_tui.sandbox.file_links import FileLink
from lawsuit_tui.sandbox.ids import IdGenerator, stable_uuid
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.ratelimit import SlidingWindowLimiter
from lawsuit_tui.sandbox.records import KeptSamples, RequestEntry, StoredResponse, TrackingEntry
from lawsuit_tui.sandbox.stats import Stats
from lawsuit_tui.sandbox.tables import Table
from lawsuit_tui.sandbox.timed import Kind, TimedWork
from lawsuit_tui.sandbox.tokens import TokenStore
from lawsuit_tui.sandbox.vault import CredentialRecord
from lawsuit_tui.sandbox.webhooks import Delivery, WebhookDispatcher

if TYPE_CHECKING:
    from lawsuit_tui.sandbox.persistence import Loaded, Persistence
    from lawsuit_tui.sandbox.vault import Vault
    from lawsuit_tui.sandbox.world import World

__all__ = ["SandboxState", "StateNotKept"]

log = logging.getLogger(__name__)

T = TypeVar("T")

# Stored copies remembered (a few hundred lawsuits: some tens of MB at most).
_STORED_VIEWS = 256
# A copy with more steps than this is made again each time instead (about 1.5 ms per
# thousand steps from the world's cached history): remembered, the 10,000-step lawsuit held
# 5 MiB for the 15 ms it saves, in the app's own process when the sandbox runs in it.
_STORED_VIEW_MAX_STEPS = 2_000

# The transaction the running task is inside (tasks it starts inherit it): a transaction
# opened inside one is part of it.
_INSIDE: contextvars.ContextVar[SandboxState | None] = contextvars.ContextVar(
    "sandbox_transaction", default=None
)


class StateNotKept(Exception):
    """What a call changed could not be written to the sandbox's file (D180)."""


class SandboxState:
    # ---------------------------------------------------------------- the saved parts (D180)
    # The moment the world was made at, and where the sandbox's time stands (D181).
    epoch: datetime
    clock_anchor: ClockAnchor
    ids: IdGenerator
    # Records, per request_id / tracking_id; each remembers the key that owns it.
    requests: Table[str, RequestEntry]
    # Responses per owning key, in the order they were made (D22: oldest first).
    responses: Table[str, list[StoredResponse]]
    trackings: Table[str, TrackingEntry]
    # What each tracking follows: plain records keyed by tracked_item_id (tracked_items.py).
    tracked_items: Table[str, dict[str, Any]]
    # Lawsuit codes each key has retrieved (the count service excludes them).
    retrieved: Table[str, set[str]]
    counts: CountLedger
    # D81, D121: the short-lived file addresses issued, by token.
    file_links: Table[str, FileLink]
    # D123: each key's transfer files (its company's), by id; made on first use.
    transfer_files: Table[str, dict[str, dict[str, Any]]]
    # The vault's credentials, by record_key(system, customer_key): no secrets (D67).
    credentials: Table[str, CredentialRecord]
    # The datalake's copies an on-demand read refreshed: "<CNJ>#<instance>" -> the ISO
    # moment of the court's copy it now holds (D102).
    datalake_refreshed: Table[str, str]
    faults: Faults
    tokens: TokenStore
    # Webhook deliveries by callback_id, in the order they were sent (D44).
    deliveries: Table[str, Delivery]
    # The world's sample keys, kept so that a sandbox read from disk answers them before its
    # world is built, and the app shows them before it opens the sandbox (D185).
    samples: KeptSamples | None

    def __init__(
        self,
        *,
        seed: int,
        keys: Mapping[str, KeyConfig],
        clock: SandboxClock,
        rate_limit: tuple[int, float],
        datalake_rate_limit: tuple[int, float] = (500, 60.0),
        callback_url: str | None = None,
        webhook_transport: httpx.AsyncBaseTransport | None = None,
        world: World | None = None,
        id_salt: str | None = None,
    ) -> None:
        self.seed = seed
        self.keys: dict[str, KeyConfig] = dict(keys)
        self.clock = clock
        self.epoch: datetime = getattr(world, "epoch", None) or clock.now()
        self.clock_anchor = clock.anchor
        self.ids = IdGenerator(seed, id_salt)
        self.requests = Table()
        self.responses = Table()
        self.trackings = Table()
        self.tracked_items = Table()
        self.retrieved = Table()
        self.counts = CountLedger()
        self.file_links = Table()
        self.transfer_files = Table()
        self.credentials = Table()
        self.datalake_refreshed = Table()
        self.faults = Faults()
        self.tokens = TokenStore()
        self.deliveries = Table()
        self.samples = None

        self.limiter = SlidingWindowLimiter(clock, *rate_limit)
        # The lawsuits service's synchronous routes count in a window of their own (D74).
        self.datalake_limiter = SlidingWindowLimiter(clock, *datalake_rate_limit)
        self.stats = Stats()
        self.fault_dice = random.Random(0)
        self.timed = TimedWork()
        self.background = Background(clock, self.timed)
        self._world = world
        self._vault: Vault | None = None
        # Derived from ``responses`` (rebuilt from it): where each response is, (owning key,
        # position in that key's list), for GET /responses/{id}.
        self.response_places: dict[str, tuple[str, int]] = {}
        # Derived from ``responses`` (rebuilt from it, never saved on its own): each key's
        # responses by origin_id, in the order they were made (D77 reads a tracking's).
        self.responses_by_origin: dict[tuple[str, str], list[StoredResponse]] = {}
        # Derived from ``trackings`` (rebuilt from it): the latest tracking_id of each
        # (key, search_type, normalized search_key), for the 409 of a second one.
        self.tracking_by_search: dict[tuple[str, str, str], str] = {}
        # The datalake's copies without nulls, remembered (derived): see sandbox/datalake.py.
        self.datalake_views: OrderedDict[tuple[str, int, str], list[dict[str, Any]]] = OrderedDict()
        self.webhooks = WebhookDispatcher(
            clock=clock,
            stats=self.stats,
            spawn=self.background.spawn,
            deliveries=self.deliveries,
            transaction=self.transaction,
            after_commit=self.after_commit,
            wake=lambda callback_id: self.wake("deliveries", callback_id),
            account_url=callback_url,
            transport=webhook_transport,
        )
        self.timed.register("deliveries", Kind(self.webhooks.due, self.webhooks.run))
        self.background.run_due = self.run_due
        self.background.refresh = self.refresh
        self.background.sweep = self._sweep
        self._world_executor: ThreadPoolExecutor | None = None
        # The world is built once, by whichever thread asks first (the world's thread warming
        # it, or the loop): the others wait for it.
        self._world_lock = threading.Lock()
        self._stored_views: OrderedDict[tuple[str, int | None], list[dict[str, Any]]] = (
            OrderedDict()
        )
        self._disk: Persistence | None = None
        self._locks: dict[asyncio.AbstractEventLoop, asyncio.Lock] = {}
        self._after_commit: list[Callable[[], None]] = []
        self._must_reload = False
        # Requests whose phase is being computed in this process (runtime only).
        self.phases: set[str] = set()

    # ----------------------------------------------------------------- kept on disk

    def keep_on_disk(self, path: Path) -> bool:
        """Save the state in ``path`` from now on, reading what it holds first (blocking: call
        it before serving). Whether the file was new (then this state was written to it)."""
        from lawsuit_tui.sandbox.persistence import Persistence

        disk = Persistence(self, path, seed=self.seed)
        speed = self.clock.speed

        def fresh(generation: str) -> None:
            self.ids = IdGenerator(self.seed, generation)  # D183: ids never repeat

        made = disk.open(fresh)
        self._disk = disk
        if not made and self.clock.speed != speed:
            # The speed configured now wins over the saved one (D181).
            self.clock.set_speed(speed)
        return made

    @property
    def state_path(self) -> Path | None:
        return self._disk.path if self._disk is not None else None

    @property
    def generation(self) -> str | None:
        """The saved state's generation (drawn when its file was made); None in memory."""
        return self._disk.generation if self._disk is not None else None

    def after_load(self, loaded: Loaded) -> None:
        """What derives from the parts, made again after they were read from disk, and the
        timed work of the records read (they may be due)."""
        self.response_places = {
            stored.response_id: (key, position)
            for key, held in dict.items(self.responses)
            for position, stored in enumerate(held)
        }
        self.responses_by_origin = {}
        for key, held in dict.items(self.responses):
            for stored in held:
                if stored.origin_id:
                    self.responses_by_origin.setdefault((key, stored.origin_id), []).append(stored)
        # Made in order: the last of a search is its latest tracking.
        self.tracking_by_search = {
            (entry.key, entry.search.search_type, entry.search.search_key): entry.tracking_id
            for entry in dict.values(self.trackings)
        }
        self.datalake_views.clear()
        self.clock.moved()
        if loaded.full:
            self.timed.clear()
        for name in self.timed.kinds:
            ids = list(dict.keys(getattr(self, name))) if loaded.full else loaded.keys_of(name)
            for record_id in ids:
                self.wake(name, str(record_id))

    # ----------------------------------------------------------------- transactions

    def _lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        lock = self._locks.get(loop)
        if lock is None:
            self._locks = {k: v for k, v in self._locks.items() if not k.is_closed()}
            lock = self._locks[loop] = asyncio.Lock()
        return lock

    @property
    def in_transaction(self) -> bool:
        return _INSIDE.get() is self

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """One call's (or one timed step's) work on the state, alone: in this process under a
        lock, and, kept on disk, under the file's write lock, after reading what other
        processes wrote; at its end, what it changed is written (D180). A transaction opened
        inside one is part of it. Work it spawned (``background.spawn``) ends before it does.

        Raises :class:`StateNotKept` when the changes could not be written (memory is then
        read again from the file, so it never says what the file does not hold)."""
        if _INSIDE.get() is self:
            yield
            return
        async with self._lock():
            token = _INSIDE.set(self)
            disk = self._disk
            try:
                if disk is not None:
                    if self._must_reload:
                        await disk.reload()
                        self._must_reload = False
                    await disk.begin()
                failed = False
                with self.background.collecting_work():
                    try:
                        yield
                    except BaseException:
                        failed = True
                        raise
                    finally:
                        await self.background.finish_work()
                        if disk is not None:
                            await self._end(disk, failed)
            finally:
                _INSIDE.reset(token)
        callbacks, self._after_commit = self._after_commit, []
        for callback in callbacks:
            callback()

    async def _end(self, disk: Persistence, failed: bool) -> None:
        try:
            await disk.end()
        except Exception as exc:
            self._after_commit.clear()
            self._must_reload = True
            log.exception("the sandbox's state could not be written to %s", disk.path)
            if not failed:
                raise StateNotKept(str(exc)) from exc

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the current transaction is kept (at once outside one)."""
        if _INSIDE.get() is self:
            self._after_commit.append(callback)
        else:
            callback()

    async def refresh(self) -> None:
        """Read what other processes wrote (kept on disk; nothing in memory)."""
        if self._disk is None or _INSIDE.get() is self:
            return
        async with self._lock():
            if self._must_reload:
                await self._disk.reload()
                self._must_reload = False
            else:
                await self._disk.refresh()

    # ----------------------------------------------------------------- timed work

    def _sweep(self) -> None:
        """Deliveries a process claimed and never finished (it died): due again here."""
        for callback_id in self.webhooks.stale_claims():
            self.wake("deliveries", callback_id)

    def wake(self, kind: str, record_id: str) -> None:
        """``record_id`` of ``kind`` changed: index when it is next due."""
        self.timed.wake(kind, record_id)

    async def run_due(self) -> int:
        """Take every timed step due by now (see sandbox/timed.py); how many were taken."""
        return await self.timed.run_due(self.clock.now)

    # ----------------------------------------------------------------- lazy parts

    @property
    def world(self) -> World:
        if self._world is None:
            with self._world_lock:
                if self._world is None:
                    from lawsuit_tui.sandbox.world import World

                    self._world = World.build(self.seed, epoch=self.epoch)
        return self._world

    def warm_world(self) -> None:
        """Start building the world in the world's thread, and return at once (D185): the
        sandbox answers its samples from what it kept, and the world is ready by the first
        call that needs it (which waits for it otherwise)."""
        if self._world is not None:
            return
        if self._world_executor is None:
            self._world_executor = ThreadPoolExecutor(1, thread_name_prefix="sandbox-world")
        self._world_executor.submit(lambda: self.world)

    async def sample_keys(self) -> dict[str, Any]:
        """The world's sample keys (D185): those kept with the state when the world that made
        them is this one's; else made (the world built outside any lock) and kept."""
        from lawsuit_tui.sandbox.world.samples import SAMPLES_VERSION

        kept = self.samples
        if kept is not None and kept.version == SAMPLES_VERSION:
            return dict(kept.keys)
        world = await self.world_ready()
        keys = await self.run_world(world.samples)
        async with self.transaction():
            kept = self.samples
            if kept is None or kept.version != SAMPLES_VERSION:
                self.samples = KeptSamples(SAMPLES_VERSION, keys)
        return dict(keys)

    @property
    def world_built(self) -> bool:
        return self._world is not None

    @property
    def vault(self) -> Vault:
        if self._vault is None:
            from lawsuit_tui.sandbox.vault import Vault

            self._vault = Vault(self.world.court_systems(), self.clock, self.credentials)
        return self._vault

    # ----------------------------------------------------------------- identities, records

    def user_id(self, key: str) -> str:
        return stable_uuid("user", self.seed, key)

    def company_id(self, key: str) -> str:
        return stable_uuid("company", self.seed, key)

    def add_response(self, key: str, response: dict[str, Any]) -> StoredResponse:
        stored = StoredResponse.of(response)
        held = self.responses.setdefault(key, [])
        self.response_places[stored.response_id] = (key, len(held))
        held.append(stored)
        if stored.origin_id:
            self.responses_by_origin.setdefault((key, stored.origin_id), []).append(stored)
        return stored

    def response(self, key: str, response_id: str) -> StoredResponse | None:
        """The response ``response_id`` if ``key`` owns it (D47), else None."""
        place = self.response_places.get(response_id)
        if place is None or place[0] != key:
            return None
        return self.responses[key][place[1]]

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

    def reopen(self) -> None:
        """Open the kept file again after :meth:`aclose`: an ASGI server may start one app
        again after its shutdown (a test client runs a lifespan per call). What the file
        holds now is read before the next transaction."""
        if self._disk is not None and not self._disk.is_open:
            self._disk.reopen()
            self._must_reload = True

    async def aclose(self) -> None:
        """Stop the background work and close the webhook client, the world's thread and the
        file."""
        await self.background.aclose()
        await self.webhooks.aclose()
        if self._world_executor is not None:
            self._world_executor.shutdown(wait=False, cancel_futures=True)
            self._world_executor = None
        if self._disk is not None:
            self._disk.close()

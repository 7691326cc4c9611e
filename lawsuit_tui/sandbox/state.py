"""Everything the sandbox holds while it runs: the one place for its state.

Routes reach the one :class:`SandboxState` through :mod:`lawsuit_tui.sandbox.dependencies`;
the engines change it, and nothing else keeps state of its own.

Its parts:
- what the service holds for its callers, and what a persisted sandbox would save: ``ids``,
  ``requests``, ``responses``, ``trackings``, ``tracked_items``, ``retrieved``, ``counts``
  (the Miner's requests and credits), ``credentials`` (the vault's, without secrets),
  ``file_links``, ``transfer_files`` and ``datalake_refreshed``;
- its settings: ``seed``, ``keys``, ``limiter``, ``faults``;
- what it runs on: ``clock``, ``world`` (derived from the seed, never saved), ``background``
  (timed events and tasks), ``webhooks`` (deliveries), ``tokens`` and ``stats``.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

import httpx

from lawsuit_tui.sandbox.background import Background
from lawsuit_tui.sandbox.clock import SandboxClock
from lawsuit_tui.sandbox.counts import CountLedger
from lawsuit_tui.sandbox.faults import Faults
from lawsuit_tui.sandbox.file_links import FileLink
from lawsuit_tui.sandbox.ids import IdGenerator, stable_uuid
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.ratelimit import SlidingWindowLimiter
from lawsuit_tui.sandbox.records import RequestEntry, StoredResponse, TrackingEntry
from lawsuit_tui.sandbox.stats import Stats
from lawsuit_tui.sandbox.tokens import TokenStore
from lawsuit_tui.sandbox.webhooks import WebhookDispatcher

if TYPE_CHECKING:
    from lawsuit_tui.sandbox.vault import CredentialRecord, Vault
    from lawsuit_tui.sandbox.world import World

__all__ = ["SandboxState"]

T = TypeVar("T")

# Stored copies remembered (a few hundred lawsuits: some tens of MB at most).
_STORED_VIEWS = 256
# A copy with more steps than this is made again each time instead (about 1.5 ms per
# thousand steps from the world's cached history): remembered, the 10,000-step lawsuit held
# 5 MiB for the 15 ms it saves, in the app's own process when the sandbox runs in it.
_STORED_VIEW_MAX_STEPS = 2_000


class SandboxState:
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
        self.ids = IdGenerator(seed, id_salt)
        self.tokens = TokenStore(clock)
        self.limiter = SlidingWindowLimiter(clock, *rate_limit)
        # The lawsuits service's synchronous routes count in a window of their own (D74).
        self.datalake_limiter = SlidingWindowLimiter(clock, *datalake_rate_limit)
        self.stats = Stats()
        self.faults = Faults()
        self.background = Background(clock)
        self._world = world
        self._vault: Vault | None = None
        # Records, per request_id / tracking_id; each remembers the key that owns it.
        self.requests: dict[str, RequestEntry] = {}
        # Responses per owning key, in the order they were made (D22: oldest first).
        self.responses: dict[str, list[StoredResponse]] = {}
        # Where each response is: (owning key, position in that key's list), for
        # GET /responses/{id}; derived from ``responses`` and kept with it.
        self.response_places: dict[str, tuple[str, int]] = {}
        self.trackings: dict[str, TrackingEntry] = {}
        # What each tracking follows: plain records keyed by tracked_item_id (tracked_items.py).
        self.tracked_items: dict[str, dict[str, Any]] = {}
        # Derived from ``responses`` (rebuilt from it, never saved on its own): each key's
        # responses by origin_id, in the order they were made (D77 reads a tracking's).
        self.responses_by_origin: dict[tuple[str, str], list[StoredResponse]] = {}
        # Derived from ``trackings`` (rebuilt from it): the latest tracking_id of each
        # (key, search_type, normalized search_key), for the 409 of a second one.
        self.tracking_by_search: dict[tuple[str, str, str], str] = {}
        # Lawsuit codes each key has retrieved (the count service excludes them).
        self.retrieved: dict[str, set[str]] = {}
        self.counts = CountLedger()
        # D81, D121: the short-lived file addresses issued, by token.
        self.file_links: dict[str, FileLink] = {}
        # D123: each key's transfer files (its company's), by id; made on first use.
        self.transfer_files: dict[str, dict[str, dict[str, Any]]] = {}
        # The vault's credentials, by record_key(system, customer_key): no secrets (D67).
        self.credentials: dict[str, CredentialRecord] = {}
        # The datalake's copies an on-demand read refreshed: "<CNJ>#<instance>" -> the ISO
        # moment of the court's copy it now holds (D102).
        self.datalake_refreshed: dict[str, str] = {}
        # Their copies without nulls, remembered (derived, never saved): see sandbox/datalake.py.
        self.datalake_views: OrderedDict[tuple[str, int, str], list[dict[str, Any]]] = OrderedDict()
        self.webhooks = WebhookDispatcher(
            clock=clock,
            stats=self.stats,
            spawn=self.background.spawn,
            account_url=callback_url,
            transport=webhook_transport,
        )
        self._world_executor: ThreadPoolExecutor | None = None
        self._stored_views: OrderedDict[tuple[str, int | None], list[dict[str, Any]]] = (
            OrderedDict()
        )

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

    async def aclose(self) -> None:
        """Stop the background work and close the webhook client and the world's thread."""
        await self.background.aclose()
        await self.webhooks.aclose()
        if self._world_executor is not None:
            self._world_executor.shutdown(wait=False, cancel_futures=True)
            self._world_executor = None

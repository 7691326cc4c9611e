"""One object that opens everything the use cases need: the client, the cache, the sandbox.

The TUI and the headless commands both start with ``await ServiceContext.open(settings)``.
Without an API key the sandbox runs in this process (over ``httpx.ASGITransport``); it is
imported here, lazily, so importing the services never loads FastAPI, and opened in a worker
thread, so the event loop keeps serving keys meanwhile. Every process opens the same sandbox,
kept on disk beside its cache (sandbox_home.py, D180): what the app made, a command sees,
and the other way round. The sandbox's cache is ``cache_dir/"sandbox"`` (see paths.py), apart
from live data, and holds only what that sandbox holds (D183).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from lawsuit_tui.api.client import ApiClient, BaseUrls
from lawsuit_tui.api.ratelimit import RateLimiter, RateWait
from lawsuit_tui.i18n import _
from lawsuit_tui.services.cache import Cache
from lawsuit_tui.services.cache_maintenance import DamageReport
from lawsuit_tui.services.count import CountService
from lawsuit_tui.services.datalake import DatalakeService
from lawsuit_tui.services.deps import Deps, utcnow
from lawsuit_tui.services.dossier import DossierService
from lawsuit_tui.services.inbox import InboxService
from lawsuit_tui.services.lawsuits import LawsuitService
from lawsuit_tui.services.lookup import LookupService
from lawsuit_tui.services.paid_calls import PaidCallLog, PaidCallService
from lawsuit_tui.services.paths import cache_path
from lawsuit_tui.services.portfolio import PortfolioService
from lawsuit_tui.services.portfolio_import import PortfolioImporter
from lawsuit_tui.services.requests import FollowPolicy, RequestService
from lawsuit_tui.services.sandbox_home import match_cache, sandbox_state_path
from lawsuit_tui.services.search import SearchService
from lawsuit_tui.services.shared_cache import CacheHost, HolderClient, connect_to_holder
from lawsuit_tui.services.status import ContextStatus, StatusHub
from lawsuit_tui.services.sync import SyncService
from lawsuit_tui.services.trackings import TrackingService
from lawsuit_tui.services.transfer_files import TransferFileService
from lawsuit_tui.services.vault import VaultService
from lawsuit_tui.services.warrants import WarrantService
from lawsuit_tui.store import CacheError, CacheLocked, CacheUnavailable, Store

if TYPE_CHECKING:
    from lawsuit_tui.config import Settings

from lawsuit_tui.config import Dossier as DossierSettings
from lawsuit_tui.config import Portfolio
from lawsuit_tui.domain.listeners import Listeners

__all__ = ["SANDBOX_ROOT", "CacheWait", "ContextStatus", "ServiceContext", "cache_path"]

log = logging.getLogger(__name__)

# The in-process sandbox answers any host; this one only names it in URLs and logs.
SANDBOX_ROOT = "http://sandbox.local"

CacheWait = Callable[[float, str], None]
"""``(seconds left, holder)`` about once a second while waiting for the cache's lock."""


def _not_taking_writes(directory: Path, pid: str) -> str:
    return _(
        "The cache at {path} is in use by another lawsuit-tui process (pid {pid}) that does "
        "not take in the writes of others; nothing fetched here can be kept until it closes."
    ).format(path=directory, pid=pid or "?")


async def _open_cache(
    directory: Path,
    *,
    read_only: bool,
    secrets: list[str],
    wait: float,
    on_wait: CacheWait | None,
) -> tuple[Store, HolderClient | None, str | None]:
    """The store, the holder's client when another process holds it, and what to say.

    Writable when this process can take the lock; else read-only, its writes handed to the
    holder when it takes them in (shared_cache.py). A holder that does not (still opening
    the cache, or a maintenance command) is waited for, up to ``wait`` seconds (D137).
    """
    if read_only:
        return await asyncio.to_thread(Store.open, directory, read_only=True), None, None
    deadline = time.monotonic() + wait
    while True:
        try:
            store = await asyncio.to_thread(Store.open, directory, secrets=secrets)
        except CacheLocked as exc:
            locked = exc
        except CacheUnavailable as exc:
            # Nothing can be written there (read-only media, not ours, a file in the way):
            # what is there is still read, and nothing is kept (the message says why).
            store = await asyncio.to_thread(Store.open, directory, read_only=True, secrets=secrets)
            return store, None, str(exc)
        else:
            return store, None, None
        holder = await connect_to_holder(directory, secrets)
        if holder is not None:
            store = await asyncio.to_thread(Store.open, directory, read_only=True, secrets=secrets)
            return store, holder, None
        left = deadline - time.monotonic()
        if left <= 0:
            store = await asyncio.to_thread(Store.open, directory, read_only=True, secrets=secrets)
            return store, None, _not_taking_writes(directory, locked.holder)
        if on_wait is not None:
            on_wait(left, locked.holder)
        await asyncio.sleep(min(1.0, left))


class ServiceContext:
    """The use cases over one client and one cache. Close with :meth:`aclose`."""

    def __init__(
        self,
        *,
        mode: str,
        api: ApiClient,
        store: Store,
        sleep: Callable[[float], Awaitable[None]],
        now: Callable[[], datetime],
        default_customer_key: str,
        cache_message: str | None,
        owns_store: bool,
        sandbox_app: Any = None,
        sandbox_root: str | None = None,
        follow_policy: FollowPolicy | None = None,
        portfolio_settings: Portfolio | None = None,
        dossier_settings: DossierSettings | None = None,
        holder: HolderClient | None = None,
        secrets: list[str] | None = None,
        server_now: Callable[[], datetime] | None = None,
    ) -> None:
        self.mode = mode
        self.api = api
        self._owns_store = owns_store
        self._secrets = list(secrets or [])
        self.cache_host: CacheHost | None = None
        """Serves the writes of other processes while this one holds the cache."""
        self._taken_listeners: Listeners[Callable[[str], None]] = Listeners()
        self.cache = Cache(store, holder=holder)
        self.cache.reattach = self._reattach
        self.damage = DamageReport.of(store)
        """Damaged files of the cache not yet acknowledged, and those this open found."""
        self._sandbox_app = sandbox_app
        self._sandbox_root = sandbox_root
        if holder is not None and cache_message is None:
            cache_message = _(
                "The cache is held by another lawsuit-tui process (pid {pid}); what this one "
                "fetches is kept through it."
            ).format(pid=holder.pid)
        self.status = StatusHub(
            ContextStatus(
                rate_remaining=api.rate_remaining,
                rate_limit=api.rate_limit,
                cache_writable=self.cache.writable,
                cache_message=cache_message,
                cache_held_by=holder.pid if holder is not None else None,
                damage=self.damage.status_text(),
            )
        )
        self._unsubscribe = api.on_rate_change(self._rate_changed)
        self._unsubscribe_calls = api.on_call(self._call_made)
        self._unsubscribe_waits = api.on_rate_wait(self._rate_wait_changed)
        self.paid_call_log = PaidCallLog(store.path, secrets=self._secrets, now=now)
        self._unsubscribe_created = api.on_created(self.paid_call_log.created)
        deps = Deps(
            api=api,
            cache=self.cache,
            status=self.status,
            sleep=sleep,
            now=now,
            default_customer_key=default_customer_key,
        )
        self.deps = deps
        self.lookup = LookupService(deps)
        self.requests = RequestService(deps, follow_policy)
        self.lawsuits = LawsuitService(deps, self.requests)
        self.trackings = TrackingService(deps)
        self.vault = VaultService(deps)
        self.count = CountService(deps)
        self.sync = SyncService(deps)
        self.search = SearchService(store)
        self.warrants = WarrantService(deps)
        self.transfer_files = TransferFileService(deps)
        self.datalake = DatalakeService(deps)
        self.portfolio = PortfolioService(deps, self.trackings, portfolio_settings or Portfolio())
        self.paid_calls = PaidCallService(deps, self.paid_call_log)
        self.inbox = InboxService(deps, self.trackings, server_now=server_now)
        self.dossiers = DossierService(
            deps,
            datalake=self.datalake,
            lookup=self.lookup,
            requests=self.requests,
            trackings=self.trackings,
            portfolio=self.portfolio,
            settings=dossier_settings,
        )

    @property
    def store(self) -> Store:
        """The store this process reads (read-only when another process holds the cache)."""
        return self.cache.store

    # --- opening and closing ----------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        settings: Settings,
        *,
        read_only: bool = False,
        transport: httpx.AsyncBaseTransport | None = None,
        store: Store | None = None,
        base_urls: BaseUrls | None = None,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        now: Callable[[], datetime] | None = None,
        limiter: RateLimiter | None = None,
        follow_policy: FollowPolicy | None = None,
        cache_wait: float = 0.0,
        on_cache_wait: CacheWait | None = None,
        serve_writes: bool = True,
    ) -> ServiceContext:
        """Open the client and the cache for ``settings``.

        Without an API key (sandbox mode) and without ``transport``, the sandbox is opened
        here (in a worker thread) with ``settings.sandbox``: the one kept on disk, shared
        with every other process (D180); the cache is emptied first if it was filled from
        another sandbox (D183). In sandbox mode the cache is ``cache_path(settings)``: the
        "sandbox" directory inside ``settings.cache_dir``, apart from live data.

        A cache held by another process is opened read-only and its writes are handed to
        that process (``shared_cache.py``); when the holder takes none, it is waited for up
        to ``cache_wait`` seconds (``on_cache_wait`` is told the seconds left), then
        ``status.current.cache_message`` says why nothing will be kept. While this process holds the
        cache it takes in the writes of the others (``serve_writes``).
        """
        mode = settings.mode
        sandbox_app: Any = None
        sandbox_root: str | None = None
        api_key: str | None = None
        if mode == "sandbox":
            sandbox_root = SANDBOX_ROOT
            api_key = settings.sandbox.api_key
            if transport is None:
                # Reading the kept state (and the world) takes time: not on the loop. Nothing
                # in it needs the loop (the app's tasks start with its lifespan).
                sandbox_app = await asyncio.to_thread(build_sandbox, settings)
                generation = _sandbox_generation(sandbox_app)
                if generation is not None and store is None and not read_only:
                    await asyncio.to_thread(match_cache, cache_path(settings), generation)
                transport = httpx.ASGITransport(app=sandbox_app)
                if follow_policy is None:
                    # The sandbox's time runs ``speed`` times real time: poll as often.
                    speed = settings.sandbox.speed
                    default = FollowPolicy()
                    follow_policy = FollowPolicy(
                        base=default.base / speed,
                        factor=default.factor,
                        ceiling=default.ceiling / speed,
                        page_size=default.page_size,
                    )
            if base_urls is None:
                base_urls = BaseUrls.from_root(SANDBOX_ROOT)
        from lawsuit_tui.api.client import ClientConfig

        config = ClientConfig.from_settings(settings, base_urls=base_urls, api_key=api_key)
        do_sleep = sleep or asyncio.sleep
        api = ApiClient(config, transport=transport, clock=clock, sleep=do_sleep, limiter=limiter)
        cache_message: str | None = None
        owns_store = store is None
        holder: HolderClient | None = None
        secrets = [s for s in (config.api_key, config.bearer_token) if s and mode == "live"]
        if store is None:
            store, holder, cache_message = await _open_cache(
                cache_path(settings),
                read_only=read_only,
                secrets=secrets,
                wait=cache_wait,
                on_wait=on_cache_wait,
            )
        server_now: Callable[[], datetime] | None = None
        if sandbox_app is not None:
            # The in-process sandbox runs on its own clock: the inbox's polling windows are
            # taken in the service's time (D173), which is that clock here.
            from lawsuit_tui.sandbox.app import sandbox_state

            server_now = sandbox_state(sandbox_app).clock.now
        context = cls(
            server_now=server_now,
            mode=mode,
            api=api,
            store=store,
            sleep=do_sleep,
            now=now or utcnow,
            default_customer_key=settings.default_customer_key,
            cache_message=cache_message,
            owns_store=owns_store,
            sandbox_app=sandbox_app,
            sandbox_root=sandbox_root,
            follow_policy=follow_policy,
            portfolio_settings=settings.portfolio,
            dossier_settings=settings.dossier,
            holder=holder,
            secrets=secrets,
        )
        if owns_store and serve_writes and not store.read_only:
            await context.serve_writes()
        return context

    async def serve_writes(self) -> None:
        """Take in the writes of other processes while this one holds the cache."""
        if self.cache_host is not None or self.store.read_only:
            return
        await self._host(self.store)

    async def _host(self, store: Store) -> None:
        host = CacheHost(store)
        if await host.start():
            host.subscribe(self._write_taken)
            self.cache_host = host

    def _write_taken(self, op: str) -> None:
        for listener in self._taken_listeners:
            listener(op)

    def on_writes_taken(self, listener: Callable[[str], None]) -> Callable[[], None]:
        """``listener(op)`` after a write of another process is kept here (the app reads its
        cache again), also once this process has taken the cache over from a holder that
        left; returns an unsubscribe function."""
        return self._taken_listeners.add(listener)

    async def _reattach(self) -> Store | HolderClient | None:
        """The holder has gone: take the cache now (and serve the others), or hand the
        writes to whoever holds it now; None when neither is possible."""
        directory = self.store.path
        try:
            store = await asyncio.to_thread(Store.open, directory, secrets=self._secrets)
        except CacheLocked:
            holder = await connect_to_holder(directory, self._secrets)
            self.status.update(
                cache_writable=holder is not None,
                cache_held_by=holder.pid if holder is not None else None,
            )
            return holder
        except (CacheError, OSError):
            self.status.update(cache_writable=False, cache_held_by=None)
            return None
        self._owns_store = True
        await self._host(store)
        self.status.update(cache_writable=True, cache_message=None, cache_held_by=None)
        return store

    def portfolio_importer(self, *, chunk_size: int | None = None) -> PortfolioImporter:
        """An importer of portfolio files with the tiers in force (PortfolioConfigError when
        the configuration names tiers that cannot be used)."""
        return PortfolioImporter(
            self.deps,
            self.portfolio.tiers,
            chunk_size=chunk_size or self.portfolio.chunk_size,
        )

    async def aclose(self) -> None:
        self._unsubscribe()
        self._unsubscribe_calls()
        self._unsubscribe_waits()
        self._unsubscribe_created()
        await self.api.aclose()
        await self.search.aclose()
        if self.cache_host is not None:
            await self.cache_host.aclose()
            self.cache_host = None
        await self.cache.aclose()
        if self._owns_store:
            await asyncio.to_thread(self.store.close)
        if self._sandbox_app is not None:
            # Its state kept on disk is let go (another process may reset it now).
            from lawsuit_tui.sandbox.app import close_app

            await close_app(self._sandbox_app)

    async def __aenter__(self) -> ServiceContext:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # --- status ---------------------------------------------------------------------------

    def _rate_changed(self, remaining: int, limit: int) -> None:
        self.status.update(
            rate_remaining=remaining,
            rate_limit=limit,
            waiting_for_rate_limit=self.api.limiter.waiting > 0,
        )

    def _rate_wait_changed(self, wait: RateWait | None) -> None:
        # A wait of milliseconds between two calls is not news; seconds are shown, counting.
        if wait is None or wait.seconds < 1:
            self.status.update(rate_wait_until=None, rate_wait_reason="")
        else:
            self.status.update(rate_wait_until=wait.until, rate_wait_reason=wait.reason)

    def _call_made(self, _route: str, _status: int | None) -> None:
        self.status.update(waiting_for_rate_limit=self.api.limiter.waiting > 0)

    # --- the sandbox ----------------------------------------------------------------------

    @property
    def sandbox_app(self) -> Any:
        """The in-process sandbox app (None in live mode or with a given transport)."""
        return self._sandbox_app

    async def _sandbox_call(
        self, method: str, path: str, body: dict[str, Any] | None = None
    ) -> Any:
        if self.mode != "sandbox" or self._sandbox_root is None:
            return None
        response = await self.api.http.request(
            method,
            f"{self._sandbox_root}/_sandbox/{path}",
            json=body,
            headers=self.api.auth_headers(),
        )
        response.raise_for_status()
        return response.json()

    async def samples(self) -> dict[str, Any] | None:
        """Sample search keys of the sandbox's world (None in live mode)."""
        if self.mode != "sandbox":
            return None
        data = await self._sandbox_call("GET", "samples")
        return data if isinstance(data, dict) else None

    async def track_demo_portfolio(self, size: int = 10_000) -> dict[str, Any] | None:
        """Sandbox only: track the world's demo portfolio of moving lawsuits, tiered (D177);
        what was registered (None in live mode)."""
        if self.mode != "sandbox":
            return None
        data = await self._sandbox_call("POST", "portfolio", {"size": size})
        return data if isinstance(data, dict) else None

    async def advance_sandbox_clock(self, seconds: float) -> None:
        """Move the sandbox's clock forward (demo and tests); nothing in live mode."""
        if self.mode != "sandbox":
            return
        await self._sandbox_call("POST", "clock", {"advance_seconds": seconds})


def build_sandbox(settings: Settings, *, clock: Any = None, world: Any = None) -> Any:
    """The in-process sandbox for ``settings`` (FastAPI is imported only here): the one kept
    on disk at ``sandbox_state_path(settings)`` (D180), on real time at the configured speed
    (``clock`` and ``world``: tests give their own, a new sandbox then starts at the clock's
    time over that world).

    A file that is not a sandbox's state (damaged) is set aside and a new sandbox started;
    one that cannot be used at all (a read-only disk) leaves a sandbox in memory, and the
    log says why. Runs in a worker thread (ServiceContext.open): it must not need the loop.
    """
    from lawsuit_tui.sandbox.app import create_app, sandbox_state
    from lawsuit_tui.sandbox.clock import SandboxClock
    from lawsuit_tui.sandbox.persistence import StateMismatch
    from lawsuit_tui.sandbox.state_file import StateFileError

    path = sandbox_state_path(settings)

    def make(state_path: Path | None) -> Any:
        return create_app(
            seed=settings.sandbox.seed,
            api_keys=(settings.sandbox.api_key,),
            clock=clock or SandboxClock(speed=settings.sandbox.speed),
            world=world,
            state_path=state_path,
        )

    try:
        try:
            app = make(path)
        except StateMismatch:
            raise
        except (StateFileError, sqlite3.DatabaseError) as exc:
            stamp = int(time.time())
            log.warning("the sandbox's state %s cannot be read (%s): set aside", path, exc)
            for name in (path.name, f"{path.name}-wal", f"{path.name}-shm"):
                with contextlib.suppress(FileNotFoundError):
                    (path.parent / name).replace(path.parent / f"{name}.damaged-{stamp}")
            app = make(path)
    except (OSError, StateFileError, sqlite3.Error) as exc:
        log.warning("the sandbox's state cannot be kept in %s (%s): it lives in memory", path, exc)
        app = make(None)
    # D185: the samples are kept with the state (the lookup screen asks for them at once);
    # the world builds meanwhile, in its own thread, for the first call that needs it.
    sandbox_state(app).warm_world()
    return app


def _sandbox_generation(app: Any) -> str | None:
    from lawsuit_tui.sandbox.app import sandbox_state

    generation: str | None = sandbox_state(app).generation
    return generation

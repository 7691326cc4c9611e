"""One object that opens everything the use cases need: the client, the cache, the sandbox.

The TUI and the headless commands both start with ``await ServiceContext.open(settings)``.
Without an API key the sandbox runs in this process (over ``httpx.ASGITransport``); it is
imported here, lazily, so importing the services never loads FastAPI, and built (world
included) in a worker thread, so the event loop keeps serving keys meanwhile. Each run of
the sandbox gets its own id salt, so a kept cache never takes a new request for an old one,
and the sandbox's cache is ``cache_dir/"sandbox"`` (see paths.py), apart from live data.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime
from secrets import token_hex
from typing import TYPE_CHECKING, Any

import httpx

from lawsuit_tui.api.client import ApiClient, BaseUrls
from lawsuit_tui.api.ratelimit import RateLimiter
from lawsuit_tui.services.cache import Cache
from lawsuit_tui.services.count import CountService
from lawsuit_tui.services.deps import Deps, utcnow
from lawsuit_tui.services.inbox import InboxService
from lawsuit_tui.services.lawsuits import LawsuitService
from lawsuit_tui.services.lookup import LookupService
from lawsuit_tui.services.paths import cache_path
from lawsuit_tui.services.requests import FollowPolicy, RequestService
from lawsuit_tui.services.status import ContextStatus, StatusHub
from lawsuit_tui.services.sync import SyncService
from lawsuit_tui.services.trackings import TrackingService
from lawsuit_tui.services.vault import VaultService
from lawsuit_tui.store import CacheLocked, Store

if TYPE_CHECKING:
    from lawsuit_tui.config import Settings

__all__ = ["SANDBOX_ROOT", "ContextStatus", "ServiceContext", "cache_path"]

# The in-process sandbox answers any host; this one only names it in URLs and logs.
SANDBOX_ROOT = "http://sandbox.local"


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
        server_now: Callable[[], datetime] | None = None,
    ) -> None:
        self.mode = mode
        self.api = api
        self.store = store
        self._owns_store = owns_store
        self._sandbox_app = sandbox_app
        self._sandbox_root = sandbox_root
        self.status = StatusHub(
            ContextStatus(
                rate_remaining=api.rate_remaining,
                rate_limit=api.rate_limit,
                cache_writable=not store.read_only,
                cache_message=cache_message,
            )
        )
        self._unsubscribe = api.on_rate_change(self._rate_changed)
        self._unsubscribe_calls = api.on_call(self._call_made)
        self.cache = Cache(store)
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
        self.inbox = InboxService(deps, self.trackings, server_now=server_now)

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
        sandbox_id_salt: str | None = None,
    ) -> ServiceContext:
        """Open the client and the cache for ``settings``.

        Without an API key (sandbox mode) and without ``transport``, the sandbox is built
        here (in a worker thread) with ``settings.sandbox``, its ids salted for this run
        (``sandbox_id_salt``, random when None) so that they never repeat those of an
        earlier run. In sandbox mode the cache is ``cache_path(settings)``: the "sandbox"
        directory inside ``settings.cache_dir``, apart from live data. A cache held by
        another process is opened read-only, and ``status.cache_message`` says so.
        """
        mode = settings.mode
        sandbox_app: Any = None
        sandbox_root: str | None = None
        api_key: str | None = None
        if mode == "sandbox":
            sandbox_root = SANDBOX_ROOT
            api_key = settings.sandbox.api_key
            if transport is None:
                # Building the world takes most of a second (2 s under load): not on the loop.
                # Nothing in it needs the loop (the app's tasks start with its lifespan).
                if sandbox_id_salt is None:
                    sandbox_app = await asyncio.to_thread(build_sandbox, settings)
                else:
                    sandbox_app = await asyncio.to_thread(
                        lambda: build_sandbox(settings, id_salt=sandbox_id_salt)
                    )
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
        if store is None:
            secrets = [s for s in (config.api_key, config.bearer_token) if s and mode == "live"]
            directory = cache_path(settings)
            try:
                store = await asyncio.to_thread(
                    Store.open, directory, read_only=read_only, secrets=secrets
                )
            except CacheLocked as exc:
                store = await asyncio.to_thread(
                    Store.open, directory, read_only=True, secrets=secrets
                )
                cache_message = str(exc)
        server_now: Callable[[], datetime] | None = None
        if sandbox_app is not None:
            # The in-process sandbox runs on its own clock: the inbox's polling windows are
            # taken in the service's time (D173), which is that clock here.
            from lawsuit_tui.sandbox.app import sandbox_state

            server_now = sandbox_state(sandbox_app).clock.now
        return cls(
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
        )

    async def aclose(self) -> None:
        self._unsubscribe()
        self._unsubscribe_calls()
        await self.api.aclose()
        if self._owns_store:
            await asyncio.to_thread(self.store.close)

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


def build_sandbox(settings: Settings, *, id_salt: str | None = None) -> Any:
    """The in-process sandbox for ``settings`` (FastAPI is imported only here).

    ``id_salt``: see ``create_app``; None draws a random one, so each run's ids are its own.
    Runs in a worker thread (ServiceContext.open): it must not need the event loop.
    """
    from lawsuit_tui.sandbox.app import create_app, sandbox_state
    from lawsuit_tui.sandbox.clock import SandboxClock

    app = create_app(
        seed=settings.sandbox.seed,
        api_keys=(settings.sandbox.api_key,),
        clock=SandboxClock(speed=settings.sandbox.speed),
        id_salt=id_salt if id_salt is not None else token_hex(8),
    )
    # The world is built on first use, which would be the app's first call (the lookup
    # screen asks for samples at once), on the event loop: build it here, in the thread.
    _ = sandbox_state(app).world
    return app

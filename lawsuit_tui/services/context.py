"""One object that opens everything the use cases need: the client, the cache, the sandbox.

The TUI and the headless commands both start with ``await ServiceContext.open(settings)``.
Without an API key the sandbox runs in this process (over ``httpx.ASGITransport``); it is
imported here, lazily, so importing the services never loads FastAPI.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

import httpx

from lawsuit_tui.api.client import ApiClient, BaseUrls
from lawsuit_tui.api.ratelimit import RateLimiter
from lawsuit_tui.services.cache import Cache
from lawsuit_tui.services.count import CountService
from lawsuit_tui.services.deps import Deps, utcnow
from lawsuit_tui.services.lawsuits import LawsuitService
from lawsuit_tui.services.lookup import LookupService
from lawsuit_tui.services.requests import FollowPolicy, RequestService
from lawsuit_tui.services.status import ContextStatus, StatusHub
from lawsuit_tui.services.sync import SyncService
from lawsuit_tui.services.trackings import TrackingService
from lawsuit_tui.services.vault import VaultService
from lawsuit_tui.store import CacheLocked, Store

if TYPE_CHECKING:
    from lawsuit_tui.config import Settings

__all__ = ["SANDBOX_ROOT", "ContextStatus", "ServiceContext"]

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
    ) -> ServiceContext:
        """Open the client and the cache for ``settings``.

        Without an API key (sandbox mode) and without ``transport``, the sandbox is built
        here with ``settings.sandbox``. A cache held by another process is opened read-only,
        and ``status.cache_message`` says so.
        """
        mode = settings.mode
        sandbox_app: Any = None
        sandbox_root: str | None = None
        api_key: str | None = None
        if mode == "sandbox":
            sandbox_root = SANDBOX_ROOT
            api_key = settings.sandbox.api_key
            if transport is None:
                sandbox_app = build_sandbox(settings)
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
            try:
                store = await asyncio.to_thread(
                    Store.open, settings.cache_dir, read_only=read_only, secrets=secrets
                )
            except CacheLocked as exc:
                store = await asyncio.to_thread(
                    Store.open, settings.cache_dir, read_only=True, secrets=secrets
                )
                cache_message = str(exc)
        return cls(
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

    async def advance_sandbox_clock(self, seconds: float) -> None:
        """Move the sandbox's clock forward (demo and tests); nothing in live mode."""
        if self.mode != "sandbox":
            return
        await self._sandbox_call("POST", "clock", {"advance_seconds": seconds})


def build_sandbox(settings: Settings) -> Any:
    """The in-process sandbox for ``settings`` (FastAPI is imported only here)."""
    from lawsuit_tui.sandbox.app import create_app
    from lawsuit_tui.sandbox.clock import SandboxClock

    return create_app(
        seed=settings.sandbox.seed,
        api_keys=(settings.sandbox.api_key,),
        clock=SandboxClock(speed=settings.sandbox.speed),
    )

"""The typed async client of the whole interface: one method per route, grouped by resource
in :mod:`lawsuit_tui.api.resources`.

One ``httpx.AsyncClient`` serves the five base addresses. Every call goes through
:meth:`ApiClient._call`: a slot of the shared sliding window for the limited routes,
the ``api-key`` header (or the bearer token of the alternate lookup), the route's
time-outs, error bodies turned into :mod:`lawsuit_tui.api.errors`, and retries by tenacity
under the policy of :mod:`lawsuit_tui.api.retry`.

The window is shared with every process of this user on the same key and service through
the ledger of :mod:`lawsuit_tui.api.ledger` (setting ``rate_limit.shared``), and every wait
for the rate limit is announced to ``on_rate_wait`` listeners (see
:mod:`lawsuit_tui.api.ratelimit` for an example).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote

import httpx
import orjson
from pydantic import BaseModel, ValidationError
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception

from lawsuit_tui import __version__
from lawsuit_tui.api.errors import (
    MalformedResponse,
    RateLimited,
    TransportFailure,
    Unauthorized,
    error_from_response,
)
from lawsuit_tui.api.ledger import RateLedger, open_shared
from lawsuit_tui.api.ratelimit import RateLimiter, RateWait, Sleep
from lawsuit_tui.api.resources.attachments import AttachmentRoutes
from lawsuit_tui.api.resources.base import BULK_PAGE_SIZE
from lawsuit_tui.api.resources.lawsuits import LawsuitsRoutes
from lawsuit_tui.api.resources.lookup import LookupRoutes
from lawsuit_tui.api.resources.miner import MinerRoutes
from lawsuit_tui.api.resources.requests import RequestRoutes
from lawsuit_tui.api.resources.responses import ResponseRoutes
from lawsuit_tui.api.resources.trackings import TrackingRoutes
from lawsuit_tui.api.resources.transfer_files import TransferFileRoutes
from lawsuit_tui.api.resources.vault import VaultRoutes
from lawsuit_tui.api.retry import RetryBudget, StopWhenSpent, WaitRetryAfterOrJitter, should_retry
from lawsuit_tui.api.routes import ROUTES, Route
from lawsuit_tui.domain.listeners import Listeners
from lawsuit_tui.i18n import _

if TYPE_CHECKING:
    from lawsuit_tui.config import Settings

__all__ = [
    "BULK_PAGE_SIZE",
    "USER_AGENT",
    "ApiClient",
    "ApiStats",
    "BaseUrls",
    "ClientConfig",
    "CreatedListener",
]

USER_AGENT = f"lawsuit-tui/{__version__}"

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

log = logging.getLogger(__name__)

CreatedListener = Callable[[str, Mapping[str, Any] | None, bytes], None]
"""``(route_name, body sent, answer)`` of a creating route answered 2xx (``on_created``)."""


@dataclass(frozen=True)
class BaseUrls:
    """The five base addresses of the service, without a trailing slash."""

    requests_url: str
    lawsuits_url: str
    tracking_url: str
    vault_url: str
    miner_url: str

    @classmethod
    def from_root(cls, root: str) -> BaseUrls:
        """D1: the sandbox serves the five as path prefixes of one root."""
        base = root.rstrip("/")
        return cls(
            requests_url=f"{base}/requests",
            lawsuits_url=f"{base}/lawsuits",
            tracking_url=f"{base}/tracking",
            vault_url=f"{base}/vault",
            miner_url=f"{base}/miner",
        )

    @classmethod
    def from_settings(cls, urls: Any) -> BaseUrls:
        return cls(
            requests_url=str(urls.requests_url).rstrip("/"),
            lawsuits_url=str(urls.lawsuits_url).rstrip("/"),
            tracking_url=str(urls.tracking_url).rstrip("/"),
            vault_url=str(urls.vault_url).rstrip("/"),
            miner_url=str(urls.miner_url).rstrip("/"),
        )


@dataclass(frozen=True)
class ClientConfig:
    """What the client needs from the settings. Secrets are kept out of ``repr``."""

    api_key: str = field(repr=False)
    base_urls: BaseUrls
    bearer_token: str | None = field(default=None, repr=False)
    rate_calls: int = 180
    rate_seconds: float = 60.0
    # The lawsuits service's synchronous routes: a window of their own (D74, D100).
    datalake_rate_calls: int = 500
    datalake_rate_seconds: float = 60.0
    connect_timeout: float = 10.0
    read_timeout: float = 30.0
    lookup_read_timeout: float = 120.0
    write_timeout: float = 30.0
    pool_timeout: float = 10.0
    max_attempts: int = 5
    max_total_seconds: float = 60.0
    max_rate_wait_seconds: float = 300.0
    # One window for every process on this key (api/ledger.py), kept in the runtime dir or,
    # when the platform has none, in ``ledger_fallback_dir``. Off unless the settings say so.
    share_rate_window: bool = False
    ledger_fallback_dir: Path | None = None

    @classmethod
    def from_settings(
        cls, settings: Settings, *, base_urls: BaseUrls | None = None, api_key: str | None = None
    ) -> ClientConfig:
        """From the settings; without an API key, the sandbox's well-known one."""
        key = api_key
        if key is None:
            secret = settings.api_key
            key = secret.get_secret_value() if secret is not None else ""
            if not key:
                key = settings.sandbox.api_key
        bearer = settings.bearer_token.get_secret_value() if settings.bearer_token else None
        return cls(
            api_key=key,
            base_urls=base_urls or BaseUrls.from_settings(settings.urls),
            bearer_token=bearer or None,
            rate_calls=settings.rate_limit.calls,
            rate_seconds=settings.rate_limit.seconds,
            connect_timeout=settings.timeouts.connect,
            read_timeout=settings.timeouts.read,
            lookup_read_timeout=settings.timeouts.lookup_read,
            write_timeout=settings.timeouts.write,
            pool_timeout=settings.timeouts.pool,
            max_attempts=settings.retries.max_attempts,
            max_total_seconds=settings.retries.max_total_seconds,
            max_rate_wait_seconds=settings.retries.max_rate_wait_seconds,
            share_rate_window=settings.rate_limit.shared,
            ledger_fallback_dir=settings.cache_dir / "rate-ledger",
        )

    def shared_ledger(
        self, transport: httpx.AsyncBaseTransport | None, service_url: str | None = None
    ) -> RateLedger | None:
        """The ledger shared with the other processes on this key (see ``open_shared``), of
        the window of ``service_url`` (default: the requests service's)."""
        if not self.share_rate_window:
            return None
        # A stamp in flight longer than every time-out of one attempt put together is stale.
        ttl = self.connect_timeout + self.write_timeout + self.pool_timeout
        ttl += max(self.read_timeout, self.lookup_read_timeout) + 30.0
        url = service_url or self.base_urls.requests_url
        return open_shared(self.api_key, url, self.ledger_fallback_dir, transport, ttl)


@dataclass
class ApiStats:
    """What the client did: calls sent (each attempt), answers by status, retries."""

    calls: int = 0
    by_route: Counter[str] = field(default_factory=Counter)
    by_status: Counter[int] = field(default_factory=Counter)
    retries: int = 0
    transport_failures: int = 0

    @property
    def rate_limited(self) -> int:
        """429 answers received."""
        return self.by_status.get(429, 0)


def _int_header(headers: httpx.Headers, name: str) -> int | None:
    value = headers.get(name)
    if value is None:
        return None
    try:
        return int(float(value.strip()))
    except ValueError:
        return None


class ApiClient(
    LookupRoutes,
    LawsuitsRoutes,
    RequestRoutes,
    ResponseRoutes,
    TrackingRoutes,
    VaultRoutes,
    MinerRoutes,
    AttachmentRoutes,
    TransferFileRoutes,
):
    """Async client of the service. Use as ``async with ApiClient(...) as api:``.

    The routes come from one mixin per resource (``api/resources/``); this class owns the
    transport, the rate window and the one ``_call`` they all go through."""

    def __init__(
        self,
        settings: Settings | ClientConfig,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        base_urls: BaseUrls | None = None,
        clock: Callable[[], float] | None = None,
        sleep: Sleep | None = None,
        rng: random.Random | None = None,
        limiter: RateLimiter | None = None,
        ledger: RateLedger | None = None,
    ) -> None:
        if isinstance(settings, ClientConfig):
            config = settings
            if base_urls is not None:
                config = dataclasses.replace(config, base_urls=base_urls)
        else:
            config = ClientConfig.from_settings(settings, base_urls=base_urls)
        self.config = config
        self.base_urls = config.base_urls
        self._clock = clock or time.monotonic
        self._sleep: Sleep = sleep or _default_sleep
        self._rng = rng or random.Random()
        self._own_ledger = None
        if limiter is None and ledger is None:
            ledger = self._own_ledger = config.shared_ledger(transport)
        self.limiter = limiter or RateLimiter(
            config.rate_calls,
            config.rate_seconds,
            clock=self._clock,
            sleep=self._sleep,
            ledger=ledger,
        )
        # D100: the datalake routes' own window, shared like the other when that one is.
        self._own_datalake_ledger = (
            config.shared_ledger(transport, config.base_urls.lawsuits_url)
            if self._own_ledger is not None
            else None
        )
        self.datalake_limiter = RateLimiter(
            config.datalake_rate_calls,
            config.datalake_rate_seconds,
            clock=self._clock,
            sleep=self._sleep,
            ledger=self._own_datalake_ledger,
        )
        self.stats = ApiStats()
        self._call_listeners: Listeners[Callable[[str, int | None], None]] = Listeners()
        self._created_listeners: Listeners[CreatedListener] = Listeners()
        self._http = httpx.AsyncClient(
            transport=transport,
            headers={"User-Agent": USER_AGENT, "Accept": "application/json"},
            follow_redirects=False,
        )

    # --- lifecycle and observation ---------------------------------------------------------

    async def __aenter__(self) -> ApiClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()
        await self.limiter.flush()
        await self.datalake_limiter.flush()
        if self._own_ledger is not None:
            self._own_ledger.close()
        if self._own_datalake_ledger is not None:
            self._own_datalake_ledger.close()

    @property
    def http(self) -> httpx.AsyncClient:
        """The underlying client (for the sandbox's own routes)."""
        return self._http

    @property
    def rate_remaining(self) -> int:
        return self.limiter.remaining

    @property
    def rate_limit(self) -> int:
        return self.limiter.limit

    def on_rate_change(self, listener: Callable[[int, int], None]) -> Callable[[], None]:
        """``listener(remaining, limit)`` on every change of the allowance."""
        return self.limiter.subscribe(listener)

    @property
    def rate_wait(self) -> RateWait | None:
        """The wait for the rate limit under way (the one ending last), or None."""
        return self.limiter.current_wait

    def on_rate_wait(self, listener: Callable[[RateWait | None], None]) -> Callable[[], None]:
        """``listener(wait)`` when a wait for the rate limit starts or changes (a slot of the
        window, or a 429's Retry-After), ``listener(None)`` when none is under way any more;
        returns an unsubscribe function. Example in :mod:`lawsuit_tui.api.ratelimit`."""
        return self.limiter.subscribe_waits(listener)

    def on_call(self, listener: Callable[[str, int | None], None]) -> Callable[[], None]:
        """``listener(route_name, status)`` after every attempt (status None: no answer)."""
        return self._call_listeners.add(listener)

    def on_created(self, listener: CreatedListener) -> Callable[[], None]:
        """``listener(route_name, sent_body, answer_bytes)`` the moment a ``creating`` route is
        answered 2xx, before the answer is parsed or anything is stored: what was paid for is
        known before anything else can fail. A listener that raises is logged, never allowed
        to turn a paid call into an error; returns an unsubscribe function."""
        return self._created_listeners.add(listener)

    def _created(self, route: Route, body: Mapping[str, Any] | None, answer: bytes) -> None:
        for listener in self._created_listeners:
            try:
                listener(route.name, body, answer)
            except Exception:  # the call was made and paid: its answer is still returned
                log.exception("a listener of paid calls failed on %s", route.name)

    def auth_headers(self, *, bearer: bool = False) -> dict[str, str]:
        if bearer:
            if not self.config.bearer_token:
                raise Unauthorized(
                    None, message=_("no bearer token is configured (setting bearer_token)")
                )
            return {"Authorization": f"Bearer {self.config.bearer_token}"}
        return {"api-key": self.config.api_key}

    # --- the one way to call --------------------------------------------------------------

    def _limiter_of(self, route: Route) -> RateLimiter:
        """The window a route counts in: the datalake's (D100) or the shared one (D25)."""
        return self.datalake_limiter if route.datalake else self.limiter

    def _url(self, route: Route, path_params: Mapping[str, object] | None) -> str:
        base = getattr(self.base_urls, route.base)
        params = {k: quote(str(v), safe="") for k, v in (path_params or {}).items()}
        return f"{base}{route.path.format(**params)}"

    def _timeout(self, route: Route) -> httpx.Timeout:
        c = self.config
        read = c.lookup_read_timeout if route.slow else c.read_timeout
        return httpx.Timeout(
            connect=c.connect_timeout, read=read, write=c.write_timeout, pool=c.pool_timeout
        )

    def _record(self, route: Route, status: int | None) -> None:
        self.stats.calls += 1
        self.stats.by_route[route.name] += 1
        if status is None:
            self.stats.transport_failures += 1
        else:
            self.stats.by_status[status] += 1
        for listener in self._call_listeners:
            listener(route.name, status)

    async def _call(
        self,
        route_name: str,
        parse: Callable[[httpx.Response], T],
        *,
        path: Mapping[str, object] | None = None,
        params: Mapping[str, str] | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> T:
        route = ROUTES[route_name]
        url = self._url(route, path)
        headers = self.auth_headers(bearer=route.bearer)
        content: bytes | None = None
        if body is not None:
            content = orjson.dumps(body)
            headers["Content-Type"] = "application/json"
        timeout = self._timeout(route)
        c = self.config
        budget = RetryBudget(
            self._clock, c.max_attempts, c.max_total_seconds, c.max_rate_wait_seconds
        )
        after_429 = [False]
        window = self._limiter_of(route)

        def count_retry(state: RetryCallState) -> None:
            self.stats.retries += 1
            after_429[0] = state.outcome is not None and isinstance(
                state.outcome.exception(), RateLimited
            )

        async def sleep(seconds: float) -> None:
            if not after_429[0]:
                return await self._sleep(seconds)
            with window.showing_wait(seconds, "retry_after"):
                await self._sleep(seconds)

        def block_everyone(seconds: float) -> None:
            # Never longer than a call may wait: beyond that the 429 is the answer.
            window.block(min(seconds, c.max_rate_wait_seconds))

        retrying = AsyncRetrying(
            sleep=sleep,
            stop=StopWhenSpent(budget),
            wait=WaitRetryAfterOrJitter(self._rng, block_everyone),
            retry=retry_if_exception(lambda exc: should_retry(route, exc)),
            before_sleep=count_retry,
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                response = await self._attempt(
                    route, url, headers, params, content, timeout, budget
                )
                if route.creating:
                    self._created(route, body, response.content)
                try:
                    return parse(response)
                except (ValidationError, ValueError, TypeError) as exc:
                    raise MalformedResponse(
                        response.status_code,
                        message=_("the answer does not match the interface: {problem}").format(
                            problem=str(exc).splitlines()[0][:200]
                        ),
                        body_excerpt=response.content[:200].decode("utf-8", errors="replace"),
                        route=route.label,
                    ) from exc
        raise AssertionError("unreachable: tenacity either returns or raises")  # pragma: no cover

    async def _attempt(
        self,
        route: Route,
        url: str,
        headers: dict[str, str],
        params: Mapping[str, str] | None,
        content: bytes | None,
        route_timeout: httpx.Timeout,
        budget: RetryBudget,
    ) -> httpx.Response:
        slot = None
        limiter = self._limiter_of(route)
        if route.limited or route.datalake:
            queued_from = self._clock()
            slot = await limiter.acquire()
            budget.queued += max(0.0, self._clock() - queued_from)
        try:
            response = await self._http.request(
                route.method,
                url,
                params=params,
                content=content,
                headers=headers,
                timeout=route_timeout,
            )
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout) as exc:
            # The connection never opened: the service never saw this call.
            if slot is not None:
                limiter.release(slot)
            self._record(route, None)
            raise TransportFailure(_describe(exc), timed_out=False, sent=False) from exc
        except httpx.TimeoutException as exc:
            if slot is not None:
                limiter.complete(slot)
            self._record(route, None)
            raise TransportFailure(_describe(exc), timed_out=True, sent=True) from exc
        except httpx.RequestError as exc:
            # Dropped connection, protocol error, undecodable body: it may have been processed.
            if slot is not None:
                limiter.complete(slot)
            self._record(route, None)
            raise TransportFailure(_describe(exc), timed_out=False, sent=True) from exc
        except BaseException:
            # Cancelled mid-call (the TUI left the screen) or an unforeseen failure: the call
            # may have reached the service. Its slot must leave the window in time; left in
            # flight it would be lost to every caller for the life of the client.
            if slot is not None:
                limiter.complete(slot)
            raise
        if slot is not None:
            limiter.complete(
                slot,
                remaining=_int_header(response.headers, "x-ratelimit-remaining"),
                limit=_int_header(response.headers, "x-ratelimit-limit"),
            )
        self._record(route, response.status_code)
        if not 200 <= response.status_code < 300:
            raise error_from_response(
                response.status_code,
                response.content,
                response.headers,
                optional_route=route.optional,
                route=route.label,
            )
        return response


def _describe(exc: httpx.HTTPError) -> str:
    text = str(exc).strip()
    kind = type(exc).__name__
    return f"{kind}: {text}" if text else kind


async def _default_sleep(seconds: float) -> None:

    await asyncio.sleep(seconds)

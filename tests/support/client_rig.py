"""Shared helpers of the client tests: a virtual clock and a client over a mock transport."""

from __future__ import annotations

import random
from collections import deque

import httpx

from lawsuit_tui.api.client import ApiClient, BaseUrls, ClientConfig
from tests.support.clock import VirtualClock

ROOT = "http://svc.test"
URLS = BaseUrls.from_root(ROOT)


def make_config(**overrides: object) -> ClientConfig:
    values: dict[str, object] = {
        "api_key": "test-key-123",
        "base_urls": URLS,
        "bearer_token": None,
        "rate_calls": 180,
        "rate_seconds": 60.0,
        "max_attempts": 5,
        "max_total_seconds": 60.0,
    }
    values.update(overrides)
    return ClientConfig(**values)  # type: ignore[arg-type]


def make_client(
    clock: VirtualClock, transport: httpx.AsyncBaseTransport | None = None, **overrides: object
) -> ApiClient:
    return ApiClient(
        make_config(**overrides),
        transport=transport,
        clock=clock,
        sleep=clock.sleep,
        rng=random.Random(1),
    )


class SandboxRig:
    """A sandbox app on a frozen clock, and a client of it."""

    def __init__(
        self,
        *,
        rate_limit: tuple[int, float] = (180, 60.0),
        speed: float = 0.0,
        client_rate: tuple[int, float] | None = None,
        **client_overrides: object,
    ) -> None:
        from lawsuit_tui.sandbox.app import create_app
        from lawsuit_tui.sandbox.clock import DEFAULT_START, SandboxClock
        from lawsuit_tui.sandbox.world import World

        self.clock = (
            SandboxClock.frozen() if speed == 0 else SandboxClock(DEFAULT_START, speed=speed)
        )
        self.app = create_app(
            seed=7, clock=self.clock, rate_limit=rate_limit, world=World.shared(7)
        )
        self.transport = httpx.ASGITransport(app=self.app)
        calls, seconds = client_rate or rate_limit
        self.api = ApiClient(
            make_config(
                rate_calls=calls, rate_seconds=seconds, api_key="sandbox", **client_overrides
            ),
            transport=self.transport,
            rng=random.Random(3),
        )
        self._samples: dict[str, object] | None = None

    async def samples(self) -> dict[str, object]:
        if self._samples is None:
            response = await self.api.http.get(f"{ROOT}/_sandbox/samples")
            self._samples = response.json()
        return self._samples

    async def advance(self, seconds: float) -> None:
        from lawsuit_tui.sandbox.app import drain

        self.clock.advance(seconds)
        await drain(self.app)

    async def admin(self, method: str, path: str, body: object = None) -> object:
        response = await self.api.http.request(
            method, f"{ROOT}/_sandbox/{path}", json=body, headers={"api-key": "sandbox"}
        )
        response.raise_for_status()
        return response.json()

    async def aclose(self) -> None:
        await self.api.aclose()


def open_sandbox(**kwargs: object) -> SandboxRig:
    return SandboxRig(**kwargs)  # type: ignore[arg-type]


class WindowServer:
    """A mock service with its own sliding window on the same virtual clock."""

    def __init__(self, clock: VirtualClock, calls: int, seconds: float) -> None:
        self.clock = clock
        self.calls = calls
        self.seconds = seconds
        self.hits: deque[float] = deque()
        self.times: list[float] = []
        self.rejected = 0
        self.extra_used = 0  # calls made by "another client" with the same key

    def handler(self, request: httpx.Request) -> httpx.Response:
        now = self.clock()
        while self.hits and self.hits[0] <= now - self.seconds:
            self.hits.popleft()
        if len(self.hits) + self.extra_used >= self.calls:
            self.rejected += 1
            return httpx.Response(429, headers={"Retry-After": "1"}, json={"error": "TOO_MANY"})
        self.hits.append(now)
        self.times.append(now)
        remaining = self.calls - len(self.hits) - self.extra_used
        headers = {"X-RateLimit-Limit": str(self.calls), "X-RateLimit-Remaining": str(remaining)}
        request_id = request.url.path.rsplit("/", 1)[-1]
        return httpx.Response(
            200, headers=headers, json={"request_id": request_id, "status": "started"}
        )

"""Fixtures for the sandbox's contract tests: one shared world, a frozen clock, ASGI clients."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
import pytest

from lawsuit_tui.sandbox.app import create_app, drain
from lawsuit_tui.sandbox.clock import SandboxClock
from lawsuit_tui.sandbox.state import SandboxState
from lawsuit_tui.sandbox.world import World
from tests.support.samples import samples as shared_samples
from tests.support.samples import shared_world

KEY = "sandbox"
ALL_TIME = {"created_at_gte": "2000-01-01", "created_at_lte": "2100-12-31"}


@pytest.fixture(scope="session")
def world() -> World:
    # The process-wide world (read-only; its lazy caches are deterministic), also used by
    # the modules that need a real world, so it is built once per test run.
    return shared_world()


@pytest.fixture(scope="session")
def samples() -> dict[str, Any]:
    return shared_samples()


class Receiver:
    """A webhook receiver behind httpx.MockTransport: records deliveries, answers ``statuses``."""

    def __init__(self) -> None:
        self.deliveries: list[dict[str, Any]] = []
        self.urls: list[str] = []
        self.statuses: list[int] = []

    async def handle(self, request: httpx.Request) -> httpx.Response:
        import json

        self.deliveries.append(json.loads(request.content))
        self.urls.append(str(request.url))
        status = self.statuses.pop(0) if self.statuses else 200
        return httpx.Response(status)

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def events(self) -> list[str]:
        return [d["event_type"] for d in self.deliveries]


class Sandbox:
    """An app, its state and clock, and a client for it."""

    def __init__(self, app: Any, client: httpx.AsyncClient, clock: SandboxClock) -> None:
        self.app = app
        self.client = client
        self.clock = clock
        self.state: SandboxState = app.state.sandbox

    async def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        await drain(self.app)

    async def create(self, search: dict[str, Any], **extra: Any) -> dict[str, Any]:
        answer = await self.client.post("/requests/requests", json={"search": search, **extra})
        assert answer.status_code == 201, answer.text  # D82
        body: dict[str, Any] = answer.json()
        return body

    async def responses(self, request_id: str, **params: Any) -> dict[str, Any]:
        answer = await self.client.get(
            "/requests/responses", params={"request_id": request_id, "page_size": 1000, **params}
        )
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        return body


SandboxFactory = Callable[..., Awaitable[Sandbox]]


async def _all_time(request: httpx.Request) -> None:
    """D63: GET /requests needs both dates; like the client, every call sends a window wide
    enough for any test (a test's own dates replace these). Added to the query the request
    has: a client's ``params=`` would replace a query written in the URL."""
    missing = {name: value for name, value in ALL_TIME.items() if name not in request.url.params}
    if missing:
        request.url = request.url.copy_merge_params(missing)


@pytest.fixture
def receiver() -> Receiver:
    return Receiver()


@pytest.fixture
async def make_sandbox(world: World) -> AsyncIterator[SandboxFactory]:
    made: list[Sandbox] = []

    async def factory(*, api_key: str = KEY, **options: Any) -> Sandbox:
        clock = options.pop("clock", None) or SandboxClock.frozen()
        options.setdefault("world", world)
        app = create_app(clock=clock, **options)
        client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://sandbox.test",
            headers={"api-key": api_key},
            event_hooks={"request": [_all_time]},
        )
        sandbox = Sandbox(app, client, clock)
        made.append(sandbox)
        return sandbox

    yield factory
    for sandbox in made:
        await sandbox.client.aclose()
        await sandbox.state.aclose()


@pytest.fixture
async def sb(make_sandbox: SandboxFactory) -> Sandbox:
    return await make_sandbox()

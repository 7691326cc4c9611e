"""A 429 is waited out (for reads and creations), visibly, within its own ceiling; two
clients on one key share one window through the ledger (virtual clock, mock service)."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
import respx

from lawsuit_tui.api.client import ApiClient, ClientConfig
from lawsuit_tui.api.errors import CourtUnavailable, RateLimited
from lawsuit_tui.api.ledger import FileRateLedger
from lawsuit_tui.api.ratelimit import RateWait
from lawsuit_tui.config import load_settings
from tests.support.client_rig import ROOT, WindowServer, make_client, make_config
from tests.support.clock import VirtualClock
from tests.support.mocked_service import REQUEST, create_body


def too_many(retry_after: str | None = None, **headers: str) -> httpx.Response:
    if retry_after is not None:
        headers["Retry-After"] = retry_after
    return httpx.Response(
        429, headers=headers, json={"error": "TOO_MANY_REQUESTS", "message": "slow down"}
    )


# --- waiting out a 429 ---------------------------------------------------------------------


@respx.mock(base_url=ROOT)
async def test_retry_after_beyond_the_retry_budget_is_waited_not_abandoned(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    # 10 s already spent on a 503, then "Retry-After: 60": 70 s > max_total_seconds = 60,
    # which used to abandon the call at once.
    route = respx_mock.get("/requests/requests/r-1").mock(
        side_effect=[
            httpx.Response(503, headers={"Retry-After": "10"}, json={}),
            too_many("60"),
            httpx.Response(200, json=REQUEST),
        ]
    )
    async with make_client(clock, max_total_seconds=60.0) as api:
        record = await api.get_request("r-1")
    assert record.request_id == "r-1"
    assert route.call_count == 3
    assert clock.sleeps == [10.0, 60.0]
    assert api.stats.rate_limited == 1


@respx.mock(base_url=ROOT)
async def test_a_creation_answered_429_is_retried_after_the_wait(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    route = respx_mock.post("/requests/requests").mock(
        side_effect=[too_many("120"), httpx.Response(200, json=REQUEST)]
    )
    async with make_client(clock) as api:
        records = await api.create_request(create_body())
    assert [r.request_id for r in records] == ["r-1"]
    assert route.call_count == 2
    assert clock.sleeps == [120.0]


@respx.mock(base_url=ROOT)
async def test_a_creation_is_still_never_retried_after_a_502_that_follows_a_429(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    route = respx_mock.post("/requests/requests").mock(
        side_effect=[too_many("5"), httpx.Response(502, text="bad gateway")]
    )
    async with make_client(clock) as api:
        with pytest.raises(CourtUnavailable):
            await api.create_request(create_body())
    assert route.call_count == 2


@respx.mock(base_url=ROOT)
async def test_reset_header_alone_says_how_long(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    respx_mock.get("/requests/requests/r-1").mock(
        side_effect=[
            too_many(None, **{"X-RateLimit-Reset": "5"}),
            httpx.Response(200, json=REQUEST),
        ]
    )
    async with make_client(clock) as api:
        await api.get_request("r-1")
    assert clock.sleeps == [5.0]


@respx.mock(base_url=ROOT)
async def test_429s_do_not_use_up_the_attempts_for_failures(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    route = respx_mock.get("/requests/requests/r-1").mock(
        side_effect=[
            too_many("1"),
            too_many("0"),  # "now" still waits a second
            too_many("1"),
            httpx.Response(502, text="bad gateway"),
            httpx.Response(200, json=REQUEST),
        ]
    )
    async with make_client(clock, max_attempts=2) as api:
        await api.get_request("r-1")
    assert route.call_count == 5
    assert clock.sleeps[:3] == [1.0, 1.0, 1.0]


@respx.mock(base_url=ROOT)
async def test_a_wait_beyond_the_ceiling_fails_at_once_and_says_why(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    route = respx_mock.post("/requests/requests").mock(return_value=too_many("3600"))
    async with make_client(clock, max_rate_wait_seconds=300.0) as api:
        with pytest.raises(RateLimited) as info:
            await api.create_request(create_body())
    assert route.call_count == 1
    assert clock.sleeps == []  # no pointless partial wait
    message = str(info.value)
    assert "3600 s" in message and "retries.max_rate_wait_seconds" in message
    assert "nothing was done" in message
    # Other callers are held back no longer than a call may wait.
    assert api.limiter.remaining == 0
    clock.now += 300.0
    assert api.limiter.remaining > 0


@respx.mock(base_url=ROOT)
async def test_the_ceiling_counts_every_429_of_one_call(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    route = respx_mock.get("/requests/requests/r-1").mock(return_value=too_many("60"))
    async with make_client(clock, max_rate_wait_seconds=100.0) as api:
        with pytest.raises(RateLimited):
            await api.get_request("r-1")
    assert route.call_count == 2
    assert clock.sleeps == [60.0]


# --- the countdown ---------------------------------------------------------------------------


@respx.mock(base_url=ROOT)
async def test_the_wait_after_a_429_is_announced(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    respx_mock.get("/requests/requests/r-1").mock(
        side_effect=[too_many("60"), httpx.Response(200, json=REQUEST)]
    )
    seen: list[RateWait | None] = []
    during: list[RateWait | None] = []
    async with make_client(clock) as api:
        api.on_rate_wait(seen.append)
        real_sleep = clock.sleep

        async def sleep(seconds: float) -> None:
            during.append(api.rate_wait)
            await real_sleep(seconds)

        api._sleep = sleep
        await api.get_request("r-1")
        assert api.rate_wait is None
    assert len(seen) == 2 and seen[1] is None
    wait = seen[0]
    assert wait is not None and during == [wait]
    assert (wait.reason, wait.seconds) == ("retry_after", 60.0)
    started = wait.until - timedelta(seconds=60)
    assert wait.seconds_left(started) == 60
    assert wait.describe(started) == (
        f"the service asked to slow down: waiting 60 s, until {wait.until:%H:%M:%S}"
    )
    assert wait.describe(started + timedelta(seconds=45.5)).startswith(
        "the service asked to slow down: waiting 15 s"
    )


async def test_the_wait_for_a_full_window_is_announced(clock: VirtualClock) -> None:
    server = WindowServer(clock, calls=1, seconds=10.0)
    seen: list[RateWait | None] = []
    api = make_client(clock, httpx.MockTransport(server.handler), rate_calls=1, rate_seconds=10.0)
    unsubscribe = api.on_rate_wait(seen.append)
    async with api:
        await api.get_request("a")
        assert seen == []
        await api.get_request("b")
    unsubscribe()
    assert len(seen) == 2 and seen[1] is None
    wait = seen[0]
    assert wait is not None and wait.reason == "window"
    assert wait.seconds == pytest.approx(10.0, abs=0.01)
    assert wait.describe(wait.until - timedelta(seconds=10)).startswith(
        "waiting 10 s for the rate limit, until "
    )


# --- two clients, one key: the shared ledger -------------------------------------------------


async def run_two_clients(clock: VirtualClock, ledger_path: Path | None) -> WindowServer:
    """Two clients (two processes' worth: each its own limiter) on one key, 20 calls each
    from 2 tasks, against a service allowing 5 calls per 10 s."""
    server = WindowServer(clock, calls=5, seconds=10.0)
    transport = httpx.MockTransport(server.handler)
    clients = [
        ApiClient(
            make_config(rate_calls=5, rate_seconds=10.0),
            transport=transport,
            clock=clock,
            sleep=clock.sleep,
            rng=random.Random(n),
            ledger=FileRateLedger(ledger_path, clock=clock) if ledger_path else None,
        )
        for n in range(2)
    ]

    async def worker(api: ApiClient, n: int) -> None:
        for i in range(10):
            await api.get_request(f"r-{n}-{i}")

    await asyncio.gather(*(worker(api, n) for api in clients for n in range(2)))
    for api in clients:
        await api.aclose()
    assert len(server.times) == 40
    return server


async def test_two_clients_on_one_ledger_draw_no_429(tmp_path: Path, clock: VirtualClock) -> None:
    server = await run_two_clients(clock, tmp_path / "rate-shared.json")
    assert server.rejected == 0
    for t in server.times:
        assert sum(1 for u in server.times if t <= u < t + 10.0) <= 5


async def test_two_clients_without_the_ledger_draw_429s(clock: VirtualClock) -> None:
    server = await run_two_clients(clock, None)
    assert server.rejected > 0  # what the ledger prevents, so the test above can fail


async def test_a_ledger_that_cannot_be_used_leaves_the_client_working(
    tmp_path: Path, clock: VirtualClock
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    server = WindowServer(clock, calls=5, seconds=10.0)
    api = ApiClient(
        make_config(rate_calls=5, rate_seconds=10.0),
        transport=httpx.MockTransport(server.handler),
        clock=clock,
        sleep=clock.sleep,
        ledger=FileRateLedger(blocker / "rate-x.json", clock=clock),
    )
    async with api:
        for i in range(7):
            await api.get_request(f"r-{i}")
    assert server.rejected == 0
    assert api.limiter.ledger_problem is not None and "rate-x.json" in api.limiter.ledger_problem


# --- the settings ------------------------------------------------------------------------------


def test_settings_share_the_window_of_real_calls_only(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LAWSUIT_TUI_RETRIES__MAX_RATE_WAIT_SECONDS", "120")
    settings = load_settings()
    config = ClientConfig.from_settings(settings, api_key="k")
    assert config.share_rate_window
    assert config.max_rate_wait_seconds == 120.0
    assert config.ledger_fallback_dir == settings.cache_dir / "rate-ledger"
    assert isinstance(ApiClient(config).limiter.ledger, FileRateLedger)
    mock = httpx.MockTransport(lambda request: httpx.Response(200))
    assert ApiClient(config, transport=mock).limiter.ledger is None
    monkeypatch.setenv("LAWSUIT_TUI_RATE_LIMIT__SHARED", "false")
    unshared = ClientConfig.from_settings(load_settings(), api_key="k")
    assert ApiClient(unshared).limiter.ledger is None
    assert ApiClient(make_config()).limiter.ledger is None  # off unless the settings say so

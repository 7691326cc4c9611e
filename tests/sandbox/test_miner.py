"""The Miner's find requests in the sandbox (D72, D128): cost by tier, credits, progress on
the sandbox clock, paging bounds, ownership, and the courts' table."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI

from lawsuit_tui.sandbox.app import create_app, sandbox_state
from lawsuit_tui.sandbox.clock import SandboxClock
from lawsuit_tui.sandbox.counts import STARTING_CREDITS, TIER_PRICES, MinerRecord
from lawsuit_tui.sandbox.world import World
from lawsuit_tui.sandbox.world.miner import amount_tier
from tests.support.sandbox_http import sandbox_http

OTHER = "other-key"


@pytest.fixture
def clock() -> SandboxClock:
    return SandboxClock.frozen()


@pytest.fixture
def app(clock: SandboxClock) -> FastAPI:
    return create_app(
        api_keys=["sandbox", OTHER, "plain:no-miner"], clock=clock, world=World.shared(7)
    )


@pytest.fixture
async def http(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with sandbox_http(app) as client:
        yield client


async def test_the_courts_are_the_documented_table(http: httpx.AsyncClient) -> None:
    courts = (await http.get("/miner/tribunals")).json()
    assert len(courts) == 62
    assert {"tribunal_id": 10, "name": "TJSP"} in courts
    assert {"tribunal_id": 1151652, "name": "TRE-SP"} in courts
    names = [court["name"] for court in courts]
    assert names == sorted(names)


async def test_the_cost_is_the_tier_prices_and_is_debited_at_once(
    http: httpx.AsyncClient, app: FastAPI
) -> None:
    world = World.shared(7)
    codes = world.miner_matches({"kind": "judgement-bond", "tribunals": [10]}, set())[:6]
    expected = sum(TIER_PRICES[amount_tier(world.record(c).amount)] for c in codes)  # type: ignore[union-attr]
    created = await http.post(
        "/miner/requests/create",
        json={"kind": "judgement-bond", "tribunals": [10], "responses_limit": 6},
    )
    assert created.status_code == 201 and created.json()["cost"] == expected
    ledger = sandbox_state(app).counts
    assert ledger.balance("sandbox") == STARTING_CREDITS - expected
    assert ledger.balance(OTHER) == STARTING_CREDITS


async def test_too_little_credit_creates_nothing(http: httpx.AsyncClient, app: FastAPI) -> None:
    await http.post("/_sandbox/miner/credits", json={"balance": 4})
    refused = await http.post("/miner/requests/create", json={"kind": "sentence-execution"})
    assert (refused.status_code, refused.json()) == (403, {"errors": ["INSUFFICIENT_CREDITS"]})
    assert sandbox_state(app).counts.records == {}
    assert sandbox_state(app).retrieved == {}


async def test_a_find_of_nothing_costs_nothing_and_completes(
    http: httpx.AsyncClient, clock: SandboxClock
) -> None:
    created = await http.post(
        "/miner/requests/create", json={"kind": "judgement-bond", "tribunals": [927126]}
    )
    assert created.json()["cost"] == 0
    clock.advance(1)
    state = (await http.get(f"/miner/requests/{created.json()['request_id']}")).json()
    assert (state["status"], state["total_lawsuits"]) == ("completed", 0)
    assert "processed_lawsuits" not in state  # "present when truthy"
    page = await http.get("/miner/responses", params={"request_id": state["request_id"]})
    assert page.json() == {"data": [], "page": 1, "page_size": 10, "total": 0, "total_pages": 0}


def test_progress_follows_the_clock_without_timers() -> None:
    start = SandboxClock.frozen().now()
    record = MinerRecord(1001, "k", "find", {}, 50, start, status="pending")
    assert record.progress(start).status == "pending"
    assert record.progress(start + timedelta(seconds=1.5)).processed == 12
    done = record.progress(start + timedelta(seconds=30))
    assert (done.status, done.processed) == ("completed", 50)
    assert done.updated_at == start + timedelta(seconds=3)


async def test_another_keys_request_is_not_found(http: httpx.AsyncClient) -> None:
    created = await http.post("/miner/requests/create", json={"kind": "sentence-execution"})
    request_id = created.json()["request_id"]
    other = await http.get(f"/miner/requests/{request_id}", headers={"api-key": OTHER})
    assert (other.status_code, other.json()) == (404, {"errors": ["REQUEST_NOT_FOUND"]})


@pytest.mark.parametrize("params", [{"page_size": 101}, {"page_size": 0}, {"page": 0}, {}])
async def test_paging_bounds_are_400(http: httpx.AsyncClient, params: dict[str, int]) -> None:
    answer = await http.get(
        "/miner/responses", params={"request_id": 1001, **params} if params else {}
    )
    assert answer.status_code == 400
    assert list(answer.json()) == ["errors"]


async def test_a_key_without_the_miner_is_403(http: httpx.AsyncClient) -> None:
    for method, path in (("GET", "/miner/tribunals"), ("POST", "/miner/requests/create")):
        answer = await http.request(
            method, path, json={"kind": "judgement-bond"}, headers={"api-key": "plain"}
        )
        assert answer.status_code == 403


async def test_the_count_path_asked_with_get_is_405_not_a_bad_id(http: httpx.AsyncClient) -> None:
    # Before: GET /miner/requests/count reached GET /requests/{request_id} and was a 400 for
    # the id "count"; the path serves POST only.
    answer = await http.get("/miner/requests/count")
    assert answer.status_code == 405
    assert "POST" in answer.headers["allow"]
    assert "errors" in answer.json()  # the Miner's shape (D64)
    assert (await http.get("/miner/requests/abc")).status_code == 404

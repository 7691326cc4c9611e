"""Sandbox-only routes (D45): samples, clock, faults, stats."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.support.sandbox_http import sandbox_http

if TYPE_CHECKING:
    from tests.sandbox.conftest import Sandbox, SandboxFactory


async def test_samples_need_no_key(sb: Sandbox) -> None:
    async with sandbox_http(sb.app, api_key=None, base_url="http://t") as anon:
        answer = await anon.get("/_sandbox/samples")
        assert answer.status_code == 200
        assert answer.json()["secret_lawsuit"]["system_name"]
        assert (await anon.get("/_sandbox/stats")).status_code == 401
        assert (await anon.post("/_sandbox/clock", json={})).status_code == 401


async def test_clock_speed_and_advance(sb: Sandbox) -> None:
    answer = await sb.client.get("/_sandbox/clock")
    assert answer.json()["now"] == "2026-11-20T12:00:00.000Z"
    assert answer.json()["speed"] == 0
    answer = await sb.client.post("/_sandbox/clock", json={"advance_seconds": 90})
    assert answer.json()["now"] == "2026-11-20T12:01:30.000Z"
    bad = await sb.client.post("/_sandbox/clock", json={"advance_seconds": -1})
    assert bad.status_code == 400


async def test_fault_statuses_and_bodies(sb: Sandbox) -> None:
    answer = await sb.client.post(
        "/_sandbox/faults", json={"error_rate": 1.0, "error_statuses": [503]}
    )
    assert answer.status_code == 200
    failed = await sb.client.get("/requests/requests")
    assert failed.status_code == 503
    assert failed.json()["error"]["message"] == "SERVICE_UNAVAILABLE"
    # the sandbox routes are never faulted
    assert (await sb.client.get("/_sandbox/stats")).status_code == 200
    await sb.client.post("/_sandbox/faults", json={"error_rate": 0, "truncated_rate": 1.0})
    truncated = await sb.client.get("/requests/requests")
    assert truncated.status_code == 200
    try:
        truncated.json()
        parsed = True
    except ValueError:
        parsed = False
    assert not parsed
    await sb.client.post("/_sandbox/faults", json={"truncated_rate": 0, "malformed_rate": 1.0})
    malformed = await sb.client.get("/requests/requests")
    try:
        malformed.json()
        parsed = True
    except ValueError:
        parsed = False
    assert not parsed
    await sb.client.post("/_sandbox/faults", json={"malformed_rate": 0})
    assert (await sb.client.get("/requests/requests")).json()["page"] == 1
    stats = (await sb.client.get("/_sandbox/stats")).json()
    assert stats["faults"] == {"503": 1, "truncated": 1, "malformed": 1}


async def test_court_down_on_demand(sb: Sandbox, samples: dict[str, Any]) -> None:
    code = samples["moving_lawsuit"]
    lawsuit = sb.state.world.court_view(code, None, sb.clock.now())[0]
    await sb.client.post("/_sandbox/faults", json={"courts_down": [lawsuit["tribunal_acronym"]]})
    record = await sb.create({"search_type": "lawsuit_cnj", "search_key": code, "on_demand": True})
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    assert [r["response_data"]["code"] for r in page["page_data"]] == ["CRAWLER_ERROR"]


async def test_stats_count_calls_per_key_and_route_without_the_key(
    make_sandbox: SandboxFactory,
) -> None:
    sb = await make_sandbox(api_keys=("k3y-secret",), api_key="k3y-secret")
    await sb.client.get("/requests/requests")
    await sb.client.get("/requests/requests")
    stats = (await sb.client.get("/_sandbox/stats")).json()
    (label,) = [k for k in stats["calls"] if stats["calls"][k].get("GET /requests/requests")]
    assert stats["calls"][label]["GET /requests/requests"] == 2
    assert "k3y-secret" not in str(stats)


async def test_added_latency(sb: Sandbox) -> None:
    import time

    await sb.client.post("/_sandbox/faults", json={"latency_ms": 120})
    started = time.perf_counter()
    assert (await sb.client.get("/requests/requests")).status_code == 200
    assert time.perf_counter() - started >= 0.12
    started = time.perf_counter()
    await sb.client.get("/_sandbox/faults")  # sandbox routes are not slowed
    assert time.perf_counter() - started < 0.12

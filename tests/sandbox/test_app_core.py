"""Clock, authentication and features, error shapes, body limit, rate limit, pagination."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import pytest

from lawsuit_tui.domain.pagination import Page
from lawsuit_tui.sandbox.clock import DEFAULT_START, SandboxClock, iso
from lawsuit_tui.sandbox.keys import parse_key_spec
from lawsuit_tui.sandbox.pagination import paginate
from lawsuit_tui.sandbox.ratelimit import parse_rate_limit
from tests.support.error_bodies import error_fields, error_name
from tests.support.sandbox_http import sandbox_http

if TYPE_CHECKING:
    from tests.sandbox.conftest import Sandbox, SandboxFactory

CNJ_SEARCH = {"search_type": "lawsuit_cnj", "search_key": "0781356-02.2022.4.04.4803"}


# ----------------------------------------------------------------------------- clock


def test_frozen_clock_moves_only_when_advanced() -> None:
    clock = SandboxClock.frozen()
    assert clock.now() == DEFAULT_START
    fired: list[str] = []
    clock.call_later(2, lambda at: fired.append(iso(at)))
    clock.call_later(1, lambda at: fired.append(iso(at)))
    assert clock.run_due() == 0
    clock.advance(5)
    assert clock.run_due() == 2
    # in time order, each stamped with the time it was due at, not the time it ran
    assert fired == ["2026-11-20T12:00:01.000Z", "2026-11-20T12:00:02.000Z"]


def test_clock_speed_scales_real_time() -> None:
    clock = SandboxClock(speed=1000.0)
    before = clock.now()
    import time

    deadline = time.monotonic() + 2
    while clock.now() - before < timedelta(seconds=1) and time.monotonic() < deadline:
        pass
    assert clock.now() - before >= timedelta(seconds=1)
    clock.set_speed(0)
    frozen_at = clock.now()
    assert clock.now() == frozen_at
    with pytest.raises(ValueError):
        clock.advance(-1)


async def test_sleep_until_wakes_when_advanced(sb: Sandbox) -> None:
    import asyncio

    target = sb.clock.now() + timedelta(seconds=30)
    waiter = asyncio.create_task(sb.clock.sleep_until(target))
    await asyncio.sleep(0)
    assert not waiter.done()
    await sb.advance(30)
    await asyncio.wait_for(waiter, 1)


# ----------------------------------------------------------------------------- auth


@pytest.mark.parametrize("headers", [{}, {"api-key": "wrong"}, {"api-key": ""}])
async def test_missing_or_wrong_key_is_401_transport_shape(
    sb: Sandbox, headers: dict[str, str]
) -> None:
    async with sandbox_http(sb.app, api_key=None, base_url="http://t") as anon:
        answer = await anon.get("/requests/requests", headers=headers)
    assert answer.status_code == 401
    error = answer.json()["error"]
    assert error["message"] == "UNAUTHORIZED"
    assert error["name"] == "HttpUnauthorizedError"
    # D64: the errors page's USER_NOT_FOUND for a key the service does not know
    missing = not headers.get("api-key")
    assert error["data"] == ("User must be authenticated" if missing else "USER_NOT_FOUND")


async def test_key_without_feature_is_403_named_by_its_code(make_sandbox: SandboxFactory) -> None:
    sb = await make_sandbox(api_keys=("full", "limited:no-miner,no-tracking"), api_key="limited")
    answer = await sb.client.get("/tracking/tracking")
    assert answer.status_code == 403
    # D64: the transport shape, name = the code, message = the status word, data = a sentence
    error = answer.json()["error"]
    assert (error["name"], error["message"]) == ("INSUFFICIENT_PERMISSIONS", "FORBIDDEN")
    assert isinstance(error["data"], str) and "tracking" in error["data"]
    answer = await sb.client.post("/miner/requests/count", json={"kind": "judgement-bond"})
    assert answer.status_code == 403
    # D64: the Miner keeps {errors: [string]} for every error
    assert error_name(answer.json()) == "INSUFFICIENT_PERMISSIONS"
    assert list(answer.json()) == ["errors"]
    assert (await sb.client.get("/requests/requests")).status_code == 200


def test_key_spec_parsing() -> None:
    config = parse_key_spec("abc:no-miner,no-vault")
    assert config.key == "abc"
    assert config.features == frozenset({"lookup", "requests", "tracking"})
    assert "abc" not in repr(config)
    with pytest.raises(ValueError):
        parse_key_spec("abc:no-bananas")
    with pytest.raises(ValueError):
        parse_key_spec(":no-miner")


# ----------------------------------------------------------------------------- errors


async def test_missing_fields_and_wrong_enums_list_every_rule(sb: Sandbox) -> None:
    answer = await sb.client.post(
        "/requests/requests",
        json={"search": {"search_type": "passport", "response_type": "poem"}},
    )
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["message"] == "BAD_REQUEST"
    # D64: data is an array of strings, "<field path>: <message>", one per failed rule
    assert all(isinstance(item, str) for item in error["data"])
    fields = set(error_fields(answer.json()))
    assert {"search.search_type", "search.search_key", "search.response_type"} <= fields
    assert len(error["data"]) == len(error_fields(answer.json()))


async def test_malformed_json_is_400(sb: Sandbox) -> None:
    answer = await sb.client.post(
        "/requests/requests", content=b'{"search": ', headers={"content-type": "application/json"}
    )
    assert answer.status_code == 400
    assert error_fields(answer.json()) == ["body"]


async def test_incompatible_types_are_422(sb: Sandbox) -> None:
    answer = await sb.client.post(
        "/requests/requests",
        json={"search": {**CNJ_SEARCH, "response_type": "lawsuits"}},
    )
    assert answer.status_code == 422
    assert answer.json()["error"]["message"] == "UNPROCESSABLE_ENTITY"
    assert isinstance(answer.json()["error"]["data"], str)  # D64: 422 data is a sentence


async def test_invalid_key_names_the_field(sb: Sandbox) -> None:
    answer = await sb.client.post(
        "/requests/requests", json={"search": {"search_type": "cpf", "search_key": "123"}}
    )
    assert answer.status_code == 422  # D94: the schema takes any string; the key is unusable
    assert error_fields(answer.json()) == ["search.search_key"]


async def test_unknown_route_and_method_use_transport_shape(sb: Sandbox) -> None:
    answer = await sb.client.get("/nowhere")
    assert answer.status_code == 404
    assert answer.json()["error"]["message"] == "NOT_FOUND"
    assert answer.json()["error"]["data"]["path"] == "/nowhere"  # D64: 404 data is an object
    answer = await sb.client.put("/requests/requests")
    assert answer.status_code == 405
    assert answer.json()["error"]["message"] == "METHOD_NOT_ALLOWED"


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        ("/requests/requests", "GET, POST"),
        ("/requests/requests/some-id", "DELETE, GET"),
        ("/tracking/tracking/some-id", "DELETE, GET, PATCH"),
        ("/vault/credentials", "DELETE, GET, POST"),
    ],
)
async def test_a_405_allows_every_method_of_the_path(sb: Sandbox, path: str, allowed: str) -> None:
    # Issue 18: Starlette named the methods of the first route of the path only.
    answer = await sb.client.request("OPTIONS", path)
    assert answer.status_code == 405
    assert answer.headers["Allow"] == allowed


async def test_body_over_one_mib_is_413(sb: Sandbox) -> None:
    body = b'{"search": {"search_type": "cpf", "search_key": "' + b"1" * (1024 * 1024) + b'"}}'
    answer = await sb.client.post(
        "/requests/requests", content=body, headers={"content-type": "application/json"}
    )
    assert answer.status_code == 413
    assert answer.json()["error"]["message"] == "PAYLOAD_TOO_LARGE"


async def test_unknown_top_level_fields_are_ignored(sb: Sandbox) -> None:
    record = await sb.create(CNJ_SEARCH, surprise={"x": 1})
    assert "surprise" not in record


# ----------------------------------------------------------------------------- rate limit


async def test_rate_limit_headers_and_429(make_sandbox: SandboxFactory) -> None:
    sb = await make_sandbox(rate_limit=(3, 60.0))
    remaining = []
    for _ in range(3):
        answer = await sb.client.get("/requests/requests")
        assert answer.status_code == 200
        assert answer.headers["X-RateLimit-Limit"] == "3"
        remaining.append(int(answer.headers["X-RateLimit-Remaining"]))
        assert int(answer.headers["X-RateLimit-Reset"]) > 1_700_000_000
    assert remaining == [2, 1, 0]
    answer = await sb.client.get("/tracking/tracking")  # shared by the limited routes
    assert answer.status_code == 429
    # D64: the rate-limits page's body, word for word
    assert answer.json() == {
        "error": "Too Many Requests",
        "message": "Rate limit exceeded. Try again in a few seconds.",
        "code": 429,
    }
    assert answer.headers["Retry-After"] == "60"
    # lookups, vault and count are not counted (D25)
    assert (await sb.client.get("/vault/credentials")).status_code == 200
    # the window slides: after 60 s the oldest calls leave it
    await sb.advance(60)
    assert (await sb.client.get("/requests/requests")).status_code == 200
    stats = (await sb.client.get("/_sandbox/stats")).json()
    assert stats["rate_limited_total"] == 1


def test_parse_rate_limit() -> None:
    assert parse_rate_limit("180/60") == (180, 60.0)
    with pytest.raises(ValueError):
        parse_rate_limit("180")
    with pytest.raises(ValueError):
        parse_rate_limit("0/60")


# ----------------------------------------------------------------------------- pagination


def test_paginate_envelope() -> None:
    items = list(range(45))
    page = paginate(items, 3, 20)
    assert page == {
        "page": 3,
        "page_count": 5,
        "all_pages_count": 3,
        "all_count": 45,
        "page_data": list(range(40, 45)),
    }
    assert paginate(items, 9, 20)["page_data"] == []
    assert paginate([], 1, 20)["all_pages_count"] == 0
    assert Page[int].model_validate(page).is_last


@pytest.mark.parametrize(
    ("path", "params", "field"),
    [
        ("/requests/requests", {"page": 0}, "page"),
        ("/requests/requests", {"page_size": 4}, "page_size"),  # D63: 5..100
        ("/requests/requests", {"page_size": 101}, "page_size"),
        ("/requests/requests", {"page": 11145405362368642285568}, "page"),  # issue 18: was 500
        ("/requests/requests", {"page": 2**31}, "page"),
        ("/requests/responses", {"page_size": 4}, "page_size"),
        ("/requests/responses", {"page_size": 1001}, "page_size"),
        ("/requests/responses", {"page": 2**63}, "page"),
        ("/tracking/tracking", {"page_size": 4}, "page_size"),
        ("/tracking/tracking", {"page": "x"}, "page"),
        ("/requests/requests", {"created_at_gte": "0.5"}, "created_at_gte"),  # issue 18
        ("/requests/responses", {"created_at_gte": "0.5"}, "created_at_gte"),
        ("/requests/requests", {"created_at_lte": "2024-01-02T25:00:00Z"}, "created_at_lte"),
        ("/requests/requests", {"order": "sideways"}, "order"),
        ("/requests/requests", {"order": '{"cost": "asc"}'}, "order"),
    ],
)
async def test_page_bounds_and_encodings_are_400(
    sb: Sandbox, path: str, params: dict[str, object], field: str
) -> None:
    answer = await sb.client.get(path, params=params)
    assert answer.status_code == 400
    assert error_fields(answer.json()) == [field]


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("/requests/requests", "status"),
        ("/requests/responses", "response_type"),
        ("/tracking/tracking", "status"),
        ("/tracking/tracked-item", "tribunal_acronym"),
        ("/lawsuits/transfer-file", "file_type"),
    ],
)
async def test_a_broken_json_array_filter_is_422_naming_it(
    sb: Sandbox, path: str, field: str
) -> None:
    # D76, D94: the documented filter is an array of strings, which "[1, " is; the service
    # cannot read the JSON array it starts, and says which filter.
    answer = await sb.client.get(path, params={field: "[1, "})
    assert answer.status_code == 422
    assert answer.json()["error"]["data"] == f"{field}: not a JSON array"


@pytest.mark.parametrize("size", [5, 100])
async def test_requests_page_size_bounds_are_those_of_requests_json(sb: Sandbox, size: int) -> None:
    answer = await sb.client.get("/requests/requests", params={"page_size": size})
    assert answer.status_code == 200


@pytest.mark.parametrize("missing", ["created_at_gte", "created_at_lte"])
async def test_listing_requests_needs_both_dates(sb: Sandbox, missing: str) -> None:
    # D63: requests.json makes both required.
    params = {"created_at_gte": "2026-01-01", "created_at_lte": "2026-12-31"}
    del params[missing]
    async with sandbox_http(sb.app, base_url="http://t") as plain:
        answer = await plain.get("/requests/requests", params=params)
    assert answer.status_code == 400
    assert error_fields(answer.json()) == [missing]


async def test_listing_defaults_are_those_of_the_oas(sb: Sandbox) -> None:
    answer = await sb.client.get("/requests/requests")
    assert answer.status_code == 200
    assert answer.json()["page"] == 1
    # D75: requests 10 by default; responses (no OAS default) 20.
    for _ in range(12):
        await sb.create(CNJ_SEARCH)
    assert len((await sb.client.get("/requests/requests")).json()["page_data"]) == 10


async def test_the_runner_moves_requests_on_in_real_time(make_sandbox: SandboxFactory) -> None:
    """Without advances or requests, the background runner alone completes a request."""
    import asyncio

    sb = await make_sandbox(
        clock=SandboxClock(DEFAULT_START, speed=50.0)
    )  # 2 s of sandbox time in 40 ms
    record = await sb.create(CNJ_SEARCH)
    state = sb.state
    deadline = asyncio.get_running_loop().time() + 5.0
    while state.requests[record["request_id"]].status != "completed":
        assert asyncio.get_running_loop().time() < deadline, "the runner did not progress"
        await asyncio.sleep(0.01)
    answer = await sb.client.get(f"/requests/requests/{record['request_id']}")
    assert answer.json()["responses_count"] >= 1

"""GET /requests under requests.json's strict reading (D63, D88): every call names a window
and asks at most 100 a page; a long history is listed whole, each request once, against the
strict sandbox and against services that page their own way."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from urllib.parse import parse_qsl

import httpx
import pytest

from lawsuit_tui.api.errors import BadRequest
from lawsuit_tui.api.filters import RequestFilters
from lawsuit_tui.api.pagination import WindowPolicy
from tests.support.client_rig import SandboxRig, make_client
from tests.support.clock import VirtualClock
from tests.support.request_history import (
    HISTORY_FROM,
    LenientRequests,
    history_times,
    seed_history,
)

HISTORY = 1500


class Recording(httpx.AsyncBaseTransport):
    """The sandbox's transport, keeping the query of every GET /requests."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.queries: list[dict[str, str]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "GET" and request.url.path.endswith("/requests/requests"):
            self.queries.append(dict(parse_qsl(request.url.query.decode())))
        return await self.inner.handle_async_request(request)


@pytest.fixture
def seeded(sandbox: SandboxRig) -> Iterator[tuple[SandboxRig, list[str], Recording]]:
    ids = seed_history(sandbox.app.state.sandbox, history_times(HISTORY))
    recording = Recording(sandbox.transport)
    sandbox.api._http._transport = recording
    yield sandbox, ids, recording


def strictly_sent(queries: list[dict[str, str]]) -> None:
    for query in queries:
        assert "created_at_gte" in query and "created_at_lte" in query, query
        assert 5 <= int(query["page_size"]) <= 100, query


async def test_the_whole_history_each_request_once_newest_first(
    seeded: tuple[SandboxRig, list[str], Recording],
) -> None:
    sandbox, ids, recording = seeded
    records = [r async for r in sandbox.api.iter_requests()]
    got = [r.request_id for r in records]
    assert len(got) == HISTORY and set(got) == set(ids)
    created = [str(r.created_at) for r in records]
    assert created == sorted(created, reverse=True)  # newest first
    strictly_sent(recording.queries)
    assert len(recording.queries) == HISTORY // 100  # one window: the whole range


async def test_a_busy_history_is_walked_in_windows_with_small_page_numbers(
    seeded: tuple[SandboxRig, list[str], Recording],
) -> None:
    sandbox, ids, recording = seeded
    policy = WindowPolicy(max_items=250, window=timedelta(days=30))
    seen: list[str] = []
    async for page in sandbox.api.iter_request_pages(policy=policy):
        seen.extend(r.request_id for r in page.page_data)
    assert set(seen) == set(ids)  # nothing lost; a window's edge may repeat one
    assert len(seen) - HISTORY < 20
    strictly_sent(recording.queries)
    assert max(int(q["page"]) for q in recording.queries) <= 3
    windows = {(q["created_at_gte"], q["created_at_lte"]) for q in recording.queries}
    assert len(windows) > 5


async def test_a_lower_bound_starts_the_walk_there(
    seeded: tuple[SandboxRig, list[str], Recording],
) -> None:
    sandbox, ids, _recording = seeded
    since = HISTORY_FROM + timedelta(days=200)
    times = history_times(HISTORY)
    wanted = {i for i, t in zip(ids, times, strict=True) if t >= since}
    got = [
        r.request_id
        async for r in sandbox.api.iter_requests(filters=RequestFilters(created_at_gte=since))
    ]
    assert set(got) == wanted and len(got) == len(wanted)


@pytest.mark.parametrize(
    ("cap", "refuse_above"),
    [(37, None), (1000, None), (100, 50), (20, 10)],
    ids=["caps-at-37", "ignores-page-size", "refuses-above-50", "refuses-above-10"],
)
async def test_a_lenient_service_paging_its_own_way_loses_nothing(
    cap: int, refuse_above: int | None
) -> None:
    service = LenientRequests(history_times(HISTORY), cap=cap, refuse_above=refuse_above)
    clock = VirtualClock()
    async with make_client(clock, httpx.MockTransport(service.handler), rate_calls=10_000) as api:
        got = [r.request_id async for r in api.iter_requests()]
    assert len(got) == HISTORY and len(set(got)) == HISTORY
    if refuse_above is not None:  # D63: retried smaller, never given up
        accepted = [q for q in service.calls if int(q["page_size"]) <= refuse_above]
        assert accepted and all(int(q["page_size"]) == refuse_above for q in accepted)


async def test_a_service_refusing_timestamps_gets_dates() -> None:
    # D63: a 400 naming created_at_* is retried with YYYY-MM-DD bounds.
    times = history_times(300)
    service = LenientRequests(times)
    plain = service.handler

    def dates_only(request: httpx.Request) -> httpx.Response:
        query = dict(parse_qsl(request.url.query.decode()))
        if len(query.get("created_at_gte", "x" * 10)) != 10:
            body = {"error": {"name": "HttpBadRequestError", "data": ["created_at_gte: date"]}}
            return httpx.Response(400, json=body)
        return plain(request)

    async with make_client(VirtualClock(), httpx.MockTransport(dates_only)) as api:
        got = [r.request_id async for r in api.iter_requests()]
    assert len(got) == 300 and len(set(got)) == 300


async def test_a_service_ignoring_the_dates_is_read_once() -> None:
    service = LenientRequests(history_times(600))

    def no_dates(request: httpx.Request) -> httpx.Response:
        params = [(k, v) for k, v in request.url.params.multi_items() if "created_at" not in k]
        return service.handler(httpx.Request("GET", request.url.copy_with(params=params)))

    policy = WindowPolicy(max_items=100)
    calls: list[Any] = []
    async with make_client(VirtualClock(), httpx.MockTransport(no_dates)) as api:
        api.on_call(lambda route, status: calls.append(route))
        got = [
            r.request_id async for p in api.iter_request_pages(policy=policy) for r in p.page_data
        ]
    assert len(set(got)) == 600
    assert len(calls) < 40  # a probe, one narrower try, then the pages once


async def test_other_refusals_are_not_retried_forever() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        body = {"error": {"name": "HttpBadRequestError", "data": ["status: unknown value"]}}
        return httpx.Response(400, json=body)

    async with make_client(VirtualClock(), httpx.MockTransport(refuse)) as api:
        with pytest.raises(BadRequest):
            [r async for r in api.iter_requests()]

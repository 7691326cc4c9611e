"""The shared sliding window (no 429 in normal use, fair, corrected by the server) and the
pagination iterators (stop rules, dedupe, a list growing while it is read)."""

from __future__ import annotations

import asyncio
from collections import Counter

import httpx
import pytest

from lawsuit_tui.api.filters import ResponseFilters, TrackingFilters
from lawsuit_tui.api.ratelimit import RateLimiter
from tests.support.client_rig import WindowServer, make_client
from tests.support.clock import VirtualClock
from tests.support.mocked_service import page_answer


async def test_many_tasks_share_the_window_without_a_single_429() -> None:
    clock = VirtualClock()
    server = WindowServer(clock, calls=5, seconds=10.0)
    api = make_client(clock, httpx.MockTransport(server.handler), rate_calls=5, rate_seconds=10.0)
    per_task: Counter[int] = Counter()

    async def worker(n: int) -> None:
        for _ in range(10):
            await api.get_request(f"r-{n}")
            per_task[n] += 1

    start = clock()
    async with api:
        await asyncio.gather(*(worker(n) for n in range(4)))
    assert server.rejected == 0
    assert len(server.times) == 40
    # 40 calls at 5 per 10 s need at least 70 s; the window is used to the full (>= 90%).
    elapsed = clock() - start
    assert 70.0 <= elapsed <= 70.0 / 0.9
    for t in server.times:
        assert sum(1 for u in server.times if t <= u < t + 10.0) <= 5


async def test_waiters_are_served_in_turn() -> None:
    clock = VirtualClock()
    server = WindowServer(clock, calls=3, seconds=5.0)

    async def handler(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(0)  # let the other tasks run while this call is in flight
        return server.handler(request)

    api = make_client(clock, httpx.MockTransport(handler), rate_calls=3, rate_seconds=5.0)
    counts: Counter[int] = Counter()
    spread: list[int] = []

    async def worker(n: int) -> None:
        for _ in range(8):
            await api.get_request(f"r-{n}")
            counts[n] += 1
            spread.append(max(counts[k] for k in range(3)) - min(counts[k] for k in range(3)))

    async with api:
        await asyncio.gather(*(worker(n) for n in range(3)))
    # First come, first served: while all three wait, nobody gets ahead by more than a turn.
    assert max(spread) <= 1
    assert server.rejected == 0


async def test_server_remaining_corrects_the_local_window() -> None:
    clock = VirtualClock()
    server = WindowServer(clock, calls=5, seconds=10.0)
    server.extra_used = 4  # another client already used 4 of the 5 calls
    api = make_client(clock, httpx.MockTransport(server.handler), rate_calls=5, rate_seconds=10.0)
    seen: list[tuple[int, int]] = []
    async with api:
        api.on_rate_change(lambda remaining, limit: seen.append((remaining, limit)))
        await api.get_request("a")
        assert api.rate_remaining == 0
        server.extra_used = 0
        await api.get_request("b")
    assert server.rejected == 0
    assert clock() - 1000.0 >= 10.0  # waited for the phantom calls to leave the window
    assert (0, 5) in seen


async def test_a_slot_that_expires_during_a_call_is_no_phantom() -> None:
    # The service counted both calls when the second arrived (remaining 1 of 3); by the time
    # its answer came, the first had left this process's window. That is not another
    # client's call: no phantom, and the window stays whole.
    clock = VirtualClock(0.0)
    limiter = RateLimiter(3, 10.0, clock=clock, sleep=clock.sleep)
    first = await limiter.acquire()
    limiter.complete(first, remaining=2, limit=3)
    clock.advance(9.0)
    second = await limiter.acquire()
    clock.advance(2.0)  # a long call: the first slot leaves the window meanwhile
    limiter.complete(second, remaining=1, limit=3)
    assert limiter.corrections == 0 and limiter.remaining == 2
    # another client's call is still seen
    third = await limiter.acquire()
    limiter.complete(third, remaining=0, limit=3)
    assert limiter.corrections == 1 and limiter.remaining == 0


async def test_429_blocks_every_caller_for_retry_after() -> None:
    clock = VirtualClock()
    limiter = RateLimiter(10, 60.0, clock=clock, sleep=clock.sleep)
    limiter.block(7.0)
    assert limiter.remaining == 0
    slot = await limiter.acquire()
    assert clock() >= 1007.0
    limiter.complete(slot, remaining=9, limit=10)
    assert limiter.remaining == 9


async def test_a_call_that_never_left_gives_its_slot_back() -> None:
    clock = VirtualClock()
    limiter = RateLimiter(2, 60.0, clock=clock, sleep=clock.sleep)
    slot = await limiter.acquire()
    assert limiter.remaining == 1
    limiter.release(slot)
    assert limiter.remaining == 2


async def test_a_cancelled_call_does_not_keep_its_slot_forever() -> None:
    clock = VirtualClock()
    server = WindowServer(clock, calls=1, seconds=10.0)
    hang = asyncio.Event()
    entered = asyncio.Event()

    async def handler(request: httpx.Request) -> httpx.Response:
        if not hang.is_set():
            hang.set()
            entered.set()
            await asyncio.Event().wait()  # never answers: the caller gives up
        return server.handler(request)

    api = make_client(clock, httpx.MockTransport(handler), rate_calls=1, rate_seconds=10.0)
    async with api:
        first = asyncio.create_task(api.get_request("a"))
        await asyncio.wait_for(entered.wait(), 5)
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        # The slot of the cancelled call leaves the window a window later; it is not
        # lost (in flight for ever, the next call would poll without end).
        await asyncio.wait_for(api.get_request("b"), 5)
    assert clock() - 1000.0 >= 10.0
    assert server.rejected == 0


def test_limiter_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        RateLimiter(0, 60.0)


# --- pagination ----------------------------------------------------------------------------


def response(n: int) -> dict[str, object]:
    return {
        "response_id": f"resp-{n}",
        "request_id": "r-1",
        "response_type": "application_error" if n % 2 else "lawsuit",
        "response_data": (
            {"code": "LAWSUIT_NOT_FOUND", "message": "not found"}
            if n % 2
            else {"code": "0000001-23.2024.8.26.0100", "instance": 1}
        ),
        "created_at": "2026-11-20T12:00:00.000Z",
    }


async def test_iterator_follows_a_growing_list_and_dedupes() -> None:
    clock = VirtualClock()
    items = [response(n) for n in range(12)]
    pages_asked: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params["page"])
        size = int(request.url.params["page_size"])
        pages_asked.append(page)
        assert request.url.params["request_id"] == "r-1"
        if page == 2:
            items.extend(response(n) for n in range(12, 17))  # arrive while reading
        chunk = items[(page - 1) * size : page * size]
        if page == 2:
            chunk = [items[4], *chunk]  # a repeat from the previous page
        total = len(items)
        return page_answer(
            page, chunk, all_pages=-(-total // size), all_count=total, request_status="started"
        )

    async with make_client(clock, httpx.MockTransport(handler)) as api:
        got = [
            r.response_id
            async for r in api.iter_responses(
                page_size=5, filters=ResponseFilters(request_id="r-1")
            )
        ]
    assert got == [f"resp-{n}" for n in range(17)]
    assert pages_asked == [1, 2, 3, 4]


async def test_iterator_stops_on_an_empty_page() -> None:
    clock = VirtualClock()
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params["page"])
        calls.append(page)
        data = [{"tracking_id": f"t-{page}"}] if page == 1 else []
        return page_answer(page, data, all_pages=99, all_count=99)

    async with make_client(clock, httpx.MockTransport(handler)) as api:
        got = [t.tracking_id async for t in api.iter_trackings(page_size=5)]
    assert got == ["t-1"]
    assert calls == [1, 2]


async def test_a_page_emptied_by_filtering_again_does_not_end_the_list() -> None:
    clock = VirtualClock()
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        # A service that ignores the status filter (D23): page 2 holds no paused tracking.
        page = int(request.url.params["page"])
        calls.append(page)
        status = {1: "paused", 2: "updated", 3: "paused"}[page]
        data = [{"tracking_id": f"t-{page}", "status": status}]
        return page_answer(page, data, all_pages=3, all_count=3)

    async with make_client(clock, httpx.MockTransport(handler)) as api:
        got = [
            t.tracking_id
            async for t in api.iter_trackings(page_size=5, filters=TrackingFilters(status="paused"))
        ]
    assert got == ["t-1", "t-3"]
    assert calls == [1, 2, 3]


async def test_application_error_is_a_result_and_filters_apply_again() -> None:
    clock = VirtualClock()

    def handler(request: httpx.Request) -> httpx.Response:
        # A service that ignores the cached filter (D23): the client filters again.
        data = [response(1), {**response(2), "cached": True}]
        return page_answer(1, data, all_pages=1, all_count=2)

    async with make_client(clock, httpx.MockTransport(handler)) as api:
        page = await api.list_responses(filters=ResponseFilters(request_id="r-1", cached=False))
    assert [r.response_id for r in page.page_data] == ["resp-1"]
    error = page.page_data[0].application_error
    assert error is not None and error.code == "LAWSUIT_NOT_FOUND"


async def test_page_bounds_are_checked_before_sending() -> None:
    clock = VirtualClock()

    def handler(request: httpx.Request) -> httpx.Response:  # pragma: no cover - never called
        raise AssertionError("no call expected")

    async with make_client(clock, httpx.MockTransport(handler)) as api:
        with pytest.raises(ValueError, match="page_size"):
            await api.list_responses(page_size=1001)
        with pytest.raises(ValueError, match="page_size"):
            await api.list_trackings(page_size=2)

"""Against a service that does only what the spec shows (no request_status in the responses
page, no cancel route): the services degrade without losing anything."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from lawsuit_tui.config import Settings
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.errors import OperationNotAvailable
from lawsuit_tui.services.requests import FollowPolicy
from lawsuit_tui.services.results import Completed, ResponseArrived, StatusChanged
from tests.support.mocked_service import page_answer

LAWSUIT = {"code": "0000001-23.2024.8.26.0100", "instance": 1, "steps": []}


def response(n: int, cached: bool) -> dict[str, Any]:
    return {
        "response_id": f"resp-{n}",
        "request_id": "req-1",
        "response_type": "lawsuit",
        "response_data": {**LAWSUIT, "name": f"version {n}"},
        "cached": cached,
        "created_at": f"2026-11-20T12:00:0{n}.000Z",
        "future_field": {"kept": True},
    }


class SpecOnlyService:
    """GET /requests/{id} walks pending -> started -> completed; responses appear over time;
    the responses page has no request_status; DELETE is unknown (405)."""

    def __init__(self) -> None:
        self.statuses = ["pending", "started", "started", "completed"]
        self.looks = 0
        self.gets = 0
        self.seen_keys: set[str] = set()

    def handler(self, request: httpx.Request) -> httpx.Response:
        self.seen_keys.add(request.headers.get("api-key", ""))
        path = request.url.path
        if request.method == "DELETE":
            return httpx.Response(405, json={"message": "Method Not Allowed"})
        if path.endswith("/requests/req-1"):
            status = self.statuses[min(self.gets, len(self.statuses) - 1)]
            self.gets += 1
            return httpx.Response(200, json={"request_id": "req-1", "status": status})
        if path.endswith("/responses"):
            self.looks += 1
            items = [response(1, True)] if self.looks >= 2 else []
            if self.gets >= 4:  # after completion was read: the definitive one is there
                items.append(response(2, False))
            return page_answer(1, items, all_pages=1 if items else 0, all_count=len(items))
        return httpx.Response(404, json={"error": {"name": "HttpNotFoundError"}})


@pytest.fixture
async def live(tmp_path: Path) -> Any:
    service = SpecOnlyService()
    settings = Settings(api_key="live-key-0123456789", cache_dir=tmp_path / "cache")
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        await asyncio.sleep(0)

    ctx = await ServiceContext.open(
        settings, transport=httpx.MockTransport(service.handler), sleep=sleep
    )
    try:
        yield ctx, service
    finally:
        await ctx.aclose()


async def test_follow_without_request_status_reads_once_more_at_the_end(live: Any) -> None:
    ctx, service = live
    assert ctx.mode == "live"
    events = [e async for e in ctx.requests.follow("req-1")]
    kinds = [type(e).__name__ for e in events]
    assert kinds[0] == "StatusChanged"
    assert isinstance(events[-1], Completed)
    arrived = [e for e in events if isinstance(e, ResponseArrived)]
    # The definitive response only shows in the read made after completion: not lost.
    assert [e.response.response_id for e in arrived] == ["resp-1", "resp-2"]
    assert arrived[0].provisional and not arrived[1].provisional
    assert arrived[1].replaces == "resp-1"
    assert sum(isinstance(e, StatusChanged) for e in events) == 2  # pending, started
    stored = ctx.store.get_response("resp-2")
    assert stored["future_field"] == {"kept": True}  # unknown fields kept
    assert service.seen_keys == {"live-key-0123456789"}


async def test_cancel_where_the_service_has_no_such_operation(live: Any) -> None:
    ctx, _service = live
    with pytest.raises(OperationNotAvailable):
        await ctx.requests.cancel("req-1")


async def test_follow_reads_past_pages_holding_only_other_requests(tmp_path: Path) -> None:
    # A service that ignores the request_id filter (D23): page 1 holds another request's
    # responses only; the followed request's response is on page 2.
    others = [
        {**response(1, False), "response_id": f"other-{n}", "request_id": "req-0"} for n in range(5)
    ]
    pages = {1: others, 2: [response(2, False)]}

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/requests/req-1"):
            return httpx.Response(200, json={"request_id": "req-1", "status": "completed"})
        page = int(request.url.params["page"])
        items = pages.get(page, [])
        return page_answer(page, items, all_pages=2, all_count=6, request_status="completed")

    settings = Settings(api_key="live-key-0123456789", cache_dir=tmp_path / "cache")

    async def sleep(seconds: float) -> None:
        raise AssertionError("everything is there at the first look")

    ctx = await ServiceContext.open(settings, transport=httpx.MockTransport(handler), sleep=sleep)
    try:
        ctx.requests.policy = FollowPolicy(page_size=5)
        events = [e async for e in ctx.requests.follow("req-1")]
    finally:
        await ctx.aclose()
    arrived = [e.response.response_id for e in events if isinstance(e, ResponseArrived)]
    assert arrived == ["resp-2"]
    assert isinstance(events[-1], Completed)

"""Cancel or delete a request (D62): what the service did, said in one outcome, the request
read again and kept in the cache."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from lawsuit_tui.config import Settings
from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.errors import NotFound
from tests.support.service_rig import Rig

TIME = "2026-01-05T12:00:00.000Z"


class CancelService:
    """DELETE answers ``delete_answer``; GET /requests/req-1 answers ``after`` (None: 404)."""

    def __init__(self, delete_answer: dict[str, Any], after: dict[str, Any] | None) -> None:
        self.delete_answer = delete_answer
        self.after = after
        self.calls: list[str] = []

    def handler(self, request: httpx.Request) -> httpx.Response:
        self.calls.append(f"{request.method} {request.url.path}")
        if request.method == "DELETE":
            return httpx.Response(200, json=self.delete_answer)
        if self.after is None:
            body = {"error": {"name": "REQUEST_NOT_FOUND", "message": "NOT_FOUND", "data": {}}}
            return httpx.Response(404, json=body)
        return httpx.Response(200, json={"request_id": "req-1", **self.after})


@pytest.fixture
async def open_live(tmp_path: Path) -> AsyncIterator[Any]:
    opened: list[ServiceContext] = []

    async def factory(service: CancelService) -> ServiceContext:
        settings = Settings(api_key="live-key-0123456789", cache_dir=tmp_path / "cache")
        ctx = await ServiceContext.open(settings, transport=httpx.MockTransport(service.handler))
        opened.append(ctx)
        return ctx

    yield factory
    for ctx in opened:
        await ctx.aclose()


@pytest.mark.parametrize(
    ("delete_answer", "after", "outcome"),
    [
        ({"success": True, "time": TIME}, {"status": "cancelling"}, "cancelling"),
        ({"success": True, "time": TIME}, {"status": "cancelled"}, "cancelled"),
        ({"success": True, "time": TIME}, {"status": "completed", "deleted_at": TIME}, "deleted"),
        ({"success": True, "time": TIME}, None, "deleted"),  # a service that hides it
        ({"success": True, "time": TIME}, {"status": "started"}, "still_running"),
        ({"success": False, "time": TIME}, {"status": "started"}, "refused"),
        ({"success": True, "time": TIME}, {"status": "completed"}, "unchanged"),
    ],
)
async def test_each_outcome_is_named_after_reading_the_request_again(
    open_live: Any, delete_answer: dict[str, Any], after: dict[str, Any] | None, outcome: str
) -> None:
    service = CancelService(delete_answer, after)
    ctx = await open_live(service)
    result = await ctx.requests.cancel("req-1")
    assert result.outcome == outcome
    assert service.calls == ["DELETE /requests/req-1", "GET /requests/req-1"]
    if after is not None:
        assert result.record is not None
        cached = ctx.requests.cached_record("req-1")
        assert cached is not None and cached.status == after["status"]


async def test_an_older_answer_with_the_record_is_not_read_again(open_live: Any) -> None:
    service = CancelService({"request_id": "req-1", "status": "cancelling"}, {"status": "x"})
    ctx = await open_live(service)
    result = await ctx.requests.cancel("req-1")
    assert result.outcome == "cancelling"
    assert service.calls == ["DELETE /requests/req-1"]


async def test_running_then_finished_against_the_sandbox(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "cache")
    try:
        ctx = await rig.open()
        samples = await rig.samples()
        body = CreateRequestBody(search=SearchBody(search_type="cpf", search_key=samples["cpf"][1]))
        [created] = await ctx.requests.create(body)
        running = await ctx.requests.cancel(created.request_id)
        assert running.outcome in ("cancelling", "cancelled")
        await rig.advance(5)
        finished = await ctx.requests.cancel(created.request_id)
        assert finished.outcome == "deleted"
        assert finished.record is not None and finished.record.deleted_at is not None
        cached = ctx.requests.cached_record(created.request_id)
        assert cached is not None and cached.deleted_at is not None
        with pytest.raises(NotFound):
            await ctx.requests.cancel("00000000-0000-0000-0000-000000000000")
    finally:
        await rig.aclose()

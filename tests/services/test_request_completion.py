"""Completion in both forms (D69): the ``request_completed`` event, and a ``response_created``
carrying ``application_info`` ``{code: 600, message: REQUEST_COMPLETED}``, through webhooks,
through polling (the follow loop, the responses refresh, the sync) and from the sandbox's
``legacy_completion`` fault."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from lawsuit_tui.config import Settings
from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.domain.completion import is_completion_notice
from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.requests import FollowPolicy
from lawsuit_tui.services.results import Completed, ResponseArrived
from lawsuit_tui.services.webhooks import WebhookIngestor
from lawsuit_tui.store import Store
from tests.support.service_rig import Rig
from tests.support.webhook_data import completion_notice, lawsuit, response_created


@pytest.mark.parametrize(
    ("response_type", "data", "notice"),
    [
        ("application_info", {"code": 600, "message": "REQUEST_COMPLETED"}, True),
        ("application_info", {"code": "600"}, True),
        ("APPLICATION_INFO", {"message": "request_completed"}, True),
        ("application_info", {"code": 601, "message": "SOMETHING_ELSE"}, False),
        ("application_error", {"code": 600, "message": "REQUEST_COMPLETED"}, False),
        ("application_info", {"code": True}, False),
        ("application_info", None, False),
    ],
)
def test_what_is_a_completion_notice(response_type: str, data: Any, notice: bool) -> None:
    assert is_completion_notice(response_type, data) is notice
    record = ResponseRecord(response_id="r", response_type=response_type, response_data=data)
    assert record.is_completion_notice is notice


# -- webhooks --------------------------------------------------------------------------------


def test_a_delivered_notice_completes_the_cached_request(tmp_path: Path) -> None:
    # Before D69 the notice was stored as one more response and the request stayed pending.
    with Store.open(tmp_path / "c") as store:
        ingestor = WebhookIngestor(store)
        store.upsert_requests([{"request_id": "req-1", "status": "started", "cost": 0.5}])
        ingestor.ingest(response_created("req-1", cached=False))
        envelope = completion_notice("req-1")
        summary = ingestor.ingest(envelope)
        assert (summary.kind, summary.status, summary.new) == ("request", "completed", True)
        record = store.get_request("req-1")
        assert record is not None
        assert record["status"] == "completed" and record["cost"] == 0.5  # merged, not replaced
        assert record["completed_at"] == envelope["payload"]["created_at"]
        assert store.count_responses_of("req-1") == 1  # the notice is no result
        assert not ingestor.ingest(envelope).new  # a redelivery changes nothing


def test_a_notice_for_a_request_the_cache_never_saw_is_kept(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c") as store:
        WebhookIngestor(store).ingest(completion_notice("req-9", code="600"))
        record = store.get_request("req-9")
        assert record is not None and record["status"] == "completed"


# -- polling ---------------------------------------------------------------------------------


class NoticeService:
    """A service whose request stays ``started`` on GET /requests/{id} while the responses
    list ends with the completion notice (D69): only the notice says it is over."""

    def __init__(self) -> None:
        lawsuit_response = response_created("req-1", cached=False)["payload"]
        lawsuit_response["response_data"] = lawsuit()
        self.responses = [lawsuit_response, completion_notice("req-1")["payload"]]

    def handler(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path.endswith("/requests/req-1"):
            body = {
                "request_id": "req-1",
                "status": "started",
                "updated_at": "2026-11-20T12:00:01Z",
            }
            return httpx.Response(200, json=body)
        if path.endswith("/responses"):
            items = self.responses
            envelope = {"page": 1, "page_count": len(items), "all_pages_count": 1}
            return httpx.Response(
                200, json={**envelope, "all_count": len(items), "page_data": items}
            )
        empty = {"page": 1, "page_count": 0, "all_pages_count": 0, "all_count": 0}
        return httpx.Response(200, json={**empty, "page_data": []})


@pytest.fixture
async def live(tmp_path: Path) -> AsyncIterator[ServiceContext]:
    settings = Settings(api_key="live-key-0123456789", cache_dir=tmp_path / "cache")

    async def no_wait(seconds: float) -> None:
        del seconds

    ctx = await ServiceContext.open(
        settings,
        transport=httpx.MockTransport(NoticeService().handler),
        sleep=no_wait,
        follow_policy=FollowPolicy(base=0.01, ceiling=0.01),
    )
    try:
        yield ctx
    finally:
        await ctx.aclose()


async def test_the_follow_loop_ends_on_the_notice(live: ServiceContext) -> None:
    events = [e async for e in live.requests.follow("req-1")]
    assert isinstance(events[-1], Completed)
    assert events[-1].record.status == "completed"
    arrived = [e for e in events if isinstance(e, ResponseArrived)]
    assert [e.response.response_type for e in arrived] == ["lawsuit"]  # the notice is no result
    cached = live.requests.cached_record("req-1")
    assert cached is not None and cached.status == "completed"


async def test_refreshing_responses_completes_and_leaves_the_notice_out(
    live: ServiceContext,
) -> None:
    found = await live.requests.refresh_responses("req-1")
    assert [r.response_type for r in found] == ["lawsuit"]
    assert [r.response_type for r in live.requests.cached_responses("req-1")] == ["lawsuit"]
    cached = live.requests.cached_record("req-1")
    assert cached is not None and cached.status == "completed"


async def test_the_sync_completes_and_leaves_the_notice_out(live: ServiceContext) -> None:
    report = await live.sync.sync()
    assert report.responses_new == 1
    cached = live.requests.cached_record("req-1")
    assert cached is not None and cached.status == "completed"


# -- the sandbox's legacy form ---------------------------------------------------------------


async def test_the_sandbox_fault_sends_the_legacy_form(rig: Rig) -> None:
    ctx = await rig.open()
    await rig.advance(0)
    async with httpx.AsyncClient(transport=rig.transport, base_url="http://s") as raw:
        answer = await raw.post(
            "/_sandbox/faults", json={"legacy_completion": True}, headers={"api-key": "sandbox"}
        )
        assert answer.json()["legacy_completion"] is True
    samples = await rig.samples()
    body = CreateRequestBody(
        search=SearchBody(search_type="lawsuit_cnj", search_key=samples["moving_lawsuit"])
    )
    [record] = await ctx.requests.create(body)
    events = [e async for e in ctx.requests.follow(record.request_id)]
    assert isinstance(events[-1], Completed)
    kinds = [e.response.response_type for e in events if isinstance(e, ResponseArrived)]
    assert "application_info" not in kinds and kinds
    held = [r for r in rig.held_responses() if r["request_id"] == record.request_id]
    notices = [r for r in held if r["response_type"] == "application_info"]
    assert [n["response_data"] for n in notices] == [{"code": 600, "message": "REQUEST_COMPLETED"}]
    assert int(rig.state.requests[record.request_id].record["responses_count"]) == len(held) - 1

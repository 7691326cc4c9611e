"""The client's ``GET /responses/tracking/{origin_id}`` (D77), against the sandbox and a mock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx

from lawsuit_tui.domain.bodies import TrackingCreateBody
from lawsuit_tui.domain.responses import ResponseRecord
from tests.support.client_rig import ROOT, SandboxRig, make_client
from tests.support.clock import VirtualClock
from tests.support.mocked_service import page_answer

DAY = 86400.0
SINCE = datetime(2026, 1, 1, tzinfo=UTC)
UNTIL = datetime(2028, 1, 1, tzinfo=UTC)


async def _tracking_that_moved(sandbox: SandboxRig) -> str:
    samples = await sandbox.samples()
    body = TrackingCreateBody.model_validate(
        {"search": {"search_type": "lawsuit_cnj", "search_key": samples["moving_lawsuit"]}}
    )
    tracking = await sandbox.api.create_tracking(body)
    for _day in range(3):
        await sandbox.advance(DAY + 5)
    return tracking.tracking_id


async def test_typed_and_raw_pages_of_a_tracking(sandbox: SandboxRig) -> None:
    tracking_id = await _tracking_that_moved(sandbox)
    page = await sandbox.api.list_tracking_responses(tracking_id, since=SINCE, until=UNTIL)
    assert page.request_status == "completed"
    assert len(page.page_data) == 1
    record = page.page_data[0]
    assert isinstance(record, ResponseRecord)
    assert record.origin_id == tracking_id
    assert record.lawsuit is not None
    raw = await sandbox.api.list_tracking_responses_raw(tracking_id, since=SINCE, until=UNTIL)
    assert [r["response_id"] for r in raw.page_data] == [record.response_id]
    assert raw.request_status == "completed"
    items = [
        r.response_id
        async for r in sandbox.api.iter_tracking_responses(
            tracking_id, since=SINCE, until=UNTIL, page_size=1
        )
    ]
    raw_items = [
        r["response_id"]
        async for r in sandbox.api.iter_tracking_responses_raw(
            tracking_id, since=SINCE, until=UNTIL
        )
    ]
    assert items == raw_items == [record.response_id]


async def test_an_empty_window_gives_nothing(sandbox: SandboxRig) -> None:
    tracking_id = await _tracking_that_moved(sandbox)
    before = SINCE - timedelta(days=30)
    page = await sandbox.api.list_tracking_responses(tracking_id, since=before, until=SINCE)
    assert page.page_data == []


async def test_the_window_is_sent_and_what_is_outside_it_dropped() -> None:
    """The window travels as D2 timestamps, pages are read to the end, and an item of another
    origin or from before the window (a service that ignored the filter) is left out."""
    seen: list[httpx.URL] = []

    def item(response_id: str, origin_id: str, created_at: str) -> dict[str, object]:
        return {
            "response_id": response_id,
            "origin": "tracking",
            "origin_id": origin_id,
            "response_type": "lawsuit",
            "response_data": {"code": "0000001-02.2024.8.26.0100", "instance": 1},
            "created_at": created_at,
        }

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url)
        page = int(request.url.params["page"])
        data = (
            [item("a", "t-1", "2026-06-01T00:00:00.000Z"), item("b", "t-2", "2026-06-01T00:00:00Z")]
            if page == 1
            else [item("c", "t-1", "2025-06-01T00:00:00.000Z"), item("d", "t-1", "2026-07-01")]
        )
        return page_answer(page, data, all_pages=2, all_count=4, request_status="completed")

    client = make_client(VirtualClock(), httpx.MockTransport(handler))
    try:
        found = [
            r["response_id"]
            async for r in client.iter_tracking_responses_raw("t-1", since=SINCE, until=UNTIL)
        ]
    finally:
        await client.aclose()
    assert found == ["a", "d"]
    assert len(seen) == 2
    first = seen[0]
    assert str(first).startswith(f"{ROOT}/requests/responses/tracking/t-1?")
    assert first.params["created_at_gte"] == "2026-01-01T00:00:00.000Z"
    assert first.params["created_at_lte"] == "2028-01-01T00:00:00.000Z"
    assert first.params["page_size"] == "1000"
    assert "order" not in first.params  # D76

"""The responses of a request are read from the cache a page at a time: only the page shown is
validated, what the stored versions say is recalled per page, live responses are appended.
"""

from __future__ import annotations

import uuid
from typing import Any

from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.services.results import ResponseArrived
from lawsuit_tui.ui.messages import RequestFollowEvent
from lawsuit_tui.ui.requests.responses import ResponsesScreen
from tests.support.ui_harness import Harness, lawsuit_data, ready, settle, wait_for

COUNT = 450


CODE_A = "0000001-11.2020.8.26.0100"


CODE_B = "0000002-22.2020.8.26.0100"


def response(request_id: str, n: int, rtype: str, data: dict[str, Any], cached: bool) -> Any:
    return {
        "response_id": f"{request_id[:8]}-{n:05d}",
        "request_id": request_id,
        "response_type": rtype,
        "response_data": data,
        "created_at": f"2026-01-01T{n // 3600:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z",
        "tags": {"cached_response": cached},
    }


def fill(store: Any, request_id: str) -> None:
    """A completed request: a replaced provisional copy of A, the definitive A, a provisional
    copy of B that the request confirmed, then plain person responses."""
    rows = [
        response(request_id, 0, "lawsuit", lawsuit_data(CODE_A, 1), True),
        response(request_id, 1, "lawsuit", lawsuit_data(CODE_A, 3), False),
        response(request_id, 2, "lawsuit", lawsuit_data(CODE_B, 1), True),
    ]
    rows += [
        response(request_id, n, "name", {"name": f"Person {n}"}, False) for n in range(3, COUNT)
    ]
    store.upsert_requests(
        [
            {
                "request_id": request_id,
                "status": "completed",
                "created_at": "2026-01-01T00:00:00Z",
                "completed_at": "2026-01-01T01:00:00Z",
                "responses_count": COUNT,
                "search": {"search_type": "name", "search_key": "Person"},
            }
        ]
    )
    store.upsert_responses(rows)
    store.upsert_lawsuit(lawsuit_data(CODE_B, 1), provisional=False, source=request_id)


async def test_responses_are_read_a_page_at_a_time() -> None:
    harness = Harness()
    request_id = str(uuid.uuid4())
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        context = await harness.app.context()
        fill(context.cache.store, request_id)
        harness.app.open_request(request_id)
        await wait_for(lambda: isinstance(pilot.app.screen, ResponsesScreen), pilot.pause)
        screen = pilot.app.screen
        assert isinstance(screen, ResponsesScreen)
        await wait_for(lambda: len(screen.rows) == COUNT, pilot.pause)
        await settle(pilot)
        assert screen.table.row_count == 200
        assert len(list(screen.rows.loaded())) == 200  # only the first page was read
        first, second, third = screen.rows[0], screen.rows[1], screen.rows[2]
        assert first.provisional and first.replaced_by == second.key
        assert second.change is not None and second.change.new_step_ids == ["s1", "s2"]
        assert second.change.replaced_provisional
        assert third.provisional and third.confirmed and not third.replaced_by

        await pilot.press("ctrl+end")
        await wait_for(lambda: screen.table.page == 2, pilot.pause)
        assert screen.table.row_count == COUNT - 400
        selected = screen.table.selected_item()
        assert selected is not None and selected.number == COUNT
        assert len(list(screen.rows.loaded())) == COUNT - 200  # pages 1 and 3

        # A follow reports the stored ones again (one on a page not read yet): not added.
        again = ResponseRecord.model_validate(
            response(request_id, 300, "name", {"name": "Person 300"}, False)
        )
        screen.post_message(
            RequestFollowEvent(request_id, ResponseArrived(again, False, None, None))
        )
        await settle(pilot)
        assert len(screen.rows) == COUNT

        # A response arriving while followed goes after the stored ones, on the last page.
        live = response(request_id, COUNT, "name", {"name": "Late"}, False)
        record = ResponseRecord.model_validate(live)
        screen.post_message(
            RequestFollowEvent(
                request_id, ResponseArrived(record, provisional=False, replaces=None, change=None)
            )
        )
        await wait_for(lambda: len(screen.rows) == COUNT + 1, pilot.pause)
        await settle(pilot)
        assert screen.rows[COUNT].number == COUNT + 1
        assert screen.table.row_count == COUNT + 1 - 400

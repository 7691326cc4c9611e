"""A request that ends with only the service's stored copy of a lawsuit (the court had
nothing newer) leaves that copy definitive in the cache: it is no longer "provisional"."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.services.cache import Cache
from lawsuit_tui.services.deps import Deps
from lawsuit_tui.services.requests import RequestService
from lawsuit_tui.services.results import Completed, FollowEvent, ResponseArrived
from lawsuit_tui.services.status import ContextStatus, StatusHub
from lawsuit_tui.store import Store

REQUEST = "11111111-1111-4111-8111-111111111111"
CODE = "0000001-23.2020.8.26.0100"


def lawsuit(code: str, steps: int) -> dict[str, Any]:
    return {
        "code": code,
        "instance": 1,
        "steps": [{"step_id": f"s{n}", "content": f"step {n}"} for n in range(steps)],
    }


def response(ident: str, code: str, *, cached: bool, steps: int = 2) -> dict[str, Any]:
    return {
        "response_id": ident,
        "request_id": REQUEST,
        "response_type": "lawsuit",
        "response_data": lawsuit(code, steps),
        "created_at": f"2026-01-01T00:00:0{ident[-1]}Z",
        "tags": {"cached_response": cached},
    }


class FakeApi:
    """One page of responses, then the request completed."""

    def __init__(self, responses: list[dict[str, Any]]) -> None:
        self.responses = responses

    async def list_responses_raw(self, page: int, size: int, *, filters: object) -> Any:
        data = self.responses if page == 1 else []
        return SimpleNamespace(
            request_status="completed",
            page_data=data,
            page_count=len(data),
            page=page,
            all_pages_count=1,
        )

    async def get_request(self, request_id: str) -> RequestRecord:
        return RequestRecord.model_validate(
            {
                "request_id": request_id,
                "status": "completed",
                "created_at": "2026-01-01T00:00:00Z",
                "completed_at": "2026-01-01T00:00:09Z",
            }
        )


async def follow(store: Store, responses: list[dict[str, Any]]) -> list[FollowEvent]:
    async def no_sleep(_seconds: float) -> None:
        return None

    deps = Deps(
        api=FakeApi(responses),  # type: ignore[arg-type]
        cache=Cache(store),
        status=StatusHub(ContextStatus(rate_remaining=100, rate_limit=100)),
        sleep=no_sleep,
    )
    return [event async for event in RequestService(deps).follow(REQUEST)]


async def test_only_the_stored_copy_makes_it_definitive(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c") as store:
        events = await follow(store, [response("r1", CODE, cached=True)])
        assert isinstance(events[-1], Completed)
        assert [e.provisional for e in events if isinstance(e, ResponseArrived)] == [True]
        entry = store.lawsuit_entry(CODE, 1)
        assert entry is not None
        assert not entry.provisional
        assert entry.source == REQUEST
        assert entry.lawsuit["steps"] == lawsuit(CODE, 2)["steps"]
        # Nothing new to highlight: the copy was confirmed, not changed.
        assert entry.changes is not None and not entry.changes.has_news


async def test_a_definitive_answer_is_left_as_it_came(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c") as store:
        await follow(
            store,
            [response("r1", CODE, cached=True), response("r2", CODE, cached=False, steps=3)],
        )
        entry = store.lawsuit_entry(CODE, 1)
        assert entry is not None and not entry.provisional
        assert entry.source == "r2"
        assert entry.changes is not None and entry.changes.new_step_ids == ["s2"]

"""A court that could not be reached (issue 19.4, D92): the stored copy of its lawsuit is not
called current, in the list of responses nor in the cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.services.court_failures import CourtFailure, CourtFailures, court_of_code
from lawsuit_tui.services.request_responses import ResponseLedger, confirm_unreplaced
from lawsuit_tui.services.results import Completed
from tests.support.service_rig import Rig

TJAP = "8298662-61.2013.8.03.0001"
TJSP = "0001234-56.2023.8.26.0100"


def lawsuit(response_id: str, code: str, *, cached: bool = True) -> ResponseRecord:
    return ResponseRecord.model_validate(
        {
            "request_id": "req-1",
            "response_id": response_id,
            "response_type": "lawsuit",
            "response_data": {"code": code, "instance": 1},
            "tags": {"cached_response": cached},
        }
    )


def failure(response_id: str, code: str = "CRAWLER_ERROR", **data: Any) -> ResponseRecord:
    return ResponseRecord.model_validate(
        {
            "request_id": "req-1",
            "response_id": response_id,
            "response_type": "application_error",
            "response_data": {"code": code, "message": code, **data},
        }
    )


@pytest.mark.parametrize(
    ("named", "fails_tjap", "fails_tjsp"),
    [
        ({"tribunal_acronym": "TJAP", "details": "x"}, True, False),
        ({"lawsuit_cnj": TJAP, "details": "x"}, True, False),
        ({"details": "Collection from the court failed: TJAP is down."}, True, False),
        ({"details": "The court is down."}, True, True),  # names none: every court
    ],
)
def test_a_failure_names_its_court_in_any_of_three_ways(
    named: dict[str, Any], fails_tjap: bool, fails_tjsp: bool
) -> None:
    failures = CourtFailures()
    failures.note(failure("e1", **named))
    assert bool(failures.failure_for_code(TJAP)) is fails_tjap
    assert bool(failures.failure_for_code(TJSP)) is fails_tjsp


def test_other_errors_are_no_court_failure() -> None:
    failures = CourtFailures()
    failures.note(failure("e1", "SECRECY_RESTRICTED", details="TJAP"))
    failures.note(lawsuit("r1", TJAP))
    assert not failures
    assert court_of_code(TJAP) == "TJAP" and court_of_code("123") is None


def test_the_list_keeps_the_copy_of_a_court_not_reached_provisional() -> None:
    # Before D92 both rows were "current": "the court had nothing newer" beside TJAP is down.
    ledger = ResponseLedger("req-1")
    tjap = ledger.admit(lawsuit("r1", TJAP), 1)
    tjsp = ledger.admit(lawsuit("r2", TJSP), 2)
    ledger.admit(failure("e1", tribunal_acronym="TJAP", details="TJAP is down."), 3)
    assert tjap is not None and tjsp is not None
    assert confirm_unreplaced([tjap, tjsp], ledger.failures) == [tjap, tjsp]
    assert tjap.unreachable == CourtFailure("TJAP", "CRAWLER_ERROR") and not tjap.confirmed
    assert tjsp.confirmed and tjsp.unreachable is None


def test_a_page_read_after_completion_knows_the_errors_of_later_pages() -> None:
    ledger = ResponseLedger("req-1")
    ledger.note_failures([failure("e9", details="Collection from the court failed: TJAP is down.")])
    [row] = ledger.page_rows([lawsuit("r1", TJAP)], {}, 0, completed=True)
    assert row.unreachable and not row.confirmed


async def test_the_cache_keeps_the_copy_provisional(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "cache")
    try:
        ctx = await rig.open()
        samples = await rig.samples()
        down = samples["court_down_lawsuit"]
        body = CreateRequestBody(search=SearchBody(search_type="lawsuit_cnj", search_key=down))
        [record] = await ctx.requests.create(body)
        events = [e async for e in ctx.requests.follow(record.request_id)]
        assert isinstance(events[-1], Completed)
        held = ctx.requests.cached_responses(record.request_id)
        copies = [r for r in held if r.lawsuit is not None]
        assert copies and all(r.is_cached for r in copies)  # stored copies only...
        assert [str(r.response_type) for r in held][-1] == "application_error"  # TJAP is down
        for copy in copies:
            assert copy.lawsuit is not None
            entry = ctx.cache.lawsuit_entry(copy.lawsuit.code, copy.lawsuit.instance)
            assert entry is not None and entry.provisional  # ...not confirmed by the request
    finally:
        await rig.aclose()

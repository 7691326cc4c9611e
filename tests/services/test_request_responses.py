"""The responses of one request as a list: which provisional copy the court's answer replaced,
which copy the end of the request confirmed, and what a row read back from the cache recalls.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.services.request_responses import (
    ResponseLedger,
    ResponseRow,
    confirm_unreplaced,
    order_key,
    recall,
    subject_code,
    vault_system,
)
from lawsuit_tui.services.requests import replacement_key
from lawsuit_tui.store import LawsuitChange, LawsuitState

CODE = "0001234-56.2023.8.26.0100"
WHEN = datetime(2024, 5, 2, 12, 0, tzinfo=UTC)


def lawsuit_response(
    response_id: str, *, cached: bool, code: str = CODE, minute: int = 0, **extra: Any
) -> ResponseRecord:
    return ResponseRecord.model_validate(
        {
            "request_id": "req-1",
            "response_id": response_id,
            "response_type": "lawsuit",
            "response_data": {"code": code, "instance": 1},
            "created_at": f"2024-05-02T12:{minute:02d}:00Z",
            "tags": {"cached_response": cached},
            **extra,
        }
    )


def error_response(response_id: str, details: Any = None, **extra: Any) -> ResponseRecord:
    return ResponseRecord.model_validate(
        {
            "response_id": response_id,
            "response_type": "application_error",
            "response_data": {"code": "SECRECY_RESTRICTED", "details": details},
            **extra,
        }
    )


def state(*, provisional: bool, source: str, changes: LawsuitChange | None = None) -> LawsuitState:
    return LawsuitState(provisional=provisional, stored_at=WHEN, changes=changes, source=source)


def test_a_definitive_response_replaces_the_provisional_one_about_the_same_lawsuit() -> None:
    ledger = ResponseLedger("req-1")
    copy = ledger.admit(lawsuit_response("r1", cached=True), 1)
    other = ledger.admit(lawsuit_response("r2", cached=True, code="0009999-99.2023.8.26.0100"), 2)
    court = ledger.admit(lawsuit_response("r3", cached=False, minute=1), 3)
    assert copy is not None and other is not None and court is not None
    assert copy.replaced_by == "r3"
    assert other.replaced_by is None  # another lawsuit's copy stays
    assert court.replaced_by is None and not court.provisional
    # one rule for the follow loop and for the list
    assert replacement_key(copy.response) == replacement_key(court.response)


def test_a_response_is_admitted_once_and_never_one_the_cache_already_listed() -> None:
    ledger = ResponseLedger("req-1")
    ledger.restart(lawsuit_response("r2", cached=False, minute=5))
    assert ledger.admit(lawsuit_response("r1", cached=True, minute=3), 1) is None
    assert ledger.admit(lawsuit_response("r2", cached=False, minute=5), 1) is None
    row = ledger.admit(lawsuit_response("r3", cached=False, minute=6), 3)
    assert row is not None and row.number == 3
    assert ledger.admit(lawsuit_response("r3", cached=False, minute=6), 4) is None


def test_the_follow_names_the_copy_a_response_replaces() -> None:
    ledger = ResponseLedger("req-1")
    copy = ledger.admit(lawsuit_response("r1", cached=True), 1)
    assert copy is not None
    ledger.replaced("r1", "r9")
    ledger.replaced("r1", "r10")  # already replaced: the first answer stays
    ledger.replaced(None, "r11")
    assert copy.replaced_by == "r9"


def test_a_page_recalls_what_the_stored_version_says() -> None:
    ledger = ResponseLedger("req-1")
    page = [
        lawsuit_response("r1", cached=True),
        lawsuit_response("r2", cached=False, minute=1),
    ]
    states = {
        (CODE, 1): state(
            provisional=False,
            source="r2",
            changes=LawsuitChange(CODE, 1, new_step_ids=["s2", "s1"], new_attachment_ids=["a1"]),
        )
    }
    rows = ledger.page_rows(page, states, 10, completed=False)
    assert [row.number for row in rows] == [11, 12]
    copy, court = rows
    assert copy.replaced_by == "r2"
    assert court.change is not None
    assert court.change.new_step_ids == ["s1", "s2"]
    assert court.change.new_attachment_ids == ["a1"]
    # a page read again hands out the same rows
    assert ledger.page_rows(page, states, 10, completed=False) == rows
    assert ledger.page_rows(page, states, 10, completed=False)[0] is copy


def test_a_completed_request_confirms_the_copies_nobody_replaced() -> None:
    ledger = ResponseLedger("req-1")
    rows = ledger.page_rows([lawsuit_response("r1", cached=True)], {}, 0, completed=True)
    assert rows[0].confirmed
    loose = ResponseRow(1, lawsuit_response("r5", cached=True))
    replaced = ResponseRow(2, lawsuit_response("r6", cached=True), replaced_by="r7")
    court = ResponseRow(3, lawsuit_response("r7", cached=False))
    assert confirm_unreplaced([loose, replaced, court]) == [loose]
    assert loose.confirmed and not replaced.confirmed and not court.confirmed
    assert confirm_unreplaced([loose]) == []


def test_recall_of_a_provisional_row() -> None:
    confirmed = ResponseRow(1, lawsuit_response("r1", cached=True))
    recall(confirmed, state(provisional=False, source="req-1"), "req-1")
    assert confirmed.confirmed and confirmed.replaced_by is None

    later = ResponseRow(1, lawsuit_response("r1", cached=True))
    recall(later, state(provisional=False, source="r8"), "req-1")
    assert later.replaced_by == "r8"

    still = ResponseRow(1, lawsuit_response("r1", cached=True))
    recall(still, state(provisional=True, source="r1"), "req-1")
    assert still.replaced_by is None and not still.confirmed


def test_recall_of_a_definitive_row_only_from_its_own_version() -> None:
    mine = ResponseRow(1, lawsuit_response("r2", cached=False))
    recall(mine, state(provisional=False, source="r2"), "req-1")
    assert mine.change is not None and mine.change.new_step_ids == []

    newer = ResponseRow(1, lawsuit_response("r2", cached=False))
    recall(newer, state(provisional=False, source="r3"), "req-1")
    assert newer.change is None


def test_order_key_sorts_by_time_then_id() -> None:
    early = lawsuit_response("b", cached=False, minute=1)
    late = lawsuit_response("a", cached=False, minute=2)
    assert order_key(early) < order_key(late)
    assert order_key(early)[1] == "b"


def test_what_a_credential_error_names() -> None:
    named = error_response("e1", {"system_name": "TJSP - ESAJ - 1º grau", "code": CODE})
    assert vault_system(named) == "TJSP - ESAJ - 1º grau"
    assert subject_code(named) == CODE
    tagged = error_response("e2", tags={"system_name": "TRF3 - PJE"})
    assert vault_system(tagged) == "TRF3 - PJE"
    assert subject_code(tagged) is None
    assert vault_system(lawsuit_response("r1", cached=False)) is None

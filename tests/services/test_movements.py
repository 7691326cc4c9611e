"""What a tracking's response becomes in the inbox (D171, D172): the rule, on a real cache."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from lawsuit_tui.domain.inbox import KIND_ERROR, KIND_LAWSUIT, KIND_STEPS, Movement
from lawsuit_tui.services.movements import ingest_tracking_responses
from lawsuit_tui.store import Store
from tests.support.store_data import make_lawsuit

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


@pytest.fixture
def store(tmp_path: Path) -> Any:
    s = Store.open(tmp_path / "cache")
    s.upsert_trackings(
        [
            {
                "tracking_id": "trk-1",
                "status": "updated",
                "created_at": "2025-12-02T12:00:00Z",
                "search": {"search_type": "lawsuit_cnj", "search_key": "0001234-56.2023.8.26.0100"},
                "tags": {"tier": "warm", "labels": ["banco"]},
                "notification_filters": {"step_terms": ["Movimento S4", "sentenca", "nada"]},
            },
            {
                "tracking_id": "trk-doc",
                "status": "updated",
                "created_at": "2025-12-01T00:00:00Z",
                "search": {"search_type": "cpf", "search_key": "12345678909"},
            },
        ]
    )
    yield s
    s.close()


def _response(
    response_id: str,
    lawsuit: dict[str, Any],
    tracking_id: str = "trk-1",
    created_at: str = "2026-11-21T09:00:00.000Z",
) -> dict[str, Any]:
    return {
        "response_id": response_id,
        "request_id": f"run-{response_id}",
        "origin": "tracking",
        "origin_id": tracking_id,
        "response_type": "lawsuit",
        "response_data": lawsuit,
        "created_at": created_at,
    }


def _ingest(store: Store, *responses: dict[str, Any]) -> list[Movement]:
    done = ingest_tracking_responses(store, responses, source="poll", now=NOW)
    return [Movement.of(r) for r in store.inbox.records(done.movements)]


def test_a_first_version_brings_the_steps_since_the_tracking_began(store: Store) -> None:
    # steps s1..s5 are dated 2025-12-01..05; the tracking began on 2025-12-02 at noon
    lawsuit = make_lawsuit(steps=["s1", "s2", "s3", "s4", "s5"])
    [movement] = _ingest(store, _response("r1", lawsuit))
    assert movement.kind == KIND_STEPS
    assert movement.step_ids == ["s5", "s4", "s3"]  # newest first
    assert movement.tier == "warm" and movement.court == "TJSP"
    assert movement.name == "MARIA DA SILVA"
    assert movement.terms == ("Movimento S4",)  # as the tracking spells it; "nada" matched nothing
    assert movement.extra["labels"] == ["banco"]


def test_later_steps_are_those_the_cached_lawsuit_lacked(store: Store) -> None:
    _ingest(store, _response("r1", make_lawsuit(steps=["s1", "s2", "s3"])))
    later = make_lawsuit(steps=["s1", "s2", "s3", "s4", "s5"])
    [movement] = _ingest(store, _response("r2", later, created_at="2026-11-22T09:00:00Z"))
    assert movement.step_ids == ["s5", "s4"]


def test_an_older_response_than_the_last_movement_adds_none(store: Store) -> None:
    """D77 gives a lawsuit's latest response: one older than a movement held (a webhook
    redelivered late) has its steps in that movement already (D171)."""
    _ingest(store, _response("r2", make_lawsuit(steps=["s1", "s2", "s3"])))
    older = _response("r1", make_lawsuit(steps=["s1", "s2"]), created_at="2026-11-20T09:00:00Z")
    assert _ingest(store, older) == []
    assert store.get_response("r1") is not None  # kept as a response all the same


def test_steps_a_lookup_stored_first_are_still_the_movements(store: Store) -> None:
    """The cache already holds this version (a lookup this morning): the steps after the
    tracking's previous movement of the lawsuit are the news."""
    _ingest(store, _response("r1", make_lawsuit(steps=["s1", "s2", "s3"])))
    lawsuit = make_lawsuit(steps=["s1", "s2", "s3", "s4"], updated_at="2026-01-02T10:00:00Z")
    store.upsert_lawsuit(lawsuit, provisional=False)
    [movement] = _ingest(store, _response("r2", lawsuit, created_at="2026-11-22T09:00:00Z"))
    assert movement.step_ids == ["s4"]


def test_errors_and_new_lawsuits_and_what_is_not_a_movement(store: Store) -> None:
    error = {
        "response_id": "e1",
        "origin": "tracking",
        "origin_id": "trk-1",
        "response_type": "application_error",
        "response_data": {"code": "CRAWLER_ERROR", "message": "court down"},
    }
    found = _ingest(
        store,
        error,
        _response("d1", make_lawsuit(code="0000002-00.2026.8.26.0100"), tracking_id="trk-doc"),
        {**_response("x1", make_lawsuit()), "response_type": "summary"},
        {**_response("a1", make_lawsuit()), "origin": "api"},
    )
    kinds = {m.movement_id: m.kind for m in found}
    assert kinds == {"e1": KIND_ERROR, "d1": KIND_LAWSUIT}
    assert next(m for m in found if m.kind == KIND_ERROR).error_code == "CRAWLER_ERROR"
    assert store.get_response("x1") is not None  # stored as a response all the same

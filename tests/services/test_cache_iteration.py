"""Store.iter_responses / iter_lawsuits and responses stored with their meta in one batch."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from lawsuit_tui.store import Store


def response(rid: str, request_id: str, created: str, code: str | None = None) -> dict[str, Any]:
    record: dict[str, Any] = {
        "response_id": rid,
        "request_id": request_id,
        "created_at": created,
        "response_type": "application_error",
        "response_data": {"code": "LAWSUIT_NOT_FOUND"},
    }
    if code is not None:
        record["response_type"] = "lawsuit"
        record["response_data"] = {"code": code, "instance": 1, "steps": []}
        record["tags"] = {"cached_response": False}
    return record


def test_iter_responses_yields_every_response_oldest_first(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c") as store:
        store.upsert_responses(
            [
                response("r3", "q2", "2026-01-03T00:00:00Z"),
                response("r1", "q1", "2026-01-01T00:00:00Z"),
                response("r2", "", "2026-01-02T00:00:00Z"),  # no request cached for it
            ]
        )
        assert [r["response_id"] for r in store.iter_responses()] == ["r1", "r2", "r3"]
    with Store.open(tmp_path / "c", read_only=True) as reader:
        assert [r["response_id"] for r in reader.iter_responses()] == ["r1", "r2", "r3"]


def test_iter_responses_skips_what_is_removed_while_iterating(tmp_path: Path) -> None:
    now = [datetime(2026, 1, 10, tzinfo=UTC)]
    with Store.open(tmp_path / "c", clock=lambda: now[0]) as store:
        store.upsert_responses(
            [response(f"r{n}", "q", f"2026-01-0{n}T00:00:00Z") for n in range(1, 4)]
        )
        seen = store.iter_responses()
        assert next(seen)["response_id"] == "r1"
        now[0] += timedelta(days=2)
        store.prune(1)
        store.upsert_responses([response("r9", "q", "2026-01-09T00:00:00Z")])
        assert list(seen) == []  # the order was fixed up front; the removed ones are skipped


def test_iter_lawsuits_yields_lawsuits_from_every_source(tmp_path: Path) -> None:
    a, b = "0000002-00.2024.8.26.0100", "0000001-00.2024.8.26.0100"
    with Store.open(tmp_path / "c") as store:
        store.upsert_lawsuit({"code": a, "instance": 2, "name": "lookup"}, provisional=True)
        store.upsert_lawsuit({"code": a, "instance": 1, "name": "x"}, provisional=True)
        store.upsert_responses([response("r1", "q", "2026-01-01T00:00:00Z", code=b)])
        found = [(x["code"], x["instance"]) for x in store.iter_lawsuits()]
        assert found == [(b, 1), (a, 1), (a, 2)]
        # The definitive version replaces the provisional one.
        store.upsert_lawsuit({"code": a, "instance": 1, "name": "court"}, provisional=False)
        names = {(x["code"], x["instance"]): x.get("name") for x in store.iter_lawsuits()}
        assert names[(a, 1)] == "court"


def test_responses_and_meta_are_one_durable_batch(tmp_path: Path) -> None:
    path = tmp_path / "c"
    store = Store.open(path)
    store.upsert_responses(
        [response("r1", "q", "2026-01-01T00:00:00Z")], meta={"sync": {"next_page": 2}}
    )
    assert store.get_meta("sync") == {"next_page": 2}
    [segment] = list((path / "journal").iterdir())
    journal = segment.read_bytes()
    assert journal.count(b"\n") == 1  # one line: one batch, all or nothing
    store.upsert_responses([], meta={"sync": None})
    assert store.get_meta("sync") is None
    store.close()
    with Store.open(path, read_only=True) as reader:
        assert reader.get_response("r1") is not None and reader.get_meta("sync") is None

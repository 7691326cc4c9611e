"""Webhook deliveries: dedupe by callback_id, atomic ingestion, quarantine."""

from __future__ import annotations

from pathlib import Path

from lawsuit_tui.store import Store
from tests.support.store_data import make_lawsuit, make_response


def envelope(callback_id: str) -> dict[str, object]:
    return {
        "callback_id": callback_id,
        "event_type": "response_created",
        "reference_type": "request",
        "reference_id": "req-1",
        "user_id": "u1",
        "payload": {"response_id": "r1"},
    }


def test_redelivery_is_recognised_and_changes_nothing(store: Store, cache_dir: Path) -> None:
    assert store.record_delivery(envelope("cb-1")) is True
    before = store.stats()["bytes_journal"]
    assert store.record_delivery(envelope("cb-1")) is False
    assert store.stats()["bytes_journal"] == before
    assert store.is_delivered("cb-1") and not store.is_delivered("cb-2")
    assert store.record_delivery(envelope("cb-2")) is True
    store.close()
    with Store.open(cache_dir) as again:
        assert again.record_delivery(envelope("cb-1")) is False
        assert again.stats()["counts"]["deliveries"] == 2


def test_ingest_delivery_stores_responses_once(store: Store) -> None:
    response = make_response("r1", lawsuit=make_lawsuit(steps=["s1"]), cached=True)
    new, changes = store.ingest_delivery(envelope("cb-9"), [response])
    assert new and len(changes) == 1 and changes[0].provisional
    again = make_response("r1", lawsuit=make_lawsuit(steps=["s1", "s2"]), cached=True)
    assert store.ingest_delivery(envelope("cb-9"), [again]) == (False, [])
    got = store.get_response("r1")
    assert got is not None and len(got["response_data"]["steps"]) == 1


def test_quarantine_keeps_bad_bodies_newest_first(store: Store, clock: object) -> None:
    store.quarantine(b"not json at all \xff", "invalid JSON")
    clock.advance(seconds=1)  # type: ignore[attr-defined]
    store.quarantine(b'{"callback_id": 5}', "callback_id is not a string")
    items = store.list_quarantine()
    assert [i["reason"] for i in items] == ["callback_id is not a string", "invalid JSON"]
    assert items[0]["body"] == '{"callback_id":5}'
    assert items[1]["body"].startswith("not json at all") and items[1]["size"] == 17


def test_a_delivery_kept_in_quarantine_is_one_batch_and_kept_once(store: Store) -> None:
    """An accepted delivery that is not a storable record: its quarantine row and its mark
    are written together (a kill cannot keep one without the other), and only once."""
    envelope = {"callback_id": "cb-odd", "event_type": "lawsuit_archived", "payload": {"x": 1}}
    journal = store._engine._journal
    assert journal is not None
    lines_before = journal.path.read_bytes().count(b"\n") if journal.path.exists() else 0
    new, changes = store.ingest_delivery(envelope, quarantine_reason="unknown event")
    assert (new, changes) == (True, [])
    assert journal.path.read_bytes().count(b"\n") == lines_before + 1  # one journal batch
    kept = store.list_quarantine()
    assert [k["reason"] for k in kept] == ["unknown event"]
    assert store.is_delivered("cb-odd")
    assert store.ingest_delivery(envelope, quarantine_reason="unknown event") == (False, [])
    assert len(store.list_quarantine()) == 1

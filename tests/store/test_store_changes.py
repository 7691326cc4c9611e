"""The change feed: what a committed batch changed, told once it is durable and visible."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from lawsuit_tui.store import CacheError, CacheReadOnly, Change, Store
from lawsuit_tui.store import journal as jr
from lawsuit_tui.store.codec import unpack
from tests.support.clock import FakeClock
from tests.support.store_data import make_lawsuit, make_response

CODE = "0001234-56.2023.8.26.0100"


def test_one_call_per_batch_with_every_record_it_changed(store: Store) -> None:
    batches: list[list[Change]] = []
    store.subscribe(batches.append)

    new, _changes = store.ingest_delivery(
        {"callback_id": "cb-1", "event_type": "response_created"},
        [make_response("r1", "req-1", lawsuit=make_lawsuit(CODE))],
    )

    assert new
    assert len(batches) == 1
    assert [(c.table, c.key) for c in batches[0]] == [
        ("responses", "r1"),
        ("lawsuits", "00012345620238260100#1"),
        ("deliveries", "cb-1"),
    ]
    response = batches[0][0].doc
    assert response is not None and unpack(response["b"])["response_id"] == "r1"


def test_a_listener_chooses_its_tables_and_hears_deletions(store: Store, clock: FakeClock) -> None:
    lawsuits: list[list[Change]] = []
    store.subscribe(lawsuits.append, tables={"lawsuits"})

    store.upsert_requests([{"request_id": "q"}])
    store.set_meta("cursor", 1)
    assert lawsuits == []  # batches without a lawsuit are not told to it

    store.upsert_lawsuit(make_lawsuit(CODE), provisional=False)
    assert [[(c.table, c.key, c.doc is None) for c in b] for b in lawsuits] == [
        [("lawsuits", "00012345620238260100#1", False)]
    ]

    clock.advance(days=10)
    assert store.prune(5) == 2
    assert [(c.table, c.key, c.doc) for c in lawsuits[-1]] == [
        ("lawsuits", "00012345620238260100#1", None)
    ]


def test_the_batch_is_durable_and_visible_when_it_is_told(store: Store, cache_dir: Path) -> None:
    seen: dict[str, object] = {}

    def listener(changes: list[Change]) -> None:
        segments = jr.list_segments(cache_dir / "journal")
        seen["journal"] = sum(len(jr.read_segment(p).batches) for _n, p in segments)
        seen["lawsuit"] = store.get_lawsuit(CODE)
        seen["thread"] = threading.current_thread()

    store.subscribe(listener)
    store.upsert_lawsuit(make_lawsuit(CODE), provisional=True, source="lookup")
    assert seen["journal"] == 1
    assert seen["lawsuit"] == make_lawsuit(CODE)
    assert seen["thread"] is threading.current_thread()


def test_nothing_is_told_of_a_write_that_did_not_happen(cache_dir: Path) -> None:
    with Store.open(cache_dir) as store:
        store.upsert_requests([{"request_id": "q"}])
    batches: list[list[Change]] = []
    with Store.open(cache_dir, read_only=True) as reader:
        reader.subscribe(batches.append)
        with pytest.raises(CacheReadOnly):
            reader.upsert_requests([{"request_id": "r"}])
    with Store.open(cache_dir) as store:
        store.subscribe(batches.append)
        store.upsert_responses([make_response("same", "req-1")])
        store.upsert_responses([make_response("same", "req-1")])  # identical: nothing written
        assert len(batches) == 1
        store.set_meta("never-set", None)  # deleting what is not there: nothing written
        assert len(batches) == 1


def test_unsubscribe_stops_the_calls_and_others_keep_theirs(store: Store) -> None:
    first: list[list[Change]] = []
    second: list[list[Change]] = []
    stop_first = store.subscribe(first.append)
    store.subscribe(second.append, tables=["requests"])
    store.upsert_requests([{"request_id": "a"}])
    stop_first()
    store.upsert_requests([{"request_id": "b"}])
    assert [[c.key for c in b] for b in first] == [["a"]]
    assert [[c.key for c in b] for b in second] == [["a"], ["b"]]


def test_what_a_listener_raises_reaches_the_writer_and_the_batch_stays(
    store: Store, cache_dir: Path, clock: FakeClock
) -> None:
    def broken(_changes: list[Change]) -> None:
        raise CacheError("the derived index is stale")

    stop = store.subscribe(broken)
    with pytest.raises(CacheError, match="stale"):
        store.upsert_requests([{"request_id": "kept"}])
    stop()
    assert store.get_request("kept") == {"request_id": "kept"}
    store.upsert_requests([{"request_id": "after"}])  # the writer is not left locked
    store.close()
    with Store.open(cache_dir, clock=clock, read_only=True) as again:
        assert again.get_request("kept") == {"request_id": "kept"}

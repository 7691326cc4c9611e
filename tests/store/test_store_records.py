"""Requests, responses, lawsuits (provisional vs definitive, change sets), indexes, reopen."""

from __future__ import annotations

from pathlib import Path

import pytest

from lawsuit_tui.store import CacheReadOnly, Store
from tests.support.clock import FakeClock
from tests.support.store_data import abandon, make_lawsuit, make_response

CODE = "0001234-56.2023.8.26.0100"


def test_requests_newest_first_with_status_filter(store: Store) -> None:
    store.upsert_requests(
        [
            {"request_id": "a", "status": "pending", "created_at": "2026-01-01T00:00:00Z"},
            {"request_id": "b", "status": "completed", "created_at": "2026-01-03T00:00:00Z"},
            {"request_id": "c", "status": "pending", "created_at": "2026-01-02T00:00:00Z"},
        ]
    )
    assert [r["request_id"] for r in store.list_requests()] == ["b", "c", "a"]
    assert [r["request_id"] for r in store.list_requests(status="pending")] == ["c", "a"]
    assert [r["request_id"] for r in store.list_requests(limit=1)] == ["b"]
    store.upsert_requests(
        [{"request_id": "a", "status": "completed", "created_at": "2026-01-01T00:00:00Z"}]
    )
    assert store.get_request("a") == {
        "request_id": "a",
        "status": "completed",
        "created_at": "2026-01-01T00:00:00Z",
    }
    assert store.get_request("zzz") is None


def test_responses_of_a_request_newest_first_and_unknown_fields_kept(store: Store) -> None:
    store.upsert_responses(
        [
            make_response("r1", "req-1", created_at="2026-01-01T00:00:00Z"),
            make_response("r2", "req-1", created_at="2026-01-03T00:00:00Z"),
            make_response("r3", "req-2", created_at="2026-01-02T00:00:00Z"),
        ]
    )
    assert [r["response_id"] for r in store.responses_of("req-1")] == ["r2", "r1"]
    assert [r["response_id"] for r in store.responses_of("req-1", limit=1)] == ["r2"]
    assert store.responses_of("nope") == []
    assert store.count_responses() == 3
    got = store.get_response("r3")
    assert got is not None and got["response_data"]["an_unknown_field"] == {"kept": True}
    # What a caller does with a returned dict does not touch the cache.
    got["response_data"]["code"] = "changed"
    assert store.get_response("r3")["response_data"]["code"] == CODE  # type: ignore[index]


def test_provisional_then_definitive_with_change_set(store: Store) -> None:
    cached = make_lawsuit(steps=["s1"], updated_at="2026-01-01T00:00:00Z")
    fresh = make_lawsuit(
        steps=["s1", "s2", "s3"],
        parties=[("MARIA DA SILVA", "123.456.789-09"), ("EMPRESA X LTDA", "11.222.333/0001-81")],
        attachments=["a1"],
        updated_at="2026-01-05T00:00:00Z",
    )
    first = store.upsert_responses([make_response("r1", lawsuit=cached, cached=True)])
    assert len(first) == 1 and first[0].first_version and first[0].provisional
    entry = store.lawsuit_entry(CODE, 1)
    assert entry is not None and entry.provisional and entry.source == "r1"

    (change,) = store.upsert_responses([make_response("r2", lawsuit=fresh, cached=False)])
    assert change.replaced_provisional and not change.first_version and not change.provisional
    assert change.new_step_ids == ["s2", "s3"]
    assert change.new_party_names == ["EMPRESA X LTDA"]
    assert change.new_attachment_ids == ["a1"]
    entry = store.lawsuit_entry(CODE)
    assert entry is not None and not entry.provisional
    assert entry.changes == change
    assert [s["step_id"] for s in entry.lawsuit["steps"]] == ["s1", "s2", "s3"]


def test_definitive_is_never_replaced_by_provisional(store: Store) -> None:
    definitive = make_lawsuit(steps=["s1", "s2"], updated_at="2026-01-01T00:00:00Z")
    later_cache = make_lawsuit(steps=["s1", "s2", "s9"], updated_at="2026-02-01T00:00:00Z")
    store.upsert_lawsuit(definitive, provisional=False, source="r1")
    change = store.upsert_lawsuit(later_cache, provisional=True, source="r2")
    assert change.ignored
    assert store.upsert_responses([make_response("r2", lawsuit=later_cache, cached=True)]) == []
    entry = store.lawsuit_entry(CODE, 1)
    assert entry is not None and not entry.provisional and entry.source == "r1"
    assert [s["step_id"] for s in entry.lawsuit["steps"]] == ["s1", "s2"]
    # The response itself is still kept as received.
    assert store.get_response("r2") is not None


def test_older_or_identical_definitive_is_ignored_and_newer_one_diffs(store: Store) -> None:
    store.upsert_lawsuit(
        make_lawsuit(steps=["s1", "s2"], updated_at="2026-01-02T00:00:00Z"), provisional=False
    )
    older = store.upsert_lawsuit(
        make_lawsuit(steps=["s1"], updated_at="2026-01-01T00:00:00Z"), provisional=False
    )
    same = store.upsert_lawsuit(
        make_lawsuit(steps=["s1", "s2"], updated_at="2026-01-02T00:00:00Z"), provisional=False
    )
    assert older.ignored and same.ignored
    newer = store.upsert_lawsuit(
        make_lawsuit(steps=["s1", "s2", "s4"], updated_at="2026-01-03T00:00:00Z"), provisional=False
    )
    assert not newer.ignored and newer.new_step_ids == ["s4"] and not newer.replaced_provisional


def test_one_batch_with_cached_and_fresh_versions(store: Store) -> None:
    changes = store.upsert_responses(
        [
            make_response("r1", lawsuit=make_lawsuit(steps=["s1"]), cached=True),
            make_response("r2", lawsuit=make_lawsuit(steps=["s1", "s2"]), cached=False),
        ]
    )
    assert [c.provisional for c in changes] == [True, False]
    assert changes[1].replaced_provisional and changes[1].new_step_ids == ["s2"]


def test_lookup_by_formatted_or_bare_code_and_instances(store: Store) -> None:
    store.upsert_lawsuit(
        make_lawsuit(instance=1, updated_at="2026-01-01T00:00:00Z"), provisional=False
    )
    store.upsert_lawsuit(
        make_lawsuit(instance=2, updated_at="2026-01-09T00:00:00Z"), provisional=False
    )
    assert store.get_lawsuit("00012345620238260100", 1)["instance"] == 1  # type: ignore[index]
    assert store.get_lawsuit(CODE, 2)["instance"] == 2  # type: ignore[index]
    # Without an instance: the most recently active one.
    assert store.get_lawsuit(CODE)["instance"] == 2  # type: ignore[index]
    assert store.get_lawsuit("9999999-99.2099.8.26.0100") is None
    assert store.lawsuit_entry("9999999-99.2099.8.26.0100") is None


def test_lawsuits_of_document_and_search(store: Store) -> None:
    a = make_lawsuit(
        "1111111-11.2024.8.26.0001",
        parties=[("JOÃO DAS NEVES", "111.444.777-35")],
        updated_at="2026-01-01T00:00:00Z",
    )
    b = make_lawsuit(
        "2222222-22.2024.8.26.0001",
        parties=[("JOÃO DAS NEVES", "111.444.777-35")],
        updated_at="2026-01-05T00:00:00Z",
    )
    c = make_lawsuit(
        "3333333-33.2024.8.26.0001",
        parties=[("OUTRA PESSOA", "98765432100")],
        lawyer_oab="999999RJ",
    )
    for lawsuit in (a, b, c):
        store.upsert_lawsuit(lawsuit, provisional=False)
    codes = [x["code"] for x in store.lawsuits_of_document("11144477735")]
    assert codes == ["2222222-22.2024.8.26.0001", "1111111-11.2024.8.26.0001"]
    assert [x["code"] for x in store.lawsuits_of_document("111.444.777-35")] == codes
    assert [x["code"] for x in store.lawsuits_of_document("999999RJ")] == [
        "3333333-33.2024.8.26.0001"
    ]
    assert store.lawsuits_of_document("00000000000") == []
    assert [x["code"] for x in store.search_lawsuits("joao neves")] == codes
    assert [x["code"] for x in store.search_lawsuits("33333333320248260001")] == [
        "3333333-33.2024.8.26.0001"
    ]
    assert len(store.search_lawsuits("joão", limit=1)) == 1
    assert store.search_lawsuits("   ") == []


def test_trackings_counts_vault_recent_and_meta(store: Store, clock: FakeClock) -> None:
    store.upsert_trackings(
        [
            {"tracking_id": "t1", "status": "paused", "created_at": "2026-01-01T00:00:00Z"},
            {"tracking_id": "t2", "status": "updated", "created_at": "2026-01-02T00:00:00Z"},
        ]
    )
    assert [t["tracking_id"] for t in store.list_trackings()] == ["t2", "t1"]
    assert [t["tracking_id"] for t in store.list_trackings("paused")] == ["t1"]
    assert store.get_tracking("t2")["status"] == "updated"  # type: ignore[index]

    store.add_count_request({"request_id": 7, "total_lawsuits": 10, "status": "pending"})
    clock.advance(minutes=1)
    store.add_count_request({"request_id": 8, "total_lawsuits": 3, "status": "pending"})
    assert [c["request_id"] for c in store.list_count_requests()] == [8, 7]

    rows = [{"name": "TJSP", "customer_key": "k1", "credential_status": "active"}]
    store.save_vault_snapshot("k1", rows)
    assert store.vault_snapshot("k1") == rows and store.vault_snapshot("k2") is None
    assert store.vault_snapshot_at("k1") == clock.now

    for text in ("a", "b", "a", "c"):
        store.add_recent_search(text)
    assert store.recent_searches() == ["c", "a", "b"]
    assert store.recent_searches(limit=2) == ["c", "a"]

    store.set_meta("sync:req-1", {"page": 3})
    assert store.get_meta("sync:req-1") == {"page": 3}
    store.set_meta("sync:req-1", None)
    assert store.get_meta("sync:req-1") is None


def test_everything_survives_reopen(cache_dir: Path, clock: FakeClock) -> None:
    with Store.open(cache_dir, clock=clock) as s:
        s.upsert_requests([{"request_id": "q", "status": "pending", "created_at": "2026-01-01"}])
        s.upsert_responses([make_response("r1", "q", cached=True)])
        s.set_meta("k", [1, 2])
        s.add_recent_search("joao")
    with Store.open(cache_dir, clock=clock) as s:
        assert s.get_request("q") is not None
        assert [r["response_id"] for r in s.responses_of("q")] == ["r1"]
        entry = s.lawsuit_entry(CODE, 1)
        assert entry is not None and entry.provisional and entry.stored_at == clock.now
        assert s.get_meta("k") == [1, 2] and s.recent_searches() == ["joao"]
        assert s.problems == [] and s.verify() == []


def test_reopen_without_close_replays_the_journal(cache_dir: Path) -> None:
    s = Store.open(cache_dir)
    s.upsert_responses([make_response(f"r{i}", "q") for i in range(5)])
    # Simulate an abrupt end: release the lock but never checkpoint.
    abandon(s)
    with Store.open(cache_dir) as again:
        assert again.count_responses() == 5


def test_read_only_store_refuses_writes(store: Store, cache_dir: Path) -> None:
    store.upsert_requests([{"request_id": "q"}])
    with Store.open(cache_dir, read_only=True) as reader:
        assert reader.read_only and reader.get_request("q") == {"request_id": "q"}
        with pytest.raises(CacheReadOnly):
            reader.upsert_requests([{"request_id": "x"}])


def test_records_without_keys_are_rejected(store: Store) -> None:
    with pytest.raises(ValueError):
        store.upsert_requests([{"status": "pending"}])
    with pytest.raises(ValueError):
        store.upsert_responses([{"request_id": "q"}])
    with pytest.raises(ValueError):
        store.upsert_lawsuit({"instance": 1}, provisional=False)

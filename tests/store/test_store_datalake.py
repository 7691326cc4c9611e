"""The datalake answers table (D109): kept with their time, found by document, durable."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from lawsuit_tui.store import Store
from tests.support.clock import FakeClock
from tests.support.store_data import spawn

FETCHED = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def keep(store: Store, kind: str, key: str, document: str, answer: object, hours: int = 0) -> None:
    store.datalake.put(
        kind,
        key,
        document=document,
        query={"search": {"search_key": document}},
        answer=answer,
        fetched_at=FETCHED + timedelta(hours=hours),
    )


def test_an_answer_is_kept_replaced_and_found_by_document(store: Store) -> None:
    keep(store, "count", "a", "529.982.247-25", {"total": 3})
    keep(store, "entity", "b", "52998224725", {"response_data": []}, hours=2)
    keep(store, "count", "c", "11222333000181", {"total": 9})
    kept = store.datalake.get("count", "a")
    assert kept is not None and kept.answer == {"total": 3} and kept.fetched_at == FETCHED
    keep(store, "count", "a", "52998224725", {"total": 4}, hours=5)  # asked again
    assert store.datalake.get("count", "a").answer == {"total": 4}  # type: ignore[union-attr]
    about = store.datalake.of_document("529.982.247-25")  # spelled either way
    assert [(k.kind, k.query_key) for k in about] == [("count", "a"), ("entity", "b")]
    assert [k.query_key for k in store.datalake.of_document("52998224725", "entity")] == ["b"]
    assert store.datalake.fetched_at("count", "a") == FETCHED + timedelta(hours=5)
    assert store.datalake.get("count", "nope") is None and store.datalake.count() == 3


def test_answers_survive_a_reopen_and_a_checkpoint(cache_dir: Path, clock: FakeClock) -> None:
    with Store.open(cache_dir, clock=clock) as store:
        big = {
            "code": "x",
            "steps": [{"step_id": str(i), "content": "y" * 100} for i in range(500)],
        }
        keep(store, "lawsuit", "big", "0000001-02.2024.8.26.0100", big)
        store.checkpoint()  # the body is now held cold, read back from the shard
        assert store.datalake.get("lawsuit", "big").answer == big  # type: ignore[union-attr]
    with Store.open(cache_dir, clock=clock, read_only=True) as reader:
        kept = reader.datalake.get("lawsuit", "big")
        assert kept is not None and len(kept.answer["steps"]) == 500
        assert reader.datalake.of_document("00000010220248260100")[0].query_key == "big"


def test_answers_are_pruned_by_age(store: Store, clock: FakeClock) -> None:
    keep(store, "count", "old", "52998224725", {"total": 1})
    clock.advance(days=40)
    keep(store, "count", "new", "52998224725", {"total": 2})
    assert store.prune(30) >= 1
    assert store.datalake.get("count", "old") is None
    assert store.datalake.get("count", "new") is not None


def test_a_killed_writer_loses_no_acknowledged_answer(cache_dir: Path) -> None:
    child = spawn("datalake", str(cache_dir))
    assert child.stdout is not None
    acknowledged = -1
    while acknowledged < 5:
        line = child.stdout.readline()
        assert line.startswith("ack "), line
        acknowledged = int(line.split()[1])
    child.kill()
    child.wait()
    with Store.open(cache_dir) as store:
        for i in range(acknowledged + 1):
            kept = store.datalake.get("count", f"q{i}")
            assert kept is not None and kept.answer == {"total": i}

"""Packed bodies, the schema 1 -> 2 migration, writes that never hold readers across the disk
flush, batched lawsuit upserts, and paged reads."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import orjson
import pytest

from lawsuit_tui.store import Store
from lawsuit_tui.store import journal as jr
from lawsuit_tui.store.codec import is_packed, pack, unpack
from lawsuit_tui.store.schema import SCHEMA_VERSION, read_schema
from tests.support.clock import FakeClock
from tests.support.store_data import make_lawsuit, make_response

WORD = "inconfundivelmente"


def _big_lawsuit(code: str = "0001234-56.2023.8.26.0100", **kw: Any) -> dict[str, Any]:
    steps = [f"s{n}" for n in range(40)]
    lawsuit = make_lawsuit(code, steps=steps, **kw)
    for step in lawsuit["steps"]:
        step["content"] = f"{WORD} {step['step_id']}"
    return lawsuit


def _shard_bytes(directory: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted((directory / "tables").glob("*.json")))


# --- packed bodies -------------------------------------------------------------------------


def test_codec_round_trip_both_forms() -> None:
    small = orjson.dumps({"a": 1})
    big = orjson.dumps({"text": WORD * 50, "n": list(range(100))})
    assert not is_packed(pack(small)) and unpack(pack(small)) == {"a": 1}
    assert is_packed(pack(big)) and unpack(pack(big)) == orjson.loads(big)
    assert len(pack(big)) < len(big)
    assert unpack(big.decode()) == orjson.loads(big)  # schema 1 text still reads


def test_bodies_are_packed_in_memory_and_on_disk(cache_dir: Path, clock: FakeClock) -> None:
    lawsuit = _big_lawsuit()
    with Store.open(cache_dir, clock=clock) as store:
        store.upsert_responses([make_response("r1", lawsuit=lawsuit)])
        doc = store._engine.get("responses", "r1")
        assert doc is not None and is_packed(doc["b"])
        assert WORD not in doc["b"]
        assert store.get_lawsuit(lawsuit["code"]) == lawsuit
    raw = _shard_bytes(cache_dir)
    assert raw and WORD.encode() not in raw
    with Store.open(cache_dir, clock=clock, read_only=True) as again:
        assert again.get_lawsuit(lawsuit["code"]) == lawsuit
        assert again.responses_of("req-1")[0]["response_data"] == lawsuit
        entry = again.lawsuit_entry(lawsuit["code"])
        assert entry is not None and entry.changes is not None
        assert again.verify() == []


def test_a_schema_1_cache_is_migrated(cache_dir: Path, clock: FakeClock) -> None:
    lawsuit = _big_lawsuit()
    with Store.open(cache_dir, clock=clock) as store:
        store.upsert_responses([make_response("r1", lawsuit=lawsuit)])
    # Turn it back into what schema 1 wrote: bodies as JSON text, change sets as objects.
    for path in (cache_dir / "tables").glob("*.json"):
        data = orjson.loads(path.read_bytes())
        for doc in data["records"].values():
            for field in ("b", "d", "p"):
                if isinstance(doc.get(field), str):
                    doc[field] = orjson.dumps(unpack(doc[field])).decode()
            if isinstance(doc.get("c"), str):
                doc["c"] = unpack(doc["c"])
        path.write_bytes(orjson.dumps(data))
    schema = orjson.loads((cache_dir / "schema.json").read_bytes())
    (cache_dir / "schema.json").write_bytes(orjson.dumps({**schema, "version": 1}))
    assert WORD.encode() in _shard_bytes(cache_dir)
    # A journal line of schema 1 (plain body) replays too.
    later = make_response("r2", lawsuit=_big_lawsuit("0009999-11.2024.8.26.0100"))
    line_doc = {
        "k": "r2",
        "i": {"r": "req-2", "c": later["created_at"], "t": "lawsuit", "at": 1.0},
        "b": orjson.dumps(later).decode(),
    }
    (cache_dir / "journal").mkdir(exist_ok=True)
    (cache_dir / "journal" / jr.segment_name(1)).write_bytes(
        jr.encode([("responses", "r2", line_doc)])
    )

    with Store.open(cache_dir, clock=clock) as store:
        assert read_schema(cache_dir) is not None
        assert read_schema(cache_dir)["version"] == SCHEMA_VERSION  # type: ignore[index]
        assert store.get_lawsuit(lawsuit["code"]) == lawsuit
        assert store.get_response("r2") == later
        entry = store.lawsuit_entry(lawsuit["code"])
        assert entry is not None and entry.changes is not None
    assert WORD.encode() not in _shard_bytes(cache_dir)
    with Store.open(cache_dir, clock=clock, read_only=True) as again:
        assert again.get_response("r2") == later
        assert again.verify() == []


# --- readers and the disk flush --------------------------------------------------------------


def test_readers_do_not_wait_for_a_writers_disk_flush(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.upsert_lawsuit(make_lawsuit("0000001-00.2024.8.26.0100"), provisional=False)
    in_flush = threading.Event()
    release = threading.Event()
    real = jr.os.fdatasync

    def slow_fdatasync(fd: int) -> None:
        in_flush.set()
        assert release.wait(30), "the test never released the flush"
        real(fd)

    monkeypatch.setattr(jr.os, "fdatasync", slow_fdatasync)
    new_code = "0000002-00.2024.8.26.0100"
    writer = threading.Thread(
        target=lambda: store.upsert_lawsuit(make_lawsuit(new_code), provisional=False)
    )
    writer.start()
    try:
        assert in_flush.wait(30)
        answered = threading.Event()
        seen: dict[str, Any] = {}

        def read() -> None:
            seen["old"] = store.get_lawsuit("0000001-00.2024.8.26.0100")
            seen["new"] = store.get_lawsuit(new_code)
            seen["recent"] = store.recent_searches()
            answered.set()

        reader = threading.Thread(target=read)
        reader.start()
        # Bounded wait on a condition: with the lock held across the flush it never comes.
        assert answered.wait(30), "a reader waited for the writer's fdatasync"
        assert seen["old"] is not None
        assert seen["new"] is None  # not durable yet: not visible
        reader.join()
    finally:
        release.set()
        writer.join()
    assert store.get_lawsuit(new_code) is not None


# --- batched lawsuits -----------------------------------------------------------------------


def _journal_lines(directory: Path) -> int:
    return sum(len(jr.read_segment(p).batches) for _n, p in jr.list_segments(directory / "journal"))


def test_upsert_lawsuits_is_one_durable_batch(store: Store, cache_dir: Path) -> None:
    a, b = "0000001-00.2024.8.26.0100", "0000002-00.2024.8.26.0100"
    store.upsert_lawsuit(make_lawsuit(b, steps=("s1",)), provisional=False)
    before = _journal_lines(cache_dir)
    changes = store.upsert_lawsuits(
        [
            (make_lawsuit(a, steps=("s1",)), True, "lookup-1"),
            (make_lawsuit(a, steps=("s1", "s2")), False, "resp-9"),  # replaces it, same batch
            (make_lawsuit(b, steps=("s1",)), True, "lookup-1"),  # definitive held: ignored
        ],
        meta={"lookup:x": {"lawsuits": [a, b]}},
    )
    assert _journal_lines(cache_dir) == before + 1
    assert [c.ignored for c in changes] == [False, False, True]
    assert [c.source for c in changes] == ["lookup-1", "resp-9", "lookup-1"]
    assert changes[1].replaced_provisional and changes[1].new_step_ids == ["s2"]
    entry = store.lawsuit_entry(a)
    assert entry is not None and not entry.provisional
    assert [s["step_id"] for s in entry.lawsuit["steps"]] == ["s1", "s2"]
    assert store.get_meta("lookup:x") == {"lawsuits": [a, b]}
    assert store.upsert_lawsuits([]) == []


def test_upsert_lawsuits_is_all_or_nothing(store: Store) -> None:
    good = make_lawsuit("0000001-00.2024.8.26.0100")
    with pytest.raises(ValueError):
        store.upsert_lawsuits([(good, True, "x"), ({"name": "no code"}, True, "x")])
    assert store.get_lawsuit(good["code"]) is None


# --- pages ----------------------------------------------------------------------------------


def test_responses_of_pages(store: Store) -> None:
    store.upsert_responses(
        make_response(f"r{n:02d}", "req-1", created_at=f"2026-01-10T10:{n:02d}:00Z")
        for n in range(25)
    )
    store.upsert_responses([make_response("other", "req-2")])
    newest = [r["response_id"] for r in store.responses_of("req-1")]
    assert newest == [f"r{n:02d}" for n in reversed(range(25))]
    assert store.count_responses_of("req-1") == 25 and store.count_responses_of("nope") == 0
    for offset, limit in ((0, 10), (10, 10), (20, 10), (24, 5), (25, 5), (30, 1), (3, 0)):
        page = [r["response_id"] for r in store.responses_of("req-1", offset=offset, limit=limit)]
        assert page == newest[offset : offset + limit]
        oldest = store.responses_of("req-1", offset=offset, limit=limit, oldest_first=True)
        assert [r["response_id"] for r in oldest] == newest[::-1][offset : offset + limit]
    tail = store.responses_of("req-1", offset=20)
    assert [r["response_id"] for r in tail] == newest[20:]


def test_list_requests_pages(store: Store) -> None:
    store.upsert_requests(
        {
            "request_id": f"q{n:02d}",
            "created_at": f"2026-01-10T10:{n:02d}:00Z",
            "status": "completed" if n % 3 else "pending",
        }
        for n in range(20)
    )
    every = [r["request_id"] for r in store.list_requests()]
    assert every == [f"q{n:02d}" for n in reversed(range(20))]
    assert store.count_requests() == 20
    for offset, limit in ((0, 7), (7, 7), (14, 7), (19, 3), (20, 3)):
        page = store.list_requests(offset=offset, limit=limit)
        assert [r["request_id"] for r in page] == every[offset : offset + limit]
    pending = [r["request_id"] for r in store.list_requests(status="pending")]
    assert store.count_requests(status="pending") == len(pending) == 7
    page = store.list_requests(status="pending", offset=2, limit=3)
    assert [r["request_id"] for r in page] == pending[2:5]

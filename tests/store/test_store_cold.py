"""Records of the big tables held on disk once checkpointed (store/cold.py).

What a person relies on: whatever the cache holds reads back the same whether it was just
written, checkpointed, or reopened; a read-only reader keeps reading the version it loaded
while the writer rewrites the files; and the memory the store keeps does not carry the
bodies of checkpointed records.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from lawsuit_tui.store import Store
from lawsuit_tui.store.cold import ColdDoc, ShardFile, locate, shard_bytes
from tests.support.clock import FakeClock
from tests.support.store_data import make_lawsuit, make_response

CODES = [f"{n:07d}-{n % 97:02d}.2024.8.26.0100" for n in range(1, 41)]


def _fill(store: Store) -> list[dict[str, Any]]:
    responses = [
        make_response(
            f"resp-{n:03d}",
            request_id=f"req-{n % 3}",
            lawsuit=make_lawsuit(code, steps=[f"a{n}", f"b{n}"]),
            cached=n % 4 == 0,
            created_at=f"2026-01-10T10:{n:02d}:00Z",
        )
        for n, code in enumerate(CODES)
    ]
    store.upsert_responses(responses)
    return responses


def _held(store: Store, table: str) -> list[Any]:
    return [doc for shard in store._engine.memory.shards[table] for doc in shard.values()]


def _everything(store: Store) -> dict[str, Any]:
    """What a user of the store can read, in a comparable form."""
    return {
        "responses": {r: store.get_response(r) for r in (f"resp-{n:03d}" for n in range(40))},
        "pages": [store.responses_of(f"req-{n}", limit=5, offset=2) for n in range(3)],
        "iter": list(store.iter_responses()),
        "lawsuits": [store.get_lawsuit(code) for code in CODES],
        "entries": [
            (e.lawsuit, e.provisional, e.stored_at, e.changes and e.changes.to_json())
            for e in (store.lawsuit_entry(code) for code in CODES)
            if e is not None
        ],
        "search": store.search_lawsuits("maria silva", limit=100),
        "by_document": store.lawsuits_of_document("123.456.789-09"),
        "iter_lawsuits": list(store.iter_lawsuits()),
        "counts": store.stats()["counts"],
        "provisional": store.stats()["provisional_lawsuits"],
    }


def test_checkpointed_records_are_held_cold_and_read_back_the_same(
    store: Store, cache_dir: Path, clock: FakeClock
) -> None:
    _fill(store)
    before = _everything(store)
    assert not any(isinstance(d, ColdDoc) for d in _held(store, "responses"))

    store.checkpoint()

    for table in ("responses", "lawsuits"):
        held = _held(store, table)
        assert held and all(isinstance(d, ColdDoc) for d in held), table
    assert _everything(store) == before
    store.close()

    with Store.open(cache_dir, clock=clock) as again:
        assert all(isinstance(d, ColdDoc) for d in _held(again, "lawsuits"))
        assert _everything(again) == before


def test_writes_over_cold_records_follow_the_same_rules(
    store: Store, cache_dir: Path, clock: FakeClock
) -> None:
    responses = _fill(store)
    store.checkpoint()
    journal = store._engine._journal
    assert journal is not None
    size = journal.size

    # The same response again: nothing to write.
    store.upsert_responses([responses[1]])
    assert journal.size == size

    # A definitive version over a cold provisional one replaces it and says so.
    code = CODES[0]
    assert store.lawsuit_entry(code).provisional  # type: ignore[union-attr]
    newer = make_lawsuit(code, steps=["a0", "b0", "c0"], updated_at="2026-02-01T10:00:00Z")
    change = store.upsert_lawsuit(newer, provisional=False, source="resp-new")
    assert change.replaced_provisional and change.new_step_ids == ["c0"]
    entry = store.lawsuit_entry(code)
    assert entry is not None and not entry.provisional and entry.lawsuit == newer

    # A changed response replaces the cold one, in the indexes too.
    moved = {**responses[2], "request_id": "req-moved"}
    store.upsert_responses([moved])
    assert store.get_response("resp-002") == moved
    assert [r["response_id"] for r in store.responses_of("req-moved")] == ["resp-002"]
    assert "resp-002" not in [r["response_id"] for r in store.responses_of("req-2")]

    store.checkpoint()
    assert store.get_response("resp-002") == moved
    store.close()
    with Store.open(cache_dir, clock=clock, read_only=True) as reader:
        assert reader.get_response("resp-002") == moved
        assert reader.lawsuit_entry(code).lawsuit == newer  # type: ignore[union-attr]


def test_a_reader_keeps_its_version_while_the_writer_rewrites_the_files(
    store: Store, cache_dir: Path
) -> None:
    responses = _fill(store)
    store.checkpoint()
    reader = Store.open(cache_dir, read_only=True)
    try:
        seen = reader.get_response("resp-005")
        assert seen == responses[5]
        assert isinstance(reader._engine.get("responses", "resp-005"), ColdDoc)

        # The writer rewrites every shard (new content before each record): the reader's
        # offsets would point into the wrong text if it read the files by name.
        changed = [
            {**r, "created_at": "2026-03-01T00:00:00Z", "extra": "x" * 300} for r in responses
        ]
        store.upsert_responses(changed)
        store.checkpoint()

        assert reader.get_response("resp-005") == seen
        assert (
            reader.responses_of("req-2", limit=3)
            == [
                r
                for r in sorted(responses, key=lambda r: r["created_at"], reverse=True)
                if r["request_id"] == "req-2"
            ][:3]
        )

        assert reader.refresh()
        assert reader.get_response("resp-005") == changed[5]
    finally:
        reader.close()


def test_a_shard_written_in_another_form_is_read_and_rewritten_in_ours(
    store: Store, cache_dir: Path, clock: FakeClock
) -> None:
    responses = _fill(store)
    store.close()
    # TinyDB's own JSONStorage writes with spaces and indentation: valid, but not the
    # compact form whose offsets the store can compute.
    path = next(
        p for p in sorted((cache_dir / "tables").glob("responses-*.json")) if p.stat().st_size > 20
    )
    data = json.loads(path.read_bytes())
    path.write_text(json.dumps(data, indent=2))
    keys = [doc["k"] for doc in data["records"].values()]

    with Store.open(cache_dir, clock=clock) as writer:
        assert not writer.problems
        index = writer._engine.memory.shard_index("responses", keys[0])
        assert all(not isinstance(writer._engine.get("responses", k), ColdDoc) for k in keys)
        assert all(
            writer.get_response(k) == next(r for r in responses if r["response_id"] == k)
            for k in keys
        )
        writer.checkpoint()
        assert all(isinstance(writer._engine.get("responses", k), ColdDoc) for k in keys)
        assert path.read_bytes().startswith(b'{"records":{"1":{')
        assert ("responses", index) in writer._engine.files.open_files


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc")
def test_replaced_shard_files_are_closed_once_nothing_points_at_them(store: Store) -> None:
    _fill(store)
    store.checkpoint()
    open_before = len(os.listdir("/proc/self/fd"))
    for round_ in range(20):
        store.upsert_responses(
            [
                make_response(f"resp-{n:03d}", created_at=f"2026-02-{round_ + 1:02d}T00:00:00Z")
                for n in range(40)
            ]
        )
        store.checkpoint()
    assert len(os.listdir("/proc/self/fd")) <= open_before + 2


def test_locate_finds_every_record_of_the_text_it_writes_and_refuses_others() -> None:
    records = [{"k": f"r{n}", "i": {"c": "é" * n}, "b": "z:" + "A" * n} for n in range(5)]
    import orjson

    raw, spans = shard_bytes(orjson.dumps(r) for r in records)
    parsed = orjson.loads(raw)["records"]
    found = locate(raw, parsed.items())
    assert found is not None
    assert [(off, length) for _doc, off, length in found] == spans
    assert [orjson.loads(raw[off : off + length]) for off, length in spans] == records
    assert locate(json.dumps({"records": parsed}, indent=1).encode(), parsed.items()) is None


def test_a_cold_record_is_read_through_the_file_it_was_loaded_from(tmp_path: Path) -> None:
    path = tmp_path / "shard.json"
    path.write_bytes(b'{"records":{"1":{"k":"a"}}}')
    file = ShardFile.open(path)
    path.write_bytes(b"something else entirely")  # same inode, cut and rewritten
    with pytest.raises(OSError, match="short read"):
        file.read(100, 50)
    file.close()
    assert file.fd == -1


def test_lawsuit_state_tells_what_lawsuit_entry_tells_without_the_lawsuit(store: Store) -> None:
    _fill(store)
    for checkpointed in (False, True):
        for code in CODES[:6]:
            entry = store.lawsuit_entry(code)
            state = store.lawsuit_state(code)
            assert entry is not None and state is not None
            assert (state.provisional, state.stored_at, state.changes, state.source) == (
                entry.provisional,
                entry.stored_at,
                entry.changes,
                entry.source,
            ), (code, checkpointed)
        store.checkpoint()
    assert store.lawsuit_state("0000999-99.2024.8.26.0100") is None

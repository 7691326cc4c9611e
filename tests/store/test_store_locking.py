"""One writer at a time; readers open read-only beside it and refresh to see its writes."""

from __future__ import annotations

import subprocess
from pathlib import Path

from lawsuit_tui.store import CacheLocked, Store
from tests.support.store_data import make_lawsuit, make_response, spawn


def test_second_process_gets_cache_locked_and_can_read(cache_dir: Path) -> None:
    with Store.open(cache_dir) as store:
        store.upsert_requests([{"request_id": "q"}])
        child = spawn("try-lock", str(cache_dir))
        out, _err = child.communicate(timeout=30)
        assert out.startswith("locked: ")
        assert str(cache_dir) in out and "read-only" in out
        with Store.open(cache_dir, read_only=True) as reader:
            assert reader.get_request("q") == {"request_id": "q"}
    child = spawn("try-lock", str(cache_dir))
    out, _err = child.communicate(timeout=30)
    assert out.strip() == "opened"


def test_second_writer_in_the_same_process_is_refused_too(cache_dir: Path) -> None:
    with Store.open(cache_dir):
        try:
            Store.open(cache_dir)
        except CacheLocked as exc:
            assert "read-only" in str(exc)
        else:
            raise AssertionError("a second writer was allowed")


def test_refresh_sees_journal_writes_and_checkpoints(cache_dir: Path) -> None:
    writer = Store.open(cache_dir, checkpoint_bytes=1 << 30)
    reader = Store.open(cache_dir, read_only=True)
    try:
        assert reader.get_lawsuit("0001234-56.2023.8.26.0100") is None
        writer.upsert_responses(
            [make_response("r1", "q", lawsuit=make_lawsuit(steps=["s1"]), cached=True)]
        )
        assert reader.refresh() is True
        entry = reader.lawsuit_entry("0001234-56.2023.8.26.0100")
        assert entry is not None and entry.provisional
        assert reader.refresh() is False  # nothing new

        writer.checkpoint()  # the entries move from the journal into the shards
        writer.upsert_responses(
            [make_response("r2", "q", lawsuit=make_lawsuit(steps=["s1", "s2"]))]
        )
        assert reader.refresh() is True
        entry = reader.lawsuit_entry("0001234-56.2023.8.26.0100")
        assert entry is not None and not entry.provisional and entry.changes is not None
        assert entry.changes.new_step_ids == ["s2"]
        assert [r["response_id"] for r in reader.responses_of("q")] == ["r2", "r1"]
    finally:
        writer.close()
    assert reader.refresh() is True  # the final checkpoint rewrote shards
    assert reader.count_responses() == 2 and reader.verify() == []
    reader.close()


def test_refresh_sees_another_process_writes(cache_dir: Path) -> None:
    reader = Store.open(cache_dir, read_only=True)  # before the cache even exists
    assert reader.count_responses() == 0
    child = spawn("write", str(cache_dir), "25", stdin=subprocess.PIPE)
    assert child.stdout is not None and child.stdin is not None
    assert child.stdout.readline().strip() == "done"
    assert reader.refresh() is True
    assert reader.get_request("w24") == {"request_id": "w24"}
    child.stdin.close()
    child.wait(timeout=30)
    reader.refresh()
    assert len(reader.list_requests()) == 25
    reader.close()

"""Damage set aside, salvaged, reported until acknowledged; OS errors as sentences (D139, D140)."""

from __future__ import annotations

import zlib
from pathlib import Path

import orjson
import pytest

from lawsuit_tui.store import CacheUnavailable, Store
from lawsuit_tui.store.damage import salvage
from lawsuit_tui.store.records import UNREADABLE
from tests.support.store_data import abandon, make_response


def same_shard_keys(count: int, shards: int = 8) -> list[str]:
    """Request ids that all land in the same shard of the requests table."""
    keys = [f"req-{n}" for n in range(2000)]
    wanted = zlib.crc32(keys[0].encode()) % shards
    return [k for k in keys if zlib.crc32(k.encode()) % shards == wanted][:count]


def test_a_damaged_shard_keeps_every_record_that_still_reads(cache_dir: Path) -> None:
    keys = same_shard_keys(3)
    with Store.open(cache_dir) as store:
        store.upsert_requests([{"request_id": k, "n": i} for i, k in enumerate(keys)])
    [victim] = [p for p in (cache_dir / "tables").glob("requests-*.json")]
    raw = victim.read_bytes()
    start = raw.index(keys[1].encode())  # the middle record's text is overwritten
    victim.write_bytes(raw[:start] + b"\x00\x00garbage\x00" + raw[start + 30 :])
    with Store.open(cache_dir) as store:
        assert store.get_request(keys[0]) == {"request_id": keys[0], "n": 0}
        assert store.get_request(keys[2]) == {"request_id": keys[2], "n": 2}
        assert store.get_request(keys[1]) is None
        assert store.found_damage == [f"tables/{next(iter(store.damage())).name.split('/')[1]}"]
        assert any("2 records in it could still be read" in p for p in store.problems)
    with Store.open(cache_dir) as store:  # rewritten whole from what was kept
        assert store.problems == [] and store.count_requests() == 2
        assert [f.acknowledged for f in store.damage()] == [False]


def test_salvage_drops_what_does_not_read() -> None:
    good = {"k": "a", "i": {}, "b": '{"x": 1}'}
    bad_body = {"k": "b", "i": {}, "b": "z:not a packed body"}
    text = b'{"records":{"1":' + orjson.dumps(good) + b',"2":' + orjson.dumps(bad_body)
    assert salvage(text + b',"3":{"k":"c","i"', ("b",)) == {"a": good}


def test_a_corrupt_journal_entry_is_copied_aside_and_reported_until_acknowledged(
    cache_dir: Path,
) -> None:
    store = Store.open(cache_dir)
    store.upsert_requests([{"request_id": "first"}])
    store.upsert_requests([{"request_id": "second"}])
    abandon(store)  # killed: everything is still in the journal
    [segment] = (cache_dir / "journal").glob("seg-*.log")
    lines = segment.read_bytes().splitlines(keepends=True)
    segment.write_bytes(lines[0][:12] + b"X" + lines[0][13:] + b"".join(lines[1:]))
    with Store.open(cache_dir) as store:
        assert store.get_request("first") is None and store.get_request("second") is not None
        [found] = store.found_damage
        assert found.startswith("journal/seg-") and ".damaged-" in found
        assert any("corrupt entry" in p and "copy was set aside" in p for p in store.problems)
    # The segment itself is gone (checkpointed); its copy, and the report, stay.
    with Store.open(cache_dir, read_only=True) as reader:
        assert reader.problems == []
        assert [(f.name, f.acknowledged) for f in reader.damage()] == [(found, False)]
        assert reader.acknowledge_damage() == [found]  # beside a writer, read-only: fine
        assert [f.acknowledged for f in reader.damage()] == [True]
        assert reader.acknowledge_damage() == []


def test_an_unreadable_record_is_skipped_and_named_when_asked(cache_dir: Path) -> None:
    with Store.open(cache_dir) as store:
        store.upsert_responses([make_response(f"r{i}", "q") for i in range(3)])
    victim = next(
        p for p in (cache_dir / "tables").glob("responses-*.json") if b'"r1"' in p.read_bytes()
    )
    data = orjson.loads(victim.read_bytes())
    for doc in data["records"].values():
        doc["b"] = "z:!!"
    victim.write_bytes(orjson.dumps(data))
    with Store.open(cache_dir, read_only=True) as store:
        with pytest.raises(UNREADABLE):
            list(store.iter_responses())  # asked nothing else: a damaged record raises
        skipped: list[str] = []
        found = [r["response_id"] for r in store.iter_responses(skipped.append)]
        assert sorted(found) == ["r0", "r2"]
        assert len(skipped) == 1 and skipped[0].startswith("responses r1:")


def test_a_cache_path_under_a_file_is_a_sentence(tmp_path: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("not a directory")
    with pytest.raises(CacheUnavailable) as caught:
        Store.open(blocker / "sandbox")
    message = str(caught.value)
    assert str(blocker) in message and "is a file, not a directory" in message

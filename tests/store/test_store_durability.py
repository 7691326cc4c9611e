"""Crash safety: SIGKILL at random moments, damaged files, leftovers, modes, verify."""

from __future__ import annotations

import os
import random
import signal
import stat
import subprocess
import threading
import time
from pathlib import Path

import pytest

from lawsuit_tui.store import Store
from tests.support.store_child import record
from tests.support.store_data import abandon, make_response, spawn


@pytest.mark.slow
def test_kill_9_at_random_moments_never_loses_an_acknowledged_write(tmp_path: Path) -> None:
    directory = tmp_path / "cache"
    rng = random.Random(20260121)
    acked: set[int] = set()
    next_start = 0
    kills = 0
    deadline = time.monotonic() + 90  # a hard bound; 30 kills take 10-15 s on an idle machine
    while kills < 30:
        assert time.monotonic() < deadline, f"only {kills} kills in the time bound"
        child = spawn("writer-loop", str(directory), str(next_start))
        hung = threading.Event()

        def on_hang(child: subprocess.Popen[str] = child, hung: threading.Event = hung) -> None:
            hung.set()
            child.kill()

        # A child that stops acknowledging is killed after 15 s, and the test fails.
        watchdog = threading.Timer(15, on_hang)
        watchdog.start()
        try:
            assert child.stdout is not None
            wanted = rng.randint(1, 12)
            seen = 0
            while seen < wanted:
                line = child.stdout.readline()
                if not line:
                    break
                if line.startswith("ack "):
                    acked.add(int(line.split()[1]))
                    seen += 1
            # Not a wait for anything: a random offset into the checkpoint that follows.
            time.sleep(rng.uniform(0, 0.02))
            child.send_signal(signal.SIGKILL)
            rest, _err = child.communicate(timeout=15)
        finally:
            watchdog.cancel()
            if child.poll() is None:  # whatever failed above, never leave a writer running
                child.kill()
                child.wait()
        assert not hung.is_set(), f"the writer stopped acknowledging before kill {kills + 1}"
        acked.update(int(x.split()[1]) for x in rest.splitlines() if x.startswith("ack "))
        assert child.returncode == -signal.SIGKILL
        kills += 1

        with Store.open(directory) as store:
            assert store.problems == []
            assert store.verify() == []
            missing = [i for i in acked if store.get_response(f"resp-{i}") is None]
            assert not missing, f"acknowledged writes lost after kill {kills}: {missing[:5]}"
            for i in acked:
                code = record(i)["response_data"]["code"]  # type: ignore[index]
                assert store.get_lawsuit(code, 1) is not None
            last = store.get_meta("last")
            assert isinstance(last, int) and last >= max(acked)
            next_start = last + 1
    assert kills >= 30 and len(acked) > 30


def test_damaged_shard_is_set_aside_and_the_rest_opens(cache_dir: Path) -> None:
    with Store.open(cache_dir) as store:
        store.upsert_responses([make_response(f"r{i}", f"q{i}") for i in range(40)])
        store.upsert_requests([{"request_id": "q"}])
    shards = sorted((cache_dir / "tables").glob("responses-*.json"))
    victim = shards[0]
    victim.write_bytes(b'{"records": {"1": {"k": "r1", "b": "{}"}}} trailing old tail')
    with Store.open(cache_dir) as store:
        assert any(victim.name in p and "set aside" in p for p in store.problems)
        assert not victim.exists()
        assert list(victim.parent.glob(f"{victim.name}.damaged-*"))
        assert store.get_request("q") == {"request_id": "q"}
        assert 0 < store.count_responses() < 40
        store.upsert_responses([make_response("new", "q")])  # still writable
        assert store.verify() == []
    with Store.open(cache_dir) as store:
        assert store.problems == [] and store.get_response("new") is not None


def test_damaged_schema_file_is_set_aside(cache_dir: Path) -> None:
    with Store.open(cache_dir) as store:
        store.upsert_requests([{"request_id": "q"}])
    (cache_dir / "schema.json").write_bytes(b"\x00\x00garbage")
    with Store.open(cache_dir) as store:
        assert any("schema.json" in p for p in store.problems)
        assert store.get_request("q") == {"request_id": "q"}


def test_verify_reports_unreadable_files_without_crashing(cache_dir: Path) -> None:
    with Store.open(cache_dir) as store:
        store.upsert_responses([make_response(f"r{i}", "q") for i in range(10)])
    shard = next((cache_dir / "tables").glob("lawsuits-*.json"))
    shard.write_bytes(b"{not json")
    other = next((cache_dir / "tables").glob("responses-*.json"))
    other.write_bytes(b'{"records": {"1": {"k": "r0", "b": "{broken"}}}')
    with Store.open(cache_dir, read_only=True) as reader:  # read-only: nothing is moved
        assert any(shard.name in p for p in reader.problems)
        problems = reader.verify()
    assert any(shard.name in p and "unreadable" in p for p in problems)
    assert any(other.name in p and "1 unreadable record" in p for p in problems)
    assert shard.exists()


def test_torn_and_corrupt_journal_entries(cache_dir: Path) -> None:
    store = Store.open(cache_dir)
    store.upsert_requests([{"request_id": "a"}])
    store.upsert_requests([{"request_id": "b"}])
    segment = store._engine._journal.path  # type: ignore[union-attr]
    abandon(store)
    lines = segment.read_bytes().splitlines(keepends=True)
    segment.write_bytes(lines[0] + lines[1][:-1])  # the second entry is cut short
    with Store.open(cache_dir) as again:
        assert again.get_request("a") is not None and again.get_request("b") is None
        assert again.problems == []
    # A corrupted (not merely cut) entry is reported.
    store = Store.open(cache_dir)
    store.upsert_requests([{"request_id": "c"}])
    segment = store._engine._journal.path  # type: ignore[union-attr]
    abandon(store)
    data = bytearray(segment.read_bytes())
    data[20] ^= 0xFF
    segment.write_bytes(bytes(data))
    with Store.open(cache_dir, read_only=True) as reader:
        assert any("corrupt entry" in p for p in reader.problems)
        assert any("corrupt entry" in p for p in reader.verify())


def test_leftover_temporary_files_are_removed(cache_dir: Path) -> None:
    with Store.open(cache_dir) as store:
        store.upsert_requests([{"request_id": "q"}])
    leftover = cache_dir / "tables" / "requests-000.json.tmp-deadbeef"
    leftover.write_bytes(b"half a write")
    with Store.open(cache_dir) as store:
        assert not leftover.exists() and store.problems == []


def test_files_are_0600_and_directories_0700_whatever_the_umask(cache_dir: Path) -> None:
    old = os.umask(0)
    try:
        with Store.open(cache_dir) as store:
            store.upsert_responses([make_response("r1")])
            store.checkpoint()
            store.upsert_requests([{"request_id": "q"}])  # leaves a journal segment too
            paths = list(cache_dir.rglob("*"))
    finally:
        os.umask(old)
    assert any(p.parent.name == "journal" for p in paths)
    for path in [cache_dir, *cache_dir.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o700 if path.is_dir() else 0o600), f"{path}: {oct(mode)}"

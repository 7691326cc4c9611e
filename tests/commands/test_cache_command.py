"""`lawsuit-tui cache {stats,prune,path,verify}` through commands.cache.run."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import pytest

from lawsuit_tui.commands.cache import run
from lawsuit_tui.store import Store
from tests.support.clock import FakeClock
from tests.support.store_data import make_response


@dataclass
class Settings:
    cache_dir: Path
    mode: str = "live"  # the cache is cache_dir itself (sandbox mode: cache_dir/"sandbox")


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def args(command: str, older_than: int | None = None) -> argparse.Namespace:
    return argparse.Namespace(cache_command=command, older_than=older_than)


def fill(cache_dir: Path) -> None:
    with Store.open(cache_dir) as store:
        store.upsert_requests([{"request_id": "q"}])
        store.upsert_responses([make_response("r1", "q"), make_response("r2", "q", cached=True)])


def test_path(cache_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(args("path"), Settings(cache_dir)) == 0
    assert capsys.readouterr().out.strip() == str(cache_dir)


def test_stats_counts_and_works_beside_a_writer(
    cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fill(cache_dir)
    with Store.open(cache_dir):  # the TUI holds the cache
        assert run(args("stats"), Settings(cache_dir)) == 0
    out = capsys.readouterr().out
    assert "Requests: 1" in out and "Responses: 2" in out and "Lawsuits: 1" in out
    assert str(cache_dir) in out


def test_verify_ok_then_damaged(cache_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fill(cache_dir)
    assert run(args("verify"), Settings(cache_dir)) == 0
    assert "verified" in capsys.readouterr().out
    shard = next((cache_dir / "tables").glob("responses-*.json"))
    shard.write_bytes(b"\xff\xfe not json")
    assert run(args("verify"), Settings(cache_dir)) == 1
    out = capsys.readouterr().out
    assert shard.name in out and "1 problem found." in out


def test_prune(cache_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clock = FakeClock()
    with Store.open(cache_dir, clock=clock) as store:
        store.upsert_requests([{"request_id": "q"}])
    # Stored "in 2026-01"; the command runs with the real clock, long after.
    assert run(args("prune", older_than=30), Settings(cache_dir)) == 0
    assert "Removed 1 records" in capsys.readouterr().out
    assert run(args("prune", older_than=-1), Settings(cache_dir)) == 2
    assert run(args("prune"), Settings(cache_dir)) == 2


def test_prune_while_locked_says_so(cache_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Store.open(cache_dir):
        assert run(args("prune", older_than=1), Settings(cache_dir)) == 1
    assert "in use by another lawsuit-tui process" in capsys.readouterr().err


def test_stats_of_a_cache_that_does_not_exist_yet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nothing-here"
    assert run(args("stats"), Settings(missing)) == 0
    assert "Responses: 0" in capsys.readouterr().out
    assert not missing.exists()

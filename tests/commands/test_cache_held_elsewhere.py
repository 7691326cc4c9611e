"""A command run while another process holds the cache keeps what it fetches (issue 18, D137).

The holder is a real process: ``webhooks serve`` (which takes in the writes of others), or a
bare writer that takes none (then the command waits, and refuses or says what was lost).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lawsuit_tui.commands.output import EXIT_NOT_KEPT, EXIT_REFUSED
from lawsuit_tui.store import Store
from tests.support.cli_run import run_cli as run
from tests.support.cli_run import sandbox_cache
from tests.support.store_data import spawn
from tests.support.webhook_data import Child, child_env

TOKEN = "held-cache-test-token-0123456789"


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[Child]:
    """``webhooks serve`` in sandbox mode on this test's cache: it holds the cache."""
    env = child_env(tmp_path, LAWSUIT_TUI_CACHE_DIR=os.environ["LAWSUIT_TUI_CACHE_DIR"])
    env.pop("LAWSUIT_TUI_API_KEY")
    child = Child(["webhooks", "serve", "--port", "0", "--path-token", TOKEN], env)
    try:
        url = child.line()
        assert url.startswith("http://"), url
        yield child
    finally:
        child.stop()


@pytest.fixture
def bare_writer() -> Iterator[subprocess.Popen[str]]:
    """A process holding the cache that takes in nobody's writes (an older release)."""
    proc = spawn("write", str(sandbox_cache()), "1", stdin=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "done"
    try:
        yield proc
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(20)


def cached(read: Any) -> Any:
    with Store.open(sandbox_cache(), read_only=True) as store:
        return read(store)


def test_a_request_beside_the_receiver_is_kept_by_it(
    receiver: Child, capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    code, out, err = run(capsys, "request", samples["cpf"][0], "--json")
    assert code == 0, err
    request_id = json.loads(out)["requests"][0]["request_id"]
    assert cached(lambda store: store.get_request(request_id)) is not None
    assert receiver.stop() == 0
    # Kept for good: the receiver folded it into its shards when it closed.
    assert cached(lambda store: store.get_request(request_id)) is not None


def test_a_sync_beside_the_receiver_is_kept_by_it(
    receiver: Child, capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    code, _out, err = run(capsys, "request", samples["moving_lawsuit"], "--wait")
    assert code == 0, err
    code, out, err = run(capsys, "sync")
    assert code == 0, err
    responses = cached(lambda store: store.count_responses())
    assert responses >= 1
    assert "responses:" in out


def test_a_paid_request_is_not_sent_when_nothing_could_keep_it(
    bare_writer: subprocess.Popen[str],
    capsys: pytest.CaptureFixture[str],
    samples: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("lawsuit_tui.commands.session.CACHE_WAIT_SECONDS", 1.5)
    code, out, err = run(capsys, "request", samples["cpf"][0])
    assert code == EXIT_REFUSED
    assert out == ""
    assert "Nothing was sent" in err
    assert str(bare_writer.pid) in err
    assert "waiting" in err  # the countdown before giving up


def test_a_free_lookup_that_could_not_be_kept_says_so_and_exits_non_zero(
    bare_writer: subprocess.Popen[str],
    capsys: pytest.CaptureFixture[str],
    samples: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("lawsuit_tui.commands.session.CACHE_WAIT_SECONDS", 0.0)
    code, out, err = run(capsys, "lookup", samples["lawsuit_cnj"][0])
    assert code == EXIT_NOT_KEPT
    assert samples["lawsuit_cnj"][0] in out  # shown all the same
    assert "not kept" in err and "lawsuit" in err


def test_a_datalake_call_beside_the_receiver_is_kept_by_it(
    receiver: Child, capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    # Before: the answer, paid, was written to this process's read-only view: exit 5.
    code, out, err = run(capsys, "datalake", "entity", samples["company"], "--json")
    assert code == 0, err
    assert json.loads(out)["cost"]["calls"] == 1
    kept = cached(lambda store: store.datalake.of_document(samples["company"]))
    assert len(kept) == 1
    code, out, err = run(capsys, "datalake", "entity", samples["company"], "--offline")
    assert code == 0 and "Partners:" in out  # read back from what the holder kept


def test_a_portfolio_import_beside_the_receiver_is_kept_by_it(
    receiver: Child, capsys: pytest.CaptureFixture[str], samples: dict[str, Any], tmp_path: Path
) -> None:
    # Before: the import's record of each call (D160) could not be written beside a holder.
    keys = [*samples["lawsuit_cnj"][:2], samples["cpf"][0]]
    path = tmp_path / "carteira.csv"
    path.write_text("\n".join(["key", *keys]) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "portfolio", "import", str(path), "--json")
    assert code == 0, err
    created = json.loads(out)["created"]
    assert len(created) == 3
    assert cached(lambda store: store.portfolio_imports.open_intents()) == []
    tracked = cached(lambda store: {t["tracking_id"] for t in store.list_trackings()})
    assert {item["tracking_id"] for item in created} <= tracked


@pytest.mark.parametrize("command", ["datalake", "miner", "portfolio"])
def test_a_paid_command_is_not_sent_when_nothing_could_keep_it(
    command: str,
    bare_writer: subprocess.Popen[str],
    capsys: pytest.CaptureFixture[str],
    samples: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    # D136: each pays (D108, D72, D160); before, each was sent and its answer not kept.
    monkeypatch.setattr("lawsuit_tui.commands.session.CACHE_WAIT_SECONDS", 0.0)
    path = tmp_path / "keys.txt"
    path.write_text(samples["cpf"][0] + "\n", encoding="utf-8")
    argv = {
        "datalake": ["datalake", "entity", samples["company"]],
        "miner": ["miner", "find", "--kind", "judgement-bond", "--tribunal", "10", "--yes"],
        "portfolio": ["portfolio", "import", str(path)],
    }[command]
    code, _out, err = run(capsys, *argv)
    assert code == EXIT_REFUSED, err
    assert "Nothing was sent" in err

"""Two real processes on one key against the sandbox served on a loopback port: with the
shared ledger they draw no 429 over 250 calls; without it (the same run) they do.

The sandbox allows 30 calls per second (``--rate-limit 30/1``) so that 250 calls take
seconds; each worker's client is configured with the same window, as a user's would be.
"""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.served_sandbox import live_env, served_sandbox

WORKER = Path(__file__).with_name("rate_budget_worker.py")
CALLS = 250
RATE = "30/1"


@pytest.fixture(scope="module")
def sandbox_root() -> Iterator[str]:
    with served_sandbox("--rate-limit", RATE) as root:
        yield root


def server_429s(root: str) -> int:
    stats = httpx.get(f"{root}/_sandbox/stats", headers={"api-key": "sandbox"}, timeout=10).json()
    total: int = stats["rate_limited_total"]
    return total


def run_pair(root: str, tmp_path: Path, *, shared: bool) -> list[dict[str, object]]:
    env = live_env(
        tmp_path,
        root,
        LAWSUIT_TUI_RATE_LIMIT__CALLS=RATE.split("/")[0],
        LAWSUIT_TUI_RATE_LIMIT__SECONDS=RATE.split("/")[1],
        LAWSUIT_TUI_RATE_LIMIT__SHARED="true" if shared else "false",
    )
    workers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), str(CALLS // 2), "4"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(2)
    ]
    try:
        for worker in workers:
            assert worker.stdout is not None
            line = worker.stdout.readline().strip()
            assert line == "ready", worker.stderr and worker.stderr.read()
        for worker in workers:  # both start together
            assert worker.stdin is not None
            worker.stdin.write("go\n")
            worker.stdin.flush()
        results = []
        for worker in workers:
            out, err = worker.communicate(timeout=120)
            assert worker.returncode == 0, err
            results.append(json.loads(out.strip().splitlines()[-1]))
        return results
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()


@pytest.mark.slow
def test_two_processes_on_one_key_share_one_budget(sandbox_root: str, tmp_path: Path) -> None:
    before = server_429s(sandbox_root)
    results = run_pair(sandbox_root, tmp_path, shared=True)
    assert sum(int(r["done"]) for r in results) == CALLS  # type: ignore[call-overload]
    assert [r["rate_limited"] for r in results] == [0, 0]
    assert server_429s(sandbox_root) == before  # the service turned none away
    assert [r["ledger_problem"] for r in results] == [None, None]
    ledger = Path(str(results[0]["ledger"]))
    assert results[1]["ledger"] == results[0]["ledger"]
    assert ledger.parent == tmp_path / "runtime" / "lawsuit-tui"
    assert stat.S_IMODE(ledger.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(ledger.stat().st_mode) == 0o600
    assert b"sandbox" not in ledger.read_bytes() and "sandbox" not in ledger.name

    # The same run without the ledger: each process fills the window on its own.
    before = server_429s(sandbox_root)
    results = run_pair(sandbox_root, tmp_path, shared=False)
    assert sum(int(r["done"]) for r in results) == CALLS  # type: ignore[call-overload]
    drawn = sum(int(r["rate_limited"]) for r in results)  # type: ignore[call-overload]
    assert drawn > 0
    assert server_429s(sandbox_root) - before == drawn
    print(f"429s without the ledger: {drawn}")

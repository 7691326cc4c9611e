"""``portfolio import`` killed at random moments, then run again: every valid row is tracked,
and none twice (D161). Real processes: the sandbox served on a loopback port (its state
outlives the importer) and the command itself, killed with SIGKILL or interrupted with SIGINT
while its bulk calls are under way."""

from __future__ import annotations

import contextlib
import json
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from lawsuit_tui.domain.identifiers import parse_search_key
from tests.support.samples import shared_world
from tests.support.served_sandbox import live_env, served_sandbox
from tests.support.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]


def demo_rows(count: int) -> tuple[list[str], set[tuple[str, str]]]:
    """Lines of a semicolon CSV (mixed formatting, a duplicate, an invalid row) and the
    (type, key) of every valid row."""
    world = shared_world()
    codes = [record.code for record in world.records()[: count // 2]]
    people = [doc for doc in world.pop.entities if len(doc) == 11][: count - len(codes)]
    lines = ["processo;nível"]
    valid: set[tuple[str, str]] = set()
    for n, key in enumerate(codes + people):
        text = key if n % 3 else key.replace("-", "").replace(".", "")
        lines.append(f"{text};{('quente', 'morno', 'frio')[n % 3]}")
        parsed = parse_search_key(key)
        valid.add((parsed.search_type, parsed.key))
    lines.append(f"{codes[0]};frio")  # a duplicate
    lines.append("123.456.789-00;")  # wrong check digits
    return lines, valid


@pytest.fixture
def served() -> Iterator[str]:
    """The sandbox on a loopback port, its calls slowed a little so that kills land inside
    them."""
    with served_sandbox("--rate-limit", "100000/60", cwd=ROOT) as root:
        faults = httpx.post(
            f"{root}/_sandbox/faults", json={"latency_ms": 50}, headers={"api-key": "sandbox"}
        )
        assert faults.status_code == 200
        yield root


def bulk_calls(root: str) -> int:
    stats = httpx.get(f"{root}/_sandbox/stats", headers={"api-key": "sandbox"}).json()
    return sum(
        count
        for routes in stats["calls"].values()
        for route, count in routes.items()
        if route.endswith("/tracking/bulk")
    )


def tracked(root: str) -> Counter[tuple[str, str]]:
    counts: Counter[tuple[str, str]] = Counter()
    page = 1
    while True:
        answer = httpx.get(
            f"{root}/tracking/tracking",
            params={"page": page, "page_size": 1000},
            headers={"api-key": "sandbox"},
        ).json()
        for record in answer["page_data"]:
            search = record["search"]
            counts[(search["search_type"], search["search_key"])] += 1
        if page >= answer["all_pages_count"]:
            return counts
        page += 1


@contextlib.contextmanager
def ctrl_c_as_a_shell_gives_it() -> Iterator[None]:
    """Children started inside take SIGINT as from a person's shell (KeyboardInterrupt), even
    where this process ignores it: an ignored signal stays ignored across exec, and a test
    worker of the whole suite was found ignoring SIGINT and SIGQUIT (the mark C's system()
    leaves), so its "Ctrl-C" went unheard and the import ran to its end. A handler of this
    process is reset to the default in the child."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def start_import(csv: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    with ctrl_c_as_a_shell_gives_it():
        return _popen_import(csv, env)


def _popen_import(csv: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "lawsuit_tui",
            "portfolio",
            "import",
            str(csv),
            "--chunk-size",
            "2",
            "--json",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
def test_an_import_killed_at_random_moments_tracks_every_row_once(
    tmp_path: Path, served: str
) -> None:
    lines, valid = demo_rows(100)
    csv = tmp_path / "carteira.csv"
    csv.write_bytes("\r\n".join(lines).encode("cp1252"))
    env = live_env(tmp_path / "client", served, LAWSUIT_TUI_LANGUAGE="en")
    rng = random.Random(20261120)
    interrupted = 0
    ended: list[tuple[int | None, str]] = []  # each attempt's exit and last words, if it fails
    report: dict[str, Any] | None = None
    for attempt in range(12):
        child = start_import(csv, env)
        last = attempt == 11
        if not last:
            before = bulk_calls(served)
            target = before + rng.randint(1, 6)
            # Kill while (or just after) the target call is under way at the service.
            try:

                def reached(child: subprocess.Popen[str] = child, target: int = target) -> bool:
                    return bulk_calls(served) >= target or child.poll() is not None

                wait_until(reached, timeout=60, what="the importer's bulk calls")
            finally:
                time.sleep(rng.uniform(0, 0.06))  # a random offset into the call, not a wait
                sig = signal.SIGKILL if attempt % 3 else signal.SIGINT
                if child.poll() is None:
                    child.send_signal(sig)
                    interrupted += 1
        out, err = child.communicate(timeout=120)
        ended.append((child.returncode, err[-200:]))
        if child.returncode == 0:
            report = json.loads(out)
            break
        assert child.returncode in (-signal.SIGKILL, 130, 1), err
    assert report is not None, "the import never finished"
    assert interrupted >= 3, ended
    counts = tracked(served)
    assert set(counts) == valid, "every valid row is tracked"
    assert set(counts.values()) == {1}, "and none twice"
    stats = httpx.get(f"{served}/_sandbox/stats", headers={"api-key": "sandbox"}).json()
    # Never sent twice either: a key the service had made was never offered to it again
    # (its refusal would have hidden a second send, D73).
    assert stats["tracking_creations"] == {"created": len(valid), "already_exists": 0}
    assert bulk_calls(served) == len(valid) // 2  # and every chunk went once
    assert len(report["invalid"]) == 1 and len(report["duplicates"]) == 1
    assert report["failed"] == []
    # the last run accounts for every valid row: made now, or made (or found) before
    assert len(report["created"]) + len(report["already_tracked"]) == len(valid)

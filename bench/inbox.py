"""Benchmark of the inbox with 100,000 movements (issue 16): opening, keys, filters, memory.

``uv run python -m bench inbox [--keys N] [--runs N] [--cache-dir DIR] [--quick]``

The harness is ``bench tui``'s (docs/performance.md): the app in a private tmux server at
120x40, its screen polled every 10 ms, English, sandbox mode, the cache a copy of one filled
through the store's own API (bench/_inbox_fill.py: 100,000 movements of 3,000 trackings over
90 days, a third unread), and the app run under the lag probe. The floor (bench/floor_app.py)
is measured in the same run; the key figures are also given as ratios to its ctrl+p.

Figures and targets (issue 16):

- open the inbox: F7 until the summary line shows the 100,000 (first visit, and again after
  leaving it), under 1 s;
- Down in the list: p95 under 50 ms;
- a filter keystroke: in the search field, a letter that narrows the 100,000 to the
  movements holding the word typed, and Backspace back (each until the count shown changes),
  and ``u`` (unread only) from the list: p95 under 100 ms;
- peak memory (VmHWM of the app's process) after all of it: under 150 MiB;
- the longest event-loop stall: under 100 ms.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench._inbox_fill import MARKER, InboxPlan, fill
from bench._tui_parse import mib, ms, summarize
from bench._tui_tmux import Launch, Tmux, TmuxError
from bench.tui import (
    KEY_SIZE,
    Harness,
    Results,
    Setup,
    change_latencies,
    floor_palette_latency,
    memory_note,
    press_until,
    report_stalls,
    wait_services,
)
from lawsuit_tui.services.paths import SANDBOX_CACHE_SUBDIR

OPEN_TARGET = 1.0
KEY_P95 = 0.050
FILTER_P95 = 0.100
MEMORY_TARGET = 150 * 2**20
FILTERED = "of 100.000 movements"
"""The summary line while a filter narrows the list."""


def everything(screen: str) -> bool:
    return MARKER in screen and FILTERED not in screen


def narrowed(screen: str) -> bool:
    return FILTERED in screen


def latencies(
    launch: Launch, count: int, steps: list[tuple[list[str], Callable[[str], bool]]]
) -> list[float]:
    """Each step's keys, ``count`` rounds, timed until its screen shows; the screen still
    before each press."""
    times: list[float] = []
    for _ in range(count):
        for keys, shown in steps:
            launch.settle(quiet=0.15, timeout=5, styled=False)
            took = press_until(launch, keys, shown, timeout=5)
            if took is not None:
                times.append(took)
    return times


def summary_of(screen: str) -> str:
    """The inbox's summary line (``12.026 of 100.000 movements · ... unread``)."""
    return next(
        (line for line in screen.splitlines() if " unread" in line and "movement" in line), ""
    )


def typing_latencies(launch: Launch, count: int, keys: list[str]) -> list[float]:
    """Each key of ``keys`` in turn, ``count`` rounds, timed until the summary line (the
    count the filter keeps) changes: the field echoes the key at once, the list follows."""
    times: list[float] = []
    for _ in range(count):
        for key in keys:
            before = launch.settle(quiet=0.15, timeout=5, styled=False)
            if before is None:
                continue
            shown = summary_of(before)
            took = press_until(launch, [key], lambda s, shown=shown: summary_of(s) != shown)
            if took is not None:
                times.append(took)
    return times


def report(
    results: Results, name: str, times: list[float], target: float, floor: float | None
) -> None:
    if len(times) < 3:
        results.skip(name, f"only {len(times)} presses showed a change in time")
        return
    s = summarize(times)
    ratio = f", {s.median / floor:.2f}x the floor's ctrl+p" if floor else ""
    results.add(f"{name} median", f"{ms(s.median)} (n={s.count}, max {ms(s.high)}{ratio})")
    results.add(f"{name} p95", ms(s.p95), f"< {ms(target)}", s.p95 < target)


def inbox_cases(
    harness: Harness, results: Results, cache: Path, keys: int, runs: int, floor: float | None
) -> None:
    setup = harness.setup
    spec, lag_log = setup.ours_under_lag_probe(cache, "inbox-lag.log")
    phases = [(time.monotonic(), "opening the app on the 100,000-movement cache")]
    with harness.running(spec, KEY_SIZE) as (launch, _start, ready):
        if ready is None:
            results.skip("inbox cases", "the app never got ready")
            return
        if wait_services(launch) is None:
            results.skip("inbox cases", "the services never got ready")
            return
        time.sleep(1.0)  # the inbox's columns are read in a thread after the services open
        memory_note(launch, results, "memory with the cache open")
        phases.append((time.monotonic(), "opening the inbox"))
        first = press_until(launch, ["F7"], everything, timeout=30)
        if first is None:
            results.skip("open the inbox", "F7 never showed the 100,000 movements")
            return
        results.add(
            "open the inbox with 100,000 movements (F7, first visit)",
            ms(first),
            f"< {ms(OPEN_TARGET)}",
            first < OPEN_TARGET,
        )
        again: list[float] = []
        for _ in range(runs):
            press_until(launch, ["F2"], lambda s: "› Lookup" in s, timeout=10)
            launch.settle(quiet=0.2, timeout=5, styled=False)
            took = press_until(launch, ["F7"], everything, timeout=10)
            if took is not None:
                again.append(took)
        if again:
            s = summarize(again)
            results.add(
                "open the inbox again (F2, then F7)",
                f"median {ms(s.median)}, max {ms(s.high)} (n={s.count})",
                f"< {ms(OPEN_TARGET)}",
                s.high < OPEN_TARGET,
            )
        phases.append((time.monotonic(), "moving through the list"))
        launch.settle(quiet=0.3, timeout=10, styled=True)
        downs, unsettled = change_latencies(launch, keys, ["Down"])
        if unsettled:
            results.info(f"{unsettled} presses skipped: the screen did not stay still")
        report(results, "key down in the 100,000-movement list", downs, KEY_P95, floor)
        phases.append((time.monotonic(), "filter keystrokes"))
        launch.tmux.send_keys(launch.name, "/")
        launch.settle(quiet=0.2, timeout=5, styled=False)
        launch.tmux.send_text(launch.name, "pe")  # a whole word "pe": nothing, yet
        typed = typing_latencies(launch, keys // 2, ["n", "BSpace"])  # "pen": penhora...
        launch.tmux.send_keys(launch.name, "BSpace", "BSpace", "Escape")
        launch.settle(quiet=0.3, timeout=10, styled=False)
        toggles = latencies(launch, keys // 2, [(["u"], narrowed), (["u"], everything)])
        report(results, "filter keystroke (search as you type)", typed, FILTER_P95, floor)
        report(results, "filter keystroke (u: unread only)", toggles, FILTER_P95, floor)
        report(results, "filter keystroke (every kind)", typed + toggles, FILTER_P95, floor)
        memory = launch.memory()
        hwm = memory.get("VmHWM", 0)
        results.add(
            "peak memory after the inbox (100,000 movements)",
            f"{mib(hwm)} VmHWM (VmRSS {mib(memory.get('VmRSS', 0))})",
            f"< {mib(MEMORY_TARGET)}",
            hwm < MEMORY_TARGET,
        )
    report_stalls(results, lag_log, phases)


def filled(base: Path, wanted: Path | None, plan: InboxPlan, results: Results) -> Path:
    directory = wanted or (base / "inbox-cache")
    stamp = directory / ".bench-inbox-plan"
    if directory.exists() and stamp.exists() and stamp.read_text() == repr(plan):
        results.info(f"reusing the filled cache in {directory}")
        return directory
    if directory.exists():
        shutil.rmtree(directory)
    start = time.perf_counter()
    count = fill(directory / SANDBOX_CACHE_SUBDIR, plan)
    stamp.write_text(repr(plan))
    results.info(f"filled {directory}: {count:,} movements in {time.perf_counter() - start:.0f} s")
    return directory


def copy_of(source: Path, base: Path) -> Path:
    """A fresh copy for the run: the app writes to its cache (marks, polls)."""
    target = base / "inbox-cache-copy"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("lock", "*.lock"))
    return target


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench inbox",
        description="The inbox with 100,000 movements: opening, keys, filters, memory, stalls.",
    )
    parser.add_argument("--keys", type=int, default=20, help="presses per latency case")
    parser.add_argument("--runs", type=int, default=5, help="re-openings of the inbox")
    parser.add_argument("--cache-dir", type=Path, default=None, help="keep the filled cache here")
    parser.add_argument("--quick", action="store_true", help="10 presses, 3 re-openings")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.quick:
        args.keys, args.runs = min(args.keys, 10), min(args.runs, 3)
    if shutil.which("tmux") is None:
        print("inbox: not measured: tmux is not installed")
        return 1
    results = Results()
    load = os.getloadavg()
    print(
        f"lawsuit-tui inbox benchmark: python {platform.python_version()}, {os.cpu_count()} "
        f"cpus, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="lawsuit-tui-bench-inbox-") as tmp:
        base = Path(tmp)
        setup = Setup(base)
        try:
            with Tmux() as tmux:
                harness = Harness(tmux, setup)
                floor = floor_palette_latency(harness, results, args.keys)
                source = filled(base, args.cache_dir, InboxPlan(), results)
                inbox_cases(harness, results, copy_of(source, base), args.keys, args.runs, floor)
        except TmuxError as error:
            results.skip("inbox benchmark", f"tmux failed: {error}")
    return results.finish()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Benchmark of the TUI as a person feels it (issue 9): first frame, memory, key latency.

``uv run python -m bench tui [--runs N] [--keys N] [--quick] [--cache-dir DIR] [--skip-scale]``

How figures are taken (see docs/performance.md):

- Every app runs in a detached session of a private tmux server (``-L bench-<pid>``, no user
  config) of a fixed size. The pane's shell waits on ``read``; the clock starts when Enter is
  sent, and the shell then execs the app, so the timed span is process start to frame.
- First useful frame: ``capture-pane -p`` every 10 ms until the ready marker shows (ours: the
  lookup field's placeholder; the floor: its table's last row). Median, min and max of
  ``--runs`` runs after one warm-up, the floor and ours interleaved so drift hits both.
- Peak memory: VmHWM of the app's process (its pid is written by the pane's shell just
  before exec; the largest over its process tree) one second after the first frame.
- Key latency: from ``send-keys`` to the first capture that shows the change (a marker for
  the palette and screens; any change of the styled capture, ``-e``, for cursor moves, after
  the screen has been still for 200 ms).
- The floor (bench/floor_app.py: Header, a 20-row DataTable, Footer) is measured by the same
  harness in the same run; targets are ratios to it because absolute times drift 20-40%.
- Isolation: LAWSUIT_TUI_CONFIG and LAWSUIT_TUI_CACHE_DIR point into a temporary directory,
  every other LAWSUIT_TUI_* and TEXTUAL_* variable is unset (sandbox mode: no API key),
  language English.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bench._tui_fill import (
    BIG_REQUEST_ID,
    BIG_SEARCH_SHOWN,
    FillPlan,
    big_request_codes,
    fill,
)
from bench._tui_lawsuit import lawsuit_case, step_filter_case
from bench._tui_parse import (
    figure_line,
    heaviest_chains,
    heaviest_modules,
    heaviest_packages,
    mib,
    ms,
    not_measured_line,
    parse_importtime,
    parse_stalls,
    summarize,
    worst_by_phase,
)
from bench._tui_tmux import Launch, Tmux, TmuxError
from lawsuit_tui.services.paths import SANDBOX_CACHE_SUBDIR

ROOT = Path(__file__).resolve().parent.parent
FLOOR_SCRIPT = ROOT / "bench" / "floor_app.py"

OUR_READY = "CNJ number, CPF, CNPJ or OAB"
"""The lookup field's placeholder: drawn only when the lookup screen is up and composed."""
SAMPLES_READY = "Sandbox samples"
"""The heading of the lookup screen's sandbox samples (issue 19.15): shown once they are in."""
FLOOR_READY = "floor row 20"
PALETTE_MARKER = "Search for commands"
SERVICES_STARTING = "Starting the service and the cache"

SIZES = ((120, 40), (80, 24))
KEY_SIZE = (120, 40)
FIRST_FRAME_TIMEOUT = 30.0
KEY_TIMEOUT = 5.0

# Targets of issue 9.
FIRST_FRAME_RATIO = 1.5
# Issue 19.15: the lookup screen's sandbox samples, against the floor's first frame.
SAMPLES_RATIO = 1.6
SAMPLES_TIMEOUT = 30.0
MEMORY_FIRST_FRAME = 70 * 2**20
MEMORY_SCALE = 200 * 2**20
KEY_MEDIAN_RATIO = 1.3
KEY_P95 = 0.150

STARTUP_IMPORTS = (
    "lawsuit_tui.commands.tui",
    "lawsuit_tui.ui.app",
    # What `lawsuit-tui` really imports before its first frame, in one line.
    "lawsuit_tui.cli, lawsuit_tui.config, lawsuit_tui.ui.app, lawsuit_tui.ui.lookup.screen",
)

FORBIDDEN_BEFORE_FRAME = (
    "pydantic",
    "pydantic_core",
    "pydantic_settings",
    "httpx",
    "fastapi",
    "starlette",
    "uvicorn",
    "tinydb",
    "orjson",
    "lawsuit_tui.sandbox",
    "lawsuit_tui.store",
    "lawsuit_tui.services",
    "lawsuit_tui.api",
)
# Needed for the first frame (D185): the lookup screen reads the sandbox's kept samples from
# its state file before the services open, through these modules of the services layer (the
# standard library's sqlite3 and json only, nothing of what the list above guards against).
NEEDED_BEFORE_FRAME = frozenset(
    {"lawsuit_tui.services", "lawsuit_tui.services.paths", "lawsuit_tui.services.sandbox_samples"}
)


@dataclass
class Results:
    """Every figure line, and the targets missed, for the summary at the end."""

    lines: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    unmeasured: list[str] = field(default_factory=list)

    def add(self, name: str, value: str, target: str = "", met: bool | None = None) -> None:
        line = figure_line(name, value, target, met)
        print(line, flush=True)
        self.lines.append(line)
        if met is False:
            self.missed.append(name)

    def skip(self, name: str, reason: str) -> None:
        line = not_measured_line(name, reason)
        print(line, flush=True)
        self.lines.append(line)
        self.unmeasured.append(name)

    def info(self, text: str) -> None:
        print(f"  {text}", flush=True)

    def finish(self) -> int:
        """The summary line; the exit status (1 when a target is missed or not measured)."""
        print(
            f"summary: {len(self.lines)} figures; targets missed: "
            + (", ".join(self.missed) or "none")
            + "; not measured: "
            + (", ".join(self.unmeasured) or "none"),
            flush=True,
        )
        return 1 if self.missed or self.unmeasured else 0


# --- the apps ----------------------------------------------------------------------------


@dataclass
class AppSpec:
    label: str
    argv: list[str]
    ready: str
    env: dict[str, str]
    cwd: str
    """``python -m`` puts the working directory first on sys.path: the tree that runs."""


class Setup:
    """Temporary config and cache directories, and the environment of the launched apps."""

    def __init__(self, base: Path, app_root: Path = ROOT, compare_root: Path | None = None) -> None:
        self.base = base
        self.app_root = app_root
        self.compare_root = compare_root
        self.config = base / "config.toml"
        self.unset = sorted(
            {k for k in os.environ if k.startswith(("LAWSUIT_TUI_", "TEXTUAL_"))}
            | {"NO_COLOR", "FORCE_COLOR", "PYTHONDONTWRITEBYTECODE", "PYTHONPROFILEIMPORTTIME"}
        )

    def env(self, cache: Path) -> dict[str, str]:
        return {
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "LAWSUIT_TUI_LANGUAGE": "en",
            "LAWSUIT_TUI_CONFIG": str(self.config),
            "LAWSUIT_TUI_CACHE_DIR": str(cache),
        }

    def ours(self, cache: Path, *, extra: list[str] | None = None) -> AppSpec:
        argv = [sys.executable, *(extra or []), "-m", "lawsuit_tui"]
        return AppSpec("lawsuit-tui", argv, OUR_READY, self.env(cache), str(self.app_root))

    def ours_under_lag_probe(self, cache: Path, log_name: str) -> tuple[AppSpec, Path]:
        """Ours, run under the lag probe (how long its event loop was held, step by step),
        and the file ``log_name`` the probe writes in the base directory."""
        spec = self.ours(cache)
        lag_log = self.base / log_name
        spec.argv = [sys.executable, str(ROOT / "bench" / "_tui_lagprobe.py")]
        spec.env = {**spec.env, "BENCH_TUI_LAG_LOG": str(lag_log)}
        return spec, lag_log

    def candidates(self, cache: Path) -> list[AppSpec]:
        """Ours, and the patched tree of ``--compare-root`` when there is one."""
        specs = [self.ours(cache)]
        if self.compare_root is not None:
            other = AppSpec(
                f"patched({self.compare_root.name})",
                specs[0].argv,
                OUR_READY,
                self.env(cache),
                str(self.compare_root),
            )
            specs.append(other)
        return specs

    def floor(self) -> AppSpec:
        argv = [sys.executable, str(FLOOR_SCRIPT)]
        return AppSpec("floor", argv, FLOOR_READY, self.env(self.base / "floor-cache"), str(ROOT))


@dataclass
class Frame:
    seconds: float
    hwm: int
    """VmHWM one second after the first frame (the figure the target is about)."""
    rss: int
    hwm_at_frame: int
    """VmHWM as soon as the frame showed: what the frame itself cost."""
    samples: float | None = None
    """When the sandbox samples showed (ours only), from process start like ``seconds``."""


class Harness:
    def __init__(self, tmux: Tmux, setup: Setup) -> None:
        self.tmux = tmux
        self.setup = setup

    @contextmanager
    def running(
        self, spec: AppSpec, size: tuple[int, int], stderr_path: Path | None = None
    ) -> Iterator[tuple[Launch, float, float | None]]:
        """Launch, wait for the first useful frame; yields (launch, start, seconds or None)."""
        launch = self.tmux.launch(
            spec.argv,
            env=spec.env,
            unset=self.setup.unset,
            size=size,
            cwd=spec.cwd,
            stderr_path=stderr_path,
        )
        try:
            start = launch.go()
            found = launch.poll(
                lambda screen: spec.ready in screen, start=start, timeout=FIRST_FRAME_TIMEOUT
            )
            launch.app_pid()
            yield launch, start, (found.elapsed if found else None)
        finally:
            launch.stop()

    def first_frame(self, spec: AppSpec, size: tuple[int, int]) -> Frame | None:
        with self.running(spec, size) as (launch, start, seconds):
            if seconds is None:
                return None
            at_once = launch.memory().get("VmHWM", 0)
            samples: float | None = None
            if spec.ready == OUR_READY:
                found = launch.poll(shows(SAMPLES_READY), start=start, timeout=SAMPLES_TIMEOUT)
                samples = found.elapsed if found else None
            # Memory one second after the frame, whenever the samples came.
            time.sleep(max(0.0, 1.0 - (time.perf_counter() - start - seconds)))
            memory = launch.memory()
            return Frame(seconds, memory.get("VmHWM", 0), memory.get("VmRSS", 0), at_once, samples)


# --- first frame -------------------------------------------------------------------------


def measure_first_frames(
    harness: Harness,
    results: Results,
    runs: int,
    specs: list[AppSpec],
    size: tuple[int, int],
    label: str,
) -> dict[str, list[Frame]]:
    """First frame and peak memory of ``specs`` (the floor first), interleaved run by run."""
    floor = specs[0]
    frames: dict[str, list[Frame | None]] = {spec.label: [] for spec in specs}
    for spec in specs:  # warm-up: page cache, .pyc files
        harness.first_frame(spec, size)
    for run in range(runs):
        order = specs if run % 2 == 0 else specs[::-1]
        for spec in order:
            frames[spec.label].append(harness.first_frame(spec, size))
    width, height = size
    where = f"{width}x{height}{label}"
    got = {k: [f for f in v if f is not None] for k, v in frames.items()}
    for spec in specs:
        if not got[spec.label]:
            results.skip(
                f"first frame {spec.label} {where}",
                f"the ready marker {spec.ready!r} never showed within {FIRST_FRAME_TIMEOUT:.0f} s",
            )
            continue
        s = summarize([f.seconds for f in got[spec.label]])
        failed = runs - len(got[spec.label])
        extra = f" ({failed} runs timed out)" if failed else ""
        results.add(
            f"first frame {spec.label} {where}",
            f"median {ms(s.median)}, min {ms(s.low)}, max {ms(s.high)}, n={s.count}{extra}",
        )
    if not got[floor.label]:
        return got
    floor_median = summarize([f.seconds for f in got[floor.label]]).median
    floor_hwm = summarize([f.hwm for f in got[floor.label]]).median
    results.add(f"peak memory at first frame floor {where}", f"{mib(floor_hwm)} VmHWM (median)")

    for spec in specs[1:]:
        if not got[spec.label]:
            continue
        ratio = summarize([f.seconds for f in got[spec.label]]).median / floor_median
        results.add(
            f"first frame ratio {spec.label}/floor {where}",
            f"{ratio:.2f}x",
            f"<= {FIRST_FRAME_RATIO}x",
            ratio <= FIRST_FRAME_RATIO,
        )
        paired = [
            o.seconds / f.seconds
            for o, f in zip(frames[spec.label], frames[floor.label], strict=True)
            if o is not None and f is not None
        ]
        if paired:
            results.info(f"median of the run-by-run ratios: {summarize(paired).median:.2f}x")
        report_samples(results, spec, got[spec.label], floor_median, where)
        hwm = summarize([f.hwm for f in got[spec.label]]).median
        at_frame = summarize([f.hwm_at_frame for f in got[spec.label]]).median
        results.add(
            f"peak memory at first frame {spec.label} {where}",
            f"{mib(hwm)} VmHWM 1 s later (median; {mib(at_frame)} at the frame itself)",
            f"< {mib(MEMORY_FIRST_FRAME)}",
            hwm < MEMORY_FIRST_FRAME,
        )
    return got


def report_samples(
    results: Results, spec: AppSpec, frames: list[Frame], floor_median: float, where: str
) -> None:
    """When the lookup screen's sandbox samples showed, and its ratio to the floor's frame."""
    name = f"sandbox samples shown {spec.label} {where}"
    shown = [f.samples for f in frames if f.samples is not None]
    if not shown:
        results.skip(name, f"{SAMPLES_READY!r} never showed within {SAMPLES_TIMEOUT:.0f} s")
        return
    s = summarize(shown)
    results.add(name, f"median {ms(s.median)}, min {ms(s.low)}, max {ms(s.high)}, n={s.count}")
    ratio = s.median / floor_median
    results.add(
        f"sandbox samples ratio {spec.label}/floor first frame {where}",
        f"{ratio:.2f}x",
        f"<= {SAMPLES_RATIO}x",
        ratio <= SAMPLES_RATIO,
    )


# --- import profile ----------------------------------------------------------------------


def import_profile(results: Results, env: dict[str, str], app_root: Path) -> None:
    for module in STARTUP_IMPORTS:
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            capture_output=True,
            text=True,
            cwd=app_root,
            env={**os.environ, **env},
            timeout=120,
            check=False,
        )
        entries = parse_importtime(proc.stderr)
        if proc.returncode != 0 or not entries:
            results.skip(f"import profile of {module}", proc.stderr.strip()[-200:] or "failed")
            continue
        total = sum(e.self_us for e in entries)
        results.add(
            f"import profile of {module}", f"{total / 1000:.0f} ms in {len(entries)} modules"
        )
        for entry in heaviest_modules(entries):
            results.info(
                f"self {entry.self_us / 1000:7.1f} ms  cumulative "
                f"{entry.cumulative_us / 1000:7.1f} ms  {entry.module}"
            )
        packages = ", ".join(
            f"{name} {us / 1000:.0f} ms" for name, us in heaviest_packages(entries)
        )
        results.info(f"by package: {packages}")
        chains = ", ".join(
            f"{e.module} {e.cumulative_us / 1000:.0f} ms" for e in heaviest_chains(entries, 6)
        )
        results.info(f"heaviest top-level imports (cumulative): {chains}")


def live_imports(harness: Harness, results: Results, cache: Path) -> None:
    """Which packages the running app imports before its first frame, and which after."""
    setup = harness.setup
    with tempfile.TemporaryDirectory(prefix="lawsuit-tui-bench-imports-") as tmp:
        log = Path(tmp) / "imports.log"
        spec = setup.ours(cache)
        spec.argv = [sys.executable, str(ROOT / "bench" / "_tui_importlog.py")]
        spec.env = {**spec.env, "BENCH_TUI_IMPORT_LOG": str(log)}
        launch = harness.tmux.launch(
            spec.argv, env=spec.env, unset=setup.unset, size=KEY_SIZE, cwd=spec.cwd
        )
        try:
            start = launch.go()
            found = launch.poll(shows(spec.ready), start=start, timeout=FIRST_FRAME_TIMEOUT)
            if found is None or found.before_mono is None:
                results.skip("imports before the first frame", "the app never got ready")
                return
            launch.app_pid()
            wait_services(launch, timeout=30)
            time.sleep(0.5)
            entries = parse_import_log(log.read_text(errors="replace"))
        finally:
            launch.stop()
    before = [name for stamp, name in entries if stamp <= found.before_mono]
    after = [name for stamp, name in entries if stamp > found.before_mono]
    bad = sorted(
        p
        for p in FORBIDDEN_BEFORE_FRAME
        if any((n == p or n.startswith(p + ".")) and n not in NEEDED_BEFORE_FRAME for n in before)
    )
    results.add(
        "imports before the first frame",
        f"{len(before)} modules; not needed for it but imported: " + (", ".join(bad) or "none"),
        "none of pydantic, httpx, fastapi, tinydb, orjson, sandbox, store, services, api",
        not bad,
    )
    results.info("packages before the first frame: " + package_counts(before))
    results.info("packages after the first frame: " + (package_counts(after) or "none"))


def parse_import_log(text: str) -> list[tuple[float, str]]:
    """``<monotonic> <module>`` lines of bench/_tui_importlog.py."""
    entries: list[tuple[float, str]] = []
    for line in text.splitlines():
        stamp, _sep, name = line.partition(" ")
        try:
            entries.append((float(stamp), name.strip()))
        except ValueError:
            continue
    return entries


def package_counts(modules: list[str]) -> str:
    counts: dict[str, int] = {}
    for module in modules:
        parts = module.split(".")
        name = ".".join(parts[:2]) if parts[0] == "lawsuit_tui" else parts[0]
        counts[name] = counts.get(name, 0) + 1
    ordered = sorted(counts.items(), key=lambda item: item[1], reverse=True)
    return ", ".join(f"{name} ({n})" for name, n in ordered[:14])


# --- key latency -------------------------------------------------------------------------


def differs(baseline: str) -> Callable[[str], bool]:
    return lambda screen: screen != baseline


def shows(text: str) -> Callable[[str], bool]:
    return lambda screen: text in screen


class CaseFailed(Exception):
    """A scale case could not reach its state; printed as 'not measured: <reason>'."""


def press_until(
    launch: Launch,
    keys: list[str],
    predicate: Callable[[str], bool],
    *,
    timeout: float = KEY_TIMEOUT,
    styled: bool = False,
) -> float | None:
    start = time.perf_counter()
    launch.tmux.send_keys(launch.name, *keys)
    found = launch.poll(predicate, start=start, timeout=timeout, styled=styled)
    return None if found is None else found.elapsed


def marker_latencies(
    launch: Launch,
    count: int,
    open_keys: list[str],
    marker: str,
    close_keys: list[str],
    close_marker: str | None = None,
) -> list[float]:
    """Press ``open_keys`` until ``marker`` shows, then close; ``count`` times."""
    times: list[float] = []
    for _ in range(count):
        launch.settle(quiet=0.15, timeout=3, styled=False)
        took = press_until(launch, open_keys, lambda s: marker in s)
        if took is not None:
            times.append(took)
        if close_marker is None:
            press_until(launch, close_keys, lambda s: marker not in s)
        else:
            press_until(launch, close_keys, lambda s: close_marker in s)
    return times


def change_latencies(launch: Launch, count: int, keys: list[str]) -> tuple[list[float], int]:
    """Press ``keys`` ``count`` times, each time once the screen is still; any visible change."""
    times: list[float] = []
    unsettled = 0
    for _ in range(count):
        baseline = launch.settle(quiet=0.2, timeout=3, styled=True)
        if baseline is None:
            unsettled += 1
            continue
        took = press_until(launch, keys, differs(baseline), styled=True)
        if took is not None:
            times.append(took)
    return times, unsettled


def report_latency(
    results: Results, name: str, times: list[float], floor_palette: float | None, wanted: int
) -> None:
    if len(times) < max(3, wanted // 2):
        results.skip(name, f"only {len(times)} of {wanted} presses showed a change in time")
        return
    s = summarize(times)
    results.add(f"{name} median", f"{ms(s.median)} (n={s.count}, max {ms(s.high)})")
    if floor_palette:
        ratio = s.median / floor_palette
        results.add(
            f"{name} median / floor ctrl+p",
            f"{ratio:.2f}x",
            f"<= {KEY_MEDIAN_RATIO}x",
            ratio <= KEY_MEDIAN_RATIO,
        )
    results.add(f"{name} p95", ms(s.p95), f"< {ms(KEY_P95)}", s.p95 < KEY_P95)


def wait_services(launch: Launch, timeout: float = 120.0) -> float | None:
    start = time.perf_counter()
    found = launch.poll(
        lambda s: SERVICES_STARTING not in s, start=start, timeout=timeout, interval=0.05
    )
    return None if found is None else found.elapsed


def floor_palette_latency(harness: Harness, results: Results, keys: int) -> float | None:
    """The floor's ctrl+p: the reference of every key-latency target."""
    with harness.running(harness.setup.floor(), KEY_SIZE) as (launch, _s, ready):
        if ready is None:
            results.skip("floor ctrl+p", "the floor never got ready")
            return None
        times = marker_latencies(launch, keys, ["C-p"], PALETTE_MARKER, ["Escape"])
        if len(times) < max(3, keys // 2):
            results.skip("floor ctrl+p", f"only {len(times)} of {keys} opened in time")
            return None
        s = summarize(times)
        results.add(
            "key floor ctrl+p (the reference) median",
            f"{ms(s.median)} (n={s.count}, p95 {ms(s.p95)})",
        )
        return s.median


def first_key(harness: Harness, results: Results, runs: int, empty_cache: Path) -> None:
    """A key pressed at once after the first frame: does opening the services freeze it?"""
    specs = harness.setup.candidates(empty_cache)
    times: dict[str, list[float]] = {spec.label: [] for spec in specs}
    for run in range(runs):
        for spec in specs if run % 2 == 0 else specs[::-1]:
            with harness.running(spec, KEY_SIZE) as (launch, _s, ready):
                if ready is None:
                    continue
                took = press_until(launch, ["1"], lambda s: OUR_READY not in s, timeout=15)
                if took is not None:
                    times[spec.label].append(took)
    for spec in specs:
        name = "key right after the first frame (while the services open)"
        if spec.label != "lawsuit-tui":
            name += f" {spec.label}"
        if not times[spec.label]:
            results.skip(name, "the app never got ready")
            continue
        s = summarize(times[spec.label])
        results.add(
            f"{name} max",
            f"{ms(s.high)} (median {ms(s.median)}, n={s.count})",
            f"< {ms(KEY_P95)}",
            s.high < KEY_P95,
        )


def key_latency_basic(
    harness: Harness, results: Results, keys: int, empty_cache: Path, floor_palette: float | None
) -> None:
    """Ours ctrl+p and switching screens."""
    setup = harness.setup
    with harness.running(setup.ours(empty_cache), KEY_SIZE) as (launch, _s, ready):
        if ready is None:
            results.skip("ours ctrl+p", "the app never got ready")
            return
        wait_services(launch)
        times = marker_latencies(launch, keys, ["C-p"], PALETTE_MARKER, ["Escape"])
        report_latency(results, "key ctrl+p (command palette)", times, floor_palette, keys)
        # Switching screens: F3 (requests) and F2 (lookup), alternately. The first visit
        # builds the screen: reported on its own.
        first = press_until(launch, ["F3"], lambda s: "› Requests" in s, timeout=15)
        if first is None:
            results.skip("key switch screens", "F3 never showed the Requests screen")
            return
        results.add("first visit of the Requests screen (F3)", ms(first))
        press_until(launch, ["F2"], lambda s: "› Lookup" in s)
        times = []
        for n in range(keys):
            key, title = ("F3", "› Requests") if n % 2 == 0 else ("F2", "› Lookup")
            launch.settle(quiet=0.15, timeout=3, styled=False)
            took = press_until(launch, [key], shows(title))
            if took is not None:
                times.append(took)
        report_latency(results, "key switch screens (F2/F3)", times, floor_palette, keys)


def scale_cases(
    harness: Harness,
    results: Results,
    keys: int,
    cache: Path,
    plan: FillPlan,
    floor_palette: float | None,
) -> None:
    """The 10,000-response list and the 10,000-step lawsuit, in one app on the filled cache."""
    setup = harness.setup
    big_codes = big_request_codes(plan)
    edge_codes = set(big_codes[:3] + big_codes[-3:])
    spec, lag_log = setup.ours_under_lag_probe(cache, "scale-lag.log")
    phases = [(time.monotonic(), "opening the app on the filled cache")]
    with harness.running(spec, KEY_SIZE) as (launch, _s, ready):
        if ready is None:
            results.skip("scale cases", "the app never got ready on the filled cache")
            return
        services = wait_services(launch)
        if services is None:
            results.skip("scale cases", "the services never got ready on the filled cache")
            return
        results.add(
            f"services and cache ready after the first frame ({plan.responses:,} responses)",
            ms(services),
        )
        memory_note(launch, results, "memory with the cache open")
        # --- the list of 10,000 responses -------------------------------------------------
        phases.append((time.monotonic(), "the Requests screen and the 10,000-response list"))
        list_ok = False
        try:
            took = press_until(
                launch,
                ["F3"],
                lambda s: "› Requests" in s and (BIG_REQUEST_ID[:8] in s or BIG_SEARCH_SHOWN in s),
                timeout=30,
            )
            if took is None:
                raise CaseFailed("the big request never showed in the Requests screen")
            results.add("requests screen on the filled cache: first row", ms(took))
            launch.settle(quiet=0.3, timeout=30, styled=False)
            took = press_until(
                launch,
                ["C-Home", "Enter"],
                lambda s: "› Request " in s and any(c in s for c in edge_codes),
                timeout=60,
            )
            if took is None:
                raise CaseFailed("the responses of the big request never showed")
            results.add(f"open the {plan.big_request_responses:,}-response list", ms(took))
            if launch.settle(quiet=0.3, timeout=30, styled=True) is None:
                raise CaseFailed("the responses screen never stopped changing")
            times, unsettled = change_latencies(launch, keys, ["Down"])
            if unsettled:
                results.info(f"{unsettled} presses skipped: the screen did not stay still")
            report_latency(
                results,
                f"key down in the {plan.big_request_responses:,}-response list",
                times,
                floor_palette,
                keys,
            )
            memory_note(launch, results, "memory after the list")
            list_ok = True
        except CaseFailed as failure:
            results.skip(
                f"key down in the {plan.big_request_responses:,}-response list", str(failure)
            )
        # --- the lawsuit of 10,000 steps --------------------------------------------------
        phases.append((time.monotonic(), "the 10,000-step lawsuit"))
        tree_ok = False
        try:
            tree_ok = lawsuit_case(launch, results, keys, floor_palette)
            step_filter_case(launch, results)
        except CaseFailed as failure:
            results.skip("key expand and move through the 10,000-step lawsuit", str(failure))
        memory = launch.memory()
        opened = [n for n, ok in (("list", list_ok), ("lawsuit", tree_ok)) if ok]
        if opened:
            hwm = memory.get("VmHWM", 0)
            results.add(
                f"peak memory after opening the {' and the '.join(opened)} ({plan.responses:,} "
                "responses cached)",
                f"{mib(hwm)} VmHWM",
                f"< {mib(MEMORY_SCALE)}",
                hwm < MEMORY_SCALE,
            )
    report_stalls(results, lag_log, phases)


def report_stalls(results: Results, log: Path, phases: list[tuple[float, str]]) -> None:
    """The longest event-loop stall of the scale cases (target: under 100 ms), by step."""
    name = "longest event-loop stall during the scale cases"
    try:
        stalls = parse_stalls(log.read_text(errors="replace"))
    except OSError:
        results.skip(name, "the lag probe wrote no log")
        return
    by_phase = worst_by_phase(stalls, phases)
    worst = max((w for _p, w, _n in by_phase), default=0.0)
    over = sum(n for _p, _w, n in by_phase)
    results.add(name, f"{ms(worst)} ({over} stalls of 100 ms or more)", "< 100 ms", worst < 0.1)
    for phase, longest, count in by_phase:
        results.info(f"{phase}: longest stall {ms(longest)}, {count} of 100 ms or more")


def memory_note(launch: Launch, results: Results, what: str) -> None:
    memory = launch.memory()
    results.info(
        f"{what}: VmRSS {mib(memory.get('VmRSS', 0))}, VmHWM {mib(memory.get('VmHWM', 0))}"
    )


# --- main --------------------------------------------------------------------------------


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench tui",
        description="First frame, memory and key latency of lawsuit-tui against a minimal "
        "Textual app (the floor), in tmux. One line per figure, with its target.",
    )
    parser.add_argument("--runs", type=int, default=7, help="first-frame runs per app and size")
    parser.add_argument("--keys", type=int, default=20, help="presses per key-latency case")
    parser.add_argument(
        "--quick", action="store_true", help="3 runs, 80x24 skipped, 10 presses, a 1/10 cache"
    )
    parser.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="keep the filled cache here (reused when it is already filled)",
    )
    parser.add_argument("--skip-scale", action="store_true", help="no filled cache, no scale cases")
    parser.add_argument("--skip-imports", action="store_true", help="no import profile")
    parser.add_argument(
        "--app-root",
        type=Path,
        default=ROOT,
        help="run lawsuit-tui from this source tree (a patched copy) instead of this one",
    )
    parser.add_argument(
        "--compare-root",
        type=Path,
        default=None,
        help="also measure the first frame of lawsuit-tui from this tree (a patched copy), "
        "interleaved with the others in the same runs",
    )
    parser.add_argument(
        "--only",
        choices=("frames", "keys", "scale"),
        action="append",
        default=None,
        help="measure only these parts (repeatable; default: all)",
    )
    return parser.parse_args(argv)


def filled_cache(
    base: Path, wanted: Path | None, quick: bool, results: Results
) -> tuple[Path, FillPlan]:
    plan = FillPlan().scaled(10) if quick else FillPlan()
    directory = wanted or (base / "filled-cache")
    stamp = directory / ".bench-tui-plan"
    if directory.exists() and stamp.exists() and stamp.read_text() == repr(plan):
        results.info(f"reusing the filled cache in {directory}")
        return directory, plan
    if directory.exists():
        shutil.rmtree(directory)
    start = time.perf_counter()
    # The app runs on the sandbox (no API key), whose cache is the "sandbox" subdirectory.
    counts = fill(directory / SANDBOX_CACHE_SUBDIR, plan)
    stamp.write_text(repr(plan))
    results.info(
        f"filled {directory}: {counts['responses']:,} responses, {counts['lawsuits']:,} "
        f"lawsuits, {counts['requests']:,} requests in {time.perf_counter() - start:.0f} s"
    )
    return directory, plan


def pristine(filled: Path, base: Path) -> Path:
    """A copy of the filled cache for one case: the app writes to its cache (a lookup keeps
    its lawsuits), and a kept ``--cache-dir`` must not carry one run's writes into the next."""
    copy = base / "cache-copy"
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(filled, copy, ignore=shutil.ignore_patterns("lock", "*.lock"))
    return copy


def _stop(signum: int, _frame: object) -> None:
    # Unwind through the context managers: every tmux session and server gets killed.
    raise SystemExit(128 + signum)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _stop)
    if args.quick:
        args.runs = min(args.runs, 3)
        args.keys = min(args.keys, 10)
    if shutil.which("tmux") is None:
        print("tui: not measured: tmux is not installed")
        return 1
    results = Results()
    load = os.getloadavg()
    import textual

    print(
        f"lawsuit-tui TUI benchmark: python {platform.python_version()}, textual "
        f"{getattr(textual, '__version__', '?')}, {os.cpu_count()} cpus, load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="lawsuit-tui-bench-tui-") as tmp:
        base = Path(tmp)
        setup = Setup(
            base,
            args.app_root.resolve(),
            args.compare_root.resolve() if args.compare_root else None,
        )
        if setup.app_root != ROOT:
            print(f"lawsuit-tui from {setup.app_root}", flush=True)
        empty_cache = base / "empty-cache"
        try:
            with Tmux() as tmux:
                harness = Harness(tmux, setup)
                parts = set(args.only or ("frames", "keys", "scale"))
                if "frames" in parts:
                    for size in SIZES[:1] if args.quick else SIZES:
                        measure_first_frames(
                            harness,
                            results,
                            args.runs,
                            [setup.floor(), *setup.candidates(empty_cache)],
                            size,
                            "",
                        )
                    if not args.skip_imports:
                        import_profile(results, setup.env(empty_cache), setup.app_root)
                        live_imports(harness, results, empty_cache)
                floor_palette = None
                if parts & {"keys", "scale"}:
                    floor_palette = floor_palette_latency(harness, results, args.keys)
                if "keys" in parts:
                    first_key(harness, results, args.runs, empty_cache)
                    key_latency_basic(harness, results, args.keys, empty_cache, floor_palette)
                if args.skip_scale or "scale" not in parts:
                    results.skip("scale cases", "--skip-scale or --only")
                else:
                    filled, plan = filled_cache(base, args.cache_dir, args.quick, results)
                    measure_first_frames(
                        harness,
                        results,
                        args.runs,
                        [setup.floor(), *setup.candidates(pristine(filled, base))],
                        KEY_SIZE,
                        f" on the {plan.responses:,}-response cache",
                    )
                    cache = pristine(filled, base)
                    scale_cases(harness, results, args.keys, cache, plan, floor_palette)
        except TmuxError as error:
            results.skip("tui benchmark", f"tmux failed: {error}")
    return results.finish()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

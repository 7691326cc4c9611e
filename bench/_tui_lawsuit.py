"""The 10,000-step lawsuit cases of ``python -m bench tui`` (opening, expanding, moving,
filtering its steps), apart from bench/tui.py to keep each module short.

The helpers of the harness (``press_until``, ``change_latencies``, ``report_latency``...) live
in bench/tui.py, which imports this module: they are imported when a case runs.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from bench._tui_parse import ms, summarize

if TYPE_CHECKING:
    from bench._tui_tmux import Launch
    from bench.tui import Results

FILTER_TEXT = "despacho"
"""Typed into the step filter, one character at a time (8 characters, as in issue 19)."""
ECHO_TARGET = 0.05
"""Each character must show within 50 ms (issue 19)."""


def lawsuit_case(launch: Launch, results: Results, keys: int, floor_palette: float | None) -> bool:
    from bench.tui import CaseFailed, change_latencies, press_until, report_latency

    big = sandbox_big_lawsuit()
    if big is None:
        raise CaseFailed("the sandbox has no big_lawsuit sample")
    tmux = launch.tmux
    name = launch.name
    if press_until(launch, ["F2"], lambda s: "› Lookup" in s, timeout=10) is None:
        raise CaseFailed("F2 never showed the Lookup screen")
    launch.settle(quiet=0.2, timeout=10, styled=False)
    tmux.send_keys(name, "Escape")  # to the search field; alone, or it reads as alt+<key>
    launch.settle(quiet=0.3, timeout=10, styled=False)
    tmux.send_text(name, big)
    took = press_until(
        launch, ["Enter"], lambda s: "Last step" in s and s.count(big) >= 2, timeout=60
    )
    if took is None:
        raise CaseFailed(f"the lookup of {big} never showed results")
    results.add("lookup of the 10,000-step lawsuit (sandbox, in process)", ms(took))
    launch.settle(quiet=0.3, timeout=30, styled=False)
    took = press_until(launch, ["Enter"], lambda s: "Steps (" in s, timeout=60)
    if took is None:
        raise CaseFailed("Enter on the result never showed the lawsuit's Steps node")
    results.add("open the 10,000-step lawsuit (Enter to its tree)", ms(took))
    if launch.settle(quiet=0.3, timeout=30, styled=True) is None:
        raise CaseFailed("the lawsuit screen never stopped changing")
    screen = tmux.capture(name)
    lines = screen.splitlines()
    steps_line = next((i for i, line in enumerate(lines) if "Steps (" in line), None)
    parties_line = next((i for i, line in enumerate(lines) if "Parties (" in line), None)
    if steps_line is None or parties_line is None:
        raise CaseFailed("the tree shows no Parties and Steps nodes")
    # The cursor starts on the first node (Parties); Steps is the next one.
    if press_until(launch, ["Down"], lambda s: True) is None:
        raise CaseFailed("Down did nothing")
    expand_and_report(launch, results, "expand the Steps node (10,000 steps)")
    # The steps are grouped (by year, newest first): open the first group and move through it.
    if launch.settle(quiet=0.2, timeout=10, styled=True) is None:
        raise CaseFailed("the tree never stopped changing")
    tmux.send_keys(name, "Down")
    expand_and_report(launch, results, "expand the first group of steps")
    times, unsettled = change_latencies(launch, keys, ["Down"])
    if unsettled:
        results.info(f"{unsettled} presses skipped: the screen did not stay still")
    report_latency(results, "key down through the steps", times, floor_palette, keys)
    # Collapse and expand the group again (its children are kept): shift+left to the group.
    tmux.send_keys(name, "S-Left")
    toggles, unsettled = change_latencies(launch, max(6, keys // 2), ["Space"])
    report_latency(
        results, "key collapse/expand a group of steps", toggles, floor_palette, max(6, keys // 2)
    )
    return True


def expand_and_report(launch: Launch, results: Results, name: str) -> None:
    from bench.tui import CaseFailed

    """Space on the cursor node: first visible change, and when the screen is still again."""
    if launch.settle(quiet=0.2, timeout=10, styled=True) is None:
        raise CaseFailed("the tree never stopped changing")
    before = launch.tmux.capture(launch.name)
    start = time.perf_counter()
    launch.tmux.send_keys(launch.name, "Space")
    first = launch.poll(lambda s: s != before, start=start, timeout=30)
    if first is None:
        raise CaseFailed(f"{name}: Space changed nothing")
    results.add(f"{name}: first visible change", ms(first.elapsed))
    if launch.settle(quiet=0.5, timeout=60, styled=True) is None:
        raise CaseFailed(f"{name}: the tree never stopped changing")
    results.add(f"{name}: all of it shown (screen still)", ms(time.perf_counter() - start - 0.5))


def sandbox_big_lawsuit() -> str | None:
    from bench.tui import ROOT

    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "from lawsuit_tui.sandbox.world import World;"
            "print(World.build().samples().get('big_lawsuit') or '')",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    code = proc.stdout.strip()
    return code or None


def _filter_shows(prefix: str) -> Callable[[str], bool]:
    # The filter field's line holds exactly the text typed (tree lines start with guides).
    return lambda screen: any(line.strip() == prefix for line in screen.splitlines())


def step_filter_case(launch: Launch, results: Results) -> None:
    """Typing in the step filter of the 10,000-step lawsuit (issue 19): the echo of each
    character, one at a time (target 50 ms), and of a burst of 8; when the steps are filtered
    after the typing pauses."""
    from bench.tui import CaseFailed, press_until

    name = "step filter of the 10,000-step lawsuit"
    try:
        if launch.settle(quiet=0.3, timeout=30, styled=False) is None:
            raise CaseFailed("the lawsuit screen never stopped changing")
        if press_until(launch, ["/"], lambda s: "Filter steps" in s, timeout=10) is None:
            raise CaseFailed("/ never opened the filter")
        echoes: list[float] = []
        for end in range(1, len(FILTER_TEXT) + 1):
            took = press_until(launch, [FILTER_TEXT[end - 1]], _filter_shows(FILTER_TEXT[:end]))
            if took is None:
                raise CaseFailed(f"{FILTER_TEXT[:end]!r} never showed in the filter")
            echoes.append(took)
        filtered = launch.poll(lambda s: "filtered by" in s, start=time.perf_counter(), timeout=10)
        s = summarize(echoes)
        results.add(
            f"{name}: echo of a character typed alone median",
            f"{ms(s.median)} (n={s.count}, max {ms(s.high)})",
            f"< {ms(ECHO_TARGET)}",
            s.median < ECHO_TARGET,
        )
        results.add(f"{name}: echo max", ms(s.high), f"< {ms(ECHO_TARGET)}", s.high < ECHO_TARGET)
        if filtered is None:
            raise CaseFailed("the steps were never filtered after the pause")
        # Clear (Escape) and type the 8 characters at once, as a fast typist does.
        press_until(launch, ["Escape"], lambda s: "filtered by" not in s, timeout=10)
        if press_until(launch, ["/"], lambda s: "Filter steps" in s, timeout=10) is None:
            raise CaseFailed("/ never opened the filter again")
        start = time.perf_counter()
        launch.tmux.send_keys(launch.name, *FILTER_TEXT)
        whole = launch.poll(_filter_shows(FILTER_TEXT), start=start, timeout=10)
        if whole is None:
            raise CaseFailed("the burst never showed whole")
        results.add(f"{name}: 8 characters at once, all shown", ms(whole.elapsed))
        done = launch.poll(lambda s: "filtered by" in s, start=start, timeout=20)
        if done is not None:
            results.add(
                f"{name}: steps filtered after the typing (pause included)", ms(done.elapsed)
            )
    except CaseFailed as failure:
        results.skip(name, str(failure))

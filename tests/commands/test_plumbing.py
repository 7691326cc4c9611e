"""The command line's plumbing (standard streams, exit codes) lives in commands/, not in the
use cases: services/ neither writes to a terminal nor decides how a process ends."""

from __future__ import annotations

import ast
import asyncio
import io
from datetime import timedelta
from pathlib import Path

import lawsuit_tui.services
from lawsuit_tui.api.ratelimit import RateWait
from lawsuit_tui.commands.output import Countdown
from tests.support.clock import FakeClock
from tests.support.waiting import wait_for

SERVICES_DIR = Path(lawsuit_tui.services.__file__).parent
STREAMS = {("sys", "stdout"), ("sys", "stderr"), ("sys", "exit")}


def plumbing_in(source: str) -> list[str]:
    """Each print, standard stream, exit or exit-code name a module's code uses."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in ("print", "exit", "quit"):
                found.append(f"{node.lineno}: {node.func.id}()")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if (node.value.id, node.attr) in STREAMS:
                found.append(f"{node.lineno}: {node.value.id}.{node.attr}")
        elif isinstance(node, ast.Name | ast.alias):
            name = node.id if isinstance(node, ast.Name) else node.name
            if name.startswith("EXIT_") or name in ("stdout", "stderr"):
                found.append(f"{node.lineno}: {name}")
    return found


def test_services_write_nothing_to_the_terminal_and_know_no_exit_codes() -> None:
    offenders = {
        str(path.relative_to(SERVICES_DIR)): found
        for path in sorted(SERVICES_DIR.rglob("*.py"))
        if (found := plumbing_in(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}


def test_the_scan_sees_each_kind_of_plumbing() -> None:
    source = (
        "import sys\nfrom sys import stderr\nEXIT_OK = 0\nprint('x')\n"
        "sys.stdout.write('x')\nsys.exit(EXIT_OK)\n"
    )
    found = {line.split(": ")[1] for line in plumbing_in(source)}
    assert found == {"stderr", "EXIT_OK", "print()", "sys.stdout", "sys.exit"}


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _WaitOnFakeTime:
    """A RateWait read on the test's clock (the real one reads the wall clock)."""

    def __init__(self, wait: RateWait, clock: FakeClock) -> None:
        self.wait, self.clock = wait, clock

    def seconds_left(self) -> int:
        return self.wait.seconds_left(self.clock())

    def describe(self) -> str:
        return self.wait.describe(self.clock())


async def test_a_wait_for_the_rate_limit_counts_down_on_standard_error() -> None:
    """Issue 18: a 429's Retry-After is waited out visibly, a second at a time on a
    terminal, every ``every`` seconds in a log; never on standard output."""
    clock = FakeClock()
    ticks: list[float] = []

    async def sleep(seconds: float) -> None:
        ticks.append(seconds)
        clock.advance(seconds=seconds)
        await asyncio.sleep(0)

    terminal = _Terminal()
    countdown = Countdown(terminal, sleep=sleep)
    wait = RateWait("retry_after", 3.0, clock() + timedelta(seconds=3))
    countdown.follow_rate_wait(_WaitOnFakeTime(wait, clock))
    await wait_for(lambda: len(ticks) >= 3)
    drawn = [part for part in terminal.getvalue().split("\r\x1b[2K") if part]
    assert drawn[:3] == [
        f"the service asked to slow down: waiting {n} s, until {wait.until:%H:%M:%S}"
        for n in (3, 2, 1)
    ]
    countdown.follow_rate_wait(None)
    assert terminal.getvalue().endswith("\r\x1b[2K")  # the line is erased when it ends

    log = io.StringIO()
    quiet = Countdown(log, every=10.0, clock=lambda: clock().timestamp())
    for _second in range(25):
        quiet.show("waiting")
        clock.advance(seconds=1)
    assert log.getvalue().count("waiting") == 3  # at 0, 10 and 20 s

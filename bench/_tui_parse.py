"""Pure helpers of the TUI benchmark: parsing what tmux, /proc and ``-X importtime`` print,
and the statistics and report lines. No I/O here, so tests can feed them canned text."""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# --- /proc/<pid>/status ------------------------------------------------------------------

_STATUS_KB = re.compile(r"^(Vm\w+|Rss\w+):\s+(\d+)\s+kB\s*$")


def parse_proc_status(text: str) -> dict[str, int]:
    """The memory fields of /proc/<pid>/status, in bytes (``VmHWM``, ``VmRSS``, ...)."""
    fields: dict[str, int] = {}
    for line in text.splitlines():
        match = _STATUS_KB.match(line.strip())
        if match:
            fields[match.group(1)] = int(match.group(2)) * 1024
    return fields


def parse_ppid(stat_text: str) -> int | None:
    """The parent pid from /proc/<pid>/stat (the command name may hold spaces and parens)."""
    end = stat_text.rfind(")")
    if end < 0:
        return None
    rest = stat_text[end + 1 :].split()
    if len(rest) < 2:
        return None
    try:
        return int(rest[1])
    except ValueError:
        return None


def descendants(root: int, parents: dict[int, int]) -> list[int]:
    """``root`` and every process below it, given a pid -> parent pid map."""
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    out: list[int] = []
    todo = [root]
    while todo:
        pid = todo.pop()
        if pid in out:
            continue
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


# --- tmux control mode -------------------------------------------------------------------


@dataclass
class ControlBlock:
    """The output of one command sent to a ``tmux -C`` client."""

    number: int
    ok: bool
    lines: list[str]


class ControlParser:
    """Turns the lines a ``tmux -C`` client prints into command blocks.

    Each command sent gets exactly one ``%begin <time> <number> <flags>`` ... ``%end`` (or
    ``%error``) block, in order; notifications (``%output``, ``%session-changed``, ...) come
    only between blocks and are dropped.
    """

    def __init__(self) -> None:
        self._current: ControlBlock | None = None
        self._tag: tuple[str, str] | None = None

    def feed(self, line: str) -> ControlBlock | None:
        """One line (without its newline); returns a block when this line closes one."""
        if self._current is None:
            if line.startswith("%begin "):
                parts = line.split()
                if len(parts) >= 3:
                    self._tag = (parts[1], parts[2])
                    self._current = ControlBlock(int(parts[2]), True, [])
            return None
        if line.startswith(("%end ", "%error ")):
            parts = line.split()
            if len(parts) >= 3 and (parts[1], parts[2]) == self._tag:
                block = self._current
                block.ok = line.startswith("%end ")
                self._current = None
                self._tag = None
                return block
        self._current.lines.append(line)
        return None


# --- -X importtime -----------------------------------------------------------------------

_IMPORT_LINE = re.compile(r"^import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)\s*$")


@dataclass(frozen=True)
class ImportEntry:
    module: str
    self_us: int
    cumulative_us: int
    depth: int

    @property
    def package(self) -> str:
        return self.module.split(".")[0]


def parse_importtime(text: str) -> list[ImportEntry]:
    """The entries of ``python -X importtime``'s stderr (other lines are ignored)."""
    entries: list[ImportEntry] = []
    for line in text.splitlines():
        match = _IMPORT_LINE.match(line)
        if match:
            indent = len(match.group(3)) - 1
            entries.append(
                ImportEntry(match.group(4), int(match.group(1)), int(match.group(2)), indent // 2)
            )
    return entries


def heaviest_modules(entries: Iterable[ImportEntry], count: int = 10) -> list[ImportEntry]:
    """The ``count`` modules with the largest self time."""
    return sorted(entries, key=lambda e: e.self_us, reverse=True)[:count]


def heaviest_packages(entries: Iterable[ImportEntry], count: int = 10) -> list[tuple[str, int]]:
    """Top-level packages by the sum of their modules' self time (microseconds)."""
    totals: dict[str, int] = {}
    for entry in entries:
        totals[entry.package] = totals.get(entry.package, 0) + entry.self_us
    return sorted(totals.items(), key=lambda item: item[1], reverse=True)[:count]


def heaviest_chains(entries: Sequence[ImportEntry], count: int = 10) -> list[ImportEntry]:
    """Top-level imports (depth 0) by cumulative time: who pulled the weight in."""
    return sorted(
        (e for e in entries if e.depth == 0), key=lambda e: e.cumulative_us, reverse=True
    )[:count]


# --- statistics and report lines ---------------------------------------------------------


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (``fraction`` in 0..1) of a non-empty sequence."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class Summary:
    median: float
    low: float
    high: float
    p95: float
    count: int


def summarize(values: Sequence[float]) -> Summary:
    return Summary(
        statistics.median(values),
        min(values),
        max(values),
        percentile(values, 0.95),
        len(values),
    )


def verdict(met: bool | None) -> str:
    return "not judged" if met is None else ("met" if met else "MISSED")


def figure_line(name: str, value: str, target: str = "", met: bool | None = None) -> str:
    """``name: value (target ...) met|MISSED``; a figure without a target has no verdict."""
    line = f"{name}: {value}"
    if target:
        line += f" (target {target}) {verdict(met)}"
    return line


def not_measured_line(name: str, reason: str) -> str:
    return f"{name}: not measured: {reason}"


def mib(value_bytes: float) -> str:
    return f"{value_bytes / 2**20:.1f} MiB"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def parse_stalls(text: str) -> list[tuple[float, float]]:
    """``(sent, waited)`` seconds of bench/_tui_lagprobe.py's ``<sent> <waited>`` lines."""
    stalls: list[tuple[float, float]] = []
    for line in text.splitlines():
        sent, _sep, waited = line.partition(" ")
        try:
            stalls.append((float(sent), float(waited)))
        except ValueError:
            continue
    return stalls


def worst_by_phase(
    stalls: Sequence[tuple[float, float]], phases: Sequence[tuple[float, str]]
) -> list[tuple[str, float, int]]:
    """For each ``(start, name)`` phase (in order; each ends where the next starts): its
    name, its longest stall and how many stalls in it reached 100 ms."""
    found: list[tuple[str, float, int]] = []
    for n, (start, name) in enumerate(phases):
        end = phases[n + 1][0] if n + 1 < len(phases) else float("inf")
        waits = [waited for sent, waited in stalls if start <= sent < end]
        found.append((name, max(waits, default=0.0), sum(1 for w in waits if w >= 0.1)))
    return found

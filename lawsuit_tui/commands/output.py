"""What every headless command writes: exit codes, the one-line error, progress on stderr.

The exit codes are one table, :data:`EXIT_CODES` (kept in ``exit_codes.py``, light enough
for ``--help``), re-exported here for the commands.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol, TextIO

from pydantic import ValidationError

from lawsuit_tui.commands.exit_codes import (
    EXIT_APPLICATION_ERROR,
    EXIT_BAD_INPUT,
    EXIT_CODES,
    EXIT_DAMAGED,
    EXIT_NOT_KEPT,
    EXIT_NOTHING_MATCHED,
    EXIT_OK,
    EXIT_REFUSED,
    exit_codes_epilog,
)
from lawsuit_tui.domain.bodies import validation_messages
from lawsuit_tui.domain.identifiers import InvalidSearchKey
from lawsuit_tui.i18n import _
from lawsuit_tui.services.errors import CacheError, os_problem
from lawsuit_tui.services.results import Progress

__all__ = [
    "EXIT_APPLICATION_ERROR",
    "EXIT_BAD_INPUT",
    "EXIT_CODES",
    "EXIT_DAMAGED",
    "EXIT_NOTHING_MATCHED",
    "EXIT_NOT_KEPT",
    "EXIT_OK",
    "EXIT_REFUSED",
    "PROG",
    "Countdown",
    "ProgressPrinter",
    "bad_input_message",
    "cache_problem",
    "cache_refusal",
    "confirmed",
    "error_line",
    "exit_codes_epilog",
    "human_size",
]

PROG = "lawsuit-tui"
# Back to the start of the line, and erase it: the line a terminal redraws in place.
_ERASE_LINE = "\r\x1b[2K"


def confirmed(question: str) -> bool:
    """Ask ``question`` on the terminal; True only for a yes (in English or Portuguese)."""
    print(question + " " + _("[y/N]"), end=" ", flush=True)
    try:
        answer = input()
    except EOFError:
        return False
    return answer.strip().casefold() in ("y", "yes", "s", "sim")


def error_line(message: str, stream: TextIO | None = None) -> None:
    print(f"{PROG}: {message}", file=stream or sys.stderr)


def cache_problem(exc: CacheError) -> str:
    """The line for a cache that failed a command: ``cache: <what went wrong>``."""
    return _("cache: {problem}").format(problem=exc)


def cache_refusal(exc: CacheError | OSError, directory: Path) -> int:
    """The cache in ``directory`` could not be read or written: one line saying why (an OS
    error as a sentence naming the folder), and :data:`EXIT_REFUSED`."""
    error_line(cache_problem(exc) if isinstance(exc, CacheError) else os_problem(exc, directory))
    return EXIT_REFUSED


def human_size(size: int) -> str:
    """``512 B``, ``1.5 KB``, ``3.2 MB``."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


def bad_input_message(exc: BaseException) -> str:
    """One line for an input problem (an invalid identifier, a body the spec refuses)."""
    if isinstance(exc, ValidationError):
        return "; ".join(validation_messages(exc))
    if isinstance(exc, InvalidSearchKey):
        return exc.message
    return str(exc)


class _LineInPlace:
    """A line on standard error that a terminal redraws in place; off a terminal, lines at
    most every ``every`` seconds (``_last_line``: when the last was printed)."""

    def __init__(self, stream: TextIO | None, every: float, clock: Callable[[], float]) -> None:
        self.stream = stream or sys.stderr
        self.is_tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every = every
        self._clock = clock
        self._last_line = -1e9
        self._drawn = False

    def _draw(self, text: str) -> None:
        self.stream.write(_ERASE_LINE + text)
        self.stream.flush()
        self._drawn = True

    def _erase(self) -> None:
        if self.is_tty and self._drawn:
            self._drawn = False
            self.stream.write(_ERASE_LINE)
            self.stream.flush()


class ProgressPrinter(_LineInPlace):
    """Progress on standard error: a bar redrawn in place on a terminal, plain lines
    (at most one per ``every`` seconds, and one per new message) otherwise."""

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        every: float = 2.0,
        width: int = 30,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(stream, every, clock)
        self.width = width
        self._last_message: str | None = None

    def _text(self, progress: Progress) -> str:
        parts = [progress.message]
        if progress.total:
            parts.append(f"{progress.done}/{progress.total}")
        elif progress.done:
            parts.append(str(progress.done))
        if progress.calls:
            parts.append(_("{calls} calls").format(calls=progress.calls))
        if progress.waiting_for_rate_limit:
            parts.append(_("waiting for the rate limit"))
        return " · ".join(parts)

    def __call__(self, progress: Progress) -> None:
        if self.is_tty:
            bar = ""
            if progress.total:
                filled = min(self.width, int(self.width * progress.done / progress.total))
                bar = "[" + "#" * filled + "-" * (self.width - filled) + "] "
            self._draw(bar + self._text(progress))
            return
        now = self._clock()
        if progress.message != self._last_message or now - self._last_line >= self.every:
            self._last_message = progress.message
            self._last_line = now
            print(self._text(progress), file=self.stream, flush=True)

    def line(self, text: str) -> None:
        """A message of its own (an event), not overwritten by the bar."""
        self.finish()
        print(text, file=self.stream, flush=True)

    def finish(self) -> None:
        self._erase()


class _Wait(Protocol):
    """A wait under way (``api.ratelimit.RateWait``): says how long is left."""

    def describe(self) -> str: ...

    def seconds_left(self) -> int: ...


class Countdown(_LineInPlace):
    """A wait shown on standard error: redrawn in place every second on a terminal; off a
    terminal (cron, a log file) a line when it starts and every ``every`` seconds after."""

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        every: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        super().__init__(stream, every, clock)
        self._sleep = sleep
        self._ticking: asyncio.Task[None] | None = None

    def show(self, text: str) -> None:
        with contextlib.suppress(OSError, ValueError):  # a closed terminal: nothing to tell
            if self.is_tty:
                self._draw(text)
                return
            now = self._clock()
            if now - self._last_line >= self.every:
                self._last_line = now
                print(text, file=self.stream, flush=True)

    def clear(self) -> None:
        """End the wait: the line drawn in place is erased, the next wait starts afresh."""
        if self._ticking is not None:
            self._ticking.cancel()
            self._ticking = None
        self._last_line = -1e9
        with contextlib.suppress(OSError, ValueError):
            self._erase()

    def follow_rate_wait(self, wait: _Wait | None) -> None:
        """The listener of ``ApiClient.on_rate_wait``: a countdown while a wait lasts (a
        wait shorter than a second between two calls is not worth a line)."""
        if wait is None:
            self.clear()
            return
        if wait.seconds_left() < 1:
            return
        if self._ticking is not None:
            self._ticking.cancel()
        try:
            self._ticking = asyncio.get_running_loop().create_task(self._tick(wait))
        except RuntimeError:
            self.show(wait.describe())

    async def _tick(self, wait: _Wait) -> None:
        while wait.seconds_left() > 0:
            self.show(wait.describe())
            await self._sleep(1.0)

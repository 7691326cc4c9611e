"""What every headless command writes: exit codes, the one-line error, progress on stderr.

Exit codes (issue 4): 0 done; 1 the service said no (one clear line on standard error);
2 bad usage or input (one line, before any call).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from pydantic import ValidationError

from lawsuit_tui.domain.bodies import validation_messages
from lawsuit_tui.domain.identifiers import InvalidSearchKey
from lawsuit_tui.i18n import _
from lawsuit_tui.services.results import Progress

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_OK",
    "EXIT_REFUSED",
    "PROG",
    "ProgressPrinter",
    "bad_input_message",
    "error_line",
]

PROG = "lawsuit-tui"
EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_BAD_INPUT = 2


def error_line(message: str, stream: TextIO | None = None) -> None:
    print(f"{PROG}: {message}", file=stream or sys.stderr)


def bad_input_message(exc: BaseException) -> str:
    """One line for an input problem (an invalid identifier, a body the spec refuses)."""
    if isinstance(exc, ValidationError):
        return "; ".join(validation_messages(exc))
    if isinstance(exc, InvalidSearchKey):
        return exc.message
    return str(exc)


class ProgressPrinter:
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
        self.stream = stream or sys.stderr
        self.is_tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every = every
        self.width = width
        self._clock = clock
        self._last_message: str | None = None
        self._last_line = -1e9
        self._drawn = False

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
            self.stream.write("\r\x1b[2K" + bar + self._text(progress))
            self.stream.flush()
            self._drawn = True
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
        if self.is_tty and self._drawn:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self._drawn = False

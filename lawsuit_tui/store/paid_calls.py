"""The record of paid calls: one line per creation the service answered, kept apart from the
cache's tables so that it is written when nothing else can be.

A request, a tracking or a credential is paid (or cannot be made twice) the moment the
service answers. The cache's journal may be held by another process, be on a full disk or
be damaged; this file is none of those things for long: it is opened, appended to with one
``write`` under ``flock`` (any number of processes append to it), fsynced and closed for
every line. ``paid-calls.jsonl`` in the cache directory, mode 0600::

    {"at": "2026-11-20T12:00:00.123456+00:00", "route": "create_request",
     "kind": "request", "ids": ["…"], "answer": {…}, "sent": {…}, "pid": 4242}

Append-only: lines are never rewritten. A line cut short (the disk filled up in the middle
of the ``write``) is skipped when read, and the next append starts on a new line. What has
been brought into the cache is remembered by the caller as a byte offset into this file
(see ``services/paid_calls.py``), so reading resumes where it stopped.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from lawsuit_tui.i18n import _
from lawsuit_tui.store.fileio import FILE_MODE, ensure_private_dir

__all__ = ["RECORD_FILE", "PaidCallLine", "PaidCallRecord", "RecordRead"]

RECORD_FILE = "paid-calls.jsonl"


@dataclass(frozen=True)
class PaidCallLine:
    """One line of the record: ``offset`` is where it starts in the file, ``end`` where the
    next one starts."""

    offset: int
    end: int
    entry: dict[str, Any]

    @property
    def kind(self) -> str:
        value = self.entry.get("kind")
        return value if isinstance(value, str) else ""

    @property
    def ids(self) -> list[str]:
        ids = self.entry.get("ids")
        return [str(i) for i in ids] if isinstance(ids, list) else []


@dataclass
class RecordRead:
    """Lines read from an offset, the offset after the last complete line, and lines that
    could not be read (their offsets, in ``problems`` as sentences)."""

    lines: list[PaidCallLine] = field(default_factory=list)
    end: int = 0
    problems: list[str] = field(default_factory=list)


class PaidCallRecord:
    """The record of one cache directory (the file need not exist yet)."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    @property
    def path(self) -> Path:
        return self.directory / RECORD_FILE

    def append(self, entry: dict[str, Any]) -> None:
        """Append ``entry`` as one line, durable on return; raises OSError (a full disk, a
        read-only file system) with the line not kept, or kept only in part."""
        line = orjson.dumps(entry) + b"\n"
        ensure_private_dir(self.directory)
        # Read and write: the last byte is read to tell a line cut short.
        flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(self.path, flags, FILE_MODE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                line = b"\n" + line  # the last append was cut short: never glue onto it
            view = memoryview(line)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)  # releases the flock too

    def read(self, offset: int = 0) -> RecordRead:
        """The complete lines from ``offset`` (0: the whole record); no file: nothing."""
        try:
            with self.path.open("rb") as handle:
                handle.seek(offset)
                data = handle.read()
        except FileNotFoundError:
            return RecordRead(end=offset)
        result = RecordRead(end=offset)
        for start, raw in _lines(data):
            if not raw.endswith(b"\n"):
                break  # being written, or cut short: read again next time
            position = offset + start
            result.end = position + len(raw)
            text = raw.strip()
            if not text:
                continue
            try:
                entry = orjson.loads(text)
            except orjson.JSONDecodeError:
                entry = None
            if not isinstance(entry, dict):
                result.problems.append(
                    _("{name}: unreadable line at byte {offset}, skipped").format(
                        name=RECORD_FILE, offset=position
                    )
                )
                continue
            result.lines.append(PaidCallLine(position, result.end, entry))
        return result

    def size(self) -> int:
        with contextlib.suppress(OSError):
            return self.path.stat().st_size
        return 0


def _lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        if end < 0:
            yield start, data[start:]
            return
        yield start, data[start : end + 1]
        start = end + 1

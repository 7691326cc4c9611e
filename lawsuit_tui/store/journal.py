"""The write-ahead journal: what makes a write durable without rewriting its shard.

A write appends one line to the current segment and fdatasyncs it; only then is it applied
in memory and acknowledged. A line is ``<crc32 hex> <orjson array of operations>\\n``; each
operation is ``[table, key, document]`` (document null for a deletion), the final state of
the key, so replaying a segment twice gives the same result. One line holds one call's batch,
so a batch is all or nothing. A line cut short by a kill fails its checksum and is ignored
(it was never acknowledged).

A checkpoint starts a new segment, writes the dirty shards of the state at that moment, and
then deletes the older segments; until then they stay and replay harmlessly on top of the
shards.
"""

from __future__ import annotations

import contextlib
import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from lawsuit_tui.i18n import _
from lawsuit_tui.store.fileio import FILE_MODE, fsync_dir

Operation = tuple[str, str, Any]

_PREFIX = "seg-"
_SUFFIX = ".log"


def segment_name(number: int) -> str:
    return f"{_PREFIX}{number:012d}{_SUFFIX}"


def list_segments(directory: Path) -> list[tuple[int, Path]]:
    found: list[tuple[int, Path]] = []
    if not directory.is_dir():
        return found
    for entry in directory.iterdir():
        name = entry.name
        if name.startswith(_PREFIX) and name.endswith(_SUFFIX):
            with contextlib.suppress(ValueError):
                found.append((int(name[len(_PREFIX) : -len(_SUFFIX)]), entry))
    found.sort()
    return found


def encode(ops: list[Operation]) -> bytes:
    payload = orjson.dumps(ops)
    return b"%08x " % zlib.crc32(payload) + payload + b"\n"


@dataclass
class ReadResult:
    batches: list[list[Operation]]
    consumed: int  # bytes of complete, valid lines: where the next read resumes
    problem: str | None = None


def read_segment(path: Path, offset: int = 0) -> ReadResult:
    """Complete entries of a segment from ``offset``; stops at a torn or corrupt line."""
    try:
        with path.open("rb") as f:
            f.seek(offset)
            data = f.read()
    except FileNotFoundError:
        return ReadResult([], offset)
    batches: list[list[Operation]] = []
    pos = 0
    problem = None
    for line in _lines(data):
        if not line.endswith(b"\n"):
            break  # a write in progress or cut by a kill: never acknowledged
        ok = len(line) > 10 and line[8:9] == b" "
        if ok:
            payload = line[9:-1]
            try:
                ok = int(line[:8], 16) == zlib.crc32(payload)
            except ValueError:
                ok = False
        if not ok:
            problem = _("journal {name}: corrupt entry at byte {offset}, ignored").format(
                name=path.name, offset=offset + pos
            )
            pos += len(line)
            continue
        raw = orjson.loads(payload)
        batches.append([(str(t), str(k), d) for t, k, d in raw])
        pos += len(line)
    return ReadResult(batches, offset + pos, problem)


def _lines(data: bytes) -> Iterator[bytes]:
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        if end < 0:
            yield data[start:]
            return
        yield data[start : end + 1]
        start = end + 1


class JournalWriter:
    """Appends to the current segment; owned by the one writer process."""

    def __init__(self, directory: Path, number: int) -> None:
        self.directory = directory
        self.number = number
        self.path = directory / segment_name(number)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, FILE_MODE)
        self.size = os.fstat(self._fd).st_size
        fsync_dir(directory)

    def append(self, ops: list[Operation]) -> None:
        line = encode(ops)
        view = memoryview(line)
        while view:
            view = view[os.write(self._fd, view) :]
        os.fdatasync(self._fd)
        self.size += len(line)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._fd)

    def rotate(self) -> JournalWriter:
        """Close this segment and start the next one."""
        self.close()
        return JournalWriter(self.directory, self.number + 1)

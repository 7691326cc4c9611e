"""Advisory OS locks on files in the cache directory.

``lock`` is held exclusively by the one writer for its whole life (a second writer gets
CacheLocked). ``checkpoint.lock`` is held shared by readers while they load or refresh and
exclusively by the writer while it deletes journal segments, so a reader never misses
entries that moved from a segment into a shard between its two reads.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from lawsuit_tui.store.errors import CacheLocked
from lawsuit_tui.store.fileio import FILE_MODE

WRITER_LOCK = "lock"
CHECKPOINT_LOCK = "checkpoint.lock"


class WriterLock:
    def __init__(self, directory: Path) -> None:
        path = directory / WRITER_LOCK
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(self._fd, 32, 0).decode(errors="replace").strip()
            os.close(self._fd)
            raise CacheLocked(str(directory), holder) from None
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, str(os.getpid()).encode(), 0)

    def release(self) -> None:
        if self._fd >= 0:
            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_UN)
                os.close(self._fd)
            self._fd = -1


@contextlib.contextmanager
def checkpoint_lock(directory: Path, *, exclusive: bool) -> Iterator[None]:
    """Hold ``checkpoint.lock``; without a usable lock file (read-only media) just proceed."""
    path = directory / CHECKPOINT_LOCK
    fd = -1
    for flags in (os.O_RDWR | os.O_CREAT, os.O_RDONLY):
        try:
            fd = os.open(path, flags, FILE_MODE)
            break
        except OSError:
            continue
    if fd < 0:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)

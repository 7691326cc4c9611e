"""Durable file primitives: atomic replacement, directory fsync, private modes.

Every file the cache writes goes through :func:`atomic_write_bytes`: the bytes go to a
temporary file in the same directory (mode 0600), are fsynced, and replace the target
with ``os.replace``; the directory is then fsynced so the rename itself survives a crash.
A kill at any moment leaves either the old file or the new one, plus at worst a stray
temporary file that :func:`remove_leftover_tmp` deletes at the next start.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

FILE_MODE = 0o600
DIR_MODE = 0o700
TMP_MARKER = ".tmp-"


def ensure_private_dir(directory: Path) -> None:
    directory.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    # mkdir's mode is filtered by the umask and ignored for existing directories.
    directory.chmod(DIR_MODE)


def fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes, *, sync_dir: bool = True) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves the old or the new content."""
    tmp = path.with_name(f"{path.name}{TMP_MARKER}{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    os.close(fd)
    tmp.replace(path)
    if sync_dir:
        fsync_dir(path.parent)


def remove_leftover_tmp(directory: Path) -> int:
    """Delete temporary files a killed writer left behind; returns how many."""
    removed = 0
    if not directory.is_dir():
        return 0
    for entry in directory.iterdir():
        if TMP_MARKER in entry.name and entry.is_file():
            with contextlib.suppress(OSError):
                entry.unlink()
                removed += 1
    return removed

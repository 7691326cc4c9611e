"""Exceptions of the local cache (messages are shown to the user, so they are translated)."""

from __future__ import annotations

import errno

from lawsuit_tui.i18n import _


class CacheError(Exception):
    """The cache cannot be used as asked (unreadable schema, read-only write, closed store)."""


class CacheLocked(CacheError):
    """Another process holds the cache for writing; open it read-only instead."""

    def __init__(self, directory: str, holder: str = "") -> None:
        self.directory = directory
        self.holder = holder
        if holder:
            text = _(
                "The cache at {path} is in use by another lawsuit-tui process (pid {pid}). "
                "Open it read-only, or close the other process first."
            ).format(path=directory, pid=holder)
        else:
            text = _(
                "The cache at {path} is in use by another lawsuit-tui process. "
                "Open it read-only, or close the other process first."
            ).format(path=directory)
        super().__init__(text)


class CacheReadOnly(CacheError):
    """A write was attempted on a store opened with read_only=True."""


class CacheUnavailable(CacheError):
    """The cache directory cannot be used (an OS error: read-only, not ours, not a directory,
    full); the message names the path and what to do."""


def os_problem(error: OSError, path: object, *, setting: str = "cache_dir") -> str:
    """One sentence for an OS error on ``path``: what is wrong and what to do about it (D143).

    ``setting`` is what the user changes to point elsewhere (the cache_dir setting, --out).
    """
    code = error.errno
    where = str(getattr(error, "filename", None) or path)
    if code == errno.EROFS:
        return _("{path} is on a read-only file system; set {setting} to a writable place").format(
            path=where, setting=setting
        )
    if code in (errno.EACCES, errno.EPERM):
        return _(
            "{path}: permission denied; make it writable by you (chmod u+rwx) or set "
            "{setting} to another place"
        ).format(path=where, setting=setting)
    if code in (errno.ENOTDIR, errno.EEXIST):
        return _(
            "{path}: a part of this path is a file, not a directory; move that file away or "
            "set {setting} to another place"
        ).format(path=where, setting=setting)
    if code == errno.ENOSPC:
        return _("{path}: the disk is full; free some space").format(path=where)
    if code == errno.EDQUOT:
        return _("{path}: your disk quota is used up; free some space").format(path=where)
    if code == errno.EFBIG:
        return _(
            "{path}: the file would be larger than this process may write; raise the "
            "limit (ulimit -f)"
        ).format(path=where)
    if code == errno.ENOENT:
        return _(
            "{path}: a directory of this path does not exist; create it or set {setting} "
            "to another place"
        ).format(path=where, setting=setting)
    return _("{path}: {problem}").format(path=where, problem=error.strerror or error)

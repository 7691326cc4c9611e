"""Exceptions of the local cache (messages are shown to the user, so they are translated)."""

from __future__ import annotations

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

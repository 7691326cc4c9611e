"""Emptying a cache at once: what the sandbox's cache becomes when its sandbox starts afresh.

A cache filled from one sandbox means nothing to another (its requests would answer 404
forever: D183). :func:`wipe` takes the cache from its writer (``CacheLocked`` when another
process holds it), moves the whole directory aside in one rename (so no process ever opens a
half-removed cache, and a kill at any moment leaves either the old cache or none), then
deletes what was moved aside, and what an earlier wipe killed midway left.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from lawsuit_tui.store.lock import WriterLock
from lawsuit_tui.store.schema import SCHEMA_FILE

__all__ = ["holds_a_cache", "wipe"]

_ASIDE = ".wiped-"


def wipe(directory: Path) -> bool:
    """Remove the cache at ``directory``; whether there was one."""
    directory = Path(directory)
    for leftover in directory.parent.glob(f"{directory.name}{_ASIDE}*"):
        shutil.rmtree(leftover, ignore_errors=True)
    if not directory.exists():
        return False
    lock = WriterLock(directory)
    try:
        aside = directory.with_name(f"{directory.name}{_ASIDE}{os.getpid()}-{time.time_ns()}")
        directory.rename(aside)
    finally:
        lock.release()
    shutil.rmtree(aside, ignore_errors=True)
    return True


def holds_a_cache(directory: Path) -> bool:
    """Whether a cache was ever made at ``directory`` (not an empty or stray directory)."""
    return (Path(directory) / SCHEMA_FILE).exists()

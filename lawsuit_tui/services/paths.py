"""Where the cache of a configuration lives (light: imports nothing heavy, for the commands).

In sandbox mode the cache is the "sandbox" directory inside ``cache_dir``: the sandbox's
made-up requests and lawsuits never mix with live data, and switching an API key on or off
never shows one world's records in the other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

__all__ = [
    "SANDBOX_CACHE_SUBDIR",
    "STATE_SUBDIR",
    "CacheSettings",
    "cache_path",
    "state_path_for",
]

SANDBOX_CACHE_SUBDIR = "sandbox"
# Where the embedded sandbox keeps its state (D180), one file per seed.
STATE_SUBDIR = "sandbox-state"


class CacheSettings(Protocol):
    """What says where the cache is (the settings, or a command's light stand-in for them)."""

    @property
    def cache_dir(self) -> Path: ...

    @property
    def mode(self) -> str: ...


def cache_path(settings: CacheSettings) -> Path:
    """The cache directory for ``settings``: ``cache_dir`` in live mode, its "sandbox"
    subdirectory in sandbox mode."""
    base = Path(settings.cache_dir)
    return base / SANDBOX_CACHE_SUBDIR if settings.mode == "sandbox" else base


def state_path_for(cache_dir: Path, seed: int) -> Path:
    """The file of the embedded sandbox's state of ``seed`` under ``cache_dir`` (D180)."""
    return Path(cache_dir) / STATE_SUBDIR / f"seed-{seed}.sqlite3"

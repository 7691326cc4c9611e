"""Where the cache of a configuration lives (light: imports nothing heavy, for the commands).

In sandbox mode the cache is the "sandbox" directory inside ``cache_dir``: the sandbox's
made-up requests and lawsuits never mix with live data, and switching an API key on or off
never shows one world's records in the other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

__all__ = ["SANDBOX_CACHE_SUBDIR", "cache_path"]

SANDBOX_CACHE_SUBDIR = "sandbox"


class _HasCache(Protocol):
    @property
    def cache_dir(self) -> Path: ...

    @property
    def mode(self) -> str: ...


def cache_path(settings: _HasCache) -> Path:
    """The cache directory for ``settings``: ``cache_dir`` in live mode, its "sandbox"
    subdirectory in sandbox mode."""
    base = Path(settings.cache_dir)
    return base / SANDBOX_CACHE_SUBDIR if settings.mode == "sandbox" else base

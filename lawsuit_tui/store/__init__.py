"""The local cache (TinyDB shards under a crash-safe storage, a journal, in-memory indexes).

See :mod:`lawsuit_tui.store.store` for the durability contract and the directory layout.
"""

from __future__ import annotations

from lawsuit_tui.store.errors import CacheError, CacheLocked, CacheReadOnly
from lawsuit_tui.store.lawsuits import LawsuitChange, LawsuitEntry, LawsuitState
from lawsuit_tui.store.sanitize import Sanitizer, sanitize
from lawsuit_tui.store.store import Store

__all__ = [
    "CacheError",
    "CacheLocked",
    "CacheReadOnly",
    "LawsuitChange",
    "LawsuitEntry",
    "LawsuitState",
    "Sanitizer",
    "Store",
    "sanitize",
]

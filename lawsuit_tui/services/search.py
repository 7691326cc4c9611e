"""Full-text search over everything cached: offline, accent- and case-insensitive, ranked.

The index (``store/fulltext.py``, SQLite FTS5 beside the cache) is derived: opened and brought
up to date with the cache the first time it is needed (in a worker thread), then kept current
two ways:

- in the process that writes the cache, every committed batch of lawsuits is queued for a
  small indexing thread (the writer's commit never waits for it);
- before a search, when the last catch-up is older than ``CATCH_UP_EVERY`` seconds, the index is
  compared with the cache's stamps again: that picks up what another process wrote (this one
  reading the cache it holds) at the cost of one comparison held in memory (~10 ms for 20,000
  lawsuits), not a read of every record.

A search never fails for want of an index: a damaged file is started afresh and filled again.
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lawsuit_tui.store import Store
from lawsuit_tui.store.changes import Change
from lawsuit_tui.store.indexes.fulltext import (
    HIT_END,
    HIT_START,
    FullTextIndex,
    SearchHit,
    indexed_lawsuit,
)

__all__ = [
    "CATCH_UP_EVERY",
    "HIT_END",
    "HIT_START",
    "IndexStatus",
    "SearchHit",
    "SearchService",
]

CATCH_UP_EVERY = 5.0
_STOP = object()


@dataclass(frozen=True, slots=True)
class IndexStatus:
    lawsuits: int
    """Lawsuits the index holds."""
    changed: int
    """Keys the last catch-up (re)indexed or dropped."""


class SearchService:
    """Search the cache's lawsuits by any words: names, documents, numbers, classes, steps."""

    def __init__(
        self, store: Store, *, owns_store: bool = False, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._store = store
        self._owns_store = owns_store
        self._clock = clock
        self._index: FullTextIndex | None = None
        self._open_lock = threading.Lock()
        self._last_catch_up = float("-inf")
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self._idle = threading.Condition()
        self._pending = 0
        self._unsubscribe: Callable[[], None] | None = None
        if not self._store.read_only:
            self._unsubscribe = self._store.subscribe(self._committed, tables={"lawsuits"})

    @classmethod
    def open_offline(cls, directory: Path) -> SearchService:
        """Search a cache directory without the service (the ``search`` command): the cache
        is opened read-only, so a running app or receiver keeps writing it meanwhile. Blocks:
        call in a thread, or before any event loop."""
        store = Store.open(directory, read_only=True)
        return cls(store, owns_store=True)

    # --------------------------------------------------------------------------- use cases

    async def search(self, text: str, limit: int = 20) -> list[SearchHit]:
        """The cached lawsuits matching every word of ``text``, best first."""
        return await asyncio.to_thread(self.search_now, text, limit)

    async def rebuild(self, progress: Callable[[int, int], None] | None = None) -> IndexStatus:
        """Index the whole cache again, from nothing."""
        return await asyncio.to_thread(self.rebuild_now, progress)

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close)

    # --------------------------------------------------------------------------- in a thread

    def search_now(self, text: str, limit: int = 20) -> list[SearchHit]:
        index = self._ready()
        if self._clock() - self._last_catch_up >= CATCH_UP_EVERY:
            self._catch_up(index)
        return index.search(text, limit)

    def rebuild_now(self, progress: Callable[[int, int], None] | None = None) -> IndexStatus:
        index = self._ready(catch_up=False)
        index.clear()
        changed = self._catch_up(index, progress)
        return IndexStatus(lawsuits=index.count(), changed=changed)

    def status_now(self) -> IndexStatus:
        index = self._ready(catch_up=False)
        changed = self._catch_up(index)
        return IndexStatus(lawsuits=index.count(), changed=changed)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        worker = self._worker
        if worker is not None:
            self._queue.put(_STOP)
            worker.join(timeout=10)
            self._worker = None
        with self._open_lock:
            if self._index is not None:
                self._index.close()
                self._index = None
        if self._owns_store:
            self._store.close()

    # --------------------------------------------------------------------------- the index

    def _ready(self, *, catch_up: bool = True) -> FullTextIndex:
        with self._open_lock:
            if self._index is None:
                self._index = FullTextIndex.open(self._store.path)
                if catch_up:
                    self._catch_up(self._index)
            return self._index

    def _catch_up(
        self, index: FullTextIndex, progress: Callable[[int, int], None] | None = None
    ) -> int:
        lawsuits = self._store.lawsuits
        changed = index.catch_up(lawsuits.stamps(), lawsuits.by_key, progress=progress)
        self._last_catch_up = self._clock()
        return changed

    # --------------------------------------------------------------------------- as it changes

    def _committed(self, changes: list[Change]) -> None:
        """Store listener (the committing thread): hand the keys to the indexing thread."""
        with self._idle:
            if self._worker is None:
                self._worker = threading.Thread(
                    target=self._index_changes, name="search-index", daemon=True
                )
                self._worker.start()
            self._pending += 1
        self._queue.put([change.key for change in changes])

    def _index_changes(self) -> None:
        while True:
            taken = [self._queue.get()]
            # What else arrived meanwhile goes in the same transaction.
            while True:
                try:
                    taken.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            keys = {key for item in taken if isinstance(item, list) for key in item}
            try:
                self._apply(keys)
            finally:
                batches = sum(1 for item in taken if item is not _STOP)
                with self._idle:
                    self._pending -= batches
                    self._idle.notify_all()
            if any(item is _STOP for item in taken):
                return

    def _apply(self, keys: set[str]) -> None:
        if not keys:
            return
        index = self._ready(catch_up=False)
        lawsuits = self._store.lawsuits
        stamps = lawsuits.stamps()
        items = []
        gone = []
        for key in sorted(keys):
            lawsuit = lawsuits.by_key(key) if key in stamps else None
            if lawsuit is None:
                gone.append(key)
            else:
                items.append(indexed_lawsuit(key, stamps[key], lawsuit))
        index.apply(items, gone)

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until the indexing thread has applied every committed batch it was given
        (True), or ``timeout`` seconds passed (False). For tests and benchmarks."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

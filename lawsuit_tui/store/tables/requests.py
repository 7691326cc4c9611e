"""The requests made to the service (keyed by request_id), newest first, in pages."""

from __future__ import annotations

import contextlib
from bisect import insort
from typing import Any

from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.records import (
    Held,
    OnUnreadable,
    TableIndex,
    TableSpec,
    bodies,
    text_of,
)
from lawsuit_tui.store.tables.table import IdKeyedTable

__all__ = ["SPEC", "Requests"]

SPEC = TableSpec("requests", shards=8, prunable=True)


class CreatedOrder(TableIndex):
    """The keys in order of created_at (then key): the list of requests, newest first."""

    def __init__(self) -> None:
        self.entries: list[tuple[str, str]] = []

    def add(self, key: str, doc: Held, bulk: bool) -> None:
        entry = (text_of((doc.get("i") or {}).get("c")), key)
        if bulk:
            self.entries.append(entry)
        else:
            insort(self.entries, entry)

    def remove(self, key: str, doc: Held) -> None:
        with contextlib.suppress(ValueError):
            self.entries.remove((text_of((doc.get("i") or {}).get("c")), key))

    def finish_bulk(self) -> None:
        self.entries.sort()

    def clear(self) -> None:
        self.entries = []


class Requests(IdKeyedTable):
    def __init__(self, engine: Engine) -> None:
        self._order = CreatedOrder()
        super().__init__(engine, SPEC, "request_id", self._order)

    def newest_first(
        self,
        *,
        status: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        on_unreadable: OnUnreadable | None = None,
    ) -> list[dict[str, Any]]:
        """Requests newest first (by created_at), optionally of one status. ``offset`` and
        ``limit`` pick a page of that list; records outside it are not parsed. A damaged
        record raises, or is skipped and named to ``on_unreadable``."""
        engine = self._engine
        docs: list[Held] = []
        skip = max(0, offset)
        with engine.lock:
            for _created, key in reversed(self._order.entries):
                if limit is not None and len(docs) >= limit:
                    break
                doc = engine.get("requests", key)
                if doc is None or (status is not None and doc["i"].get("st") != status):
                    continue
                if skip:
                    skip -= 1
                    continue
                docs.append(doc)
        return list(bodies(docs, "requests", on_unreadable))

    def count(self, *, status: str | None = None) -> int:
        """How many requests (of ``status``) the cache holds, from the index."""
        engine = self._engine
        with engine.lock:
            if status is None:
                return engine.count("requests")
            return sum(1 for d in engine.docs("requests") if d["i"].get("st") == status)

"""The count requests made (the count feature), newest first."""

from __future__ import annotations

import uuid
from typing import Any

from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.records import TableSpec, body, record_doc
from lawsuit_tui.store.tables.table import Table

__all__ = ["SPEC", "CountRequests"]

SPEC = TableSpec("count_requests", shards=1, prunable=True)


class CountRequests(Table):
    def __init__(self, engine: Engine) -> None:
        super().__init__(engine, SPEC)

    def add(self, record: dict[str, Any]) -> None:
        """Keep a count request (keyed by its request_id; one without keeps a local key).
        Stored again, it keeps its place in the list."""
        engine = self._engine
        with engine.writing():
            now = engine.now()
            clean = engine.sanitizer.clean(record)
            rid = clean.get("request_id")
            key = str(rid) if rid is not None else f"local-{uuid.uuid4().hex}"
            old = engine.get("count_requests", key)
            at = old["i"]["at"] if old is not None else now
            engine.commit([("count_requests", key, record_doc(key, clean, {"at": at}))])

    def newest_first(self) -> list[dict[str, Any]]:
        """Count requests, newest first (by when they were stored)."""
        engine = self._engine
        with engine.lock:
            docs = sorted(
                engine.docs("count_requests"), key=lambda d: (d["i"].get("at", 0), d["k"])
            )
        return [body(d) for d in reversed(docs)]

"""Values kept by name: the services' bookkeeping and the recent searches.

One table, ``meta``, two kinds of keys: ``user:<key>`` for what services set (a sync's
resume point), ``internal:<key>`` for the store's own (the recent searches).
"""

from __future__ import annotations

from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.records import Operation, TableSpec, record_doc
from lawsuit_tui.store.tables.table import Table

__all__ = ["RECENT_KEEP", "SPEC", "Meta"]

SPEC = TableSpec("meta", shards=1)

RECENT_KEY = "recent_searches"
RECENT_KEEP = 50


class Meta(Table):
    def __init__(self, engine: Engine) -> None:
        super().__init__(engine, SPEC)

    def get(self, key: str) -> object:
        """A value set with :meth:`set`, or None."""
        value: object = self._body(f"user:{key}")
        return value

    def set(self, key: str, value: object) -> None:
        """Store a JSON value under ``key`` (None deletes it); durable on return."""
        engine = self._engine
        with engine.writing():
            if value is None:
                doc_key = f"user:{key}"
                engine.commit([("meta", doc_key, None)] if engine.get("meta", doc_key) else [])
                return
            engine.commit([self.op(key, value)])

    def op(self, key: str, value: object) -> Operation:
        """The operation that sets ``key``, for another table to put in its own batch (so
        that bookkeeping is never durable without what it is about, nor that without it)."""
        doc_key = f"user:{key}"
        if value is None:
            return ("meta", doc_key, None)
        clean = self._engine.sanitizer.clean(value)
        return ("meta", doc_key, record_doc(doc_key, clean, {"at": self._engine.now()}))

    def add_recent_search(self, text: str) -> None:
        text = text.strip()
        if not text:
            return
        engine = self._engine
        with engine.writing():
            text = engine.sanitizer.text(text)
            recent = [t for t in self.recent_searches(RECENT_KEEP) if t != text]
            doc_key = f"internal:{RECENT_KEY}"
            value = [text, *recent][:RECENT_KEEP]
            engine.commit([("meta", doc_key, record_doc(doc_key, value, {"at": engine.now()}))])

    def recent_searches(self, limit: int = 20) -> list[str]:
        value = self._body(f"internal:{RECENT_KEY}")
        return [str(v) for v in value][:limit] if isinstance(value, list) else []

"""The last vault status grid of each customer_key (never a password: see sanitize.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.records import TableSpec, record_doc
from lawsuit_tui.store.tables.table import Table

__all__ = ["SPEC", "Vault"]

SPEC = TableSpec("vault", shards=1)


class Vault(Table):
    def __init__(self, engine: Engine) -> None:
        super().__init__(engine, SPEC)

    def save(self, customer_key: str, rows: list[dict[str, Any]]) -> None:
        """Keep the last vault status grid of a customer_key."""
        engine = self._engine
        with engine.writing():
            clean = engine.sanitizer.clean(list(rows))
            doc = record_doc(customer_key, clean, {"at": engine.now()})
            engine.commit([("vault", customer_key, doc)])

    def snapshot(self, customer_key: str) -> list[dict[str, Any]] | None:
        rows: list[dict[str, Any]] | None = self._body(customer_key)
        return rows

    def snapshot_at(self, customer_key: str) -> datetime | None:
        engine = self._engine
        with engine.lock:
            doc = engine.get("vault", customer_key)
        return None if doc is None else datetime.fromtimestamp(float(doc["i"]["at"]), UTC)

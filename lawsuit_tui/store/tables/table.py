"""What the engine's tables share: declaring themselves, and reading a record by its key.

Constructing a table declares it (its ``TableSpec`` and the in-memory index it answers by)
on the engine, before the cache opens. Records keyed by one of their own fields (a request
by ``request_id``) make an :class:`IdKeyedTable`, which stores and reads them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.records import TableIndex, TableSpec, body, id_keyed_ops

__all__ = ["IdKeyedTable", "Table"]


class Table:
    """One table of the engine."""

    def __init__(self, engine: Engine, spec: TableSpec, index: TableIndex | None = None) -> None:
        engine.add_table(spec, index)
        self._engine = engine
        self._name = spec.name

    def _body(self, key: str) -> Any:
        """The value stored under ``key`` (None when there is no record)."""
        engine = self._engine
        with engine.lock:
            return body(engine.get(self._name, key))


class IdKeyedTable(Table):
    """Records keyed by their field ``id_field``; the latest record stored wins."""

    def __init__(
        self, engine: Engine, spec: TableSpec, id_field: str, index: TableIndex | None = None
    ) -> None:
        super().__init__(engine, spec, index)
        self._id_field = id_field

    def upsert(self, records: Iterable[dict[str, Any]]) -> None:
        """Store records (keyed by their id field) in one durable batch."""
        engine = self._engine
        with engine.writing():
            engine.commit(
                id_keyed_ops(self._name, self._id_field, records, engine.sanitizer, engine.now())
            )

    def get(self, key: str) -> dict[str, Any] | None:
        found: dict[str, Any] | None = self._body(key)
        return found

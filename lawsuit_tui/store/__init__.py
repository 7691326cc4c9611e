"""The local cache: everything retrieved, kept crash-safe on disk and answered from memory.

Three parts, imports pointing downwards only:

- ``store.py``: :class:`Store`, the facade. Opens the engine with every table and hands
  each call to a table or to the engine; no logic of its own.
- ``tables/``: one module per table (or per group written together): the records it
  builds, its in-memory index, its rules (a lawsuit's versions, a delivery's mark).
- the engine, which knows no table: ``engine.py`` (open, commit, refresh, checkpoint, the
  locks between threads), ``records.py`` (a record, a table's declaration, its index),
  ``changes.py`` (what a commit changed, for derived indexes), ``memory.py``, ``shards.py``,
  ``cold.py``, ``journal.py``, ``schema.py``, ``lock.py``, ``fileio.py``, ``storage.py``,
  ``codec.py``, ``keysets.py``, ``sanitize.py``, ``maintenance.py``, ``damage.py`` (files set
  aside, salvage, acknowledgement), ``errors.py``.
- ``paid_calls.py``: the record of paid calls, a file of its own beside the tables (written
  when the tables cannot be).

The store imports only the standard library, tinydb, orjson, ``lawsuit_tui.domain`` and
``lawsuit_tui.i18n`` (its messages are shown to the user).

Add a table
-----------
1. A module in ``tables/``: its :class:`~lawsuit_tui.store.records.TableSpec` (name,
   shards, and whether it is big enough to hold cold, pruned by age) and a subclass of
   :class:`~lawsuit_tui.store.tables.table.Table` that declares it (``super().__init__(engine,
   SPEC)``) and offers the table's operations (records keyed by one of their own fields:
   :class:`~lawsuit_tui.store.tables.table.IdKeyedTable`, which has ``upsert`` and ``get``).
   Writes build their records and commit them in one batch inside ``engine.writing()``;
   reads take ``engine.lock`` and parse bodies outside it. A table answered by something other than
   its key gets a :class:`~lawsuit_tui.store.records.TableIndex` (see ``tables/requests.py``);
   a batch that spans tables takes the other table in its constructor and uses its
   ``op``/``ops`` (see ``tables/responses.py``).
2. One line in :meth:`Store.__init__`: ``self.exports = Exports(engine)``. Callers
   reach it as ``store.exports.record(...)``.
3. Tests in ``tests/store/test_store_<table>.py``, through :class:`Store`.

A new table needs no schema version: the first writable open records its shard count in
``schema.json`` (fixed from then on; a later change needs a migration, see schema.py), and
an older release keeps a table it does not know as it is. For example, an append-only
log of the exports made::

    SPEC = TableSpec("exports", shards=1)  # not prunable: the log of exports stays


    class Exports(Table):
        def __init__(self, engine: Engine) -> None:
            super().__init__(engine, SPEC)

        def record(self, export: dict[str, Any]) -> str:
            engine = self._engine
            with engine.writing():
                now = engine.now()
                key = f"{now:017.6f}-{uuid.uuid4().hex[:8]}"  # orders by time
                doc = record_doc(key, engine.sanitizer.clean(export), {"at": now})
                engine.commit([("exports", key, doc)])
            return key

        def newest_first(self, limit: int = 50) -> list[dict[str, Any]]:
            engine = self._engine
            with engine.lock:
                docs = sorted(engine.docs("exports"), key=lambda d: d["k"], reverse=True)
            return [body(d) for d in docs[:limit]]

A derived index (full-text search beside the cache) follows the tables with
``store.subscribe(listener, tables={"lawsuits"})``: called after each committed batch with
its :class:`~lawsuit_tui.store.changes.Change` list.
"""

from __future__ import annotations

from lawsuit_tui.store.changes import Change
from lawsuit_tui.store.errors import (
    CacheError,
    CacheLocked,
    CacheReadOnly,
    CacheUnavailable,
    os_problem,
)
from lawsuit_tui.store.sanitize import Sanitizer, sanitize
from lawsuit_tui.store.store import Store
from lawsuit_tui.store.tables.datalake import KeptAnswer
from lawsuit_tui.store.tables.lawsuit_versions import LawsuitChange, LawsuitEntry, LawsuitState
from lawsuit_tui.store.wipe import holds_a_cache, wipe

__all__ = [
    "CacheError",
    "CacheLocked",
    "CacheReadOnly",
    "CacheUnavailable",
    "Change",
    "KeptAnswer",
    "LawsuitChange",
    "LawsuitEntry",
    "LawsuitState",
    "Sanitizer",
    "Store",
    "holds_a_cache",
    "os_problem",
    "sanitize",
    "wipe",
]

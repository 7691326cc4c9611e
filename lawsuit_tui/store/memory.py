"""The records of every table in memory, shard by shard, with the tables' indexes in step.

No I/O and no locking here: the engine holds its state lock around every call, and decides
what is durable before it is applied (see engine.py).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable

from lawsuit_tui.store.records import Held, TableIndex

__all__ = ["Memory"]


class Memory:
    def __init__(self) -> None:
        # Table name -> number of shards (from the cache's schema.json).
        self.layout: dict[str, int] = {}
        self.shards: dict[str, list[dict[str, Held]]] = {}
        self.indexes: dict[str, TableIndex] = {}
        # Shards changed since the last checkpoint, (table, shard number).
        self.dirty: set[tuple[str, int]] = set()
        self._bulk = False

    def reset(self, layout: dict[str, int]) -> None:
        """Empty every table, laid out in ``layout``."""
        self.layout = dict(layout)
        self.shards = {t: [{} for _n in range(n)] for t, n in self.layout.items()}
        for index in self.indexes.values():
            index.clear()

    def shard_index(self, table: str, key: str) -> int:
        count = self.layout[table]
        return zlib.crc32(key.encode()) % count if count > 1 else 0

    def get(self, table: str, key: str) -> Held | None:
        return self.shards[table][self.shard_index(table, key)].get(key)

    def docs(self, table: str) -> Iterable[Held]:
        for shard in self.shards[table]:
            yield from shard.values()

    def count(self, table: str) -> int:
        return sum(len(shard) for shard in self.shards[table])

    def counts(self) -> dict[str, int]:
        return {t: sum(len(s) for s in shards) for t, shards in self.shards.items()}

    def apply(self, table: str, key: str, doc: Held | None) -> None:
        """Put ``doc`` under ``key`` (None deletes it) and mark its shard dirty."""
        number = self.shard_index(table, key)
        shard = self.shards[table][number]
        index = self.indexes.get(table)
        old = shard.get(key)
        if old is not None and index is not None:
            index.remove(key, old)
        if doc is None:
            shard.pop(key, None)
        else:
            shard[key] = doc
            if index is not None:
                index.add(key, doc, self._bulk)
        self.dirty.add((table, number))

    def place(self, table: str, number: int, shard: dict[str, Held]) -> None:
        """Replace a whole shard with one just loaded from its file."""
        index = self.indexes.get(table)
        previous = self.shards[table][number]
        if previous and index is not None:
            for key, doc in previous.items():
                index.remove(key, doc)
        self.shards[table][number] = shard
        if index is not None:
            for key, doc in shard.items():
                index.add(key, doc, self._bulk)

    def begin_bulk(self) -> None:
        self._bulk = True

    def finish_bulk(self) -> None:
        self._bulk = False
        for index in self.indexes.values():
            index.finish_bulk()

"""The engine's vocabulary: a record, the declaration of a table, and its index.

A record is a JSON object ``{"k": key, "i": {index fields}, <body fields>}``. ``k`` and
``i`` are what the engine reads: the key, and the small fields the tables' in-memory indexes,
orderings and searches use (``i["at"]``, when it was stored, is the one the engine itself
reads: :meth:`Engine.prune` forgets records by it). The body fields hold packed JSON text
(see codec.py); most tables keep the record under ``"b"`` (:func:`record_doc`, :func:`body`).

A table declares itself with a :class:`TableSpec` and, when it answers from memory by
something other than its key, a :class:`TableIndex` that the engine keeps in step with every
record it loads, writes or deletes. Nothing here knows what a table holds.
"""

from __future__ import annotations

import binascii
import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from lawsuit_tui.store.codec import pack, pack_value, unpack
from lawsuit_tui.store.cold import ColdDoc
from lawsuit_tui.store.journal import Operation
from lawsuit_tui.store.sanitize import Sanitizer

__all__ = [
    "UNREADABLE",
    "Doc",
    "Held",
    "OnUnreadable",
    "Operation",
    "TableIndex",
    "TableSpec",
    "bodies",
    "body",
    "full",
    "id_keyed_ops",
    "record_doc",
    "text_of",
]

Doc = dict[str, Any]
# A record in memory: whole (written since the last checkpoint, or of a table held whole), or
# cold (its index fields in memory, the rest in its shard file; see cold.py).
Held = Doc | ColdDoc


@dataclass(frozen=True)
class TableSpec:
    """How the engine holds one table.

    ``shards``: files the table is split into (keys placed by a hash modulo this number):
    fixed once a cache holds the table, so choose it for the largest cache you expect (about
    1-2 MB per shard there). ``cold_fields``: for a big table, the index fields that stay in
    memory once a checkpoint has put a record in its shard file (the rest is read back when
    asked for); None holds every record whole. ``cold_shared``: those of them whose values
    repeat across records (a request id), held once. ``cold_flag``: one fact about the rest
    of a cold record kept in memory (``ColdDoc.flag``). ``prunable``: :meth:`Engine.prune`
    forgets its records by age. ``bodies``: the fields that hold packed text (checked by
    ``verify``).
    """

    name: str
    shards: int = 1
    cold_fields: frozenset[str] | None = None
    cold_shared: frozenset[str] = frozenset()
    cold_flag: Callable[[Doc], bool] | None = None
    prunable: bool = False
    bodies: tuple[str, ...] = ("b",)

    @property
    def cold(self) -> bool:
        return self.cold_fields is not None


class TableIndex(ABC):
    """An in-memory index of one table, kept in step by the engine.

    ``add`` is called for every record loaded or written, ``remove`` for the record it
    replaces or deletes, both under the engine's state lock. While shards are loaded
    (``bulk``) an index may append without ordering and order once in ``finish_bulk``.
    A record may be cold (see cold.py): read its ``"k"`` and ``"i"``, nothing else.
    """

    @abstractmethod
    def add(self, key: str, doc: Held, bulk: bool) -> None: ...

    @abstractmethod
    def remove(self, key: str, doc: Held) -> None: ...

    def finish_bulk(self) -> None:
        """Restore the order that appends during a bulk load left aside (if it does)."""
        return None

    @abstractmethod
    def clear(self) -> None: ...


def record_doc(key: str, record: Any, index: dict[str, Any]) -> Doc:
    """The stored form of ``record`` (a JSON value), its body packed under ``"b"``."""
    return {"k": key, "i": index, "b": pack_value(record)}


def full(doc: Held) -> Doc:
    """The whole record: read back from its shard file when it is held cold."""
    return doc.load() if isinstance(doc, ColdDoc) else doc


def body(doc: Held | None) -> Any:
    """The value stored by :func:`record_doc` (None for no record)."""
    if doc is None:
        return None
    return unpack(full(doc)["b"])


# What reading back a damaged record raises: its text cut or altered in its file (orjson's
# and zlib's errors, a short read), or not the shape a record has.
UNREADABLE = (ValueError, TypeError, KeyError, OSError, zlib.error, binascii.Error)

OnUnreadable = Callable[[str], None]
"""Told ``"<table> <key>: <problem>"`` for each record that cannot be read back."""


def bodies(docs: Iterable[Held], table: str, on_unreadable: OnUnreadable | None) -> Iterator[Any]:
    """The body of each record; without ``on_unreadable`` a damaged one raises, with it the
    record is named to it and skipped (an export goes on without it, and says which)."""
    for doc in docs:
        if on_unreadable is None:
            yield body(doc)
            continue
        try:
            yield body(doc)
        except UNREADABLE as exc:
            on_unreadable(f"{table} {doc['k']}: {exc}")


def text_of(value: Any) -> str:
    """``value`` if it is a string, else "" (index fields read from untrusted records)."""
    return value if isinstance(value, str) else ""


def id_keyed_ops(
    table: str,
    id_field: str,
    records: Iterable[dict[str, Any]],
    sanitizer: Sanitizer,
    now: float,
) -> list[Operation]:
    """Operations storing records that carry their own key (``id_field``), as the service
    sends them: the latest record of a key wins; indexed by created_at (``"c"``), status
    (``"st"``) and when they were stored (``"at"``)."""
    ops: list[Operation] = []
    for raw in records:
        record, text = sanitizer.clean_json(raw)
        key = text_of(record.get(id_field))
        if not key:
            raise ValueError(f"a record of {table} needs {id_field}")
        index = {"c": text_of(record.get("created_at")), "st": record.get("status"), "at": now}
        ops.append((table, key, {"k": key, "i": index, "b": pack(text)}))
    return ops

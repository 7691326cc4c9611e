"""The responses of requests (keyed by response_id), by request, in pages.

A response of type lawsuit (or execution: D70, D124) also feeds the lawsuits table in the same
batch, as provisional when it came from the service's cache (tags.cached_response or cached
true).
"""

from __future__ import annotations

import contextlib
from bisect import insort
from collections.abc import Iterable, Iterator
from typing import Any

from lawsuit_tui.store.codec import pack
from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.records import (
    Doc,
    Held,
    OnUnreadable,
    Operation,
    TableIndex,
    TableSpec,
    bodies,
    body,
    full,
    text_of,
)
from lawsuit_tui.store.tables.lawsuit_versions import LawsuitChange
from lawsuit_tui.store.tables.lawsuits import Lawsuits
from lawsuit_tui.store.tables.meta import Meta
from lawsuit_tui.store.tables.table import Table

__all__ = ["SPEC", "Responses"]

# The big table (a response carries its lawsuit): cold records keep the request (one string
# per request, not per response), the creation time and when they were stored; the type
# stays in the file.
SPEC = TableSpec(
    "responses",
    shards=128,
    cold_fields=frozenset({"r", "c", "at"}),
    cold_shared=frozenset({"r"}),
    prunable=True,
)


def _is_provisional(response: dict[str, Any]) -> bool:
    tags = response.get("tags")
    cached_tag = isinstance(tags, dict) and tags.get("cached_response") is True
    return cached_tag or response.get("cached") is True


class ResponsesByRequest(TableIndex):
    """The keys of each request's responses, in order of created_at (then key)."""

    def __init__(self) -> None:
        self.entries: dict[str, list[tuple[str, str]]] = {}

    def add(self, key: str, doc: Held, bulk: bool) -> None:
        i = doc.get("i") or {}
        request_id = text_of(i.get("r"))
        entry = (text_of(i.get("c")), key)
        entries = self.entries.get(request_id)
        if entries is None:
            self.entries[request_id] = [entry]
        elif bulk:
            entries.append(entry)
        else:
            insort(entries, entry)

    def remove(self, key: str, doc: Held) -> None:
        i = doc.get("i") or {}
        request_id = text_of(i.get("r"))
        entries = self.entries.get(request_id)
        if entries is not None:
            with contextlib.suppress(ValueError):
                entries.remove((text_of(i.get("c")), key))
            if not entries:
                del self.entries[request_id]

    def finish_bulk(self) -> None:
        for entries in self.entries.values():
            entries.sort()

    def clear(self) -> None:
        self.entries = {}


class Responses(Table):
    def __init__(self, engine: Engine, lawsuits: Lawsuits, meta: Meta) -> None:
        self._by_request = ResponsesByRequest()
        super().__init__(engine, SPEC, self._by_request)
        self._lawsuits = lawsuits
        self._meta = meta

    def upsert(
        self, records: Iterable[dict[str, Any]], *, meta: dict[str, object] | None = None
    ) -> list[LawsuitChange]:
        """Store response records in one durable batch; the changes of the lawsuits they
        carried (ignored versions left out). ``meta``: values to set as :meth:`Meta.set`
        would, in the same batch (a sync's resume point is never durable without them)."""
        engine = self._engine
        with engine.writing():
            ops, changes = self.ops(records)
            for key, value in (meta or {}).items():
                ops.append(self._meta.op(key, value))
            engine.commit(ops)
            return changes

    def ops(self, records: Iterable[dict[str, Any]]) -> tuple[list[Operation], list[LawsuitChange]]:
        """The operations storing ``records`` and the lawsuits they carry, for a caller
        building a batch with the writer lock held; the lawsuits' changes."""
        engine = self._engine
        now = engine.now()
        ops: list[Operation] = []
        changes: list[LawsuitChange] = []
        pending: dict[str, Doc] = {}
        for raw in records:
            record, text = engine.sanitizer.clean_json(raw)
            key = text_of(record.get("response_id"))
            if not key:
                raise ValueError("a response record needs response_id")
            index = {
                "r": text_of(record.get("request_id")),
                "c": text_of(record.get("created_at")),
                "t": record.get("response_type"),
                "at": now,
            }
            doc = {"k": key, "i": index, "b": pack(text)}
            held = engine.get("responses", key)
            if held is None or full(held).get("b") != doc["b"]:
                ops.append(("responses", key, doc))
            data = record.get("response_data")
            if (
                # D70, D124: a penal execution is a lawsuit, kept as one.
                record.get("response_type") in ("lawsuit", "execution")
                and isinstance(data, dict)
                and isinstance(data.get("code"), str)
                and data["code"]
            ):
                op, change = self._lawsuits.op(
                    data,
                    sanitized=True,
                    provisional=_is_provisional(record),
                    source=key,
                    pending=pending,
                    now=now,
                )
                if op is not None:
                    ops.append(op)
                    changes.append(change)
        return ops, changes

    def iterate(self, on_unreadable: OnUnreadable | None = None) -> Iterator[dict[str, Any]]:
        """Every response, oldest first (by created_at, then response_id); a damaged record
        raises, or is skipped and named to ``on_unreadable``.

        A generator: the order is taken from the index fields up front, and each record is
        parsed only when it is reached, so memory stays at one parsed record at a time.
        A record removed meanwhile is skipped; one replaced meanwhile is read as it is now.
        """
        engine = self._engine
        with engine.lock:
            order = sorted((text_of(d["i"].get("c")), d["k"]) for d in engine.docs("responses"))
        for _created, key in order:
            with engine.lock:
                doc = engine.get("responses", key)
            if doc is not None:
                yield from bodies((doc,), "responses", on_unreadable)

    def of_request(
        self,
        request_id: str,
        *,
        limit: int | None = None,
        offset: int = 0,
        oldest_first: bool = False,
        on_unreadable: OnUnreadable | None = None,
    ) -> list[dict[str, Any]]:
        """Responses of a request, newest first (by created_at; ``oldest_first``: the other
        way). ``offset``/``limit`` pick a page of that order; only the page is parsed. A
        damaged record raises, or is skipped and named to ``on_unreadable``."""
        engine = self._engine
        offset = max(0, offset)
        with engine.lock:
            entries = self._by_request.entries.get(request_id, [])
            total = len(entries)
            end = total if limit is None else min(total, offset + max(0, limit))
            if oldest_first:
                chosen = entries[offset:end]
            else:
                chosen = entries[total - end : total - offset][::-1] if offset < total else []
            docs = [engine.get("responses", k) for _created, k in chosen]
        return list(bodies((d for d in docs if d is not None), "responses", on_unreadable))

    def count_of_request(self, request_id: str) -> int:
        """How many responses of ``request_id`` are held (from the index: no parsing)."""
        with self._engine.lock:
            return len(self._by_request.entries.get(request_id, ()))

    def get(self, response_id: str) -> dict[str, Any] | None:
        engine = self._engine
        with engine.lock:
            doc = engine.get("responses", response_id)
        found: dict[str, Any] | None = body(doc)
        return found

    def count(self) -> int:
        with self._engine.lock:
            return self._engine.count("responses")

"""The inbox: one record per movement (keyed by its id, the tracking response's), read marks,
and an in-memory index that filters and orders 100,000 of them without reading one.

A record is the movement as :mod:`lawsuit_tui.services.inbox` made it (body ``b``) with its
index fields (``i``): when it came (``at``, epoch seconds; also what ``prune`` reads), unread
(``u``), read at (``r``), its tracking (``t``), tier (``g``), court (``c``), new step types
(``y``) and matched terms (``m``) joined by ``\\x1f``, and the folded text a search looks in
(``x``). The table is big and cold: the index fields stay in memory, the body in its shard
file until a page of the list is shown.

A movement is stored once: a second ``add`` of the same id (a webhook redelivered, a poll
that reads it again) changes nothing. Marking read or unread rewrites only the index fields
(the body is copied as it is), so a mark of 10,000 movements is one small batch.

:class:`MovementIndex` keeps columns (one list per field, a row per movement) and the rows in
order of arrival; ``select`` narrows them by an :class:`~lawsuit_tui.domain.inbox.InboxFilter`
with one pass over the columns (no record parsed, no dict per row).
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from lawsuit_tui.domain.inbox import InboxFilter, fold
from lawsuit_tui.store.codec import pack
from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.records import Held, Operation, TableIndex, TableSpec, body, full, text_of
from lawsuit_tui.store.tables.lawsuit_versions import LawsuitChange
from lawsuit_tui.store.tables.responses import Responses
from lawsuit_tui.store.tables.webhooks import Webhooks

__all__ = ["SEPARATOR", "SPEC", "Inbox", "MovementIndex", "search_text"]

SEPARATOR = "\x1f"
# About 1 KB a movement: 100,000 of them make 64 shards of 1-2 MB.
SPEC = TableSpec(
    "inbox",
    shards=64,
    cold_fields=frozenset({"at", "u", "r", "t", "g", "c", "y", "m", "x"}),
    cold_shared=frozenset({"t", "g", "c", "y", "m"}),
    prunable=True,
)
# How much of a step's text the search reads (the lawyer's words come first).
_STEP_TEXT = 120


def search_text(record: dict[str, Any]) -> str:
    """What a search of the inbox looks in, folded: the lawsuit's number (formatted and as
    digits), name, court and county, the tier, the tracking's search key, the new steps' types
    and the start of their texts, and the matched terms."""
    parts: list[str] = []
    for name in ("code", "name", "court", "county", "tier", "search_key", "error_code"):
        value = record.get(name)
        if isinstance(value, str) and value:
            parts.append(value)
    code = record.get("code")
    if isinstance(code, str):
        parts.append("".join(ch for ch in code if ch.isdigit()))
    for step in record.get("steps") or ():
        if isinstance(step, dict):
            parts.append(str(step.get("step_type") or ""))
            parts.append(str(step.get("content") or "")[:_STEP_TEXT])
    parts.extend(t for t in record.get("terms") or () if isinstance(t, str))
    return fold(" ".join(p for p in parts if p))


def _when(record: dict[str, Any]) -> float:
    value = record.get("received_at")
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return 0.0
        return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()
    return 0.0


def _joined(values: Any) -> str:
    if not isinstance(values, list):
        return ""
    return SEPARATOR.join(str(v) for v in values if isinstance(v, str) and v)


def _index_fields(record: dict[str, Any]) -> dict[str, Any]:
    steps = [s for s in record.get("steps") or () if isinstance(s, dict)]
    types = list(dict.fromkeys(str(s.get("step_type") or "") for s in steps))
    return {
        "at": _when(record),
        "u": 0 if record.get("read_at") else 1,
        "r": record.get("read_at") or None,
        "t": text_of(record.get("tracking_id")),
        "g": text_of(record.get("tier")),
        "c": text_of(record.get("court")),
        "y": _joined(types),
        "m": _joined(record.get("terms")),
        "x": search_text(record),
    }


class MovementIndex(TableIndex):
    """Columns of the inbox, a row per movement, and the rows in order of arrival.

    A replaced record (a read mark) keeps its row; a deleted one leaves a dead row
    (``keys[row] is None``) that ``select`` skips. Text columns hold the same string
    objects as the records' index fields (interned when shared), so they cost a pointer.
    """

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.keys: list[str | None] = []
        self.row_of: dict[str, int] = {}
        self.when: list[float] = []
        self.unread: bytearray = bytearray()
        self.tracking: list[str] = []
        self.tier: list[str] = []
        self.court: list[str] = []
        self.types: list[str] = []
        self.terms: list[str] = []
        self.text: list[str] = []
        self.order: list[int] = []  # live and dead rows, oldest first by (when, row)
        self.unread_count = 0
        self.version = 0  # changes whenever a row does (callers cache by it)
        self._vacated: dict[str, int] = {}

    def _key(self, row: int) -> tuple[float, int]:
        return (self.when[row], row)

    def add(self, key: str, doc: Held, bulk: bool) -> None:
        i = doc.get("i") or {}
        when = float(i.get("at") or 0.0)
        unread = 1 if i.get("u") else 0
        row = self._vacated.pop(key, None)
        if row is None:
            row = len(self.keys)
            self.keys.append(key)
            self.when.append(when)
            self.unread.append(unread)
            self.tracking.append(text_of(i.get("t")))
            self.tier.append(text_of(i.get("g")))
            self.court.append(text_of(i.get("c")))
            self.types.append(text_of(i.get("y")))
            self.terms.append(text_of(i.get("m")))
            self.text.append(text_of(i.get("x")))
            if bulk:
                self.order.append(row)
            else:
                insort(self.order, row, key=self._key)
        else:
            moved = self.when[row] != when
            if moved:
                self.order.remove(row)
            self.keys[row] = key
            self.when[row] = when
            self.unread[row] = unread
            self.tracking[row] = text_of(i.get("t"))
            self.tier[row] = text_of(i.get("g"))
            self.court[row] = text_of(i.get("c"))
            self.types[row] = text_of(i.get("y"))
            self.terms[row] = text_of(i.get("m"))
            self.text[row] = text_of(i.get("x"))
            if moved:
                insort(self.order, row, key=self._key)
        self.row_of[key] = row
        self.unread_count += unread
        self.version += 1

    def remove(self, key: str, doc: Held) -> None:
        row = self.row_of.pop(key, None)
        if row is None:
            return
        self.unread_count -= self.unread[row]
        self.unread[row] = 0
        self.keys[row] = None
        self._vacated[key] = row  # a replacement comes next; a deletion leaves it dead
        self.version += 1

    def finish_bulk(self) -> None:
        self.order.sort(key=self._key)

    # ------------------------------------------------------------------ queries

    def select(self, query: InboxFilter) -> list[str]:
        """The keys of the movements ``query`` keeps, newest first (one pass, no parsing)."""
        keys, when, unread = self.keys, self.when, self.unread
        rows: Iterable[int] = reversed(self.order)
        since = query.since.timestamp() if query.since is not None else None
        until = query.until.timestamp() if query.until is not None else None
        if since is not None or until is not None:
            low = float("-inf") if since is None else since
            high = float("inf") if until is None else until
            rows = (r for r in rows if low <= when[r] < high)
        checks: list[tuple[list[str], str]] = []
        if query.tracking_id:
            checks.append((self.tracking, query.tracking_id))
        if query.tier:
            checks.append((self.tier, query.tier))
        if query.court:
            checks.append((self.court, query.court))
        found = [r for r in rows if keys[r] is not None and (not query.unread or unread[r])]
        for column, wanted in checks:
            found = [r for r in found if column[r] == wanted]
        if query.step_type:
            found = [r for r in found if _has(self.types[r], query.step_type)]
        if query.term:
            found = [r for r in found if _has(self.terms[r], query.term)]
        text = self.text
        for word in query.words:
            found = [r for r in found if word in text[r]]
        return [keys[r] for r in found]  # type: ignore[misc]

    def facets(self) -> dict[str, Counter[str]]:
        """How many live movements have each tier, court, step type and term."""
        counts: dict[str, Counter[str]] = {
            name: Counter() for name in ("tier", "court", "step_type", "term")
        }
        for row, key in enumerate(self.keys):
            if key is None:
                continue
            counts["tier"][self.tier[row]] += 1
            counts["court"][self.court[row]] += 1
            for value in self.types[row].split(SEPARATOR):
                counts["step_type"][value] += 1
            for value in self.terms[row].split(SEPARATOR):
                counts["term"][value] += 1
        for counter in counts.values():
            counter.pop("", None)
        return counts


def _has(joined: str, value: str) -> bool:
    return joined == value or value in joined.split(SEPARATOR)


# Makes the movements of a batch from the lawsuits' changes it holds (called with the writer
# lock held, so the cache it reads is the one the batch applies to).
MovementMaker = Callable[[list[LawsuitChange]], list[dict[str, Any]]]


class Inbox:
    """The movements of the inbox. Reads answer from the index; writes are one batch."""

    def __init__(self, engine: Engine, responses: Responses, webhooks: Webhooks) -> None:
        self._index = MovementIndex()
        engine.add_table(SPEC, self._index)
        self._engine = engine
        self._responses = responses
        self._webhooks = webhooks

    def ingest(
        self,
        responses: Sequence[dict[str, Any]],
        make: MovementMaker,
        *,
        envelope: dict[str, Any] | None = None,
    ) -> tuple[bool, list[str], list[LawsuitChange]]:
        """Store a tracking's responses (and the lawsuits they carry), the movements ``make``
        draws from them, and the delivery's mark (``envelope``, a webhook's), in one durable
        batch: a kill never keeps one without the others.

        Returns (False, [], []) for a delivery already marked (nothing changes); else True,
        the ids of the movements new to the inbox, and the lawsuits' changes.
        """
        engine = self._engine
        with engine.writing():
            if envelope is not None:
                callback_id = text_of(envelope.get("callback_id"))
                if not callback_id:
                    raise ValueError("a webhook delivery needs callback_id")
                if engine.get("deliveries", callback_id) is not None:
                    return False, [], []
            ops, changes = self._responses.ops(responses)
            movement_ops, new = self.ops(make(changes))
            ops.extend(movement_ops)
            if envelope is not None:
                ops.append(self._webhooks.delivery_op(envelope))
            engine.commit(ops)
            return True, new, changes

    # ------------------------------------------------------------------ writes

    def ops(self, records: Iterable[dict[str, Any]]) -> tuple[list[Operation], list[str]]:
        """Operations storing the movements not held yet (a movement is stored once), for a
        caller building a batch with the writer lock held; the ids of those new."""
        engine = self._engine
        ops: list[Operation] = []
        new: list[str] = []
        for raw in records:
            record, text = engine.sanitizer.clean_json(raw)
            key = text_of(record.get("movement_id"))
            if not key:
                raise ValueError("a movement needs movement_id")
            if key in new or engine.get("inbox", key) is not None:
                continue
            ops.append(("inbox", key, {"k": key, "i": _index_fields(record), "b": pack(text)}))
            new.append(key)
        return ops, new

    def add(self, records: Iterable[dict[str, Any]]) -> list[str]:
        """Store movements in one durable batch; the ids of those not held before."""
        engine = self._engine
        with engine.writing():
            ops, new = self.ops(records)
            engine.commit(ops)
            return new

    def mark(self, keys: Iterable[str], *, read: bool, at: str) -> int:
        """Mark movements read (at ``at``, ISO) or unread, in one durable batch; how many
        changed. Only the index fields are written again: the body is copied as it is."""
        engine = self._engine
        with engine.writing():
            ops: list[Operation] = []
            for key in dict.fromkeys(keys):
                held = engine.get("inbox", key)
                if held is None or bool(held["i"].get("u")) != read:
                    continue
                doc = full(held)
                index = dict(doc["i"])
                index["u"] = 0 if read else 1
                index["r"] = at if read else None
                ops.append(("inbox", key, {"k": key, "i": index, "b": doc["b"]}))
            engine.commit(ops)
            return len(ops)

    # ------------------------------------------------------------------ reads

    def get(self, key: str) -> dict[str, Any] | None:
        engine = self._engine
        with engine.lock:
            held = engine.get("inbox", key)
        return None if held is None else _record(held)

    def records(self, keys: Sequence[str]) -> list[dict[str, Any]]:
        """The movements of ``keys`` (a page of a selection), in that order; gone ones
        left out. Only these bodies are read."""
        engine = self._engine
        with engine.lock:
            held = [engine.get("inbox", key) for key in keys]
        return [_record(doc) for doc in held if doc is not None]

    def select(self, query: InboxFilter) -> list[str]:
        """The ids of the movements ``query`` keeps, newest first (from memory)."""
        with self._engine.lock:
            return self._index.select(query)

    def facets(self) -> dict[str, Counter[str]]:
        with self._engine.lock:
            return self._index.facets()

    def unread_count(self) -> int:
        with self._engine.lock:
            return self._index.unread_count

    def count(self) -> int:
        with self._engine.lock:
            return self._engine.count("inbox")

    @property
    def version(self) -> int:
        """Changes whenever a movement is added, marked or removed."""
        return self._index.version


def _record(doc: Held) -> dict[str, Any]:
    """The movement's body with its read mark (kept in the index fields) laid over it."""
    record: dict[str, Any] = body(doc)
    read_at = doc["i"].get("r")
    record["read_at"] = read_at if isinstance(read_at, str) else None
    return record

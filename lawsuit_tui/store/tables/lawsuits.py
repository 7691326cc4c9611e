"""Lawsuits (one record per CNJ number and instance) and the rules between their versions.

A record holds the definitive version (``d``, with its stamp ``dv`` and when it was stored,
``dat``) or the provisional one (``p``, ``pv``, ``pat``: a copy from the service's cache),
never both, with the changes the version brought (``c``) and where it came from (``src``).
A definitive version replaces the provisional one and any older definitive one; a
provisional version is kept only while no definitive one exists. See lawsuit_versions.py
for the change sets and the fields the indexes read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from lawsuit_tui.store.codec import pack, pack_value, unpack
from lawsuit_tui.store.cold import ColdDoc
from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.keysets import KeySets
from lawsuit_tui.store.records import (
    UNREADABLE,
    Doc,
    Held,
    OnUnreadable,
    Operation,
    TableIndex,
    TableSpec,
    full,
    text_of,
)
from lawsuit_tui.store.tables.lawsuit_versions import (
    LawsuitChange,
    LawsuitEntry,
    LawsuitState,
    code_key,
    diff,
    document_key,
    fold,
    instance_of,
    lawsuit_key,
    party_documents,
    recency,
    search_text,
    version_stamp,
)
from lawsuit_tui.store.tables.meta import Meta
from lawsuit_tui.store.tables.table import Table

__all__ = ["SPEC", "Lawsuits"]


def _provisional(doc: Doc) -> bool:
    """A whole lawsuit record with no definitive version."""
    return doc.get("d") is None


# A cold lawsuit keeps in memory what the indexes, orderings, searches and prune read; its
# code and versions stay in the file. Its flag: no definitive version (for the counts).
SPEC = TableSpec(
    "lawsuits",
    shards=64,
    cold_fields=frozenset({"inst", "docs", "o", "s", "at"}),
    cold_flag=_provisional,
    prunable=True,
    bodies=("d", "p"),
)


def _instance_rank(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


def _provisional_held(doc: Held) -> bool:
    return doc.flag if isinstance(doc, ColdDoc) else _provisional(doc)


class LawsuitKeys(TableIndex):
    """The keys of a CNJ number (its instances) and of a party's or lawyer's document."""

    def __init__(self) -> None:
        self.by_code = KeySets()
        self.by_document = KeySets()

    def add(self, key: str, doc: Held, bulk: bool) -> None:
        self.by_code.add(key.split("#", 1)[0], key)
        for document in (doc.get("i") or {}).get("docs") or ():
            self.by_document.add(document, key)

    def remove(self, key: str, doc: Held) -> None:
        self.by_code.discard(key.split("#", 1)[0], key)
        for document in (doc.get("i") or {}).get("docs") or ():
            self.by_document.discard(document, key)

    def clear(self) -> None:
        self.by_code = KeySets()
        self.by_document = KeySets()


class Lawsuits(Table):
    def __init__(self, engine: Engine, meta: Meta) -> None:
        self._keys = LawsuitKeys()
        super().__init__(engine, SPEC, self._keys)
        self._meta = meta

    # ------------------------------------------------------------------ writes

    def upsert(
        self, lawsuit: dict[str, Any], *, provisional: bool, source: str = ""
    ) -> LawsuitChange:
        """Store a lawsuit version; see LawsuitChange for what comes back."""
        engine = self._engine
        with engine.writing():
            op, change = self.op(
                lawsuit, provisional=provisional, source=source, pending={}, now=engine.now()
            )
            if op is not None:
                engine.commit([op])
            return change

    def upsert_many(
        self,
        items: Iterable[tuple[dict[str, Any], bool, str]],
        *,
        meta: dict[str, object] | None = None,
    ) -> list[LawsuitChange]:
        """Store several versions, ``(lawsuit, provisional, source)`` each, in one durable
        batch (all or nothing); one LawsuitChange per item, in order (ignored versions
        included). Later items see the earlier ones of the same batch. ``meta``: values to
        set as :meth:`Meta.set` would, in the same batch."""
        engine = self._engine
        with engine.writing():
            now = engine.now()
            pending: dict[str, Doc] = {}
            ops: dict[str, Operation] = {}
            changes: list[LawsuitChange] = []
            for lawsuit, provisional, source in items:
                op, change = self.op(
                    lawsuit, provisional=provisional, source=source, pending=pending, now=now
                )
                if op is not None:
                    ops[op[1]] = op  # the last version of a key is its final state
                changes.append(change)
            batch = list(ops.values())
            batch.extend(self._meta.op(k, v) for k, v in (meta or {}).items())
            engine.commit(batch)
            return changes

    def op(
        self,
        raw: dict[str, Any],
        *,
        provisional: bool,
        source: str,
        pending: dict[str, Doc],
        now: float,
        sanitized: bool = False,
    ) -> tuple[Operation | None, LawsuitChange]:
        """The operation storing one version (None when the rules ignore it) and its change.

        For a caller building a batch (with the writer lock held): ``pending`` holds the
        records the batch has built so far, so a later version sees an earlier one;
        ``sanitized``: ``raw`` has been through the sanitizer already."""
        text: bytes | None = None
        if sanitized:
            lawsuit = raw
        else:
            lawsuit, text = self._engine.sanitizer.clean_json(raw)
        code = text_of(lawsuit.get("code"))
        if not code:
            raise ValueError("a lawsuit needs its code")
        instance = instance_of(lawsuit)
        key = lawsuit_key(code, instance)
        held = pending.get(key) or self._engine.get("lawsuits", key)
        old = None if held is None else full(held)
        # The sanitizer's JSON text when it made one: a big lawsuit is serialised once.
        packed = pack(text) if text is not None else pack_value(lawsuit)
        stamp = version_stamp(lawsuit)
        ignored = LawsuitChange(
            code=code, instance=instance, provisional=provisional, ignored=True, source=source
        )
        previous: str | None = None
        if old is not None:
            held_def, held_prov = old.get("d"), old.get("p")
            if provisional:
                if held_def is not None:
                    return None, ignored
                if held_prov == packed or (stamp and stamp < text_of(old.get("pv"))):
                    return None, ignored
                previous = held_prov
            else:
                if held_def == packed or (
                    held_def is not None and stamp and stamp < text_of(old.get("dv"))
                ):
                    return None, ignored
                previous = held_def if held_def is not None else held_prov
        change = diff(unpack(previous) if previous else None, lawsuit, code=code, instance=instance)
        change.provisional = provisional
        change.source = source
        change.replaced_provisional = bool(
            not provisional and old is not None and old.get("d") is None and old.get("p")
        )
        documents = party_documents(lawsuit)
        index = {
            "code": code,
            "inst": instance,
            "docs": documents,
            "s": search_text(lawsuit, documents),
            "o": recency(lawsuit),
            "at": now,
        }
        if provisional:
            versions = {"d": None, "dv": "", "dat": None, "p": packed, "pv": stamp, "pat": now}
        else:
            versions = {"d": packed, "dv": stamp, "dat": now, "p": None, "pv": "", "pat": None}
        doc: Doc = {
            "k": key,
            "i": index,
            **versions,
            "c": pack_value(change.to_json()),
            "src": source,
        }
        pending[key] = doc
        return ("lawsuits", key, doc), change

    # ------------------------------------------------------------------ reads

    def _held(self, code: str, instance: int | None) -> Held | None:
        engine = self._engine
        if instance is not None:
            return engine.get("lawsuits", lawsuit_key(code, instance))
        keys = self._keys.by_code.get(code_key(code))
        docs = [d for d in (engine.get("lawsuits", k) for k in keys) if d is not None]
        if not docs:
            return None
        # Without an instance: the most recently active one.
        return max(docs, key=lambda d: (text_of(d["i"].get("o")), d["i"].get("at") or 0))

    def get(self, code: str, instance: int | None = None) -> dict[str, Any] | None:
        """The definitive version if any, else the provisional one (:meth:`entry` tells)."""
        with self._engine.lock:
            held = self._held(code, instance)
        doc = None if held is None else full(held)
        text = None if doc is None else (doc.get("d") or doc.get("p"))
        return None if text is None else dict(unpack(text))

    def entry(self, code: str, instance: int | None = None) -> LawsuitEntry | None:
        found = self._record(code, instance)
        if found is None:
            return None
        doc, text = found
        state = _state(doc)
        return LawsuitEntry(
            lawsuit=unpack(text),
            provisional=state.provisional,
            stored_at=state.stored_at,
            changes=state.changes,
            source=state.source,
        )

    def state(self, code: str, instance: int | None = None) -> LawsuitState | None:
        """As :meth:`entry` without the lawsuit: for a list of responses, or a lawsuit
        already on screen, it spares unpacking a body of megabytes."""
        found = self._record(code, instance)
        return None if found is None else _state(found[0])

    def _record(self, code: str, instance: int | None) -> tuple[Doc, str] | None:
        """The whole record of a lawsuit and the body of its version held, if any."""
        with self._engine.lock:
            held = self._held(code, instance)
        if held is None:
            return None
        doc = full(held)
        text = doc.get("p") if doc.get("d") is None else doc.get("d")
        return None if text is None else (doc, text)

    def of_document(self, document: str) -> list[dict[str, Any]]:
        """Lawsuits where a party or a lawyer has this CPF, CNPJ or OAB; newest first."""
        engine = self._engine
        with engine.lock:
            keys = self._keys.by_document.get(document_key(document))
            docs = [d for d in (engine.get("lawsuits", k) for k in keys) if d is not None]
        return _bodies(docs, None)

    def search(self, text: str, limit: int = 50) -> list[dict[str, Any]]:
        """Lawsuits whose number, name, parties, lawyers or documents hold every word."""
        terms = fold(text).split()
        if not terms:
            return []
        alternatives = [
            {t, document_key(t).lower()} if any(c.isdigit() for c in t) else {t} for t in terms
        ]
        engine = self._engine
        with engine.lock:
            found = [
                d
                for d in engine.docs("lawsuits")
                if all(any(a in d["i"].get("s", "") for a in alts) for alts in alternatives)
            ]
        return _bodies(found, limit)

    def iterate(self, on_unreadable: OnUnreadable | None = None) -> Iterator[dict[str, Any]]:
        """Every lawsuit (per instance), by CNJ number then instance: the definitive version
        when there is one, else the provisional one. Parsed one record at a time; a damaged
        record raises, or is skipped and named to ``on_unreadable``."""
        engine = self._engine
        with engine.lock:
            order = sorted(
                (d["k"].split("#", 1)[0], _instance_rank(d["i"].get("inst")), d["k"])
                for d in engine.docs("lawsuits")
            )
        for _code, _instance, key in order:
            with engine.lock:
                held = engine.get("lawsuits", key)
            if held is None:
                continue
            try:
                doc = full(held)
                text = doc.get("d") or doc.get("p")
                if text is not None:
                    found = dict(unpack(text))
            except UNREADABLE as exc:
                if on_unreadable is None:
                    raise
                on_unreadable(f"lawsuits {key}: {exc}")
                continue
            if text is not None:
                yield found

    def stamps(self) -> dict[str, float]:
        """Each record's key and when its version was stored (from memory: nothing is read).

        Derived indexes compare these with their own to catch up with any writer."""
        engine = self._engine
        with engine.lock:
            return {d["k"]: float(d["i"].get("at") or 0) for d in engine.docs("lawsuits")}

    def by_key(self, key: str) -> dict[str, Any] | None:
        """The version held under a record key (as :meth:`stamps` names it), or None."""
        with self._engine.lock:
            held = self._engine.get("lawsuits", key)
        doc = None if held is None else full(held)
        text = None if doc is None else (doc.get("d") or doc.get("p"))
        return None if text is None else dict(unpack(text))

    def count(self) -> int:
        with self._engine.lock:
            return self._engine.count("lawsuits")

    def count_provisional(self) -> int:
        """How many lawsuits have no definitive version (from memory: no record is read)."""
        engine = self._engine
        with engine.lock:
            return sum(1 for d in engine.docs("lawsuits") if _provisional_held(d))


def _state(doc: Doc) -> LawsuitState:
    provisional = doc.get("d") is None
    stored = doc.get("pat") if provisional else doc.get("dat")
    changes = doc.get("c")
    if isinstance(changes, str):  # packed (schema 2); a dict in schema 1 records
        changes = unpack(changes)
    return LawsuitState(
        provisional=provisional,
        stored_at=datetime.fromtimestamp(float(stored or doc["i"].get("at") or 0), UTC),
        changes=LawsuitChange.from_json(changes) if isinstance(changes, dict) else None,
        source=text_of(doc.get("src")),
    )


def _bodies(docs: Iterable[Held], limit: int | None) -> list[dict[str, Any]]:
    """The versions held of ``docs``, most recently active first, the first ``limit``."""
    ordered = sorted(
        docs,
        key=lambda d: (text_of(d["i"].get("o")), d["i"].get("at") or 0, d["k"]),
        reverse=True,
    )
    texts = [(d.get("d") or d.get("p")) for d in map(full, ordered[:limit])]
    return [unpack(t) for t in texts if t]

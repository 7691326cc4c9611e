"""The answers of the lawsuits service's datalake routes, kept with the time they were fetched.

One record per question: its ``kind`` (``entity``, ``count``, ``synthetic``, ``steps``,
``lawsuit``) and ``query_key`` (what was asked, reduced to a key by the service that asks),
holding the body sent, the answer received and ``fetched_at``. The same question asked again
replaces its answer. A second index finds every answer about a document (a CPF, a CNPJ, a
CNJ number), so a dossier can show yesterday's data offline and refresh only what is older
than an age (D109).

Big answers (the stored copy of a lawsuit of 10,000 steps) are held cold: their index fields
in memory, the body read back from the shard file when asked for.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.keysets import KeySets
from lawsuit_tui.store.records import (
    Held,
    Operation,
    TableIndex,
    TableSpec,
    body,
    record_doc,
    text_of,
)
from lawsuit_tui.store.tables.lawsuit_versions import document_key
from lawsuit_tui.store.tables.table import Table

__all__ = ["SPEC", "DatalakeAnswers", "KeptAnswer"]

SPEC = TableSpec(
    "datalake",
    shards=8,
    cold_fields=frozenset({"at", "kind", "doc", "f"}),
    prunable=True,
)


@dataclass(frozen=True)
class KeptAnswer:
    """An answer as the cache holds it."""

    kind: str
    query_key: str
    document: str
    query: Any
    answer: Any
    fetched_at: datetime


class ByDocument(TableIndex):
    """The keys of the answers about each document."""

    def __init__(self) -> None:
        self.keys = KeySets()

    def add(self, key: str, doc: Held, bulk: bool) -> None:
        document = text_of((doc.get("i") or {}).get("doc"))
        if document:
            self.keys.add(document, key)

    def remove(self, key: str, doc: Held) -> None:
        document = text_of((doc.get("i") or {}).get("doc"))
        if document:
            self.keys.discard(document, key)

    def clear(self) -> None:
        self.keys = KeySets()


def _kept(key: str, value: Any) -> KeptAnswer | None:
    if not isinstance(value, dict):
        return None
    try:
        fetched = datetime.fromisoformat(str(value.get("fetched_at")))
    except ValueError:
        return None
    kind, _sep, query_key = key.partition(":")
    return KeptAnswer(
        kind=kind,
        query_key=query_key,
        document=str(value.get("document") or ""),
        query=value.get("query"),
        answer=value.get("answer"),
        fetched_at=fetched,
    )


class DatalakeAnswers(Table):
    def __init__(self, engine: Engine) -> None:
        self._by_document = ByDocument()
        super().__init__(engine, SPEC, self._by_document)

    def put(
        self,
        kind: str,
        query_key: str,
        *,
        document: str,
        query: Any,
        answer: Any,
        fetched_at: datetime,
    ) -> None:
        """Keep the answer to a question (replacing an older one); durable on return."""
        self.put_many(
            [
                {
                    "kind": kind,
                    "query_key": query_key,
                    "document": document,
                    "query": query,
                    "answer": answer,
                    "fetched_at": fetched_at,
                }
            ]
        )

    def put_many(self, answers: Iterable[dict[str, Any]]) -> None:
        """Keep several answers (``put``'s arguments each) in one durable batch."""
        engine = self._engine
        with engine.writing():
            now = engine.now()
            ops: list[Operation] = []
            for item in answers:
                key = f"{item['kind']}:{item['query_key']}"
                # a datetime, or its ISO text when a client handed the answer over a socket
                fetched = item["fetched_at"]
                if isinstance(fetched, str):
                    fetched = datetime.fromisoformat(fetched)
                record = engine.sanitizer.clean(
                    {
                        "document": item["document"],
                        "query": item["query"],
                        "answer": item["answer"],
                        "fetched_at": fetched.isoformat(),
                    }
                )
                index = {
                    "at": now,
                    "kind": item["kind"],
                    "doc": document_key(str(item["document"])),
                    "f": fetched.isoformat(),
                }
                ops.append(("datalake", key, record_doc(key, record, index)))
            engine.commit(ops)

    def get(self, kind: str, query_key: str) -> KeptAnswer | None:
        """The answer kept for a question, or None."""
        key = f"{kind}:{query_key}"
        engine = self._engine
        with engine.lock:
            doc = engine.get("datalake", key)
        return _kept(key, body(doc)) if doc is not None else None

    def fetched_at(self, kind: str, query_key: str) -> datetime | None:
        """When the answer to a question was fetched (no body read)."""
        engine = self._engine
        with engine.lock:
            doc = engine.get("datalake", f"{kind}:{query_key}")
            stamp = text_of((doc.get("i") or {}).get("f")) if doc is not None else ""
        try:
            return datetime.fromisoformat(stamp) if stamp else None
        except ValueError:
            return None

    def of_document(self, document: str, kind: str | None = None) -> list[KeptAnswer]:
        """Every answer kept about a document (of ``kind`` when given), newest first."""
        engine = self._engine
        with engine.lock:
            docs = [
                d
                for key in self._by_document.keys.get(document_key(document))
                if (d := engine.get("datalake", key)) is not None
                and (kind is None or (d.get("i") or {}).get("kind") == kind)
            ]
            docs.sort(key=lambda d: text_of((d.get("i") or {}).get("f")), reverse=True)
            pairs = [(d["k"], d) for d in docs]
        found = [_kept(key, body(doc)) for key, doc in pairs]
        return [k for k in found if k is not None]

    def count(self) -> int:
        engine = self._engine
        with engine.lock:
            return engine.count("datalake")

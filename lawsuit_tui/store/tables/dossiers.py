"""Dossiers: the due diligence of a person or company, one record per document.

A record holds what the dossier itself is, not the data it shows: its steps (when each ran,
from where, what it cost, why it failed), the questions whose answers it reads (the counts'
filters, the ids of its warrant and execution requests), the analyst's decisions and the
tracking made of the document. The data are the datalake's kept answers, the cached lawsuits
of the listing and the cached requests and responses: a dossier is put together again from
those, offline (services/dossier.py).

Records: ``{document, search_type, display, name, created_at, updated_at, profile, steps:
{step: {...}}, counts: [...], requests: {step: request_id}, decisions: [...], tracking}``;
index fields ``at`` (when stored) and ``u`` (``updated_at``, the order of the list). Not
prunable: a decision is part of an onboarding file and must outlive any age.
"""

from __future__ import annotations

from typing import Any

from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.records import TableSpec, body, record_doc, text_of
from lawsuit_tui.store.tables.lawsuit_versions import document_key
from lawsuit_tui.store.tables.table import Table

__all__ = ["SPEC", "Dossiers"]

SPEC = TableSpec("dossiers", shards=2)


class Dossiers(Table):
    def __init__(self, engine: Engine) -> None:
        super().__init__(engine, SPEC)

    def put(self, record: dict[str, Any]) -> None:
        """Keep a dossier (replacing the one of the same document); durable on return."""
        engine = self._engine
        key = document_key(str(record["document"]))
        with engine.writing():
            clean = engine.sanitizer.clean(record)
            index = {"at": engine.now(), "u": str(record.get("updated_at") or "")}
            engine.commit([(SPEC.name, key, record_doc(key, clean, index))])

    def get(self, document: str) -> dict[str, Any] | None:
        """The dossier of a document (any spelling of it), or None."""
        found: dict[str, Any] | None = self._body(document_key(document))
        return found

    def recent(self, limit: int | None = None) -> list[dict[str, Any]]:
        """Every dossier, the one updated last first (``limit`` of them when given)."""
        engine = self._engine
        with engine.lock:
            docs = sorted(
                engine.docs(SPEC.name),
                key=lambda d: (text_of((d.get("i") or {}).get("u")), d["k"]),
                reverse=True,
            )
            if limit is not None:
                docs = docs[:limit]
        found = [body(d) for d in docs]
        return [r for r in found if isinstance(r, dict)]

    def delete(self, document: str) -> bool:
        """Forget a dossier (its data stay in the cache); False when there was none."""
        engine = self._engine
        key = document_key(document)
        with engine.writing():
            if engine.get(SPEC.name, key) is None:
                return False
            engine.commit([(SPEC.name, key, None)])
        return True

    def count(self) -> int:
        engine = self._engine
        with engine.lock:
            return sum(1 for _doc in engine.docs(SPEC.name))

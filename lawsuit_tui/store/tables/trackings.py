"""The trackings (keyed by tracking_id), newest first."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.records import TableSpec, body, id_keyed_ops, text_of

__all__ = ["SPEC", "Trackings"]

SPEC = TableSpec("trackings", shards=4)


class Trackings:
    def __init__(self, engine: Engine) -> None:
        engine.add_table(SPEC)
        self._engine = engine

    def upsert(self, records: Iterable[dict[str, Any]]) -> None:
        """Store tracking records (keyed by tracking_id; the latest record wins)."""
        engine = self._engine
        with engine.writing():
            engine.commit(
                id_keyed_ops("trackings", "tracking_id", records, engine.sanitizer, engine.now())
            )

    def get(self, tracking_id: str) -> dict[str, Any] | None:
        engine = self._engine
        with engine.lock:
            found: dict[str, Any] | None = body(engine.get("trackings", tracking_id))
            return found

    def newest_first(self, status: str | None = None) -> list[dict[str, Any]]:
        """Trackings newest first (by created_at), optionally of one status."""
        engine = self._engine
        with engine.lock:
            docs = [
                d for d in engine.docs("trackings") if status is None or d["i"].get("st") == status
            ]
        docs.sort(key=lambda d: (text_of(d["i"].get("c")), d["k"]), reverse=True)
        return [body(d) for d in docs]

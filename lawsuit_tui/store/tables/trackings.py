"""The trackings (keyed by tracking_id), newest first."""

from __future__ import annotations

from typing import Any

from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.records import TableSpec, body, text_of
from lawsuit_tui.store.tables.table import IdKeyedTable

__all__ = ["SPEC", "Trackings"]

SPEC = TableSpec("trackings", shards=4)


class Trackings(IdKeyedTable):
    def __init__(self, engine: Engine) -> None:
        super().__init__(engine, SPEC, "tracking_id")

    def newest_first(self, status: str | None = None) -> list[dict[str, Any]]:
        """Trackings newest first (by created_at), optionally of one status."""
        engine = self._engine
        with engine.lock:
            docs = [
                d for d in engine.docs("trackings") if status is None or d["i"].get("st") == status
            ]
        docs.sort(key=lambda d: (text_of(d["i"].get("c")), d["k"]), reverse=True)
        return [body(d) for d in docs]

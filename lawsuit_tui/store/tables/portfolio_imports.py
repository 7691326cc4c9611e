"""The intents of a portfolio import: what was about to be sent, kept before it is sent.

A bulk creation (``POST /tracking/bulk``) cannot be retried once it may have reached the
service, and its answer can be lost (a kill, a dropped connection). So each chunk of an import
is written here, durable, *before* its call (:meth:`PortfolioImports.begin`): the keys it
carries, the service it goes to and when. The answer settles it (:meth:`settle`) in one batch
with the tracking records it brought, so a kill leaves either an open intent or the trackings
and a settled intent, never the trackings without the mark, nor the mark without them. An
intent still open on the next run is a chunk whose outcome nobody saw: the import reconciles it
against the service's list before sending anything (services/portfolio_import.py).

Records: ``{intent_id, service, began_at, keys: [[search_type, key], ...], state: "open" |
"settled", settled_at, tracking_ids: {"<type> <key>": tracking_id}, outcome}``. Not prunable:
an open intent must outlive any age.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.records import TableSpec, body, id_keyed_ops, record_doc
from lawsuit_tui.store.tables.table import Table

__all__ = ["SPEC", "PortfolioImports"]

SPEC = TableSpec("portfolio_imports", shards=2)

OPEN = "open"
SETTLED = "settled"


class PortfolioImports(Table):
    def __init__(self, engine: Engine) -> None:
        super().__init__(engine, SPEC)

    def begin(self, service: str, keys: Sequence[tuple[str, str]]) -> str:
        """Record that ``keys`` are about to be sent to ``service``; durable on return."""
        engine = self._engine
        with engine.writing():
            now = engine.now()
            # Ordered by time, then unique: the oldest open intent is reconciled first.
            intent_id = f"{now:017.6f}-{uuid.uuid4().hex[:12]}"
            record = {
                "intent_id": intent_id,
                "service": service,
                "began_at": now,
                "keys": [list(key) for key in keys],
                "state": OPEN,
                "settled_at": None,
                "tracking_ids": {},
                "outcome": None,
            }
            doc = record_doc(intent_id, engine.sanitizer.clean(record), {"at": now, "st": OPEN})
            engine.commit([(SPEC.name, intent_id, doc)])
        return intent_id

    def settle(
        self,
        intent_id: str,
        outcome: str,
        tracking_ids: dict[str, str],
        trackings: Iterable[dict[str, Any]] = (),
    ) -> None:
        """Close an intent (``outcome``: answered, reconciled, not_sent) and store the
        trackings it made, in one durable batch."""
        engine = self._engine
        with engine.writing():
            record = body(engine.get(SPEC.name, intent_id))
            if not isinstance(record, dict):
                raise KeyError(intent_id)
            now = engine.now()
            record.update(
                state=SETTLED, settled_at=now, outcome=outcome, tracking_ids=dict(tracking_ids)
            )
            ops = id_keyed_ops("trackings", "tracking_id", trackings, engine.sanitizer, now)
            ops.append(
                (
                    SPEC.name,
                    intent_id,
                    record_doc(
                        intent_id, engine.sanitizer.clean(record), {"at": now, "st": SETTLED}
                    ),
                )
            )
            engine.commit(ops)

    def open_intents(self, service: str | None = None) -> list[dict[str, Any]]:
        """Intents not settled yet (of ``service`` when given), oldest first."""
        engine = self._engine
        with engine.lock:
            docs = [d for d in engine.docs(SPEC.name) if d["i"].get("st") == OPEN]
        docs.sort(key=lambda d: d["k"])
        found = [body(d) for d in docs]
        return [r for r in found if service is None or r.get("service") == service]

    def get(self, intent_id: str) -> dict[str, Any] | None:
        found: dict[str, Any] | None = self._body(intent_id)
        return found

    def count(self) -> int:
        engine = self._engine
        with engine.lock:
            return sum(1 for _doc in engine.docs(SPEC.name))

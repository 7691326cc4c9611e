"""Webhook deliveries (one mark per callback_id) and the quarantine of deliveries kept aside.

A delivery's mark and the responses it carried are written in one batch, so a kill can never
keep the mark without its responses (a redelivery would then be dropped as known).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

import orjson

from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.records import Operation, TableSpec, body, record_doc, text_of
from lawsuit_tui.store.tables.lawsuit_versions import LawsuitChange
from lawsuit_tui.store.tables.responses import Responses

__all__ = ["DELIVERIES", "QUARANTINE", "QUARANTINE_MAX_BYTES", "Webhooks"]

DELIVERIES = TableSpec("deliveries", shards=16, prunable=True)
QUARANTINE = TableSpec("quarantine", shards=1, prunable=True)

QUARANTINE_MAX_BYTES = 256 * 1024


class Webhooks:
    def __init__(self, engine: Engine, responses: Responses) -> None:
        engine.add_table(DELIVERIES)
        engine.add_table(QUARANTINE)
        self._engine = engine
        self._responses = responses

    def is_delivered(self, callback_id: str) -> bool:
        with self._engine.lock:
            return self._engine.get("deliveries", callback_id) is not None

    def ingest(
        self,
        envelope: dict[str, Any],
        responses: Iterable[dict[str, Any]] = (),
        *,
        quarantine_reason: str | None = None,
    ) -> tuple[bool, list[LawsuitChange]]:
        """Record a delivery and store the responses it carried, in one durable batch.

        A redelivery (known callback_id) changes nothing and returns (False, []).
        ``quarantine_reason``: also keep the envelope in quarantine (a delivery accepted but
        not storable as a record), in the same batch: kept once, however often it comes.
        """
        callback_id = text_of(envelope.get("callback_id"))
        if not callback_id:
            raise ValueError("a webhook delivery needs callback_id")
        engine = self._engine
        with engine.writing():
            if engine.get("deliveries", callback_id) is not None:
                return False, []
            now = engine.now()
            ops, changes = self._responses.ops(responses)
            meta = {
                k: envelope.get(k)
                for k in ("callback_id", "event_type", "reference_type", "reference_id", "user_id")
            }
            meta["received_at"] = datetime.fromtimestamp(now, UTC).isoformat()
            meta = engine.sanitizer.clean(meta)
            index = {"at": now, "e": meta.get("event_type"), "ref": meta.get("reference_id")}
            if quarantine_reason is not None:
                ops.append(self._quarantine_op(orjson.dumps(envelope), quarantine_reason, now))
            ops.append(("deliveries", callback_id, record_doc(callback_id, meta, index)))
            engine.commit(ops)
            return True, changes

    def quarantine(self, raw: bytes, reason: str) -> None:
        """Keep a delivery the receiver could not accept (secrets scrubbed, size capped)."""
        engine = self._engine
        with engine.writing():
            engine.commit([self._quarantine_op(raw, reason, engine.now())])

    def _quarantine_op(self, raw: bytes, reason: str, now: float) -> Operation:
        sanitizer = self._engine.sanitizer
        text: str
        try:
            text = orjson.dumps(sanitizer.clean(orjson.loads(raw))).decode()
        except orjson.JSONDecodeError:
            # Scrub the whole text before cutting it: a cut could split a secret in two.
            text = sanitizer.text(raw.decode("utf-8", "replace"))
        record = {
            "received_at": datetime.fromtimestamp(now, UTC).isoformat(),
            "reason": sanitizer.text(reason),
            "size": len(raw),
            "body": text[:QUARANTINE_MAX_BYTES],
        }
        key = f"{now:017.6f}-{uuid.uuid4().hex[:8]}"
        return ("quarantine", key, record_doc(key, record, {"at": now}))

    def quarantined(self) -> list[dict[str, Any]]:
        """Quarantined deliveries, newest first: received_at, reason, size, body (text)."""
        engine = self._engine
        with engine.lock:
            docs = sorted(engine.docs("quarantine"), key=lambda d: d["k"], reverse=True)
        return [body(d) for d in docs]

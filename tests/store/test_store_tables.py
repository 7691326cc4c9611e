"""Adding a table: one module on the engine and one line in the facade (the package's
example, a record of paid calls, built here as a later release would add it)."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import orjson
import pytest

from lawsuit_tui.store import Store
from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.records import TableSpec, body, record_doc
from tests.support.clock import FakeClock
from tests.support.store_data import abandon

SPEC = TableSpec("paid_calls", shards=4)


class PaidCalls:
    def __init__(self, engine: Engine) -> None:
        engine.add_table(SPEC)
        self._engine = engine

    def record(self, call: dict[str, Any]) -> str:
        engine = self._engine
        with engine.writing():
            now = engine.now()
            key = f"{now:017.6f}-{uuid.uuid4().hex[:8]}"
            doc = record_doc(key, engine.sanitizer.clean(call), {"at": now})
            engine.commit([("paid_calls", key, doc)])
        return key

    def newest_first(self, limit: int = 50) -> list[dict[str, Any]]:
        engine = self._engine
        with engine.lock:
            docs = sorted(engine.docs("paid_calls"), key=lambda d: d["k"], reverse=True)
        return [body(d) for d in docs[:limit]]


class StoreWithPaidCalls(Store):
    def __init__(self, engine: Engine) -> None:
        super().__init__(engine)
        self.paid_calls = PaidCalls(engine)


def _shards(cache_dir: Path) -> dict[str, int]:
    shards: dict[str, int] = orjson.loads((cache_dir / "schema.json").read_bytes())["shards"]
    return shards


def test_a_new_table_is_durable_sanitised_and_laid_out_once(
    cache_dir: Path, clock: FakeClock
) -> None:
    with Store.open(cache_dir, clock=clock) as store:
        store.upsert_requests([{"request_id": "q"}])
    assert "paid_calls" not in _shards(cache_dir)

    store = StoreWithPaidCalls.open(cache_dir, clock=clock, secrets=["sk-live-0123456789"])
    assert _shards(cache_dir)["paid_calls"] == 4  # recorded on its first writable open
    store.paid_calls.record({"route": "/requests", "cost": 1})
    clock.advance(seconds=1)
    store.paid_calls.record({"route": "/tracking", "api_key": "x", "note": "sk-live-0123456789"})
    abandon(store)  # a kill: only the journal holds them

    with StoreWithPaidCalls.open(cache_dir, clock=clock) as again:
        assert again.paid_calls.newest_first() == [
            {"route": "/tracking", "note": "[redacted]"},
            {"route": "/requests", "cost": 1},
        ]
        assert again.get_request("q") == {"request_id": "q"}
        assert again.stats()["counts"]["paid_calls"] == 2
        clock.advance(days=400)
        again.prune(30)
        assert len(again.paid_calls.newest_first()) == 2  # not prunable: the record stays


def test_a_release_that_does_not_know_a_table_keeps_it(cache_dir: Path, clock: FakeClock) -> None:
    with StoreWithPaidCalls.open(cache_dir, clock=clock) as store:
        store.paid_calls.record({"route": "/requests"})
    with Store.open(cache_dir, clock=clock) as older:
        older.upsert_requests([{"request_id": "q"}])
        assert older.stats()["counts"]["paid_calls"] == 1
        older.checkpoint()
        assert older.verify() == []
    with StoreWithPaidCalls.open(cache_dir, clock=clock, read_only=True) as again:
        assert again.paid_calls.newest_first() == [{"route": "/requests"}]
        assert again.get_request("q") == {"request_id": "q"}


def test_a_table_is_declared_once(cache_dir: Path) -> None:
    class Twice(Store):
        def __init__(self, engine: Engine) -> None:
            super().__init__(engine)
            self.first = PaidCalls(engine)
            self.second = PaidCalls(engine)

    with pytest.raises(ValueError, match="paid_calls"):
        Twice.open(cache_dir)
    assert not cache_dir.exists()  # refused before anything was opened or created


def test_a_table_is_declared_before_the_cache_opens(cache_dir: Path) -> None:
    with Store.open(cache_dir) as store, pytest.raises(ValueError, match="after"):
        PaidCalls(store._engine)

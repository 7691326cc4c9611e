"""The store as the services use it: off the event loop, and silent when read-only.

Every store call runs in a worker thread (``asyncio.to_thread``) so the event loop, and the
TUI on it, never waits for the disk. When the cache is open read-only (another process
holds it), writes are skipped: what was fetched is still shown, it is just not kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from lawsuit_tui.store import KeptAnswer, LawsuitChange, LawsuitEntry, LawsuitState, Store

__all__ = ["Cache"]

T = TypeVar("T")


class Cache:
    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def writable(self) -> bool:
        return not self.store.read_only

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)

    async def _write(self, fn: Callable[..., T], *args: Any, default: T) -> T:
        if not self.writable:
            return default
        return await asyncio.to_thread(fn, *args)

    # --- writes ---------------------------------------------------------------------------

    async def upsert_requests(self, records: Iterable[dict[str, Any]]) -> None:
        await self._write(self.store.upsert_requests, list(records), default=None)

    async def upsert_responses(
        self, records: Iterable[dict[str, Any]], *, meta: dict[str, object] | None = None
    ) -> list[LawsuitChange]:
        """Store responses and, in the same durable batch, the ``meta`` values given."""
        rows = list(records)
        if not self.writable:
            return []
        return await asyncio.to_thread(lambda: self.store.upsert_responses(rows, meta=meta))

    async def upsert_lawsuit(
        self, lawsuit: dict[str, Any], *, provisional: bool, source: str = ""
    ) -> LawsuitChange | None:
        if not self.writable:
            return None
        return await asyncio.to_thread(
            lambda: self.store.upsert_lawsuit(lawsuit, provisional=provisional, source=source)
        )

    async def upsert_lawsuits(
        self,
        items: Iterable[tuple[dict[str, Any], bool, str]],
        *,
        meta: dict[str, object] | None = None,
    ) -> list[LawsuitChange]:
        """Store ``(lawsuit, provisional, source)`` items and the ``meta`` values in one
        durable batch (one LawsuitChange per item, in order); nothing when read-only."""
        rows = list(items)
        if not self.writable or not (rows or meta):
            return []
        return await asyncio.to_thread(lambda: self.store.upsert_lawsuits(rows, meta=meta))

    async def upsert_trackings(self, records: Iterable[dict[str, Any]]) -> None:
        await self._write(self.store.upsert_trackings, list(records), default=None)

    async def add_count_request(self, record: dict[str, Any]) -> None:
        await self._write(self.store.add_count_request, record, default=None)

    async def save_vault_snapshot(self, customer_key: str, rows: list[dict[str, Any]]) -> None:
        await self._write(self.store.save_vault_snapshot, customer_key, rows, default=None)

    async def keep_datalake_answers(self, answers: list[dict[str, Any]]) -> None:
        """Keep datalake answers (``store.datalake.put``'s arguments each), in one batch."""
        if not self.writable or not answers:
            return

        await asyncio.to_thread(self.store.datalake.put_many, answers)

    def datalake_answer(self, kind: str, query_key: str) -> KeptAnswer | None:
        return self.store.datalake.get(kind, query_key)

    def datalake_answers_of(self, document: str, kind: str | None = None) -> list[KeptAnswer]:
        return self.store.datalake.of_document(document, kind)

    async def add_recent_search(self, text: str) -> None:
        await self._write(self.store.add_recent_search, text, default=None)

    async def set_meta(self, key: str, value: object) -> None:
        await self._write(self.store.set_meta, key, value, default=None)

    # --- reads (microseconds: from memory) ------------------------------------------------

    def get_meta(self, key: str) -> object:
        return self.store.get_meta(key)

    def lawsuit_entry(self, code: str, instance: int | None = None) -> LawsuitEntry | None:
        return self.store.lawsuit_entry(code, instance)

    def lawsuit_state(self, code: str, instance: int | None = None) -> LawsuitState | None:
        return self.store.lawsuit_state(code, instance)

    def get_lawsuit(self, code: str, instance: int | None = None) -> dict[str, Any] | None:
        return self.store.get_lawsuit(code, instance)

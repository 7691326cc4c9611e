"""The store as the services use it: off the event loop, and never losing a write silently.

Every store call runs in a worker thread (``asyncio.to_thread``) so the event loop, and the
TUI on it, never waits for the disk. Writes go, in this order of preference:

1. to the store itself, when this process holds the cache;
2. to the process that holds it (``shared_cache.py``): the write is durable there, and the
   read-only view here is refreshed so it reads what it has just written;
3. nowhere, when neither can take it (the cache was opened read-only on purpose, or its
   holder takes no writes): the write is counted in :attr:`Cache.unkept`, which a command
   reports (and exits non-zero for) and the app shows in its status line.

A write the store or the holder refuses (a full disk) raises ``CacheError``: nothing is
ever dropped without a word.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from lawsuit_tui.i18n import ngettext
from lawsuit_tui.services.shared_cache import FORWARDED_WRITES, HolderClient, HolderGone
from lawsuit_tui.store import KeptAnswer, LawsuitChange, LawsuitEntry, LawsuitState, Store

__all__ = ["Cache", "Unkept"]

T = TypeVar("T")

# What each write holds, to say what was not kept; writes of bookkeeping (the sync's resume
# point, the recent searches) are not the user's data and are not reported; any other write
# (one added later) is reported by its name.
_KINDS = {
    "upsert_requests": "requests",
    "upsert_responses": "responses",
    "upsert_lawsuit": "lawsuits",
    "upsert_lawsuits": "lawsuits",
    "upsert_trackings": "trackings",
    "add_count_request": "counts",
    "save_vault_snapshot": "vault",
    "keep_datalake_answers": "datalake",
    "begin_portfolio_import": "imports",
    "settle_portfolio_import": "imports",
}
_BOOKKEEPING = frozenset({"set_meta", "add_recent_search"})

Reattach = Callable[[], Awaitable["Store | HolderClient | None"]]


def _size(op: str, args: tuple[Any, ...]) -> int:
    if op in (
        "upsert_requests",
        "upsert_responses",
        "upsert_trackings",
        "upsert_lawsuits",
        "keep_datalake_answers",
    ):
        first = args[0] if args else ()
        return len(first) if isinstance(first, list | tuple) else 1
    return 1


@dataclass
class Unkept:
    """Writes that could not be kept, counted by what they held."""

    counts: dict[str, int] = field(default_factory=dict)

    def add(self, op: str, args: tuple[Any, ...]) -> None:
        if op in _BOOKKEEPING:
            return
        kind = _KINDS.get(op, op)  # a write added later is still counted, by its name
        size = _size(op, args)
        if size:
            self.counts[kind] = self.counts.get(kind, 0) + size

    def __bool__(self) -> bool:
        return bool(self.counts)

    def describe(self) -> str:
        """ "3 requests, 12 responses" (in the user's language)."""
        words = {
            "requests": lambda n: ngettext("{n} request", "{n} requests", n),
            "responses": lambda n: ngettext("{n} response", "{n} responses", n),
            "lawsuits": lambda n: ngettext("{n} lawsuit", "{n} lawsuits", n),
            "trackings": lambda n: ngettext("{n} tracking", "{n} trackings", n),
            "counts": lambda n: ngettext("{n} count", "{n} counts", n),
            "vault": lambda n: ngettext("{n} vault status", "{n} vault statuses", n),
            "datalake": lambda n: ngettext("{n} datalake answer", "{n} datalake answers", n),
            "imports": lambda n: ngettext("{n} record of an import", "{n} records of an import", n),
        }
        return ", ".join(
            words[k](n).format(n=n)
            if k in words
            else ngettext("{n} write ({what})", "{n} writes ({what})", n).format(n=n, what=k)
            for k, n in self.counts.items()
        )


class Cache:
    def __init__(self, store: Store, *, holder: HolderClient | None = None) -> None:
        self.store = store
        self.holder = holder
        self.unkept = Unkept()
        self.reattach: Reattach | None = None
        """Called when the holder is gone: this process's own writable store, a new holder,
        or None (set by the service context)."""
        self._reattaching = asyncio.Lock()

    @property
    def writable(self) -> bool:
        """Whether a write is kept (here, or by the process that holds the cache)."""
        return not self.store.read_only or self.holder is not None

    @property
    def held_elsewhere(self) -> bool:
        """Writes go to another process (it holds the cache)."""
        return self.store.read_only and self.holder is not None

    def _holds(self) -> bool:
        """This process writes the cache itself (it may come to, see ``reattach``)."""
        return not self.store.read_only

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)

    async def _write(self, fn: Callable[..., T], *args: Any, default: T, **kwargs: Any) -> T:
        """Run a write of the store (``fn`` a bound method of ``self.store``) where it is
        kept; ``default`` (and counted as unkept) where it cannot be."""
        op = fn.__name__
        if self._holds():
            return await asyncio.to_thread(partial(fn, *args, **kwargs))
        while self.holder is not None and op in FORWARDED_WRITES:
            holder = self.holder
            try:
                result: T = await holder.call(op, args, kwargs)
            except HolderGone:
                if not await self._reattach(holder):
                    break
                if self._holds():  # this process holds the cache now
                    method: Callable[..., T] = getattr(self.store, op)
                    return await asyncio.to_thread(partial(method, *args, **kwargs))
                continue
            await asyncio.to_thread(self.store.refresh)  # read what was just written
            return result
        self.unkept.add(op, args)
        return default

    async def _reattach(self, gone: HolderClient) -> bool:
        """After the holder left: take the cache, or find its new holder; False: neither."""
        async with self._reattaching:
            if self.holder is not gone:
                return True  # another write has done it meanwhile
            await gone.aclose()
            self.holder = None
            if self.reattach is None:
                return False
            found = await self.reattach()
            if isinstance(found, Store):
                old, self.store = self.store, found
                await asyncio.to_thread(old.close)
                return True
            if isinstance(found, HolderClient):
                self.holder = found
                return True
            return False

    async def aclose(self) -> None:
        if self.holder is not None:
            await self.holder.aclose()
            self.holder = None

    # --- writes ---------------------------------------------------------------------------

    async def upsert_requests(self, records: Iterable[dict[str, Any]]) -> None:
        await self._write(self.store.upsert_requests, list(records), default=None)

    async def upsert_responses(
        self, records: Iterable[dict[str, Any]], *, meta: dict[str, object] | None = None
    ) -> list[LawsuitChange]:
        """Store responses and, in the same durable batch, the ``meta`` values given."""
        rows = list(records)
        changes: list[LawsuitChange] = await self._write(
            self.store.upsert_responses, rows, meta=meta, default=[]
        )
        return changes

    async def upsert_lawsuit(
        self, lawsuit: dict[str, Any], *, provisional: bool, source: str = ""
    ) -> LawsuitChange | None:
        change: LawsuitChange | None = await self._write(
            self.store.upsert_lawsuit,
            lawsuit,
            provisional=provisional,
            source=source,
            default=None,
        )
        return change

    async def upsert_lawsuits(
        self,
        items: Iterable[tuple[dict[str, Any], bool, str]],
        *,
        meta: dict[str, object] | None = None,
    ) -> list[LawsuitChange]:
        """Store ``(lawsuit, provisional, source)`` items and the ``meta`` values in one
        durable batch (one LawsuitChange per item, in order)."""
        rows = list(items)
        if not (rows or meta):
            return []
        changes: list[LawsuitChange] = await self._write(
            self.store.upsert_lawsuits, rows, meta=meta, default=[]
        )
        return changes

    async def upsert_trackings(self, records: Iterable[dict[str, Any]]) -> None:
        await self._write(self.store.upsert_trackings, list(records), default=None)

    async def add_count_request(self, record: dict[str, Any]) -> None:
        await self._write(self.store.add_count_request, record, default=None)

    async def save_vault_snapshot(self, customer_key: str, rows: list[dict[str, Any]]) -> None:
        await self._write(self.store.save_vault_snapshot, customer_key, rows, default=None)

    async def keep_datalake_answers(self, answers: list[dict[str, Any]]) -> None:
        """Keep datalake answers (``store.datalake.put``'s arguments each), in one batch."""
        if answers:
            await self._write(self.store.keep_datalake_answers, answers, default=None)

    async def begin_portfolio_import(self, service: str, keys: list[tuple[str, str]]) -> str | None:
        """The id of a durable intent to send ``keys`` (D160), None when nothing keeps it."""
        intent_id: str | None = await self._write(
            self.store.begin_portfolio_import, service, keys, default=None
        )
        return intent_id

    async def settle_portfolio_import(
        self,
        intent_id: str,
        outcome: str,
        tracking_ids: dict[str, str],
        trackings: list[dict[str, Any]] | None = None,
    ) -> None:
        await self._write(
            self.store.settle_portfolio_import,
            intent_id,
            outcome,
            tracking_ids,
            trackings or [],
            default=None,
        )

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

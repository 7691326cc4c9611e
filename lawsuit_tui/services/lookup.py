"""Look up: parse what the user typed, ask the cached lookup, keep the result."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from lawsuit_tui.domain.datalake import DatalakeSearch, LawsuitsQueryBody
from lawsuit_tui.domain.identifiers import SearchKey, parse_search_key
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.requests import Filter
from lawsuit_tui.services.datalake import query_key
from lawsuit_tui.services.deps import Deps
from lawsuit_tui.services.results import LookupResult

__all__ = ["LookupService"]


def _meta_key(key: SearchKey, flt: Filter | None = None) -> str:
    base = f"lookup:{key.search_type}:{key.key}"
    if flt is None:
        return base
    # A filtered listing is kept apart from the whole one (its own question).
    wire = flt.model_dump(mode="json", exclude_none=True)
    return f"{base}:{query_key(wire)}"


class LookupService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    def parse(self, text: str) -> SearchKey:
        """The search key in ``text``; raises InvalidSearchKey saying what is wrong."""
        return parse_search_key(text)

    async def lookup(
        self,
        key: SearchKey,
        *,
        bearer: bool = False,
        flt: Filter | None = None,
        on_demand: bool = False,
        cache_ttl_in_days: int | None = None,
    ) -> LookupResult:
        """POST /lawsuits for ``key``, every page (D71); every lawsuit is kept in the cache.
        ``bearer``: use the alternate lookup with the configured bearer token (D40). ``flt``
        narrows the listing (checked before any call); ``on_demand`` (with
        ``cache_ttl_in_days``) lets the service read a CNJ at the court when its copy is
        missing or older (D102).

        The lookup answers from the service's stored data, so its lawsuits are kept as
        provisional: a definitive version from a request is never replaced by them.
        """
        body = LawsuitsQueryBody(
            search=DatalakeSearch.of(
                key.search_type,
                key.key,
                flt,
                on_demand=on_demand or None,
                cache_ttl_in_days=cache_ttl_in_days,
            ),
            process_status=True,
        )
        answer, raw = await self._d.api.lookup_with_raw(
            key.search_type, key.key, bearer=bearer, body=body
        )
        fetched_at = self._d.now()
        cache = self._d.cache
        source = answer.request_id or "lookup"
        refs: list[list[object]] = [[lawsuit.code, lawsuit.instance] for lawsuit in answer.lawsuits]
        remembered = {
            "request_id": answer.request_id,
            "fetched_at": fetched_at.isoformat(),
            "lawsuits": refs,
        }
        # Kept as the service sent them (no dump of the models), with what this lookup
        # found, in one durable batch written from a worker thread: one fdatasync for the
        # whole lookup however many lawsuits it brought.
        await cache.upsert_lawsuits(
            ((data, True, source) for data in raw), meta={_meta_key(key, flt): remembered}
        )
        await cache.add_recent_search(key.display)
        return LookupResult(
            key=key,
            lawsuits=list(answer.lawsuits),
            request_id=answer.request_id,
            from_cache=False,
            fetched_at=fetched_at,
        )

    def cached(self, key: SearchKey, flt: Filter | None = None) -> LookupResult | None:
        """The last lookup of ``key`` (with ``flt``) kept in the cache (newest versions of
        its lawsuits)."""
        meta = self._kept_lookup(key, flt)
        if meta is None:
            return None
        lawsuits = self._kept_lawsuits(meta, whole=True)
        try:
            fetched_at = datetime.fromisoformat(str(meta.get("fetched_at")))
        except ValueError:
            fetched_at = self._d.now()
        request_id = meta.get("request_id")
        return LookupResult(
            key=key,
            lawsuits=lawsuits,
            request_id=request_id if isinstance(request_id, str) else None,
            from_cache=True,
            fetched_at=fetched_at,
        )

    def cached_summaries(self, key: SearchKey, flt: Filter | None = None) -> list[Lawsuit] | None:
        """The lawsuits of the last lookup of ``key`` kept in the cache, each without its steps
        and attachments (a fifth of the time of :meth:`cached` for a listing of thousands of
        steps): what a table, a chart or a report of the listing reads (D198). None when no
        lookup of it is kept."""
        meta = self._kept_lookup(key, flt)
        return None if meta is None else self._kept_lawsuits(meta, whole=False)

    def _kept_lookup(self, key: SearchKey, flt: Filter | None) -> dict[str, Any] | None:
        """What the cache kept of the last lookup of ``key`` with ``flt``, or None."""
        meta = self._d.cache.get_meta(_meta_key(key, flt))
        return meta if isinstance(meta, dict) else None

    def _kept_lawsuits(self, meta: dict[str, Any], *, whole: bool) -> list[Lawsuit]:
        """The lawsuits a kept lookup names, as the cache holds them now (one it no longer
        holds is passed over); not ``whole``: without their steps and attachments."""
        found: list[Lawsuit] = []
        for ref in meta.get("lawsuits") or []:
            if not isinstance(ref, list) or len(ref) != 2 or not isinstance(ref[0], str):
                continue
            data = self._d.cache.get_lawsuit(ref[0], ref[1] if isinstance(ref[1], int) else None)
            if data is None:
                continue
            if not whole:
                data.pop("steps", None)
                data.pop("attachments", None)
            found.append(Lawsuit.model_validate(data))
        return found

    def cached_at(self, key: SearchKey, flt: Filter | None = None) -> datetime | None:
        """When the last lookup of ``key`` kept in the cache was fetched (no lawsuit read)."""
        meta = self._kept_lookup(key, flt)
        if meta is None:
            return None
        try:
            return datetime.fromisoformat(str(meta.get("fetched_at")))
        except ValueError:
            return None

    def recent(self) -> list[str]:
        """What was looked up lately, newest first."""
        return self._d.cache.store.recent_searches()

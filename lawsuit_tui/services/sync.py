"""Sync: every open request, every tracking and every new response, into the cache.

As few calls as pagination allows: three lists (requests from the oldest one still open, in
date windows of at most 100 a page as requests.json demands (D63, D88); trackings and
responses with ``page_size`` 1000), never one call per request.

Resumable: the responses list is read oldest first (D22), so the page to start from next
time is kept in the cache's meta after every page stored. An interrupted sync resumes at the
page it had reached; a finished one starts again at its last, partly filled page, which is
where new responses appear. A response read twice is stored once (keyed by response_id).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from lawsuit_tui.api.filters import RequestFilters
from lawsuit_tui.domain.base import as_datetime
from lawsuit_tui.domain.completion import is_completion_notice
from lawsuit_tui.i18n import _
from lawsuit_tui.services.deps import Deps
from lawsuit_tui.services.requests import complete_from_notices
from lawsuit_tui.services.results import Progress, SyncReport

__all__ = ["SYNC_META_KEY", "SyncService"]

SYNC_META_KEY = "sync:v1"
_FINISHED = ("completed", "cancelled")


class SyncService:
    def __init__(self, deps: Deps, *, page_size: int = 1000) -> None:
        self._d = deps
        self.page_size = page_size

    def checkpoint(self) -> dict[str, Any]:
        value = self._d.cache.get_meta(SYNC_META_KEY)
        return dict(value) if isinstance(value, dict) else {}

    async def sync(self, progress: Callable[[Progress], None] | None = None) -> SyncReport:
        api, cache = self._d.api, self._d.cache
        store = cache.store
        report = SyncReport()
        calls_before = api.stats.calls
        limited_before = api.stats.rate_limited
        started = time.monotonic()
        state = self.checkpoint()

        def emit(done: int, total: int | None, message: str) -> None:
            report.calls = api.stats.calls - calls_before
            if progress is not None:
                progress(
                    Progress(
                        done=done,
                        total=total,
                        calls=report.calls,
                        waiting_for_rate_limit=api.limiter.waiting > 0,
                        message=message,
                    )
                )

        # 1. Requests: from the oldest one still open (or the newest seen last time).
        open_requests = [r for r in store.list_requests() if r.get("status") not in _FINISHED]
        report.open_requests = len(open_requests)
        bounds = [str(r.get("created_at")) for r in open_requests if r.get("created_at")]
        if isinstance(state.get("requests_newest"), str):
            bounds.append(state["requests_newest"])
        since = as_datetime(min(bounds)) if bounds else None
        emit(0, None, _("reading requests"))
        newest: str | None = (
            state.get("requests_newest") if isinstance(state.get("requests_newest"), str) else None
        )
        # D63, D88: in date windows from ``since``, newest first, at most 100 a page.
        total: list[int] = []
        seen: set[str] = set()
        async for page in api.iter_request_pages(
            filters=RequestFilters(created_at_gte=since), on_total=total.append
        ):
            report.pages += 1
            rows = [r.to_json_dict() for r in page.page_data if r.request_id not in seen]
            seen.update(str(row["request_id"]) for row in rows)
            await cache.upsert_requests(rows)
            report.requests_updated += len(rows)
            for row in rows:
                created = row.get("created_at")
                if isinstance(created, str) and (newest is None or created > newest):
                    newest = created
            emit(report.requests_updated, total[0] if total else None, _("reading requests"))
        if newest is not None:
            state["requests_newest"] = newest
            await cache.set_meta(SYNC_META_KEY, state)

        # 2. Trackings (non-deleted ones).
        emit(0, None, _("reading trackings"))
        async for tpage in api.iter_tracking_pages(page_size=self.page_size):
            report.pages += 1
            trows = [t.to_json_dict() for t in tpage.page_data]
            await cache.upsert_trackings(trows)
            report.trackings_updated += len(trows)
            emit(report.trackings_updated, tpage.all_count or None, _("reading trackings"))

        # 3. Responses, oldest first, from the page reached last time.
        saved = state.get("responses")
        start = 1
        if isinstance(saved, dict) and saved.get("page_size") == self.page_size:
            candidate = saved.get("next_page")
            if isinstance(candidate, int) and candidate >= 1:
                start = candidate
        report.resumed_from_page = start
        before = store.count_responses()
        skipped = (start - 1) * self.page_size
        emit(skipped, None, _("reading responses"))
        # Raw pages: the dicts go to the cache as received, no model built per response.
        async for rpage in api.iter_response_pages_raw(page_size=self.page_size, start_page=start):
            report.pages += 1
            if not rpage.page_data:
                break
            full = rpage.page_count >= self.page_size or len(rpage.page_data) >= self.page_size
            state["responses"] = {
                "page_size": self.page_size,
                "next_page": rpage.page + 1 if full else rpage.page,
            }
            # D69: a completion notice completes its request; it is not a response to keep.
            results: list[dict[str, Any]] = []
            notices: list[dict[str, Any]] = []
            for item in rpage.page_data:
                notice = is_completion_notice(item.get("response_type"), item.get("response_data"))
                (notices if notice else results).append(item)
            if notices:
                await complete_from_notices(cache, notices)
            # The page and the resume point go in one durable batch: a kill can never keep
            # the point past responses that were not stored (nor cost a second fdatasync).
            changes = await cache.upsert_responses(results, meta={SYNC_META_KEY: dict(state)})
            report.lawsuits_changed += len(changes)
            report.responses_read += len(rpage.page_data)
            emit(skipped + report.responses_read, rpage.all_count or None, _("reading responses"))
        report.responses_new = store.count_responses() - before
        report.calls = api.stats.calls - calls_before
        report.rate_limited = api.stats.rate_limited - limited_before
        report.seconds = time.monotonic() - started
        emit(skipped + report.responses_read, None, _("sync finished"))
        return report

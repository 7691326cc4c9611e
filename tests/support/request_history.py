"""A long request history for the listing tests (D63, D88): requests spread over months,
put straight into a sandbox's state (as finished requests) and the same history served by
a lenient mock service that pages its own way.

Creating 1,500 requests through the routes would run their whole lives on the world; the
listing only needs their records.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl

import httpx

from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.request_engine import RequestEngine
from lawsuit_tui.sandbox.schemas import CreateRequestIn
from lawsuit_tui.sandbox.state import SandboxState

__all__ = ["HISTORY_FROM", "LenientRequests", "history_times", "seed_history"]

HISTORY_FROM = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
"""Where the seeded history starts: months before the sandbox's default start."""

_CNJ = "0781356-02.2022.4.04.4803"


def history_times(count: int, days: int = 300, start: datetime = HISTORY_FROM) -> list[datetime]:
    """``count`` creation times spread over ``days`` days, unevenly (busy weeks, quiet ones),
    some of them equal to the millisecond (two requests made at once)."""
    times: list[datetime] = []
    for n in range(count):
        # Quadratic spacing: requests grow denser towards the end of the span.
        fraction = math.sqrt(n / max(1, count))
        moment = start + timedelta(days=days * fraction)
        if n % 97 == 0 and times:
            moment = times[-1]  # made in the same millisecond as the one before
        times.append(moment.replace(microsecond=(moment.microsecond // 1000) * 1000))
    return times


def seed_history(state: SandboxState, times: Sequence[datetime], key: str = "sandbox") -> list[str]:
    """One finished request created at each of ``times`` for ``key``; their ids, oldest
    first."""
    engine = RequestEngine(state)
    config = state.keys[key]
    body = CreateRequestIn.model_validate(
        {"search": {"search_type": "lawsuit_cnj", "search_key": _CNJ}}
    )
    ids: list[str] = []
    for moment in times:
        [entry] = engine.create(config, body, at=moment)
        done = iso(moment + timedelta(seconds=2))
        entry.record.update(status="completed", completed_at=done, updated_at=done)
        ids.append(entry.request_id)
    return ids


class LenientRequests:
    """``GET /requests`` of a service that reads requests.json loosely: the dates are
    optional and inclusive, and pages are cut at ``cap`` items whatever ``page_size`` asks
    (page numbers follow the cap). ``refuse_above``: a ``page_size`` above it is a 400
    naming page_size (the client must retry smaller). Records are those of ``times``."""

    def __init__(
        self, times: Sequence[datetime], *, cap: int = 37, refuse_above: int | None = None
    ) -> None:
        self.records = [
            {
                "request_id": f"req-{n:05d}",
                "status": "completed",
                "search": {"search_type": "lawsuit_cnj", "search_key": _CNJ},
                "origin": "api",
                "created_at": iso(moment),
            }
            for n, moment in enumerate(times)
        ]
        self.cap = cap
        self.refuse_above = refuse_above
        self.calls: list[dict[str, str]] = []

    def handler(self, request: httpx.Request) -> httpx.Response:
        if not request.url.path.endswith("/requests"):
            # Every other list (trackings, responses) is empty; anything else unknown.
            if request.method == "GET" and request.url.path.rsplit("/", 1)[-1] in (
                "tracking",
                "responses",
            ):
                empty = {"page": 1, "page_count": 0, "all_pages_count": 0, "all_count": 0}
                return httpx.Response(200, json={**empty, "page_data": []})
            return httpx.Response(404, json={"error": {"name": "HttpNotFoundError"}})
        query = dict(parse_qsl(request.url.query.decode()))
        self.calls.append(query)
        size = int(query.get("page_size", "20"))
        if self.refuse_above is not None and size > self.refuse_above:
            body = {
                "error": {
                    "name": "HttpBadRequestError",
                    "message": "BAD_REQUEST",
                    "data": [f"page_size: must be at most {self.refuse_above}"],
                }
            }
            return httpx.Response(400, json=body)
        low = query.get("created_at_gte", "")
        high = query.get("created_at_lte", "9999")
        if len(high) == 10:
            high += "T23:59:59.999Z"
        items = [r for r in self.records if low <= r["created_at"] <= high]
        items.sort(key=lambda r: (r["created_at"], r["request_id"]), reverse=True)
        size = min(size, self.cap)
        page = int(query.get("page", "1"))
        chunk: list[dict[str, Any]] = items[(page - 1) * size : page * size]
        return httpx.Response(
            200,
            json={
                "page": str(page),  # D75: a numeric string is read as a number
                "page_count": len(chunk),
                "all_pages_count": math.ceil(len(items) / size) if items else 0,
                "all_count": len(items),
                "page_data": chunk,
            },
        )

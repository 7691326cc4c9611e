"""Query filters of the lists (D23), and the same filters applied again to what comes back.

The real service may ignore filters it does not know, so every filter sent is also checked
on each item received: a list read through these never holds an item the caller excluded.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from lawsuit_tui.domain.base import as_datetime
from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.domain.trackings import TrackingRecord

__all__ = ["RequestFilters", "ResponseFilters", "TrackingFilters", "iso_z"]


def iso_z(value: datetime) -> str:
    """D2: ISO 8601 UTC with milliseconds and ``Z``."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    value = value.astimezone(UTC)
    stamp = value.strftime("-%m-%dT%H:%M:%S.")  # %Y does not pad years below 1000 everywhere
    return f"{value.year:04d}{stamp}{value.microsecond // 1000:03d}Z"


def _not_before(value: object, bound: datetime | None) -> bool:
    if bound is None:
        return True
    when = as_datetime(value if isinstance(value, datetime | str) else None)
    if when is None:
        return True  # cannot tell: keep rather than lose
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    limit = bound if bound.tzinfo is not None else bound.replace(tzinfo=UTC)
    return when >= limit


def _query_of(filters: object, names: tuple[str, ...]) -> dict[str, str]:
    """The filters among ``names`` that are set, as the query sends them: booleans as
    ``true``/``false``, times as D2 says, the rest as text."""
    query: dict[str, str] = {}
    for name in names:
        value = getattr(filters, name)
        if value is None:
            continue
        if isinstance(value, bool):
            query[name] = "true" if value else "false"
        elif isinstance(value, datetime):
            query[name] = iso_z(value)
        else:
            query[name] = str(value)
    return query


@dataclass(frozen=True)
class RequestFilters:
    """``GET /requests`` filters; ``created_at_gte`` is where the window walked starts."""

    status: str | None = None
    search_type: str | None = None
    search_key: str | None = None
    origin: str | None = None
    origin_id: str | None = None
    created_at_gte: datetime | None = None
    include_deleted: bool | None = None

    def to_query(self) -> dict[str, str]:
        # created_at_gte is the lower bound of the window the call names (D63), not sent.
        names = ("status", "search_type", "search_key", "origin", "origin_id", "include_deleted")
        return _query_of(self, names)

    def keep(self, record: RequestRecord) -> bool:
        search = record.search
        if self.status is not None and record.status != self.status:
            return False
        if self.search_type is not None and (
            search is None or search.search_type != self.search_type
        ):
            return False
        if self.search_key is not None and (search is None or search.search_key != self.search_key):
            return False
        if self.origin is not None and record.origin != self.origin:
            return False
        if self.origin_id is not None and record.origin_id != self.origin_id:
            return False
        if not self.include_deleted and record.deleted_at and self.status is None:
            return False
        return _not_before(record.created_at, self.created_at_gte)


@dataclass(frozen=True)
class ResponseFilters:
    """``GET /responses`` filters; ``request_id`` is what makes ``request_status`` mean
    something (D24)."""

    request_id: str | None = None
    origin_id: str | None = None
    response_type: str | None = None
    cached: bool | None = None
    created_at_gte: datetime | None = None

    def to_query(self) -> dict[str, str]:
        names = ("request_id", "origin_id", "response_type", "cached", "created_at_gte")
        return _query_of(self, names)

    def keep_raw(self, item: dict[str, Any]) -> bool:
        """``keep`` on a response as received (a plain dict)."""
        if self.request_id is not None and item.get("request_id") not in (None, self.request_id):
            return False
        if self.origin_id is not None and item.get("origin_id") not in (None, self.origin_id):
            return False
        if self.response_type is not None and item.get("response_type") != self.response_type:
            return False
        if self.cached is not None:
            tags = item.get("tags")
            cached = item.get("cached") is True or (
                isinstance(tags, dict) and tags.get("cached_response") is True
            )
            if cached != self.cached:
                return False
        return _not_before(item.get("created_at"), self.created_at_gte)

    def keep(self, record: ResponseRecord) -> bool:
        if self.request_id is not None and record.request_id not in (None, self.request_id):
            return False
        if self.origin_id is not None and record.origin_id not in (None, self.origin_id):
            return False
        if self.response_type is not None and record.response_type != self.response_type:
            return False
        if self.cached is not None and record.is_cached != self.cached:
            return False
        return _not_before(record.created_at, self.created_at_gte)


def _compact(text: str) -> str:
    """A key as compared: its letters and digits, upper case (D3: the service normalizes)."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


@dataclass(frozen=True)
class TrackingFilters:
    """``GET /tracking`` filters (D23; ``search_type`` and ``created_at_gte`` from
    tracking.json's query, one value each, D76)."""

    status: str | None = None
    search_key: str | None = None
    search_type: str | None = None
    created_at_gte: datetime | None = None

    def to_query(self) -> dict[str, str]:
        return _query_of(self, ("status", "search_key", "search_type", "created_at_gte"))

    def keep(self, record: TrackingRecord) -> bool:
        if self.status is not None and record.status != self.status:
            return False
        if self.status is None and record.status == "deleted":
            return False
        search = record.search
        if self.search_type is not None and (
            search is None or search.search_type != self.search_type
        ):
            return False
        if self.search_key is not None and (
            search is None or _compact(search.search_key or "") != _compact(self.search_key)
        ):
            return False
        return _not_before(record.created_at, self.created_at_gte)

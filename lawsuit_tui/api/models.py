"""Answers of the client that have no resource model of their own in domain/."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

from lawsuit_tui.domain.datalake import LawsuitsAnswer
from lawsuit_tui.domain.requests import RequestRecord

__all__ = ["AttachmentFile", "CancelAnswer", "LookupAnswer", "RawPage"]


# POST /lawsuits (and its bearer variant): ``{has_lawsuits, request_id, lawsuits}`` (D71).
LookupAnswer = LawsuitsAnswer


@dataclass(frozen=True)
class AttachmentFile:
    """The bytes of an attachment (D41) with the media type and file name the service gave."""

    content: bytes
    media_type: str | None
    filename: str | None


@dataclass(frozen=True)
class CancelAnswer:
    """What DELETE /requests/{id} answered (D62): whether the service took it, when, and the
    request record when the service answered with it (older services) rather than
    ``{success, time}``."""

    success: bool
    time: datetime | str | None = None
    record: RequestRecord | None = None


@dataclass
class RawPage:
    """A page kept as the JSON it came in (for bulk work: no model is built per item).

    ``page_data`` items are plain dicts, exactly as received; ``request_status`` is set for
    the responses list (D24)."""

    page: int
    page_count: int
    all_pages_count: int
    all_count: int
    page_data: list[dict[str, Any]]
    request_status: str | None = None

    @classmethod
    def parse(cls, content: bytes, *, id_field: str) -> RawPage:
        """The envelope of ``content``; ValueError when it is not one (every item must be an
        object with a string ``id_field``)."""
        data = orjson.loads(content)
        if not isinstance(data, dict) or not isinstance(data.get("page_data"), list):
            raise ValueError("not a page envelope: page_data is missing")
        items = data["page_data"]
        for item in items:
            if not isinstance(item, dict) or not isinstance(item.get(id_field), str):
                raise ValueError(f"a page_data item has no {id_field}")
        status = data.get("request_status")
        return cls(
            page=_int(data.get("page"), 1),
            page_count=_int(data.get("page_count"), len(items)),
            all_pages_count=_int(data.get("all_pages_count"), 0),
            all_count=_int(data.get("all_count"), len(items)),
            page_data=items,
            request_status=status if isinstance(status, str) else None,
        )


def _int(value: object, default: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        return default
    return value

"""What the sandbox keeps of each request, response and tracking (held by the state).

Plain records: the request and tracking engines change them, the state holds them, the
routes read them. ``record`` is always the JSON object the service answers with; the other
fields are what the sandbox needs to carry on with it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson

from lawsuit_tui.sandbox.clock import Event
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.schemas import SearchIn

__all__ = ["RequestEntry", "Result", "StoredResponse", "TrackingEntry"]


@dataclass
class Result:
    """One response a request (or a tracking run) is about to deliver."""

    response_type: str
    data: dict[str, Any]
    cached: bool
    code: str | None = None  # the lawsuit code retrieved, for the count service


@dataclass
class RequestEntry:
    record: dict[str, Any]
    key: str
    search: SearchIn
    customer_key: str
    document: str | None = None
    events: list[Event] = field(default_factory=list)
    stored: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    court_needed: bool = True
    # Set for tracking runs: computes the run's results; the request then has no cached phase.
    tracking_results: Callable[[datetime], list[Result]] | None = None
    tracking_id: str | None = None
    on_complete: Callable[[RequestEntry, datetime], None] | None = None
    deleted: bool = False
    phase: asyncio.Task[None] | None = None  # the latest lifecycle phase in flight

    @property
    def request_id(self) -> str:
        return str(self.record["request_id"])

    @property
    def status(self) -> str:
        return str(self.record["status"])


@dataclass(frozen=True, slots=True)
class StoredResponse:
    """A response as listed: the fields the filters read, and the record serialized once.

    A lawsuit response can weigh hundreds of kilobytes; a page of 1000 is the concatenation of
    stored JSON (``orjson.Fragment``) rather than a fresh serialization of nested dicts.
    """

    request_id: str
    response_id: str
    origin_id: str | None
    response_type: str
    cached: bool
    created_at: str
    raw: bytes

    @property
    def json(self) -> orjson.Fragment:
        """The record, serialized once, ready to be put into a page as it is."""
        return orjson.Fragment(self.raw)

    @classmethod
    def of(cls, response: dict[str, Any]) -> StoredResponse:
        return cls(
            request_id=str(response["request_id"]),
            response_id=str(response["response_id"]),
            origin_id=response.get("origin_id"),
            response_type=str(response["response_type"]),
            cached=bool(response["cached"]),
            created_at=str(response["created_at"]),
            raw=orjson.dumps(response),
        )


@dataclass
class TrackingEntry:
    record: dict[str, Any]
    config: KeyConfig
    search: SearchIn
    baseline: datetime
    known: set[tuple[str, int]] = field(default_factory=set)
    last_run: datetime | None = None
    next_event: Event | None = None

    @property
    def key(self) -> str:
        return self.config.key

    @property
    def tracking_id(self) -> str:
        return str(self.record["tracking_id"])

    @property
    def status(self) -> str:
        return str(self.record["status"])

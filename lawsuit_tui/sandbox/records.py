"""What the sandbox keeps of each request, response and tracking (held by the state).

Plain records: the request and tracking engines change them, the state holds them, the
routes read them. ``record`` is always the JSON object the service answers with; the other
fields are what the sandbox needs to carry on with it, as data (no timers, no callbacks, no
tasks), so that a sandbox kept on disk saves them as they are and any process that reads them
back knows when their next step is due (sandbox/timed.py, D180).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson

from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.schemas import SearchIn

__all__ = ["KeptSamples", "RequestEntry", "Result", "Stage", "StoredResponse", "TrackingEntry"]


class Stage:
    """How far a request's lifecycle (D15) has gone, beside its status: ``created`` (pending),
    ``started`` (its stored copies delivered), ``court`` (the court's answer delivered),
    ``done`` (completed or cancelled)."""

    CREATED = "created"
    STARTED = "started"
    COURT = "court"
    DONE = "done"


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
    stage: str = Stage.CREATED
    # The stored copies delivered at start, by the (code, instance) they were asked as: the
    # court's answer is compared with them (D15). The copies themselves are the world's,
    # derived again when needed.
    stored_from: list[tuple[str, int]] = field(default_factory=list)
    court_needed: bool = True
    # A tracking's run (D30): its results come from the tracking, it has no cached phase.
    tracking_id: str | None = None
    deleted: bool = False
    # D16: when a cancellation was asked (it completes CANCEL_AFTER later).
    cancel_asked_at: datetime | None = None

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
    # From when a tracking that never ran counts its first run (creation, resume, change).
    scheduled_from: datetime | None = None

    @property
    def key(self) -> str:
        return self.config.key

    @property
    def tracking_id(self) -> str:
        return str(self.record["tracking_id"])

    @property
    def status(self) -> str:
        return str(self.record["status"])


@dataclass(frozen=True)
class KeptSamples:
    """The world's sample keys (``GET /_sandbox/samples``), kept with the state (D185): a
    sandbox read from disk answers them before its world is built, and the app reads them
    from the file for its first screen. ``version``: the samples' version of the world that
    made them (``world.samples.SAMPLES_VERSION``); others are made again."""

    version: int
    keys: dict[str, Any]

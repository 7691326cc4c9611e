"""Webhook ingestion: one delivery (the service's envelope) into the cache, exactly once.

The receiver (``lawsuit_tui.webhooks``) reaches the cache only through here: it is given the
cache (or a ready :class:`WebhookIngestor`), gets its ingestor with :func:`ingestor_for`,
hands each raw body to :meth:`WebhookIngestor.submit` (one writer thread, off the event loop)
and answers 2xx only when the future resolves: by then the delivery is durable.
:meth:`WebhookIngestor.ingest_body` does the same inline. The standalone receiver opens its
cache with :func:`open_receiver_cache`.

What each event becomes (D43):

- ``response_created`` and ``tracking_response`` (and ``response_created`` with
  ``reference_type: tracking``): the payload is a response record. It is stored together with
  the delivery's callback_id in one durable batch (``Store.ingest_delivery``), so a kill can
  never keep the mark without the response or the other way round. A cached
  (``tags.cached_response: true``) response feeds the lawsuits table as provisional; the
  court's one as definitive. A tracking's response without ``origin``/``origin_id`` gets
  ``origin: tracking`` and ``origin_id`` = the tracking_id, so it is found with its tracking.
- ``request_completed``: the payload is the request's final record; it is merged over the
  cached record (a partial payload never loses fields) unless the cache already holds a newer
  state, then the callback_id is marked. A ``response_created`` whose payload is the
  completion notice (``application_info``, code 600 / ``REQUEST_COMPLETED``, D69) does the
  same with ``status: completed``; it is not stored as a response. A kill between the two
  makes the redelivery repeat an idempotent upsert, never a duplicate.
- Anything else (an unknown event type, a known one whose payload cannot be stored as a
  record): accepted and kept as it came in the quarantine table with a reason that says it
  was accepted, then marked.

A redelivery (a callback_id already marked) changes nothing. A body that is not JSON, or
not an envelope (an object with a non-empty string callback_id and a string event_type), is
kept in quarantine and refused with :class:`InvalidDelivery`. Store failures propagate
(``CacheError``, ``OSError``): nothing was acknowledged, so the sender must retry.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Awaitable, Callable, Iterable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn, TypeAlias

import orjson

from lawsuit_tui.domain.completion import is_completion_notice
from lawsuit_tui.domain.enums import EventType
from lawsuit_tui.services.movements import ingest_tracking_responses, is_tracking_response
from lawsuit_tui.store import LawsuitChange, Store

__all__ = [
    "REDACTED",
    "DeliverySummary",
    "IngestTarget",
    "InvalidDelivery",
    "WebhookIngestor",
    "follow_writer",
    "ingestor_for",
    "open_receiver_cache",
]

REDACTED = "[redacted]"
TRACKING = "tracking"


class InvalidDelivery(ValueError):
    """The body is not JSON or not an envelope; it was kept in quarantine (``reason``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class DeliverySummary:
    """What one delivery did, small enough to notify the UI with.

    ``kind``: ``response`` (a response stored), ``request`` (a request's final state stored),
    ``kept`` (accepted and kept as it came: unknown event type or unusable payload).
    ``new`` is False for a redelivery (nothing changed). ``provisional`` is True for a cached
    response, False for the court's (definitive) one, None when not a response.
    """

    callback_id: str
    event_type: str
    reference_type: str | None
    reference_id: str | None
    kind: str
    new: bool
    request_id: str | None = None
    response_id: str | None = None
    response_type: str | None = None
    provisional: bool | None = None
    status: str | None = None
    lawsuit_changes: tuple[LawsuitChange, ...] = field(default=(), compare=False)
    movements: tuple[str, ...] = ()
    """Ids of the inbox movements this delivery added (a tracking's new movement)."""

    def to_json(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "lawsuit_changes"}
        out["lawsuit_changes"] = [c.to_json() for c in self.lawsuit_changes]
        return out


def _scrub(value: Any, secrets: Sequence[str]) -> Any:
    """``value`` with every occurrence of a secret replaced (the path token in a callback_url)."""
    if isinstance(value, str):
        for secret in secrets:
            if secret in value:
                value = value.replace(secret, REDACTED)
        return value
    if isinstance(value, dict):
        return {k: _scrub(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, secrets) for v in value]
    return value


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


@dataclass(frozen=True)
class _Envelope:
    """The envelope's own fields (the payload stays the JSON object it came as).

    Plain dicts rather than the domain's pydantic models on purpose: nothing here needs the
    typed payload, and the receiver answers sooner (and restarts sooner) without it.
    """

    callback_id: str
    event_type: str
    reference_type: str | None
    reference_id: str | None

    @classmethod
    def of(cls, data: dict[str, Any]) -> _Envelope:
        return cls(
            callback_id=str(data["callback_id"]),
            event_type=str(data["event_type"]),
            reference_type=_str_or_none(data.get("reference_type")),
            reference_id=_str_or_none(data.get("reference_id")),
        )


class WebhookIngestor:
    """Stores deliveries in a writable :class:`Store`. Thread-safe; every method blocks on disk.

    ``secrets``: strings never to be written (the receiver's path token: the service echoes
    the callback_url, token included, in request records).
    """

    def __init__(self, store: Store, *, secrets: Iterable[str] = ()) -> None:
        self.store = store
        self._secrets: tuple[str, ...] = ()
        self._secret_bytes: tuple[bytes, ...] = ()
        self.keep_out(secrets)
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue[tuple[bytes, Future[DeliverySummary]] | None] = (
            queue.SimpleQueue()
        )
        self._writer: threading.Thread | None = None
        self._writer_lock = threading.Lock()

    def keep_out(self, secrets: Iterable[str]) -> None:
        """Never write these strings either (replaced by ``[redacted]``)."""
        added = tuple(s for s in secrets if s and s not in self._secrets)
        self._secrets = self._secrets + added
        self._secret_bytes = tuple(s.encode() for s in self._secrets)

    @property
    def writable(self) -> bool:
        """False when the cache is open read-only (another process writes to it)."""
        return not self.store.read_only

    @property
    def cache_location(self) -> Path:
        return self.store.path

    # ------------------------------------------------------------------ entry points

    def ingest_body(self, body: bytes) -> DeliverySummary:
        """Parse, validate and store one raw delivery (see the module docstring)."""
        data = self._parse(body)
        with self._lock:
            return self._ingest_parsed(data)

    def ingest(self, data: dict[str, Any]) -> DeliverySummary:
        """Store one envelope already parsed (a dict with callback_id and event_type)."""
        problem = self._envelope_problem(data)
        if problem is not None:
            raise InvalidDelivery(f"not an envelope: {problem}")
        if self._secrets:
            data = _scrub(data, self._secrets)
        with self._lock:
            return self._ingest_parsed(data)

    def submit(self, body: bytes) -> Future[DeliverySummary]:
        """Queue a raw delivery for the writer thread; the future resolves once it is durable.

        One thread writes every delivery, in arrival order: the store serialises its writes
        anyway (one fdatasync each), and a single writer spares the event loop's executor a
        convoy of threads waiting on the store's lock. The future raises InvalidDelivery
        (kept in quarantine) or the store's error, exactly as :meth:`ingest_body` would.
        """
        future: Future[DeliverySummary] = Future()
        with self._writer_lock:
            if self._writer is None or not self._writer.is_alive():
                # Each writer has its own queue: a delivery arriving while close() stops the
                # last one starts another, and the stop sent to the old one must not be taken
                # by the new one (close() would then wait for ever on the old).
                self._queue = queue.SimpleQueue()
                self._writer = threading.Thread(
                    target=self._write_loop,
                    args=(self._queue,),
                    name="lawsuit-tui-webhook-writer",
                    daemon=True,
                )
                self._writer.start()
            self._queue.put((body, future))
        return future

    def close(self) -> None:
        """Stop the writer thread after the deliveries already queued (idempotent)."""
        with self._writer_lock:
            writer, self._writer = self._writer, None
            if writer is None:
                return
            self._queue.put(None)
        writer.join()

    # ------------------------------------------------------------------ writer thread

    def _write_loop(
        self, items: queue.SimpleQueue[tuple[bytes, Future[DeliverySummary]] | None]
    ) -> None:
        while True:
            item = items.get()
            if item is None:
                return
            body, future = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                data = self._parse(body)
                with self._lock:
                    summary = self._ingest_parsed(data)
            except BaseException as exc:
                future.set_exception(exc)
            else:
                future.set_result(summary)

    # ------------------------------------------------------------------ internals

    def _parse(self, body: bytes) -> dict[str, Any]:
        body = self._scrub_bytes(body)
        try:
            data: object = orjson.loads(body)
        except orjson.JSONDecodeError:
            self._refuse(body, "not JSON")
        if not isinstance(data, dict):
            self._refuse(body, "not an envelope: the body is not a JSON object")
        problem = self._envelope_problem(data)
        if problem is not None:
            self._refuse(body, f"not an envelope: {problem}")
        return data

    def _ingest_parsed(self, data: dict[str, Any]) -> DeliverySummary:
        envelope = _Envelope.of(data)
        if self.store.is_delivered(envelope.callback_id):
            return self._summary(envelope, data, new=False)
        return self._store(envelope, data)

    def _response_of(self, envelope: _Envelope, data: dict[str, Any]) -> dict[str, Any] | None:
        """The response record a response-type delivery carries, or None."""
        payload = data.get("payload")
        if envelope.event_type in (
            EventType.RESPONSE_CREATED,
            EventType.TRACKING_RESPONSE,
        ) and isinstance(payload, dict):
            return self._response_record(envelope, payload)
        return None

    def _scrub_bytes(self, body: bytes) -> bytes:
        for secret in self._secret_bytes:
            if secret in body:
                body = body.replace(secret, REDACTED.encode())
        return body

    def _refuse(self, body: bytes, reason: str) -> NoReturn:
        self.store.quarantine(body, reason)
        raise InvalidDelivery(reason)

    @staticmethod
    def _envelope_problem(data: dict[str, Any]) -> str | None:
        callback_id = data.get("callback_id")
        if not isinstance(callback_id, str) or not callback_id.strip():
            return "callback_id is missing or not a non-empty string"
        if not isinstance(data.get("event_type"), str) or not data["event_type"]:
            return "event_type is missing or not a non-empty string"
        for name in ("reference_type", "reference_id", "user_id"):
            if data.get(name) is not None and not isinstance(data[name], str):
                return f"{name} is not a string"
        payload = data.get("payload")
        if payload is not None and not isinstance(payload, dict):
            return "payload is not a JSON object"
        return None

    def _store(self, envelope: _Envelope, data: dict[str, Any]) -> DeliverySummary:
        event = envelope.event_type
        payload = data.get("payload")
        if _is_notice(event, payload):
            # D69: "every response was delivered" completes the request; it is no result.
            assert isinstance(payload, dict)
            completion = self._completion_record(envelope, payload)
            if completion is not None:
                self._upsert_request(completion)
                new, _changes = self.store.ingest_delivery(data)
                return self._summary(envelope, data, new=new)
        response = self._response_of(envelope, data)
        if response is not None and is_tracking_response(response):
            # A tracking's movement (D171): the movement in the inbox first, then the
            # response and the delivery's mark in one batch (a kill between loses nothing).
            done = ingest_tracking_responses(
                self.store, [response], source="webhook", now=datetime.now(UTC), envelope=data
            )
            return self._summary(
                envelope, data, new=done.stored, changes=done.changes, movements=done.movements
            )
        if response is not None:
            new, changes = self.store.ingest_delivery(data, [response])
            return self._summary(envelope, data, new=new, changes=changes)
        if event == EventType.REQUEST_COMPLETED and isinstance(payload, dict):
            request = self._request_record(envelope, payload)
            if request is not None:
                self._upsert_request(request)
                new, _changes = self.store.ingest_delivery(data)
                return self._summary(envelope, data, new=new)
        reason = (
            f"accepted (2xx): unknown event type {event!r}, kept as it came"
            if event not in set(EventType)
            else f"accepted (2xx): {event} with a payload that is not a storable record"
        )
        new, _changes = self.store.ingest_delivery(data, quarantine_reason=reason)
        return self._summary(envelope, data, new=new)

    @staticmethod
    def _is_tracking(envelope: _Envelope) -> bool:
        return envelope.event_type == EventType.TRACKING_RESPONSE or (
            envelope.reference_type == TRACKING
        )

    def _response_record(
        self, envelope: _Envelope, payload: dict[str, Any]
    ) -> dict[str, Any] | None:
        if not _str_or_none(payload.get("response_id")):
            return None
        record = dict(payload)
        if self._is_tracking(envelope) and envelope.reference_id:
            if record.get("origin") is None:
                record["origin"] = TRACKING
            if record.get("origin_id") is None:
                record["origin_id"] = envelope.reference_id
        elif not _str_or_none(record.get("request_id")) and envelope.reference_id:
            record["request_id"] = envelope.reference_id
        return record

    @staticmethod
    def _completion_record(envelope: _Envelope, payload: dict[str, Any]) -> dict[str, Any] | None:
        """The request a completion notice completes, as the fields it changes (D69)."""
        request_id = _str_or_none(payload.get("request_id"))
        if request_id is None and envelope.reference_type in (None, "request"):
            request_id = envelope.reference_id
        if request_id is None:
            return None
        record: dict[str, Any] = {"request_id": request_id, "status": "completed"}
        when = _str_or_none(payload.get("created_at"))
        if when is not None:
            record.update(completed_at=when, updated_at=when)
        return record

    @staticmethod
    def _request_record(envelope: _Envelope, payload: dict[str, Any]) -> dict[str, Any] | None:
        record = dict(payload)
        if not _str_or_none(record.get("request_id")):
            if envelope.reference_type in (None, "request") and envelope.reference_id:
                record["request_id"] = envelope.reference_id
            else:
                return None
        return record

    def _upsert_request(self, record: dict[str, Any]) -> None:
        cached = self.store.get_request(str(record["request_id"]))
        if cached is not None:
            if _newer(cached, record):
                return  # the cache already holds a later state (a sync ran since)
            record = {**cached, **record}
        self.store.upsert_requests([record])

    @staticmethod
    def _summary(
        envelope: _Envelope,
        data: dict[str, Any],
        *,
        new: bool,
        changes: Sequence[LawsuitChange] = (),
        movements: Sequence[str] = (),
    ) -> DeliverySummary:
        payload = data.get("payload") if isinstance(data.get("payload"), dict) else {}
        assert isinstance(payload, dict)
        event = envelope.event_type
        kind = "kept"
        provisional: bool | None = None
        status = _str_or_none(payload.get("status"))
        if _is_notice(event, payload):
            kind, status = "request", "completed"  # D69
        elif event in (
            EventType.RESPONSE_CREATED,
            EventType.TRACKING_RESPONSE,
        ) and _str_or_none(payload.get("response_id")):
            kind = "response"
            tags = payload.get("tags")
            provisional = (isinstance(tags, dict) and tags.get("cached_response") is True) or (
                payload.get("cached") is True
            )
        elif event == EventType.REQUEST_COMPLETED and (
            _str_or_none(payload.get("request_id"))
            or (envelope.reference_type in (None, "request") and envelope.reference_id)
        ):
            kind = "request"
        request_id = _str_or_none(payload.get("request_id"))
        if request_id is None and envelope.reference_type in (None, "request"):
            request_id = envelope.reference_id
        return DeliverySummary(
            callback_id=envelope.callback_id,
            event_type=event,
            reference_type=envelope.reference_type,
            reference_id=envelope.reference_id,
            kind=kind,
            new=new,
            request_id=request_id,
            response_id=_str_or_none(payload.get("response_id")),
            response_type=_str_or_none(payload.get("response_type")),
            provisional=provisional,
            status=status,
            lawsuit_changes=tuple(changes),
            movements=tuple(movements),
        )


# What a receiver is given: the cache it ingests into, or an ingestor ready for it.
IngestTarget: TypeAlias = Store | WebhookIngestor


def ingestor_for(target: IngestTarget, *, secrets: Iterable[str] = ()) -> WebhookIngestor:
    """The ingestor of ``target`` (itself, or a new one over that cache), keeping ``secrets``
    (the receiver's path token) out of the cache."""
    if isinstance(target, WebhookIngestor):
        target.keep_out(secrets)
        return target
    return WebhookIngestor(target, secrets=secrets)


def open_receiver_cache(directory: Path, *, secrets: Iterable[str] = ()) -> Store:
    """The cache at ``directory``, open for writing (blocks on disk: call it in a thread).

    Raises ``CacheLocked`` when another process writes to it, ``CacheError`` or ``OSError``
    when it cannot be opened (:mod:`lawsuit_tui.services.errors`).
    """
    return Store.open(directory, secrets=secrets)


def _is_notice(event: str, payload: object) -> bool:
    """A response-type delivery carrying the completion notice (D69)."""
    return (
        event in (EventType.RESPONSE_CREATED, EventType.TRACKING_RESPONSE)
        and isinstance(payload, dict)
        and is_completion_notice(payload.get("response_type"), payload.get("response_data"))
    )


def _updated_at(record: dict[str, Any]) -> datetime | None:
    value = record.get("updated_at")
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def _newer(cached: dict[str, Any], incoming: dict[str, Any]) -> bool:
    """True when ``cached`` is a strictly later state of the request than ``incoming``."""
    old, new = _updated_at(cached), _updated_at(incoming)
    if old is None or new is None:
        return False
    return old > new


async def follow_writer(
    store: Store,
    on_change: Callable[[], object],
    *,
    interval: float = 2.0,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> None:
    """For a read-only cache (a standalone receiver holds it): call ``on_change`` whenever the
    writer has stored something new (``Store.refresh`` in a worker thread, every ``interval``
    seconds). Runs until cancelled; a failed refresh is retried at the next tick.
    """
    while True:
        try:
            changed = await asyncio.to_thread(store.refresh)
        except Exception:  # a checkpoint in progress, a file replaced under us: next tick
            changed = False
        if changed:
            on_change()
        await sleep(interval)

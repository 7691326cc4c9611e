"""The webhook receiver: a small ASGI app (no framework: three routes and exact status rules).

Routes, all under the secret path token:

- ``POST /<token>``: one delivery. Status rules, in order: a sender outside the allow-list
  403; a wrong token (any other path) 404; another method 405; a body over ``max_body``
  413 (by Content-Length, and by the bytes actually streamed); a body that is not JSON or
  not an envelope 400 (kept in quarantine, so the sender stops retrying a poison message);
  stored (or a redelivery, which changes nothing) 200; the cache failing, or the write not
  done within ``answer_within`` seconds, 503 (the sender retries; nothing was acknowledged).
  Never a 500 for something it could have stored.
- ``GET /<token>/health``: a plain-text status page for humans.

The 200 goes out only after the store call returned, i.e. after the delivery is durable
(journal fdatasynced). The store call runs in a worker thread, so slow disks never stall
the event loop (or the TUI that may share it).

The path token is compared in constant time and never written to a log: the caller must
run uvicorn with ``access_log=False`` (see :mod:`lawsuit_tui.webhooks.server`).
"""

from __future__ import annotations

import asyncio
import hmac
import inspect
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson
from starlette.types import Message, Receive, Scope, Send

from lawsuit_tui.services.webhooks import (
    DeliverySummary,
    IngestTarget,
    InvalidDelivery,
    WebhookIngestor,
    ingestor_for,
)
from lawsuit_tui.webhooks.allowlist import AllowList

__all__ = [
    "ANSWER_WITHIN",
    "MAX_BODY",
    "OnDelivery",
    "Receiver",
    "ReceiverStats",
    "create_receiver",
]

log = logging.getLogger(__name__)

MAX_BODY = 5 * 1024 * 1024
# The spec allows 10 s; answering 503 well before that keeps the sender's retry ours to shape.
ANSWER_WITHIN = 8.0

OnDelivery = Callable[[DeliverySummary], "Awaitable[None] | None"]


@dataclass
class ReceiverStats:
    """Counters since the receiver started (for the health page, the TUI and the bench)."""

    started_at: datetime
    stored: int = 0
    repeated: int = 0
    rejected: int = 0
    failed: int = 0
    refused: int = 0
    last_delivery_at: datetime | None = None
    last_event: str | None = None
    problems: deque[tuple[datetime, int, str]] = field(default_factory=lambda: deque(maxlen=10))
    """The last deliveries refused or not stored: (when, status answered, why), for the TUI's
    receiver screen; never the body, which may hold personal data."""

    def problem(self, status: int, reason: str) -> None:
        self.problems.append((datetime.now(UTC), status, reason))

    def to_json(self) -> dict[str, Any]:
        return {
            "started_at": self.started_at.isoformat(),
            "stored": self.stored,
            "repeated": self.repeated,
            "rejected": self.rejected,
            "failed": self.failed,
            "refused": self.refused,
            "last_delivery_at": self.last_delivery_at.isoformat()
            if self.last_delivery_at
            else None,
            "last_event": self.last_event,
        }


class _TooLarge(Exception):
    pass


class _Disconnected(Exception):
    pass


class Receiver:
    """The ASGI app. Build it with :func:`create_receiver`."""

    def __init__(
        self,
        ingestor: WebhookIngestor,
        *,
        path_token: str,
        allow_from: Sequence[str] = (),
        max_body: int = MAX_BODY,
        on_delivery: OnDelivery | None = None,
        answer_within: float = ANSWER_WITHIN,
    ) -> None:
        if not path_token or "/" in path_token:
            raise ValueError("path_token must be a non-empty path segment")
        self.ingestor = ingestor
        self.allow = AllowList(allow_from)
        self.max_body = max_body
        self.on_delivery = on_delivery
        self.answer_within = answer_within
        self.stats = ReceiverStats(started_at=datetime.now(UTC))
        self._token = path_token.encode()
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ ASGI

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return  # websockets: the server closes the connection
        client = scope.get("client")
        if not self.allow.allows(client[0] if client else None):
            self.stats.refused += 1
            self.stats.problem(403, f"sender {client[0] if client else '?'} not allowed")
            await _answer(send, 403, {"error": "FORBIDDEN", "message": "sender not allowed"})
            return
        route = self._route(str(scope.get("path", "")))
        if route is None:
            await _answer(send, 404, {"error": "NOT_FOUND"})
            return
        method = scope.get("method", "GET")
        if route == "health":
            if method not in ("GET", "HEAD"):
                await _answer(send, 405, {"error": "METHOD_NOT_ALLOWED"}, allow="GET, HEAD")
                return
            await self._health(send, head=method == "HEAD")
            return
        if method != "POST":
            await _answer(send, 405, {"error": "METHOD_NOT_ALLOWED"}, allow="POST")
            return
        await self._delivery(scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.drain()
                await send({"type": "lifespan.shutdown.complete"})
                return

    def _route(self, path: str) -> str | None:
        parts = [p for p in path.split("/") if p]
        if not parts or not hmac.compare_digest(parts[0].encode(), self._token):
            return None
        if len(parts) == 1:
            return "deliver"
        if len(parts) == 2 and parts[1] == "health":
            return "health"
        return None

    # ------------------------------------------------------------------ deliveries

    async def _delivery(self, scope: Scope, receive: Receive, send: Send) -> None:
        declared = _content_length(scope)
        if declared == -1:
            self.stats.rejected += 1
            self.stats.problem(400, "bad Content-Length")
            await _answer(send, 400, {"error": "BAD_REQUEST", "message": "bad Content-Length"})
            return
        if declared is not None and declared > self.max_body:
            self.stats.rejected += 1
            self.stats.problem(413, f"body of {declared} bytes")
            await _answer(send, 413, {"error": "PAYLOAD_TOO_LARGE", "limit": self.max_body})
            return
        try:
            body = await self._read_body(receive)
        except _TooLarge:
            self.stats.rejected += 1
            self.stats.problem(413, "body too large")
            await _answer(send, 413, {"error": "PAYLOAD_TOO_LARGE", "limit": self.max_body})
            return
        except _Disconnected:
            return  # the sender gave up: nothing stored, nothing answered; it will retry
        work = asyncio.wrap_future(self.ingestor.submit(body))
        try:
            summary = await asyncio.wait_for(asyncio.shield(work), self.answer_within)
        except InvalidDelivery as exc:
            self.stats.rejected += 1
            self.stats.problem(400, exc.reason)
            await _answer(send, 400, {"error": "BAD_REQUEST", "message": exc.reason})
            return
        except TimeoutError:
            # The write goes on in its thread; the sender's retry will find it (dedupe).
            work.add_done_callback(_consume)
            self.stats.failed += 1
            self.stats.problem(503, "not stored in time")
            log.warning(
                "webhook delivery not stored within %.1f s: answered 503", self.answer_within
            )
            await _answer(send, 503, {"error": "SERVICE_UNAVAILABLE"}, retry_after="1")
            return
        except Exception as exc:  # the cache failed: not acknowledged, so the sender retries
            self.stats.failed += 1
            self.stats.problem(503, f"the cache failed: {type(exc).__name__}")
            log.error("webhook delivery not stored: %s: %s", type(exc).__name__, exc)
            await _answer(send, 503, {"error": "SERVICE_UNAVAILABLE"}, retry_after="1")
            return
        if summary.new:
            self.stats.stored += 1
        else:
            self.stats.repeated += 1
        self.stats.last_delivery_at = datetime.now(UTC)
        self.stats.last_event = summary.event_type
        if summary.new:
            self._notify(summary)  # before the answer: whoever sees the 200 can see the note
        await _answer(
            send,
            200,
            {
                "status": "stored" if summary.new else "duplicate",
                "callback_id": summary.callback_id,
            },
        )

    async def _read_body(self, receive: Receive) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message: Message = await receive()
            if message["type"] == "http.disconnect":
                raise _Disconnected
            chunk = message.get("body", b"")
            if chunk:
                size += len(chunk)
                if size > self.max_body:
                    raise _TooLarge
                chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _notify(self, summary: DeliverySummary) -> None:
        if self.on_delivery is None:
            return
        try:
            result = self.on_delivery(summary)
            if inspect.isawaitable(result):
                task = asyncio.ensure_future(result)
                self._tasks.add(task)
                task.add_done_callback(self._task_done)
        except Exception:  # a notification must never undo an acknowledged delivery
            log.exception("on_delivery callback failed")

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("on_delivery callback failed: %r", task.exception())

    async def drain(self) -> None:
        """Wait for the notifications still running (shutdown)."""
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5.0)

    async def aclose(self) -> None:
        """After the server stopped: finish notifications, stop the writer thread."""
        await self.drain()
        await asyncio.to_thread(self.ingestor.close)

    # ------------------------------------------------------------------ health

    async def _health(self, send: Send, *, head: bool) -> None:
        stats = self.stats
        writable = self.ingestor.writable
        uptime = int((datetime.now(UTC) - stats.started_at).total_seconds())
        last = (
            stats.last_delivery_at.isoformat(timespec="seconds") if stats.last_delivery_at else "-"
        )
        lines = [
            "lawsuit-tui webhook receiver",
            f"status: {'ok' if writable else 'cache not writable'}",
            f"cache: {self.ingestor.cache_location}",
            f"up: {uptime} s (since {stats.started_at.isoformat(timespec='seconds')})",
            f"deliveries stored: {stats.stored}",
            f"redeliveries (already stored): {stats.repeated}",
            f"refused as bad input (400/413): {stats.rejected}",
            f"not stored, sender asked to retry (503): {stats.failed}",
            f"senders outside the allow-list (403): {stats.refused}",
            f"last delivery: {last} {stats.last_event or ''}".rstrip(),
        ]
        body = ("\n".join(lines) + "\n").encode()
        await send(
            {
                "type": "http.response.start",
                "status": 200 if writable else 503,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b"" if head else body})


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        exc = future.exception()
        if exc is not None and not isinstance(exc, InvalidDelivery):
            log.error("late webhook write failed: %s: %s", type(exc).__name__, exc)


def _content_length(scope: Scope) -> int | None:
    """The declared length; None when absent, -1 when not a number."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            try:
                length = int(value)
            except ValueError:
                return -1
            return length if length >= 0 else -1
    return None


async def _answer(
    send: Send,
    status: int,
    body: dict[str, Any],
    *,
    allow: str | None = None,
    retry_after: str | None = None,
) -> None:
    payload = orjson.dumps(body)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"cache-control", b"no-store"),
    ]
    if allow is not None:
        headers.append((b"allow", allow.encode()))
    if retry_after is not None:
        headers.append((b"retry-after", retry_after.encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


def create_receiver(
    target: IngestTarget,
    *,
    path_token: str,
    allow_from: Sequence[str] = (),
    max_body: int = MAX_BODY,
    on_delivery: OnDelivery | None = None,
    answer_within: float = ANSWER_WITHIN,
) -> Receiver:
    """The receiver's ASGI app over a writable cache (or a ready ingestor).

    Its ingestor also keeps ``path_token`` out of the cache (the service echoes callback URLs
    in request records).
    """
    return Receiver(
        ingestor_for(target, secrets=[path_token]),
        path_token=path_token,
        allow_from=allow_from,
        max_body=max_body,
        on_delivery=on_delivery,
        answer_within=answer_within,
    )

"""Webhook deliveries (D42-D44): the spec's envelope, POSTed with httpx, retried on failure.

A delivery is retried with the same ``callback_id`` after 1, 2, 4, 8 and 16 s of sandbox time
(6 attempts in all, D44) when the receiver answers 5xx, cannot be reached, or takes longer
than the time-out (10 s); a 4xx is final. Deliveries to one URL are posted in the order they
were sent (each waits for the previous one's attempt), so a receiver sees a request's
responses before its ``request_completed``; a retry goes to the back of that order.

Each delivery is a plain record on the state (``state.deliveries``, by callback_id): when its
next attempt is due, how it went so far. An attempt is taken in two transactions (D180): the
first *claims* the delivery for this process (for :data:`CLAIM_SECONDS` of real time) and
commits; the post happens outside any lock; the second records the outcome and, on a failure,
when the next attempt is due. So among processes sharing a sandbox kept on disk one posts it,
and a delivery claimed by a process that died is taken up again once its claim runs out (at
least once, the same callback_id every time, as D44 promises receivers).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

import httpx
import orjson

from lawsuit_tui.sandbox.clock import SandboxClock, iso
from lawsuit_tui.sandbox.stats import Stats
from lawsuit_tui.sandbox.tables import Table

__all__ = [
    "BACKOFF_SECONDS",
    "CLAIM_SECONDS",
    "KEPT_DELIVERIES",
    "Delivery",
    "WebhookDispatcher",
]

log = logging.getLogger(__name__)

BACKOFF_SECONDS = (1.0, 2.0, 4.0, 8.0, 16.0)  # D44: 6 attempts in all
RECEIVER_TIMEOUT_SECONDS = 10.0
# A claim outlives the longest attempt (the receiver's time-out) with room to record it.
CLAIM_SECONDS = 3 * RECEIVER_TIMEOUT_SECONDS
# Deliveries remembered (for /_sandbox/stats); the oldest finished ones go first.
KEPT_DELIVERIES = 10_000
_FINAL = ("delivered", "failed", "rejected")


@dataclass
class Delivery:
    callback_id: str
    url: str
    envelope: dict[str, Any] | None  # released once the outcome is final (payloads are big)
    event_type: str = ""
    reference_id: str = ""
    attempts: int = 0
    outcome: str = "pending"  # pending, delivered, retrying, failed, rejected
    last_status: int | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    # When the next attempt is due (sandbox time); None once the outcome is final.
    next_at: datetime | None = None
    # Which process is posting it, and until when (wall-clock seconds) that holds.
    claimed_by: str | None = None
    claimed_until: float = 0.0

    def summary(self) -> dict[str, Any]:
        return {
            "callback_id": self.callback_id,
            "event_type": self.event_type,
            "reference_id": self.reference_id,
            "attempts": self.attempts,
            "outcome": self.outcome,
            "last_status": self.last_status,
        }

    def claimed(self, wall: float) -> bool:
        return self.claimed_by is not None and self.claimed_until > wall


class Spawner(Protocol):
    def __call__(self, coro: Awaitable[None], *, delivery: bool = ...) -> asyncio.Task[None]: ...


Transaction = Callable[[], contextlib.AbstractAsyncContextManager[None]]


class WebhookDispatcher:
    """Sends, posts and retries the deliveries held in ``deliveries`` (the state's table).

    ``transaction()`` opens a transaction on the state; ``after_commit(fn)`` runs ``fn`` once
    the current transaction is kept; ``wake(callback_id)`` tells the state's timed work that
    a delivery's next attempt may have moved."""

    def __init__(
        self,
        *,
        clock: SandboxClock,
        stats: Stats,
        spawn: Spawner,
        deliveries: Table[str, Delivery],
        transaction: Transaction,
        after_commit: Callable[[Callable[[], None]], None],
        wake: Callable[[str], None],
        account_url: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = RECEIVER_TIMEOUT_SECONDS,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.clock = clock
        self.stats = stats
        self.spawn = spawn
        self.deliveries = deliveries
        self.transaction = transaction
        self.after_commit = after_commit
        self.wake = wake
        self.account_url = account_url
        self.transport = transport
        self.timeout = timeout
        self.wall = wall
        # This process, as it signs its claims.
        self.me = secrets.token_hex(8)
        self._client: httpx.AsyncClient | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None
        self._tail: dict[str, asyncio.Task[None]] = {}

    def target(self, callback_url: str | None) -> str | None:
        """D42: the request's (or tracking's) callback_url, else the account-wide URL."""
        return callback_url or self.account_url

    def send(self, url: str | None, callback_id: str, envelope: dict[str, Any]) -> None:
        """Queue a delivery of ``envelope`` to ``url`` (nothing when there is no target)."""
        if not url:
            return
        self.deliveries[callback_id] = Delivery(
            callback_id,
            url,
            envelope,
            event_type=str(envelope.get("event_type", "")),
            reference_id=str(envelope.get("reference_id", "")),
            next_at=self.clock.now(),
        )
        if len(self.deliveries) > KEPT_DELIVERIES:  # a long demo must not grow without bound
            self._forget_oldest(len(self.deliveries) - KEPT_DELIVERIES + KEPT_DELIVERIES // 10)
        self.wake(callback_id)

    def _forget_oldest(self, count: int) -> None:
        old = [
            callback_id
            for callback_id, delivery in self.deliveries.items()
            if delivery.outcome in _FINAL
        ][:count]
        for callback_id in old:
            del self.deliveries[callback_id]

    def recent(self, count: int) -> list[Delivery]:
        """The last ``count`` deliveries sent, oldest first."""
        return list(self.deliveries.values())[-count:]

    # ----------------------------------------------------------------- timed work

    def due(self, callback_id: str) -> datetime | None:
        """When the delivery's next attempt is due (None: final, or another claim holds)."""
        delivery = self.deliveries.raw_get(callback_id)
        if delivery is None or delivery.next_at is None or delivery.outcome in _FINAL:
            return None
        if delivery.claimed(self.wall()):
            return None
        return delivery.next_at

    def stale_claims(self) -> list[str]:
        """Deliveries claimed by a process whose claim ran out (it died while posting)."""
        wall = self.wall()
        return [
            callback_id
            for callback_id, delivery in self.deliveries.raw_items()
            if delivery.claimed_by is not None
            and delivery.claimed_until <= wall
            and delivery.outcome not in _FINAL
        ]

    async def run(self, callback_id: str, at: datetime) -> None:
        """Claim the delivery (in a transaction), and post it once the claim is kept."""
        async with self.transaction():
            delivery = self.deliveries.get(callback_id)
            if delivery is None or self.due(callback_id) != at:
                return
            delivery.claimed_by = self.me
            delivery.claimed_until = self.wall() + CLAIM_SECONDS
            self.after_commit(lambda: self._start_attempt(callback_id, delivery.url))

    def _start_attempt(self, callback_id: str, url: str) -> None:
        previous = self._tail.get(url)
        task = self.spawn(self._attempt(callback_id, previous), delivery=True)
        self._tail[url] = task

    def _http(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            self._client = httpx.AsyncClient(transport=self.transport, timeout=self.timeout)
            self._client_loop = loop
        return self._client

    async def _attempt(self, callback_id: str, previous: asyncio.Task[None] | None) -> None:
        if previous is not None and not previous.done():
            await asyncio.wait([previous])  # order only; its outcome is not ours
        delivery = self.deliveries.raw_get(callback_id)
        if delivery is None or delivery.envelope is None or delivery.claimed_by != self.me:
            return
        url, body = delivery.url, orjson.dumps(delivery.envelope)
        self.stats.count_webhook("attempts")
        status: int | None = None
        error: str | None = None
        try:
            answer = await self._http().post(
                url,
                content=body,
                headers={"User-Agent": "lawsuit-tui-sandbox/1", "Content-Type": "application/json"},
                timeout=self.timeout,
            )
            status = answer.status_code
        except httpx.TimeoutException:
            error = "timeout"
        except httpx.HTTPError as exc:
            error = type(exc).__name__
        async with self.transaction():
            self._record(callback_id, status, error)

    def _record(self, callback_id: str, status: int | None, error: str | None) -> None:
        delivery = self.deliveries.get(callback_id)
        if delivery is None or delivery.claimed_by != self.me:
            return  # forgotten meanwhile, or taken over by another process
        now = self.clock.now()
        delivery.claimed_by = None
        delivery.claimed_until = 0.0
        delivery.attempts += 1
        delivery.last_status = status
        delivery.history.append({"at": iso(now), "status": status, "error": error})
        if status is not None and 200 <= status < 300:
            self._final(delivery, "delivered")
            return
        if status is not None and 400 <= status < 500:  # D44: a 4xx is final
            self._final(delivery, "rejected")
            return
        if delivery.attempts > len(BACKOFF_SECONDS):
            self._final(delivery, "failed")
            # The host only: receivers keep a secret token in the path (D44).
            host = httpx.URL(delivery.url).host
            log.info("webhook %s to %s failed for good", delivery.callback_id, host)
            return
        delivery.outcome = "retrying"
        self.stats.count_webhook("retries")
        delivery.next_at = now + timedelta(seconds=BACKOFF_SECONDS[delivery.attempts - 1])
        self.wake(callback_id)

    def _final(self, delivery: Delivery, outcome: str) -> None:
        delivery.outcome = outcome
        delivery.envelope = None
        delivery.next_at = None
        self.stats.count_webhook(outcome)

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(RuntimeError):  # its loop may be gone already
                await client.aclose()

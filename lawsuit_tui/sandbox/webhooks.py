"""Webhook deliveries (D42-D44): the spec's envelope, POSTed with httpx, retried on failure.

A delivery is retried with the same ``callback_id`` after 1, 2, 4, 8 and 16 s of sandbox time
(6 attempts in all, D44) when the receiver answers 5xx, cannot be reached, or takes longer
than the time-out (10 s); a 4xx is final. Deliveries to one URL are posted in the order they
were sent (each waits for the previous one's attempt), so a receiver sees a request's
responses before its ``request_completed``; a retry goes to the back of that order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

import httpx
import orjson

from lawsuit_tui.sandbox.clock import SandboxClock, iso
from lawsuit_tui.sandbox.stats import Stats

__all__ = ["BACKOFF_SECONDS", "Delivery", "WebhookDispatcher"]

log = logging.getLogger(__name__)

BACKOFF_SECONDS = (1.0, 2.0, 4.0, 8.0, 16.0)  # D44: 6 attempts in all
RECEIVER_TIMEOUT_SECONDS = 10.0


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

    def summary(self) -> dict[str, Any]:
        return {
            "callback_id": self.callback_id,
            "event_type": self.event_type,
            "reference_id": self.reference_id,
            "attempts": self.attempts,
            "outcome": self.outcome,
            "last_status": self.last_status,
        }


class Spawner(Protocol):
    def __call__(self, coro: Awaitable[None], *, delivery: bool = ...) -> asyncio.Task[None]: ...


class WebhookDispatcher:
    def __init__(
        self,
        *,
        clock: SandboxClock,
        stats: Stats,
        spawn: Spawner,
        account_url: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = RECEIVER_TIMEOUT_SECONDS,
    ) -> None:
        self.clock = clock
        self.stats = stats
        self.spawn = spawn
        self.account_url = account_url
        self.transport = transport
        self.timeout = timeout
        self.deliveries: list[Delivery] = []
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
        delivery = Delivery(
            callback_id,
            url,
            envelope,
            event_type=str(envelope.get("event_type", "")),
            reference_id=str(envelope.get("reference_id", "")),
        )
        self.deliveries.append(delivery)
        if len(self.deliveries) > 10_000:  # a long demo must not grow without bound
            del self.deliveries[:1000]
        self._start_attempt(delivery)

    def _start_attempt(self, delivery: Delivery) -> None:
        previous = self._tail.get(delivery.url)
        task = self.spawn(self._attempt(delivery, previous), delivery=True)
        self._tail[delivery.url] = task

    def _http(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            self._client = httpx.AsyncClient(transport=self.transport, timeout=self.timeout)
            self._client_loop = loop
        return self._client

    async def _attempt(self, delivery: Delivery, previous: asyncio.Task[None] | None) -> None:
        if previous is not None and not previous.done():
            await asyncio.wait([previous])  # order only; its outcome is not ours
        if delivery.envelope is None:
            return
        delivery.attempts += 1
        self.stats.count_webhook("attempts")
        status: int | None = None
        error: str | None = None
        try:
            answer = await self._http().post(
                delivery.url,
                content=orjson.dumps(delivery.envelope),
                headers={"User-Agent": "lawsuit-tui-sandbox/1", "Content-Type": "application/json"},
                timeout=self.timeout,
            )
            status = answer.status_code
        except httpx.TimeoutException:
            error = "timeout"
        except httpx.HTTPError as exc:
            error = type(exc).__name__
        delivery.last_status = status
        delivery.history.append({"at": iso(self.clock.now()), "status": status, "error": error})
        if status is not None and 200 <= status < 300:
            delivery.outcome = "delivered"
            delivery.envelope = None
            self.stats.count_webhook("delivered")
            return
        if status is not None and 400 <= status < 500:  # D44: a 4xx is final
            delivery.outcome = "rejected"
            delivery.envelope = None
            self.stats.count_webhook("rejected")
            return
        if delivery.attempts > len(BACKOFF_SECONDS):
            delivery.outcome = "failed"
            delivery.envelope = None
            self.stats.count_webhook("failed")
            # The host only: receivers keep a secret token in the path (D44).
            host = httpx.URL(delivery.url).host
            log.info("webhook %s to %s failed for good", delivery.callback_id, host)
            return
        delivery.outcome = "retrying"
        self.stats.count_webhook("retries")
        wait = BACKOFF_SECONDS[delivery.attempts - 1]

        def retry(_: datetime) -> None:
            self._start_attempt(delivery)

        self.clock.call_later(wait, retry)

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(RuntimeError):  # its loop may be gone already
                await client.aclose()

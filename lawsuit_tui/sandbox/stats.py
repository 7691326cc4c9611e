"""Counters for ``GET /_sandbox/stats``: calls per key and route, 429s, webhook deliveries.

Keys are secrets: the stats name a key by a short fingerprint, never by its value.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from typing import Any

from starlette.requests import Request

__all__ = ["Stats", "key_label"]


def key_label(key: str) -> str:
    """A stable, non-reversible label for an API key (``key-1a2b3c4d``)."""
    return "key-" + hashlib.sha256(key.encode()).hexdigest()[:8]


def _route_of(request: Request) -> str:
    route = request.scope.get("route")
    path = getattr(route, "path", None) or request.url.path
    return f"{request.method} {path}"


class Stats:
    def __init__(self) -> None:
        self.calls: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self.rate_limited: Counter[str] = Counter()
        self.webhooks: Counter[str] = Counter()
        self.faults: Counter[str] = Counter()
        # Trackings made, and keys refused because a live tracking follows them (D164).
        self.trackings: Counter[str] = Counter()

    def count_call(self, key: str, request: Request) -> None:
        self.calls[key_label(key)][_route_of(request)] += 1

    def count_429(self, key: str) -> None:
        self.rate_limited[key_label(key)] += 1

    def count_webhook(self, what: str) -> None:
        """``what``: attempts, deliveries (2xx), retries, failed (final failure), dropped."""
        self.webhooks[what] += 1

    def count_fault(self, what: str) -> None:
        self.faults[what] += 1

    def count_tracking(self, what: str) -> None:
        """``what``: created, or already_exists (a second tracking of a key refused)."""
        self.trackings[what] += 1

    def snapshot(self) -> dict[str, Any]:
        return {
            "calls": {k: dict(v) for k, v in self.calls.items()},
            "calls_total": sum(sum(v.values()) for v in self.calls.values()),
            "rate_limited": dict(self.rate_limited),
            "rate_limited_total": sum(self.rate_limited.values()),
            "webhooks": {
                name: self.webhooks.get(name, 0)
                for name in ("attempts", "delivered", "retries", "failed", "rejected")
            },
            "faults": dict(self.faults),
            "tracking_creations": {
                name: self.trackings.get(name, 0) for name in ("created", "already_exists")
            },
        }

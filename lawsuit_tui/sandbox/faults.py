"""Faults on demand (D45): latency, a share of 5xx answers, broken bodies, courts down, and
the completion sent in its legacy form (D69).

What is in force is plain data on the state (saved with a sandbox kept on disk, so a court
taken down by one process is down for all); the dice are each process's own."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

__all__ = ["FAULT_STATUSES", "Faults"]

FAULT_STATUSES = (500, 502, 503, 504)


@dataclass
class Faults:
    latency_ms: int = 0
    error_rate: float = 0.0
    error_statuses: list[int] = field(default_factory=lambda: list(FAULT_STATUSES))
    malformed_rate: float = 0.0
    truncated_rate: float = 0.0
    courts_down: set[str] = field(default_factory=set)
    # D69: complete requests with an application_info response (code 600) instead of the
    # request_completed event.
    legacy_completion: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "latency_ms": self.latency_ms,
            "error_rate": self.error_rate,
            "error_statuses": list(self.error_statuses),
            "malformed_rate": self.malformed_rate,
            "truncated_rate": self.truncated_rate,
            "courts_down": sorted(self.courts_down),
            "legacy_completion": self.legacy_completion,
        }

    @property
    def active(self) -> bool:
        return bool(
            self.latency_ms or self.error_rate or self.malformed_rate or self.truncated_rate
        )

    def pick_error(self, rng: random.Random) -> int | None:
        if self.error_rate and rng.random() < self.error_rate:
            return rng.choice(self.error_statuses or list(FAULT_STATUSES))
        return None

    def pick_body_fault(self, rng: random.Random) -> str | None:
        roll = rng.random()
        if roll < self.malformed_rate:
            return "malformed"
        if roll < self.malformed_rate + self.truncated_rate:
            return "truncated"
        return None

"""The Miner's requests a sandbox holds: counts (free) and finds (paid), and each key's credits.

Plain data on :class:`~lawsuit_tui.sandbox.state.SandboxState` (``state.counts``): records
keyed by ``request_id``, the next id, and the credit balance of each key (by its label, never
the key). A find's progress is not stored as it happens: it follows from its ``created_at``
and the sandbox clock (:meth:`MinerRecord.progress`), so the record stays the same from
creation to completion and a persisted sandbox needs no timers to resume it (D72).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Final

from lawsuit_tui.sandbox.stats import key_label

__all__ = [
    "FIND_LAWSUITS_PER_SECOND",
    "FIND_START_SECONDS",
    "FIRST_REQUEST_ID",
    "STARTING_CREDITS",
    "TIER_PRICES",
    "CountLedger",
    "MinerRecord",
    "Progress",
]

FIRST_REQUEST_ID: Final = 1001
# Each key's balance when the sandbox first sees it: a few finds of the world's bonds.
STARTING_CREDITS: Final = 20_000.0
# Credits per lawsuit by amount tier: the provider's illustrative table (Miner credits page).
TIER_PRICES: Final[dict[str, float]] = {
    "0-100k": 5.0,
    "100k-250k": 10.0,
    "250k-500k": 20.0,
    "500k-750k": 30.0,
    "750k-1.5M": 50.0,
    "1.5M+": 100.0,
}
# A find waits this long (sandbox time) before its first lawsuit, then materializes this many
# a second: a find of the world's 150 bonds takes about 7 s at speed 1.
FIND_START_SECONDS: Final = 1.0
FIND_LAWSUITS_PER_SECOND: Final = 25.0


@dataclass(frozen=True, slots=True)
class Progress:
    status: str
    processed: int
    updated_at: datetime


@dataclass(slots=True)
class MinerRecord:
    """A count or a find. ``key`` is a label of the API key, never the key itself; ``codes``
    are the lawsuits a find materialized, in order."""

    request_id: int
    key: str
    type: str
    filter: dict[str, Any]
    total_lawsuits: int
    created_at: datetime
    status: str = "completed"
    codes: list[str] = field(default_factory=list)
    cost: float = 0.0
    responses_limit: int | None = None

    def progress(self, now: datetime) -> Progress:
        """Where a find is at ``now``: pending with ``processed`` growing, then completed."""
        if self.type != "find":
            return Progress(self.status, self.total_lawsuits, self.created_at)
        elapsed = (now - self.created_at).total_seconds() - FIND_START_SECONDS
        done_after = FIND_START_SECONDS + self.total_lawsuits / FIND_LAWSUITS_PER_SECOND
        if elapsed * FIND_LAWSUITS_PER_SECOND >= self.total_lawsuits and elapsed >= 0:
            done_at = self.created_at + timedelta(seconds=done_after)
            return Progress("completed", self.total_lawsuits, done_at)
        if elapsed < 0:
            return Progress("pending", 0, self.created_at)
        return Progress("pending", math.floor(elapsed * FIND_LAWSUITS_PER_SECOND), now)


@dataclass
class CountLedger:
    """The Miner requests of one sandbox, numbered from :data:`FIRST_REQUEST_ID`."""

    records: dict[int, MinerRecord] = field(default_factory=dict)
    next_id: int = FIRST_REQUEST_ID
    credits: dict[str, float] = field(default_factory=dict)

    def _new_id(self) -> int:
        request_id = self.next_id
        self.next_id += 1
        return request_id

    def record(
        self, api_key: str, flt: dict[str, Any], total: int, created_at: datetime
    ) -> MinerRecord:
        """A count: completed at once (D72)."""
        entry = MinerRecord(self._new_id(), key_label(api_key), "count", flt, total, created_at)
        self.records[entry.request_id] = entry
        return entry

    def balance(self, api_key: str) -> float:
        return self.credits.get(key_label(api_key), STARTING_CREDITS)

    def set_balance(self, api_key: str, balance: float) -> None:
        self.credits[key_label(api_key)] = balance

    def create_find(
        self,
        api_key: str,
        flt: dict[str, Any],
        codes: list[str],
        cost: float,
        responses_limit: int | None,
        created_at: datetime,
    ) -> MinerRecord:
        """A find, its credits debited now (the credits page: "debited at this moment").
        The caller has checked the balance."""
        label = key_label(api_key)
        self.credits[label] = self.balance(api_key) - cost
        entry = MinerRecord(
            self._new_id(),
            label,
            "find",
            flt,
            len(codes),
            created_at,
            status="pending",
            codes=list(codes),
            cost=cost,
            responses_limit=responses_limit,
        )
        self.records[entry.request_id] = entry
        return entry

    def owned(self, api_key: str, request_id: int) -> MinerRecord | None:
        """The key's request ``request_id``; None for an unknown one or another key's."""
        entry = self.records.get(request_id)
        return entry if entry is not None and entry.key == key_label(api_key) else None

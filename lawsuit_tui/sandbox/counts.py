"""The count requests a sandbox has recorded (the count service answers them at once)."""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from lawsuit_tui.sandbox.stats import key_label

__all__ = ["FIRST_REQUEST_ID", "CountLedger", "CountRecord"]

FIRST_REQUEST_ID = 1001


@dataclass(frozen=True)
class CountRecord:
    """A recorded count request. ``key`` is a label of the API key, never the key itself."""

    request_id: int
    key: str
    filter: dict[str, Any]
    total_lawsuits: int
    status: str
    created_at: datetime


@dataclass
class CountLedger:
    """The count requests of one sandbox, numbered from :data:`FIRST_REQUEST_ID`."""

    records: list[CountRecord] = field(default_factory=list)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(FIRST_REQUEST_ID))
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def record(
        self, api_key: str, flt: dict[str, Any], total: int, created_at: datetime
    ) -> CountRecord:
        with self._lock:
            entry = CountRecord(
                next(self._ids), key_label(api_key), flt, total, "pending", created_at
            )
            self.records.append(entry)
        return entry

"""What every service shares: the client, the cache, the status, time."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from lawsuit_tui.api.client import ApiClient
from lawsuit_tui.services.cache import Cache
from lawsuit_tui.services.status import StatusHub

__all__ = ["Deps", "utcnow"]


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class Deps:
    api: ApiClient
    cache: Cache
    status: StatusHub
    sleep: Callable[[float], Awaitable[None]]
    now: Callable[[], datetime] = utcnow
    default_customer_key: str = "*"

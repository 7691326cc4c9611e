"""The state of a service context that the TUI keeps on screen, with change callbacks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime

from lawsuit_tui.domain.listeners import Listeners

__all__ = ["ContextStatus", "StatusHub"]


@dataclass(frozen=True)
class ContextStatus:
    """``rate_remaining``/``rate_limit``: calls left in the shared window; ``following``:
    requests being followed now; ``cache_writable`` false when nothing will be kept (the
    cache read-only, ``cache_message`` says why); ``cache_held_by`` the pid of the process
    that holds the cache and keeps this one's writes; ``damage`` a short text while damaged
    cache files wait to be acknowledged; ``rate_wait_until`` when the wait for the rate
    limit under way ends (None: none), ``rate_wait_reason`` "window" or "retry_after"."""

    rate_remaining: int
    rate_limit: int
    following: int = 0
    cache_writable: bool = True
    cache_message: str | None = None
    waiting_for_rate_limit: bool = False
    cache_held_by: int | None = None
    damage: str = ""
    rate_wait_until: datetime | None = None
    rate_wait_reason: str = ""


@dataclass
class StatusHub:
    """Holds the current :class:`ContextStatus` and tells subscribers when it changes."""

    current: ContextStatus
    _listeners: Listeners[Callable[[ContextStatus], None]] = field(default_factory=Listeners)

    def subscribe(self, callback: Callable[[ContextStatus], None]) -> Callable[[], None]:
        """``callback(status)`` after every change; returns an unsubscribe function."""
        return self._listeners.add(callback)

    def update(self, **changes: object) -> None:
        new = replace(self.current, **changes)  # type: ignore[arg-type]
        if new == self.current:
            return
        self.current = new
        for listener in self._listeners:
            listener(new)

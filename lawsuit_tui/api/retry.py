"""When a failed call is tried again, and how long to wait first (tenacity does the looping).

The one decision that costs money is here: a route that *creates* something (POST
/requests, POST /tracking, POST /credentials, POST /requests/count) is retried only when
the service certainly did not process the call:

- 429: the rate limit rejected it before anything happened;
- 503: the service is in maintenance and did not take it;
- a connection that never opened (connect error or time-out, no free connection in the
  pool): the request never left this machine.

A 502/504, a read time-out, a dropped connection or an unreadable 200 may come *after* the
service created the request, so a creating call fails instead of risking a duplicate (a
duplicate request is billed twice). Reading routes and idempotent changes (pause, resume,
patch, delete) are retried on all of those, and on 500.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tenacity import RetryCallState
from tenacity.stop import stop_base
from tenacity.wait import wait_base

from lawsuit_tui.api.errors import (
    ApiError,
    CourtUnavailable,
    Maintenance,
    MalformedResponse,
    RateLimited,
    ServerError,
    TransportFailure,
)
from lawsuit_tui.api.routes import Route

__all__ = ["RetryBudget", "StopWhenSpent", "WaitRetryAfterOrJitter", "should_retry"]

# Full jitter: a random wait between 0 and min(CAP, BASE * 2 ** (attempt - 1)) seconds.
BACKOFF_BASE = 0.5
BACKOFF_CAP = 30.0


def should_retry(route: Route, exc: BaseException) -> bool:
    """Whether ``exc`` raised by a call of ``route`` is worth another attempt."""
    if isinstance(exc, RateLimited | Maintenance):
        # Never processed, whatever the route (the creating routes included).
        return True
    if isinstance(exc, TransportFailure):
        if not exc.sent:
            return True
        # Sent, then lost or timed out: it may have been processed.
        return not route.creating
    if isinstance(exc, CourtUnavailable | MalformedResponse):
        return not route.creating
    if isinstance(exc, ServerError) and exc.status == 500:
        return not route.creating
    return False


class RetryBudget:
    """The time a call may spend on retries, not counting waits for a rate-limit slot
    (those are the limiter's fairness, not failures)."""

    def __init__(self, clock: Callable[[], float], max_attempts: int, max_seconds: float) -> None:
        self.clock = clock
        self.max_attempts = max_attempts
        self.max_seconds = max_seconds
        self.started = clock()
        self.queued = 0.0

    def spent(self) -> float:
        return max(0.0, self.clock() - self.started - self.queued)


class StopWhenSpent(stop_base):
    """Stop after ``max_attempts``, or when the next wait would overrun the time budget."""

    def __init__(self, budget: RetryBudget) -> None:
        self.budget = budget

    def __call__(self, retry_state: RetryCallState) -> bool:
        if retry_state.attempt_number >= self.budget.max_attempts:
            return True
        upcoming = retry_state.upcoming_sleep or 0.0
        return self.budget.spent() + upcoming > self.budget.max_seconds


class WaitRetryAfterOrJitter(wait_base):
    """Retry-After when the answer gave one, else exponential backoff with full jitter."""

    def __init__(self, rng: random.Random, on_rate_limited: Callable[[float], None]) -> None:
        self.rng = rng
        self.on_rate_limited = on_rate_limited

    def __call__(self, retry_state: RetryCallState) -> float:
        exc = retry_state.outcome.exception() if retry_state.outcome else None
        attempt = max(1, retry_state.attempt_number)
        jitter = self.rng.uniform(0.0, min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (attempt - 1)))
        wait = jitter
        if isinstance(exc, ApiError) and exc.retry_after is not None:
            wait = exc.retry_after
        if isinstance(exc, RateLimited):
            # Everybody sharing the key stops, not only this caller.
            self.on_rate_limited(wait)
        return wait

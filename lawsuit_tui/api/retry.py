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

Two budgets bound one call. Failures (5xx, transport) get ``max_attempts`` attempts within
``max_total_seconds``. A 429 is not a failure of the call but the service saying *when*: it
is waited out for as long as its ``Retry-After`` (or ``X-RateLimit-Reset``) says, on its own
budget, ``max_rate_wait_seconds`` (default 300 s) for all the 429s of one call, and it uses
neither attempts nor ``max_total_seconds``. When the service asks for more than is left of
that budget, the call fails at once with the 429 (nothing was done, so running it again
later is safe) and the error says how long the service asked for.
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
from lawsuit_tui.i18n import _

__all__ = ["RetryBudget", "StopWhenSpent", "WaitRetryAfterOrJitter", "should_retry"]

# Full jitter: a random wait between 0 and min(CAP, BASE * 2 ** (attempt - 1)) seconds.
BACKOFF_BASE = 0.5
BACKOFF_CAP = 30.0
# A 429 with "Retry-After: 0" (or none) is not an invitation to call again at once.
RATE_LIMIT_MIN_WAIT = 1.0


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
    (those are the limiter's fairness, not failures) nor waits after a 429 (those have their
    own budget, ``max_rate_wait``)."""

    def __init__(
        self,
        clock: Callable[[], float],
        max_attempts: int,
        max_seconds: float,
        max_rate_wait: float = 300.0,
    ) -> None:
        self.clock = clock
        self.max_attempts = max_attempts
        self.max_seconds = max_seconds
        self.max_rate_wait = max_rate_wait
        self.started = clock()
        self.queued = 0.0
        self.rate_waited = 0.0
        self.rate_limited = 0

    def spent(self) -> float:
        return max(0.0, self.clock() - self.started - self.queued - self.rate_waited)


class StopWhenSpent(stop_base):
    """Stop after ``max_attempts`` failures, or when the next wait would overrun the time
    budget; after a 429, only when its wait would overrun the rate-wait budget."""

    def __init__(self, budget: RetryBudget) -> None:
        self.budget = budget

    def __call__(self, retry_state: RetryCallState) -> bool:
        budget = self.budget
        exc = retry_state.outcome.exception() if retry_state.outcome else None
        upcoming = retry_state.upcoming_sleep or 0.0
        if isinstance(exc, RateLimited):
            if budget.rate_waited + upcoming > budget.max_rate_wait:
                exc.messages.append(
                    _(
                        "the service asks to wait {asked:g} s, more than the {allowed:g} s "
                        "left of retries.max_rate_wait_seconds; nothing was done, so it is "
                        "safe to try again later"
                    ).format(asked=upcoming, allowed=budget.max_rate_wait - budget.rate_waited)
                )
                return True
            # Called once per failed attempt, right before the sleep: the wait is counted here.
            budget.rate_waited += upcoming
            budget.rate_limited += 1
            return False
        if retry_state.attempt_number - budget.rate_limited >= budget.max_attempts:
            return True
        return budget.spent() + upcoming > budget.max_seconds


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
            wait = max(wait, RATE_LIMIT_MIN_WAIT)
            # Everybody sharing the key stops, not only this caller.
            self.on_rate_limited(wait)
        return wait

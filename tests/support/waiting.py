"""Waiting on a condition, never on a blind sleep: the one helper for threads and processes
(``wait_until``) and its coroutine twin (``wait_for``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["wait_for", "wait_until"]


def wait_until(
    condition: Callable[[], object], timeout: float = 15.0, what: str = "condition"
) -> None:
    """Poll ``condition`` until true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.01)


async def wait_for(
    condition: Callable[[], object],
    pause: Callable[[], Awaitable[Any]] | None = None,
    *,
    limit: float = 10.0,
    what: str = "condition",
) -> None:
    """Wait until ``condition()`` holds, pausing between checks (``pause``, else 10 ms of the
    event loop); fail after ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {limit} s waiting for {what}")
        if pause is not None:
            await pause()
        else:
            await asyncio.sleep(0.01)

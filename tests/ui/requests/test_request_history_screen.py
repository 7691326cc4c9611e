"""The requests screen lists a long history whole, each request once (D63, D88): from the
strict sandbox and from a lenient service, pressing the "more" key until nothing is left."""

from __future__ import annotations

from typing import Any

import httpx

from lawsuit_tui.api.client import BaseUrls
from lawsuit_tui.config import load_settings
from lawsuit_tui.domain.formatting import format_int
from lawsuit_tui.services.context import SANDBOX_ROOT, ServiceContext
from lawsuit_tui.ui.requests.request_list import RequestsScreen
from tests.support.request_history import LenientRequests, history_times, seed_history
from tests.support.ui_harness import Harness, open_requests, ready, settle, wait_for

HISTORY = 1500


class LenientHarness(Harness):
    """The app on a lenient service (pages cut at 75) instead of the sandbox."""

    def __init__(self) -> None:
        super().__init__(load_settings(rate_limit={"calls": 10_000, "seconds": 60.0}))
        self.service = LenientRequests(history_times(HISTORY), cap=75)

    async def _open(self) -> ServiceContext:
        self.context = await ServiceContext.open(
            self.settings,
            transport=httpx.MockTransport(self.service.handler),
            base_urls=BaseUrls.from_root(SANDBOX_ROOT),
            sleep=self._virtual_sleep,
            now=self._now,
        )
        self.opened.set()
        return self.context


async def read_everything(harness: Harness, pilot: Any) -> RequestsScreen:
    await ready(pilot)
    screen = await open_requests(pilot)
    await wait_for(lambda: screen.loaded_from_service, pilot.pause)
    await settle(pilot)
    for _ in range(HISTORY):  # at most one page per press
        if not screen.more_to_read:
            break
        before = len(screen.records)
        await pilot.press("m")
        await wait_for(
            lambda before=before: len(screen.records) > before or not screen.more_to_read,
            pilot.pause,
        )
        await settle(pilot)
    return screen


async def listed_ids(harness: Harness, screen: RequestsScreen) -> list[str]:
    """What the list holds: its length, and the ids it reads back from the cache."""
    context = await harness.app.context()
    ids = [r.request_id for r in context.requests.cached_list()]
    assert len(screen.records) == len(ids)
    return ids


async def test_the_strict_sandbox_history_is_listed_whole() -> None:
    harness = Harness()
    ids = seed_history(harness.sandbox.state.sandbox, history_times(HISTORY))
    async with harness.app.run_test(size=(120, 40)) as pilot:
        screen = await read_everything(harness, pilot)
        listed = await listed_ids(harness, screen)
        assert len(listed) == HISTORY and set(listed) == set(ids)
        assert screen.all_count == HISTORY
        title = str(screen.query_one("#requests-title").content)
        assert f"{format_int(HISTORY)} requests" in title


async def test_a_lenient_service_history_is_listed_whole() -> None:
    harness = LenientHarness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        screen = await read_everything(harness, pilot)
        listed = await listed_ids(harness, screen)
        assert len(listed) == HISTORY and len(set(listed)) == HISTORY

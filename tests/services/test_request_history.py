"""A long request history (D63, D88) comes into the cache whole, each request once: by the
sync and by the requests list's walk, from the strict sandbox and from a lenient service."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from lawsuit_tui.config import Settings
from lawsuit_tui.services.context import ServiceContext
from tests.support.request_history import LenientRequests, history_times, seed_history
from tests.support.service_rig import Rig

HISTORY = 1500


async def test_sync_brings_a_long_history_from_the_strict_sandbox(rig: Rig) -> None:
    ids = seed_history(rig.state, history_times(HISTORY))
    ctx = await rig.open()
    report = await ctx.sync.sync()
    stored = [r["request_id"] for r in ctx.store.list_requests()]
    assert len(stored) == HISTORY and set(stored) == set(ids)
    assert report.requests_updated == HISTORY  # each once, though windows may overlap
    assert report.calls <= HISTORY // 100 + 3  # one page per 100, trackings, responses


async def test_the_requests_list_walks_the_whole_history(rig: Rig) -> None:
    ids = seed_history(rig.state, history_times(HISTORY))
    ctx = await rig.open()
    history = ctx.requests.history()
    handed: list[str] = []
    while not history.exhausted:
        handed.extend(r.request_id for r in await history.next_page())
    assert history.total == HISTORY
    assert len(handed) == HISTORY and set(handed) == set(ids)
    assert await history.next_page() == []
    assert ctx.store.count_requests() == HISTORY


@pytest.mark.parametrize(("cap", "refuse_above"), [(37, None), (100, 50)])
async def test_a_lenient_service_gives_the_same_history(
    tmp_path: Path, cap: int, refuse_above: int | None
) -> None:
    service = LenientRequests(history_times(HISTORY), cap=cap, refuse_above=refuse_above)
    settings = Settings(
        api_key="live-key-0123456789",
        cache_dir=tmp_path / "cache",
        rate_limit={"calls": 10_000, "seconds": 60.0},
    )
    ctx = await ServiceContext.open(settings, transport=httpx.MockTransport(service.handler))
    try:
        report = await ctx.sync.sync()
        assert report.requests_updated == HISTORY
        assert ctx.store.count_requests() == HISTORY
        history = ctx.requests.history()
        handed: list[str] = []
        while not history.exhausted:
            handed.extend(r.request_id for r in await history.next_page())
        assert len(handed) == HISTORY and len(set(handed)) == HISTORY
    finally:
        await ctx.aclose()

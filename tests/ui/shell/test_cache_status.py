"""The app and the cache it shares (issue 18): the writes of a command run beside it are kept
by it and shown; damage and a wait for the rate limit stay on the status line."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from lawsuit_tui.store import Store
from lawsuit_tui.ui.language import interface_language
from lawsuit_tui.ui.widgets.chrome import StatusLine, StatusSnapshot, render_status
from lawsuit_tui.ui.widgets.paged_table import PagedTable
from tests.support.cli_run import sandbox_cache
from tests.support.confined import ROOT
from tests.support.ui_harness import (
    SIZES,
    Harness,
    open_requests,
    ready,
    samples,
    snap,
    wait_for,
)


def status_text(app: Any) -> str:
    return str(app.screen.query_one(StatusLine).render())


@pytest.fixture(params=["en", "pt-BR"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    with interface_language(request.param) as applied:
        yield applied


def test_the_status_line_counts_down_a_wait_and_names_damage_and_the_holder() -> None:
    now = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    snapshot = StatusSnapshot(
        phase="ready",
        mode="live",
        rate_remaining=0,
        rate_limit=180,
        cache_held_by=4242,
        damage="damaged cache: 1 (cache verify)",
        rate_wait_until=now + timedelta(seconds=41.2),
        rate_wait_reason="retry_after",
    )
    text = render_status(snapshot, 118, now=now).plain
    assert "service asked to wait 42 s" in text
    assert "cache via pid 4242" in text
    assert "damaged cache: 1 (cache verify)" in text
    later = render_status(snapshot, 78, now=now + timedelta(seconds=40)).plain
    assert "wait 2 s" in later
    over = render_status(snapshot, 78, now=now + timedelta(seconds=60)).plain
    assert "rate 0/180" in over
    # However narrow, the damage is never left out (the holder is, first).
    narrow = render_status(snapshot, 78, now=now).plain
    assert "damaged cache: 1" in narrow and "pid" not in narrow
    assert "damaged" in render_status(snapshot, 40, now=now).plain


def damage_the_cache() -> None:
    with Store.open(sandbox_cache()) as store:
        store.upsert_requests([{"request_id": "x"}])
    shard = next((sandbox_cache() / "tables").glob("requests-*.json"))
    shard.write_bytes(b"{ damaged")


async def test_damage_stays_on_the_status_line_until_acknowledged() -> None:
    damage_the_cache()
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        assert "damaged cache: 1 (cache verify)" in status_text(pilot.app)
    with Store.open(sandbox_cache(), read_only=True) as store:
        assert store.acknowledge_damage()
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        assert "damaged" not in status_text(pilot.app)


@pytest.mark.parametrize("size", SIZES)
def test_damage_and_a_held_cache_in_the_status_line(
    snap_compare: Any, size: tuple[int, int], language: str
) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        context = await pilot.app.context()
        context.status.update(cache_held_by=4242, damage=context.damage.status_text())
        pilot.app._refresh_status()

    damage_the_cache()
    assert snap(snap_compare, size, steps)


async def test_a_request_made_beside_the_app_is_kept_by_it_and_shown() -> None:
    cpf = samples()["cpf"][2]
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        context = await pilot.app.context()
        assert context.cache_host is not None  # the app holds the cache and takes writes
        await open_requests(pilot)
        # A real second process: `lawsuit-tui request` from another terminal.
        result = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "lawsuit_tui", "request", cpf, "--json"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert result.returncode == 0, result.stderr
        request_id = json.loads(result.stdout)["requests"][0]["request_id"]
        assert context.store.get_request(request_id) is not None  # kept by the app
        table = pilot.app.screen.query_one("#requests", PagedTable)
        # The app was told (CacheChanged) and the list read the cache again: it is there.
        await wait_for(lambda: request_id in table._keys_on_page, pilot.pause, what="the row")

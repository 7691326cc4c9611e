"""Importing a portfolio over the sandbox: chunks, what is tracked already, and never a tracking
created twice when an answer is lost, a run is cancelled, or an intent is left open (D161)."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import httpx
import pytest

from lawsuit_tui.domain.portfolio import PortfolioCheck, check_rows
from lawsuit_tui.domain.tiers import DEFAULT_TIERS
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.errors import CacheReadOnly, OperationNotAvailable
from lawsuit_tui.services.portfolio_import import PortfolioImporter
from tests.support.service_rig import Rig

BULK = "/tracking/tracking/bulk"


def portfolio(samples: dict[str, Any]) -> list[list[str]]:
    keys = [*samples["lawsuit_cnj"], *samples["cpf"], *samples["cnpj"][:2]]
    return [["key", "tier"], *([key, ("hot", "warm", "cold")[n % 3]] for n, key in enumerate(keys))]


def tracked_at_sandbox(rig: Rig) -> Counter[tuple[str, str]]:
    """How many live trackings the sandbox holds per (type, key)."""
    return Counter(
        (entry.search.search_type, entry.search.search_key)
        for entry in rig.state.trackings.values()
        if entry.status != "deleted"
    )


async def sample_import(
    rig: Rig, chunk_size: int = 1000, **open_options: Any
) -> tuple[ServiceContext, PortfolioImporter, PortfolioCheck]:
    """A context over ``rig``, its importer (``chunk_size`` keys a call) and the portfolio of
    the sample keys, checked."""
    ctx = await rig.open(**open_options)
    imp = ctx.portfolio_importer(chunk_size=chunk_size)
    return ctx, imp, check_rows(portfolio(await rig.samples()), imp.tiers)


async def test_a_run_creates_in_chunks_then_a_second_creates_nothing(rig: Rig) -> None:
    ctx, imp, check = await sample_import(rig, chunk_size=4)
    assert len(check.valid) == 11
    plan = await imp.plan(check)
    assert plan.service_checked and plan.already_tracked == []
    assert sum(plan.monthly_runs().values()) == pytest.approx(4 * 30 + 4 * 30 / 7 + 3 * 1)
    outcome = await imp.run(plan)
    assert outcome.complete and len(outcome.created) == 11
    assert ctx.api.stats.by_route["create_trackings_bulk"] == 3  # 4 + 4 + 3
    assert outcome.rate_limited == 0
    counts = tracked_at_sandbox(rig)
    assert len(counts) == 11 and set(counts.values()) == {1}
    # tier, step terms and recurrence travel with each tracking
    hot = next(e for e in rig.state.trackings.values() if e.record["tags"]["tier"] == "hot")
    assert hot.record["recurrence"] == 1
    assert hot.record["notification_filters"]["step_terms"] == list(DEFAULT_TIERS[0].step_terms)
    assert ctx.store.portfolio_imports.open_intents() == []
    assert len(ctx.store.list_trackings()) == 11

    again = await imp.plan(check)
    assert len(again.already_tracked) == 11 and again.to_create == []
    second = await imp.run(again)
    assert second.created == [] and len(second.already) == 11
    assert ctx.api.stats.by_route["create_trackings_bulk"] == 3


class LosingTransport(httpx.AsyncBaseTransport):
    """Forwards every call; the bulk calls it is told to lose reach the sandbox, which makes
    the trackings, and the answer is then lost as a dropped connection would lose it."""

    def __init__(self, inner: httpx.AsyncBaseTransport, lose: int) -> None:
        self.inner = inner
        self.lose = lose
        self.bulk_calls = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.url.path == BULK:
            self.bulk_calls += 1
            if self.lose > 0:
                self.lose -= 1
                await response.aread()
                raise httpx.RemoteProtocolError("connection dropped", request=request)
        return response


async def test_a_lost_answer_is_reconciled_not_sent_again(rig: Rig) -> None:
    transport = LosingTransport(rig.transport, lose=1)
    rig.transport = transport
    ctx, imp, check = await sample_import(rig, chunk_size=6)
    outcome = await imp.run(await imp.plan(check))
    assert outcome.complete and len(outcome.created) == 11
    # the lost chunk (of 6 or of 5 rows: both are under way at once), found in the list
    assert outcome.reconciled in (5, 6)
    assert transport.bulk_calls == 2  # the lost chunk was not sent again
    assert set(tracked_at_sandbox(rig).values()) == {1}
    assert ctx.store.portfolio_imports.open_intents() == []


class StallingTransport(httpx.AsyncBaseTransport):
    """Forwards every call; after the bulk call reached the sandbox it waits for ever (the
    user presses Ctrl-C, or the process is killed, before the answer is recorded)."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.reached = asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.url.path == BULK and not self.reached.is_set():
            self.reached.set()
            await asyncio.Event().wait()
        return response


async def test_a_run_cancelled_mid_call_is_finished_by_the_next(rig: Rig) -> None:
    stalling = StallingTransport(rig.transport)
    rig.transport = stalling
    ctx, imp, check = await sample_import(rig, chunk_size=5)
    imp.in_flight = 1  # one call under way: what is open at the cancel is known exactly
    task = asyncio.create_task(imp.run(await imp.plan(check)))
    await asyncio.wait_for(stalling.reached.wait(), 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    opened = ctx.store.portfolio_imports.open_intents()
    assert len(opened) == 1 and len(opened[0]["keys"]) == 5

    plan = await imp.plan(check)
    assert plan.open_intents == 1
    outcome = await imp.run(plan)
    assert outcome.reconciled == 5
    assert outcome.complete
    assert len(outcome.created) + len(outcome.already) == 11
    counts = tracked_at_sandbox(rig)
    assert len(counts) == 11 and set(counts.values()) == {1}
    assert ctx.store.portfolio_imports.open_intents() == []


async def test_a_key_tracked_meanwhile_is_taken_as_tracked_with_its_id(rig: Rig) -> None:
    ctx, imp, check = await sample_import(rig)
    plan = await imp.plan(check)
    # someone else tracks one of the keys between the preview and the run
    key = (await rig.samples())["cpf"][0]
    other = await ctx.api.http.post(
        "http://sandbox.local/tracking/tracking",
        json={"search": {"search_type": "cpf", "search_key": key}},
        headers={"api-key": "sandbox"},
    )
    assert other.status_code == 201
    outcome = await imp.run(plan)
    assert outcome.complete
    already = {row.text: tid for row, tid in outcome.already}
    assert already == {key: other.json()["tracking_id"]}
    assert set(tracked_at_sandbox(rig).values()) == {1}


async def test_a_run_needs_a_writable_cache(rig: Rig) -> None:
    _ctx, imp, check = await sample_import(rig, read_only=True)  # another holds the cache
    plan = await imp.plan(check)  # a preview still works
    assert len(plan.to_create) == 11
    with pytest.raises(CacheReadOnly):
        await imp.run(plan)
    assert tracked_at_sandbox(rig) == Counter()


class NoBulkTransport(httpx.AsyncBaseTransport):
    """A service without the bulk route (405), as an older one would answer."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.bulk_calls = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == BULK:
            self.bulk_calls += 1
            return httpx.Response(
                405, json={"error": {"name": "HttpMethodNotAllowedError", "message": "X"}}
            )
        return await self.inner.handle_async_request(request)


async def test_a_service_without_the_bulk_route_stops_the_import_at_once(rig: Rig) -> None:
    transport = NoBulkTransport(rig.transport)
    rig.transport = transport
    ctx, imp, check = await sample_import(rig, chunk_size=2)
    imp.in_flight = 1
    with pytest.raises(OperationNotAvailable):
        await imp.run(await imp.plan(check))
    assert transport.bulk_calls == 1  # not once per chunk
    assert ctx.store.portfolio_imports.open_intents() == []

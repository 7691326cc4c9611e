"""Sync (few calls, resumable, every response once, under faults) and the shared rate limit
with many requests followed at once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from lawsuit_tui.api.ratelimit import RateLimiter
from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.errors import ApiError, CourtUnavailable
from lawsuit_tui.services.requests import FollowPolicy
from lawsuit_tui.services.results import Progress
from tests.support.service_rig import Rig, VirtualTime


def body(search_type: str, key: str) -> CreateRequestBody:
    return CreateRequestBody(search=SearchBody(search_type=search_type, search_key=key))


async def prepare(rig: Rig, ctx: ServiceContext, n: int = 3) -> list[str]:
    samples = await rig.samples()
    keys = [("cpf", k) for k in samples["cpf"]][:n]
    ids = []
    for kind, key in keys:
        [record] = await ctx.requests.create(body(kind, key))
        ids.append(record.request_id)
    await rig.advance(5)
    return ids


def held(rig: Rig) -> set[str]:
    return {r["response_id"] for r in rig.held_responses()}


async def test_sync_brings_everything_with_few_calls(rig: Rig, ctx: ServiceContext) -> None:
    ids = await prepare(rig, ctx)
    seen: list[Progress] = []
    report = await ctx.sync.sync(seen.append)
    assert report.responses_new == len(held(rig))
    assert ctx.store.count_responses() == len(held(rig))
    for request_id in ids:
        stored = ctx.store.get_request(request_id)
        assert stored is not None and stored["status"] == "completed"
    # One page each: requests, trackings, responses.
    assert report.calls <= 4
    assert seen and seen[-1].calls == report.calls
    # Nothing new: the next sync reads the last page again and stores nothing.
    again = await ctx.sync.sync()
    assert again.responses_new == 0
    assert again.calls <= 4


class Interrupted(Exception):
    pass


async def test_sync_resumes_where_it_stopped(tmp_path: Path) -> None:
    async with Rig(tmp_path / "cache", rate_limit=(1000, 60.0)) as rig:
        ctx = await rig.open()
        await prepare(rig, ctx, 1)
        total = rig.seed_responses(2600)
        pages_seen = 0

        def stop_after_two_pages(progress: Progress) -> None:
            nonlocal pages_seen
            if progress.message == "reading responses" and progress.done >= 2000:
                pages_seen += 1
                raise Interrupted

        with pytest.raises(Interrupted):
            await ctx.sync.sync(stop_after_two_pages)
        assert ctx.store.count_responses() == 2000
        report = await ctx.sync.sync()
        assert report.resumed_from_page == 3
        assert ctx.store.count_responses() == total
        assert report.responses_new == total - 2000


async def test_sync_under_faults_stores_every_response_once(tmp_path: Path) -> None:
    async with Rig(tmp_path / "cache", rate_limit=(5000, 60.0), max_attempts=12) as rig:
        ctx = await rig.open()
        await prepare(rig, ctx, 3)
        total = rig.seed_responses(3500)
        rig.serve_failures(0.3, [502, 503, 504], latency_ms=2)
        ctx.sync.page_size = 100  # many pages: many chances to fail
        report = await ctx.sync.sync()
        assert ctx.store.count_responses() == total
        assert all(ctx.store.get_response(rid) is not None for rid in held(rig))
        assert rig.stats()["faults"]  # faults were served
        assert report.calls > report.pages  # and retried


async def test_no_request_is_created_twice_under_faults(tmp_path: Path) -> None:
    async with Rig(tmp_path / "cache", rate_limit=(5000, 60.0), max_attempts=12) as rig:
        ctx = await rig.open()
        samples = await rig.samples()
        rig.serve_failures(0.3, [502, 503, 504], latency_ms=1)
        keys = [*samples["lawsuit_cnj"], *samples["cpf"], *samples["cnpj"][:2]]
        kinds = ["lawsuit_cnj"] * len(samples["lawsuit_cnj"]) + ["cpf"] * len(samples["cpf"])
        kinds += ["cnpj"] * 2
        ok: list[str] = []
        failed: list[str] = []
        for kind, key in zip(kinds, keys, strict=True):
            try:
                await ctx.requests.create(body(kind, key))
                ok.append(key)
            except CourtUnavailable:
                failed.append(key)  # 502/504 may come after processing: never repeated
        rig.serve_failures(0.0, [])
        made = [entry.record["search"]["search_key"] for entry in rig.state.requests.values()]
        assert sorted(made) == sorted(ok)  # each once; the failed ones not at all
        assert len(set(made)) == len(made)
        assert rig.stats()["faults"]


async def test_eight_followers_share_30_calls_in_3_seconds(tmp_path: Path) -> None:
    # Virtual time shared by the sandbox and the client: it moves only when every follower
    # waits, so the result does not depend on how fast this machine is.
    rig = Rig(tmp_path / "cache", rate_limit=(30, 3.0))
    vt = VirtualTime(rig)
    limiter = RateLimiter(30, 3.0, clock=rig.now, sleep=vt.sleeper("limiter"))
    ctx = await ServiceContext.open(
        rig.settings,
        transport=rig.transport,
        clock=rig.now,
        sleep=vt.sleeper("follow"),
        limiter=limiter,
        follow_policy=FollowPolicy(base=0.2, factor=1.0, ceiling=0.2),
    )
    rig.ctx = ctx
    samples = await rig.samples()
    keys = [("lawsuit_cnj", k) for k in samples["lawsuit_cnj"]] + [
        ("cpf", k) for k in samples["cpf"]
    ]
    limited = ("create_request", "get_request", "list_responses", "list_requests")
    completed: list[int] = []

    async def worker(n: int) -> None:
        i = n
        while True:
            kind, key = keys[i % len(keys)]
            i += 8
            [record] = await ctx.requests.create(body(kind, key))
            async for _event in ctx.requests.follow(record.request_id):
                pass
            completed.append(n)

    try:
        start = rig.now()
        tasks = [asyncio.create_task(worker(n)) for n in range(8)]
        await vt.drive(tasks, limiter, until=start + 30.0)
        elapsed = rig.now() - start
        calls = sum(ctx.api.stats.by_route[r] for r in limited)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert rig.stats()["rate_limited_total"] == 0  # the sandbox served no 429
        assert ctx.api.stats.rate_limited == 0
        allowance = 30 * elapsed / 3.0
        assert calls >= 0.9 * allowance, (calls, allowance)
        assert set(completed) == set(range(8))  # nobody starved
    finally:
        await rig.aclose()


async def test_failed_sync_call_surfaces_one_error(tmp_path: Path) -> None:
    async with Rig(tmp_path / "cache", max_attempts=2) as rig:
        ctx = await rig.open()
        rig.serve_failures(1.0, [502])
        with pytest.raises(ApiError):
            await ctx.sync.sync()

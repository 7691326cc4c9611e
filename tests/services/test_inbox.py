"""The inbox service: polling the sandbox, webhooks ingested once, read marks (D171-D173)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from lawsuit_tui.domain.bodies import TrackingCreateBody
from lawsuit_tui.domain.inbox import KIND_STEPS, InboxFilter
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.webhooks import WebhookIngestor
from tests.support.service_rig import Rig
from tests.support.webhook_data import tracking_response

DAY = 86_400.0


@pytest.fixture
async def ctx(rig: Rig) -> ServiceContext:
    """The context on the sandbox's own clock (the service's time: D173)."""
    return await rig.open(now=rig.clock.now)


async def _track(
    ctx: ServiceContext, code: str, *, tier: str = "hot", terms: list[str] | None = None
) -> str:
    body: dict[str, Any] = {
        "search": {"search_type": "lawsuit_cnj", "search_key": code},
        "tags": {"tier": tier},
    }
    if terms is not None:
        body["notification_filters"] = {"step_terms": terms}
    record = await ctx.trackings.create(TrackingCreateBody.model_validate(body))
    return record.tracking_id


async def test_a_poll_finds_what_the_runs_found_once(rig: Rig, ctx: ServiceContext) -> None:
    sample = await rig.samples()
    tracking_id = await _track(ctx, sample["moving_lawsuit"], tier="hot")
    assert (await ctx.inbox.poll()).new == []  # nothing ran yet
    await rig.advance(DAY + 5)
    await rig.advance(10)  # the run's request completes
    outcome = await ctx.inbox.poll()
    assert outcome.trackings == 1 and len(outcome.new) == 1
    movement = ctx.inbox.get(outcome.new[0])
    assert movement is not None
    assert movement.tracking_id == tracking_id and movement.kind == KIND_STEPS
    assert movement.tier == "hot" and movement.source == "poll"
    assert movement.code == sample["moving_lawsuit"]
    assert movement.steps and all(step.step_id for step in movement.steps)
    assert movement.court and movement.name and movement.unread
    # the steps are the ones new since the tracking was registered (the first movement)
    lawsuit = ctx.store.get_lawsuit(movement.code, movement.instance)
    assert lawsuit is not None
    assert set(movement.step_ids) <= {s["step_id"] for s in lawsuit["steps"]}
    assert (await ctx.inbox.poll()).new == []  # asked again: nothing new, nothing asked
    assert ctx.inbox.unread_count() == 1

    await rig.advance(DAY)
    await rig.advance(10)
    second = await ctx.inbox.poll()
    assert len(second.new) == 1
    later = ctx.inbox.get(second.new[0])
    assert later is not None
    # diffed by step_id against the cached lawsuit: none of the first movement's steps again
    assert not set(later.step_ids) & set(movement.step_ids)
    newest_first = [later.movement_id, movement.movement_id]
    assert ctx.inbox.select(InboxFilter(tracking_id=tracking_id)) == newest_first


async def test_step_terms_match_as_a_lawyer_types_them(rig: Rig, ctx: ServiceContext) -> None:
    sample = await rig.samples()
    await _track(ctx, sample["moving_lawsuit"], terms=["DECISAO", "conclusos", "penhora"])
    for _day in range(4):
        await rig.advance(DAY + 5)
    await rig.advance(10)
    outcome = await ctx.inbox.poll()
    assert outcome.new
    found = [ctx.inbox.get(i) for i in outcome.new]
    for movement in found:
        assert movement is not None and movement.terms
        assert set(movement.terms) <= {"DECISAO", "conclusos", "penhora"}
        texts = " ".join(f"{s.step_type} {s.content}" for s in movement.steps).lower()
        assert ("decisão" in texts) == ("DECISAO" in movement.terms)


async def test_marks_are_kept_in_the_cache(rig: Rig, ctx: ServiceContext) -> None:
    sample = await rig.samples()
    await _track(ctx, sample["moving_lawsuit"])
    await rig.advance(DAY + 5)
    await rig.advance(10)
    [movement_id] = (await ctx.inbox.poll()).new
    assert await ctx.inbox.mark([movement_id]) == 1
    assert ctx.inbox.unread_count() == 0
    assert ctx.inbox.select(InboxFilter(unread=True)) == []
    assert await ctx.inbox.mark([movement_id], read=False) == 1
    assert ctx.inbox.select(InboxFilter(unread=True)) == [movement_id]


async def test_a_thousand_redelivered_callbacks_make_each_movement_once(
    rig: Rig, ctx: ServiceContext
) -> None:
    sample = await rig.samples()
    tracking_id = await _track(ctx, sample["moving_lawsuit"])
    for _day in range(3):
        await rig.advance(DAY + 5)
    await rig.advance(10)
    held = [r for r in rig.held_responses() if r.get("origin_id") == tracking_id]
    assert len(held) >= 2
    ingestor = WebhookIngestor(ctx.store)
    deliveries = [
        tracking_response(tracking_id, held[n % len(held)], f"cb-{n % len(held)}")
        for n in range(1000)
    ]
    summaries = await asyncio.gather(
        *(asyncio.wrap_future(ingestor.submit(_bytes(d))) for d in deliveries)
    )
    ingestor.close()
    fresh = [s for s in summaries if s.new]
    assert len(fresh) == len(held)
    assert sorted(m for s in fresh for m in s.movements) == sorted(r["response_id"] for r in held)
    assert all(not s.movements for s in summaries if not s.new)
    assert ctx.inbox.count() == len(held)
    # the same responses read by a poll afterwards are known: nothing new
    assert (await ctx.inbox.poll()).new == []
    assert {ctx.inbox.get(r["response_id"]).source for r in held} == {"webhook"}  # type: ignore[union-attr]


def _bytes(data: dict[str, Any]) -> bytes:
    import orjson

    return orjson.dumps(data)

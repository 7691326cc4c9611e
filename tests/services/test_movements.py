"""Each tracking movement is announced once: the ledger's rules (moved from the UI's watch)."""

from __future__ import annotations

from typing import Any

from lawsuit_tui.domain.bodies import TrackingCreateBody
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.movements import MovementLedger, delivered_movement, run_mark
from lawsuit_tui.services.webhooks import DeliverySummary
from tests.support.service_rig import Rig

DAY = 86_400.0


def test_claim_hands_each_movement_out_once() -> None:
    watch = MovementLedger()
    assert watch.claim("trk-1", ["r1", "r2"]) == ["r1", "r2"]
    assert watch.claim("trk-1", ["r2", "r3"]) == ["r3"]
    assert watch.claim("trk-2", ["r1"]) == ["r1"]  # another tracking's response r1
    assert watch.claim("trk-1", []) == []


def _summary(**fields: Any) -> DeliverySummary:
    base: dict[str, Any] = {
        "callback_id": "cb",
        "event_type": "tracking_response",
        "reference_type": "tracking",
        "reference_id": "trk-1",
        "kind": "response",
        "new": True,
        "response_id": "r1",
    }
    return DeliverySummary(**{**base, **fields})


def test_which_deliveries_carry_a_movement() -> None:
    summary = _summary
    assert delivered_movement(summary()) == ("trk-1", "r1")
    assert delivered_movement(summary(event_type="response_created")) == ("trk-1", "r1")
    assert delivered_movement(summary(reference_type="request", event_type="x")) is None
    assert delivered_movement(summary(kind="kept")) is None
    assert delivered_movement(summary(response_id=None)) is None
    assert delivered_movement(summary(reference_id=None)) is None


def test_a_delivered_movement_is_news_once() -> None:
    ledger = MovementLedger()
    assert ledger.claim_delivery(_summary())
    assert not ledger.claim_delivery(_summary())
    assert ledger.claim("trk-1", ["r1"]) == []  # a later look finds it taken
    # a delivery that carries no movement is always news
    assert ledger.claim_delivery(_summary(kind="kept"))
    assert ledger.claim_delivery(_summary(kind="kept"))


async def test_news_are_the_runs_since_the_last_look(rig: Rig, ctx: ServiceContext) -> None:
    sample = await rig.samples()
    body = TrackingCreateBody.model_validate(
        {"search": {"search_type": "lawsuit_cnj", "search_key": sample["moving_lawsuit"]}}
    )
    record = await ctx.trackings.create(body)
    ledger = MovementLedger()
    first = await ctx.trackings.refresh()
    assert await ledger.news(ctx.trackings, first) == []  # first look: remembered

    await rig.advance(2 * DAY)
    await rig.advance(10)  # the run's request completes
    fresh = await ctx.trackings.refresh()
    before = next(r for r in first if r.tracking_id == record.tracking_id)
    moved = next(r for r in fresh if r.tracking_id == record.tracking_id)
    assert run_mark(moved) != run_mark(before)
    news = await ledger.news(ctx.trackings, fresh)
    assert [(r.tracking_id, count > 0) for r, count in news] == [(record.tracking_id, True)]
    count = news[0][1]
    ids = [r.response_id for r in await ctx.trackings.responses(record.tracking_id)]
    assert all(ids)
    # the run's movements are taken: neither a webhook nor the next look repeats them
    unclaimed = ledger.claim(record.tracking_id, [i for i in ids if i])
    assert len(ids) - len(unclaimed) == count
    assert await ledger.news(ctx.trackings, fresh) == []

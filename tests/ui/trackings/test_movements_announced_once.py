"""A tracking's movement is announced once, whether the poll or a webhook brings it first."""

from __future__ import annotations

from typing import Any

import httpx
from textual.pilot import Pilot

from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.services.webhooks import WebhookIngestor
from lawsuit_tui.ui.trackings.movement_watch import MovementWatch
from tests.support.ui_harness import (
    ContextClockHarness,
    moving_lawsuit_tracked,
    trackings_run,
    wait_for,
)
from tests.support.webhook_data import receiver_settings, tracking_response


def _envelope(tracking_id: str, response: ResponseRecord, callback_id: str) -> dict[str, Any]:
    """What the service sends for a tracking's response (D43)."""
    return tracking_response(tracking_id, response.to_json_dict(), callback_id)


def _record_notices(app: Any) -> None:
    """Keep every notice given: the screen shows only a few and collapses repeated ones
    (D149), so the toasts on screen no longer count the announcements."""
    given: list[str] = []
    notify = app.notify

    def recording(message: str, **options: Any) -> None:
        given.append(message)
        notify(message, **options)

    app.notify = recording
    app.notices_given = given


def _movement_notices(app: Any) -> list[str]:
    """Notices that announce a tracking's movement, by the poll or by a webhook."""
    return [message for message in getattr(app, "notices_given", []) if "in the inbox" in message]


async def _a_tracking_that_moved(
    sandbox: ContextClockHarness, pilot: Pilot[Any]
) -> tuple[TrackingRecord, list[ResponseRecord]]:
    """A tracking the app's watch has seen, then a run of it that found new steps."""
    app: Any = pilot.app
    _record_notices(app)
    context, record = await moving_lawsuit_tracked(sandbox, pilot)
    watch = app.movement_watch
    assert isinstance(watch, MovementWatch)
    await watch.check(context, app)  # nothing ran yet: nothing to announce
    assert _movement_notices(app) == []
    await trackings_run(sandbox)
    responses = await context.trackings.responses(record.tracking_id)
    assert responses and all(response.response_id for response in responses)
    return record, responses


async def test_a_movement_delivered_then_polled_is_announced_once(
    isolated_config: Any,
) -> None:
    sandbox = ContextClockHarness(receiver_settings())
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        record, responses = await _a_tracking_that_moved(sandbox, pilot)

        app.toggle_receiver()  # F8 opens its screen, where "s" does the same
        await wait_for(lambda: app.receiver is not None and app.receiver.running, pilot.pause)
        async with httpx.AsyncClient() as client:
            for number, response in enumerate(responses):
                envelope = _envelope(record.tracking_id, response, f"cb-move-{number}")
                answer = await client.post(app.receiver.url, json=envelope)
                assert answer.status_code == 200
        await wait_for(lambda: len(_movement_notices(app)) == len(responses), pilot.pause)
        assert app._notice_target == ("inbox", {})

        context = await app.context()
        await app.movement_watch.check(context, app)  # the poll finds the same run
        await pilot.pause()
        assert len(_movement_notices(app)) == len(responses), "no second notice"

        app.toggle_receiver()
        await wait_for(lambda: not app.receiver.running, pilot.pause)


async def test_a_movement_polled_then_delivered_is_announced_once() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        record, responses = await _a_tracking_that_moved(sandbox, pilot)
        context = await app.context()

        await app.movement_watch.check(context, app)  # the poll comes first
        await pilot.pause()
        notices = _movement_notices(app)
        assert len(notices) == 1
        # the lawsuit's latest response holds every step the runs found (D77, D171)
        assert notices[0].startswith("1 new movement in the inbox")

        # then the webhooks of the same responses, as the embedded receiver hands them over
        ingestor = WebhookIngestor(context.store)
        for number, response in enumerate(responses):
            summary = ingestor.ingest(_envelope(record.tracking_id, response, f"cb-{number}"))
            # the poll stored the latest; an older one's steps are in that movement
            assert summary.new and summary.movements == ()
            app.receiver_switch.delivered(summary)
        await pilot.pause()
        assert _movement_notices(app) == notices
        assert app.receiver_switch.deliveries == len(
            responses
        )  # stored and counted, only not announced

        # a later movement nobody announced yet still raises its notice
        other = responses[-1].model_copy(
            update={"response_id": "resp-not-seen-yet", "created_at": "2026-12-24T12:00:00Z"}
        )
        app.receiver_switch.delivered(
            ingestor.ingest(_envelope(record.tracking_id, other, "cb-other"))
        )
        await pilot.pause()
        assert len(_movement_notices(app)) == 2

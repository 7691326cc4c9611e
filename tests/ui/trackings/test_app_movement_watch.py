"""The app's movement watch: notices of the inbox's new movements before any screen of
trackings or the inbox is seen."""

from __future__ import annotations

from typing import Any

from lawsuit_tui.domain.inbox import InboxFilter
from lawsuit_tui.ui.trackings.movement_watch import MovementWatch
from tests.support.ui_harness import ContextClockHarness, samples, track, wait_for

DAY = 86_400.0


async def test_the_app_watches_movements_before_the_trackings_screen_is_seen() -> None:
    sandbox = ContextClockHarness()
    moving = samples()["moving_lawsuit"]
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        await wait_for(lambda: app.services is not None, pilot.pause)
        watch = app.movement_watch
        assert isinstance(watch, MovementWatch) and watch.started
        context = await app.context()
        record = await track(sandbox, moving)
        await watch.check(context, app)  # nothing ran yet: no notice
        assert app._notice_target is None
        await sandbox.advance(2 * DAY)
        await sandbox.advance(10)
        await watch.check(context, app)  # what the app's timer runs
        target: Any = app._notice_target
        assert target == ("inbox", {})
        [movement_id] = context.inbox.select(InboxFilter())
        assert context.inbox.get(movement_id).tracking_id == record.tracking_id  # type: ignore[union-attr]
        assert app.current_mode == "lookup"  # the trackings screen was never opened
        assert "trackings" not in app._screen_stacks or not app._screen_stacks["trackings"]

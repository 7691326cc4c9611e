"""The app's movement watch: notices of the inbox's new movements before any screen of
trackings or the inbox is seen."""

from __future__ import annotations

from typing import Any

from lawsuit_tui.ui.trackings.movement_watch import MovementWatch
from tests.support.ui_harness import (
    ContextClockHarness,
    moving_lawsuit_tracked,
    only_movement,
    trackings_run,
)


async def test_the_app_watches_movements_before_the_trackings_screen_is_seen() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        context, record = await moving_lawsuit_tracked(sandbox, pilot)
        watch = app.movement_watch
        assert isinstance(watch, MovementWatch) and watch.started
        await watch.check(context, app)  # nothing ran yet: no notice
        assert app._notice_target is None
        await trackings_run(sandbox)
        await watch.check(context, app)  # what the app's timer runs
        target: Any = app._notice_target
        assert target == ("inbox", {})
        assert only_movement(context).tracking_id == record.tracking_id
        assert app.current_mode == "lookup"  # the trackings screen was never opened
        assert "trackings" not in app._screen_stacks or not app._screen_stacks["trackings"]

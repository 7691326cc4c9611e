"""Helpers of the part-2 UI tests (trackings, vault, count): the app on the real sandbox.

Not fakes: every part-2 test runs the real ``LawsuitApp`` over the in-process sandbox with a
frozen clock (part 1's ``Harness``: the clock moves only when something waits or a test
advances it, so times on screen are stable) and a temporary cache.
"""

from __future__ import annotations

from typing import Any

from lawsuit_tui.ui.screens.trackings import TrackingsScreen

from .harness import Harness, samples, settle, shared_world, wait_for

__all__ = ["Part2Sandbox", "open_trackings", "samples", "settle", "shared_world", "wait_for"]


class Part2Sandbox(Harness):
    """The harness, with the clock advanced the way the app would (through the context)."""

    async def advance(self, seconds: float) -> None:
        context = await self.app.context()
        await context.advance_sandbox_clock(seconds)
        await self._virtual_sleep(0)  # run what fell due and wait for the tasks it started


def app_of(pilot: Any) -> Any:
    """The pilot's app, untyped (tests reach into the LawsuitApp contract)."""
    return pilot.app


async def open_trackings(pilot: Any) -> TrackingsScreen:
    """Go to the trackings screen and wait until it has loaded from the service."""
    app = pilot.app
    app.goto("trackings")
    await wait_for(lambda: isinstance(app.screen, TrackingsScreen), pilot.pause)
    screen = app.screen
    assert isinstance(screen, TrackingsScreen)
    await wait_for(lambda: screen.loaded_from_service, pilot.pause)
    await settle(pilot)
    return screen

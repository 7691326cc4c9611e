"""The app's look at its trackings, every minute: their list, and the inbox's new movements.

``MovementWatch.check(context, app)`` refreshes the trackings and hands the fresh records to
its listeners (the trackings screen), then polls the inbox (``context.inbox.poll``: the runs
that found something since the last poll, D173) and announces the movements it stored through
``app.announce``, which ``app.follow_notice`` (one key) follows to the inbox.

The trackings screen polls with its own watch while it exists. To get notices before the
screen is ever visited, the app owns one watch (``app.movement_watch``) and calls
``start(app)`` once its services are ready; the screen then uses that one and does not poll
on its own. A movement is stored in the inbox once, by whichever way brings it first (a
webhook or this poll), and only the one that stores it announces it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lawsuit_tui.domain.formatting import format_int
from lawsuit_tui.i18n import ngettext
from lawsuit_tui.ui.host import host_of

if TYPE_CHECKING:
    from textual.app import App

    from lawsuit_tui.domain.trackings import TrackingRecord
    from lawsuit_tui.services.context import ServiceContext

__all__ = ["POLL_SECONDS", "MovementWatch", "new_movements_text"]

POLL_SECONDS = 60.0


def new_movements_text(count: int) -> str:
    """The notice of ``count`` movements just stored in the inbox."""
    return ngettext(
        "{n} new movement in the inbox", "{n} new movements in the inbox", count
    ).format(n=format_int(count))


class MovementWatch:
    """Refreshes the trackings for the app and announces the inbox's new movements."""

    def __init__(self) -> None:
        self.started = False
        self.listeners: list[Callable[[list[TrackingRecord]], None]] = []

    def start(self, app: App[Any], seconds: float = POLL_SECONDS) -> None:
        """Poll every ``seconds`` in a worker of ``app``."""
        if self.started:
            return
        self.started = True

        def tick() -> None:
            app.run_worker(
                self._tick(app), group="trackings.watch", exclusive=True, exit_on_error=False
            )

        app.set_interval(seconds, tick, name="trackings-watch")

    async def _tick(self, app: App[Any]) -> None:
        context = await host_of(app).context()
        await self.check(context, app)

    async def check(self, context: ServiceContext, app: App[Any]) -> list[TrackingRecord]:
        """Refresh the trackings, poll the inbox and announce what it stored; the fresh
        tracking records."""
        fresh = await context.trackings.refresh()
        for listener in self.listeners:
            listener(fresh)
        outcome = await context.inbox.poll()
        if outcome.new:
            host_of(app).announce(new_movements_text(len(outcome.new)), "inbox")
        return list(fresh)

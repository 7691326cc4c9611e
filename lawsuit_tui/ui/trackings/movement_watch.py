"""Notices of new tracking movements, for the whole session.

``MovementWatch.check(context, app)`` refreshes the trackings, hands the fresh records to its
listeners (the trackings screen), and turns the news the services' :class:`MovementLedger`
finds (the trackings whose run advanced, with their movements nobody announced yet) into
notices through ``app.announce``, which ``app.follow_notice`` (one key) follows to the
tracking's detail.

The trackings screen polls with its own watch while it exists. To get notices before the
screen is ever visited, the app owns one watch (``app.movement_watch``) and calls
``start(app)`` once its services are ready; the screen then uses that one and does not poll
on its own. A movement delivered by webhook is announced by the app only when the same
ledger's ``claim_delivery`` finds it new, so each movement is announced once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from lawsuit_tui.i18n import ngettext
from lawsuit_tui.services.movements import MovementLedger
from lawsuit_tui.ui.host import host_of
from lawsuit_tui.ui.trackings.tracking_text import search_label

if TYPE_CHECKING:
    from textual.app import App

    from lawsuit_tui.domain.trackings import TrackingRecord
    from lawsuit_tui.services.context import ServiceContext

__all__ = ["POLL_SECONDS", "MovementWatch"]

POLL_SECONDS = 60.0


class MovementWatch:
    """Polls the trackings for the app and announces the movements the ledger finds new."""

    def __init__(self, ledger: MovementLedger | None = None) -> None:
        self.ledger = ledger or MovementLedger()
        self.started = False
        self.listeners: list[Callable[[list[TrackingRecord]], None]] = []

    def remember(self, records: Iterable[TrackingRecord]) -> None:
        """Take these records as seen (no notice for what they already show)."""
        self.ledger.remember(records)

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
        """Refresh the trackings and announce new movements; the fresh records."""
        fresh = await context.trackings.refresh()
        for listener in self.listeners:
            listener(fresh)
        for record, count in await self.ledger.news(context.trackings, fresh):
            message = ngettext(
                "{search}: {n} new movement", "{search}: {n} new movements", count
            ).format(search=search_label(record), n=count)
            host_of(app).announce(message, "trackings", tracking_id=record.tracking_id)
        return list(fresh)

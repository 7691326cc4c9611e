"""Notices of new tracking movements: which trackings ran since the last look, and what they found.

``MovementWatch.check(context)`` refreshes the trackings, and for each one whose run advanced
(its latest request, update time or status changed) counts the responses created after its
previous update; each tracking with news becomes a notice through ``app.announce``, which
``app.follow_notice`` (one key) follows to the tracking's detail.

The trackings screen polls with its own watch while it exists. To get notices before the
screen is ever visited, the app can own one watch (``app.movement_watch``) and call
``start(app)`` once its services are ready; the screen then uses that one and does not poll
on its own, so no movement is announced twice.

A movement is a response a tracking produced: (tracking_id, response_id) names it. It can
also arrive as a webhook delivery (``tracking_response``), which the app announces too; both
ways go through :meth:`MovementWatch.claim`, so each movement is announced once, by whichever
way brings it first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from lawsuit_tui.domain.base import as_datetime
from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.i18n import ngettext
from lawsuit_tui.ui.widgets.part2.tracking_text import search_label

if TYPE_CHECKING:
    from textual.app import App

    from lawsuit_tui.services.context import ServiceContext
    from lawsuit_tui.services.webhooks import DeliverySummary

__all__ = ["POLL_SECONDS", "MovementWatch", "delivered_movement", "run_mark"]

POLL_SECONDS = 60.0


def run_mark(record: TrackingRecord) -> str:
    """What changes when a tracking runs: its latest request, update time and status."""
    return f"{record.request_id}|{record.updated_at}|{record.status}"


def delivered_movement(summary: DeliverySummary) -> tuple[str, str] | None:
    """(tracking_id, response_id) of a webhook delivery that carries a tracking's response."""
    tracking = summary.reference_type == "tracking" or summary.event_type == "tracking_response"
    if not tracking or summary.kind != "response":
        return None
    if not summary.reference_id or not summary.response_id:
        return None
    return summary.reference_id, summary.response_id


class MovementWatch:
    """Remembers each tracking as last seen; announces the movements of those that ran."""

    def __init__(self) -> None:
        self._seen: dict[str, TrackingRecord] = {}
        self._announced: set[tuple[str, str]] = set()
        self.started = False
        self.listeners: list[Callable[[list[TrackingRecord]], None]] = []

    def claim(self, tracking_id: str, response_ids: Iterable[str]) -> list[str]:
        """The response ids of ``tracking_id`` not announced yet, now taken as announced.

        Both ways a movement arrives (this watch's poll, a webhook delivery) ask here before
        announcing, so the second to bring a movement finds it taken.
        """
        fresh: list[str] = []
        for response_id in response_ids:
            key = (tracking_id, response_id)
            if key not in self._announced:
                self._announced.add(key)
                fresh.append(response_id)
        return fresh

    def remember(self, records: Iterable[TrackingRecord]) -> None:
        """Take these records as seen (no notice for what they already show)."""
        for record in records:
            self._seen[record.tracking_id] = record

    def start(self, app: App[Any], seconds: float = POLL_SECONDS) -> None:
        """Poll every ``seconds`` in a worker of ``app`` (a LawsuitApp)."""
        if self.started:
            return
        self.started = True

        def tick() -> None:
            app.run_worker(
                self._tick(app), group="trackings.watch", exclusive=True, exit_on_error=False
            )

        app.set_interval(seconds, tick, name="trackings-watch")

    async def _tick(self, app: App[Any]) -> None:
        context = await app.context()  # type: ignore[attr-defined]
        await self.check(context, app)

    async def check(self, context: ServiceContext, app: App[Any]) -> list[TrackingRecord]:
        """Refresh the trackings and announce new movements; the fresh records."""
        fresh = await context.trackings.refresh()
        for listener in self.listeners:
            listener(fresh)
        for record in fresh:
            old = self._seen.get(record.tracking_id)
            self._seen[record.tracking_id] = record
            if old is None or run_mark(old) == run_mark(record):
                continue
            count = self._unannounced(
                record.tracking_id, await self._new_responses(context, old, record)
            )
            if count:
                announce = getattr(app, "announce", None)
                message = ngettext(
                    "{search}: {n} new movement", "{search}: {n} new movements", count
                ).format(search=search_label(record), n=count)
                if announce is not None:
                    announce(message, "trackings", tracking_id=record.tracking_id)
                else:
                    app.notify(message)
        return list(fresh)

    def _unannounced(self, tracking_id: str, responses: Sequence[ResponseRecord]) -> int:
        """How many of ``responses`` no one announced yet (one without an id always counts:
        nothing could have named it)."""
        ids = [response.response_id for response in responses if response.response_id]
        return len(self.claim(tracking_id, ids)) + len(responses) - len(ids)

    async def _new_responses(
        self, context: ServiceContext, old: TrackingRecord, record: TrackingRecord
    ) -> list[ResponseRecord]:
        """The tracking's responses created since ``old`` was seen."""
        stamps = [as_datetime(old.updated_at), as_datetime(old.created_at)]
        since = max((stamp for stamp in stamps if stamp is not None), default=None)
        responses = await context.trackings.responses(record.tracking_id)
        found: list[ResponseRecord] = []
        for response in responses:
            stamp = as_datetime(response.created_at)
            if since is None or (stamp is not None and stamp > since):
                found.append(response)
        return found

"""New tracking movements: which trackings ran since the last look, and which movements are
news.

A movement is a response a tracking produced: (tracking_id, response_id) names it. It reaches
the user two ways: a look at the trackings (a tracking whose run advanced, i.e. its latest
request, update time or status changed, counts the responses created after its previous
update) and a webhook delivery (``tracking_response``). Both ask :meth:`MovementLedger.claim`
before announcing, so each movement is announced once, by whichever way brings it first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from lawsuit_tui.domain.base import as_datetime

if TYPE_CHECKING:
    from lawsuit_tui.domain.responses import ResponseRecord
    from lawsuit_tui.domain.trackings import TrackingRecord
    from lawsuit_tui.services.trackings import TrackingService
    from lawsuit_tui.services.webhooks import DeliverySummary

__all__ = ["MovementLedger", "delivered_movement", "run_mark"]


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


class MovementLedger:
    """Each tracking as last seen, and the movements already announced."""

    def __init__(self) -> None:
        self._seen: dict[str, TrackingRecord] = {}
        self._announced: set[tuple[str, str]] = set()

    def claim(self, tracking_id: str, response_ids: Iterable[str]) -> list[str]:
        """The response ids of ``tracking_id`` not announced yet, now taken as announced.

        Both ways a movement arrives (a look at the trackings, a webhook delivery) ask here
        before announcing, so the second to bring a movement finds it taken.
        """
        fresh: list[str] = []
        for response_id in response_ids:
            key = (tracking_id, response_id)
            if key not in self._announced:
                self._announced.add(key)
                fresh.append(response_id)
        return fresh

    def claim_delivery(self, summary: DeliverySummary) -> bool:
        """False when ``summary`` carries a tracking's movement already announced; else True,
        and the movement is taken so that a later look does not announce it again."""
        movement = delivered_movement(summary)
        if movement is None:
            return True
        tracking_id, response_id = movement
        return bool(self.claim(tracking_id, [response_id]))

    def remember(self, records: Iterable[TrackingRecord]) -> None:
        """Take these records as seen (no news for what they already show)."""
        for record in records:
            self._seen[record.tracking_id] = record

    async def news(
        self, trackings: TrackingService, fresh: Iterable[TrackingRecord]
    ) -> list[tuple[TrackingRecord, int]]:
        """Each tracking of ``fresh`` (the service's list just read) whose run advanced since
        it was last seen, with how many of its new movements nobody announced yet (those are
        now taken); the records become the ones seen."""
        found: list[tuple[TrackingRecord, int]] = []
        for record in fresh:
            old = self._seen.get(record.tracking_id)
            self._seen[record.tracking_id] = record
            if old is None or run_mark(old) == run_mark(record):
                continue
            responses = await self._new_responses(trackings, old, record)
            count = self._unannounced(record.tracking_id, responses)
            if count:
                found.append((record, count))
        return found

    def _unannounced(self, tracking_id: str, responses: Sequence[ResponseRecord]) -> int:
        """How many of ``responses`` no one announced yet (one without an id always counts:
        nothing could have named it)."""
        ids = [response.response_id for response in responses if response.response_id]
        return len(self.claim(tracking_id, ids)) + len(responses) - len(ids)

    @staticmethod
    async def _new_responses(
        trackings: TrackingService, old: TrackingRecord, record: TrackingRecord
    ) -> list[ResponseRecord]:
        """The tracking's responses created since ``old`` was seen."""
        stamps = [as_datetime(old.updated_at), as_datetime(old.created_at)]
        since = max((stamp for stamp in stamps if stamp is not None), default=None)
        responses = await trackings.responses(record.tracking_id)
        found: list[ResponseRecord] = []
        for response in responses:
            stamp = as_datetime(response.created_at)
            if since is None or (stamp is not None and stamp > since):
                found.append(response)
        return found

"""The tracking record (recurring monitoring of a search), and what the tracking service
answers besides it: a bulk creation's outcome and the tracked items (tracking.json)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from lawsuit_tui.domain.base import ApiModel, JsonObject, Number, Timestamp
from lawsuit_tui.domain.enums import Open, PlanConfigType, SearchType, Side, TrackingStatus
from lawsuit_tui.domain.pagination import PageEnvelope
from lawsuit_tui.domain.requests import Search

__all__ = [
    "ALREADY_EXISTS",
    "BulkTrackingError",
    "BulkTrackingResult",
    "NotificationFilters",
    "TrackedItem",
    "TrackedItemCount",
    "TrackedItemsPage",
    "TrackingRecord",
]

# D73: the code of a bulk item refused because its key is tracked already.
ALREADY_EXISTS = "TRACKING_ALREADY_EXISTS"


class NotificationFilters(ApiModel):
    step_terms: list[str] | None = None


class TrackingRecord(ApiModel):
    tracking_id: str
    user_id: str | None = None
    company_id: str | None = None
    request_id: str | None = None
    status: Open[TrackingStatus] | None = None
    recurrence: int | None = None
    with_attachments: bool | None = None
    search: Search | None = None
    notification_emails: list[str] | None = None
    tracked_items_count: int | None = None
    tracked_items_steps_count: int | None = None
    notification_filters: NotificationFilters | None = None
    callback_url: str | None = None
    tags: JsonObject | None = None
    plan_config_type: Open[PlanConfigType] | None = None
    fixed_time: bool | None = None
    hour_range: int | None = None
    execution_minute: int | None = None
    created_at: Timestamp | None = None
    updating_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    paused_at: Timestamp | None = None
    deleted_at: Timestamp | None = None

    @property
    def is_paused(self) -> bool:
        return self.status == TrackingStatus.PAUSED


class BulkTrackingError(ApiModel):
    """One refused item of ``POST /tracking/bulk`` (D73): its index in the body, the
    ``"<CODE>: <message>"`` text and the item as sent."""

    index: int
    error: str = ""
    input: JsonObject | None = None

    @property
    def code(self) -> str:
        """The code before the first colon (``TRACKING_ALREADY_EXISTS``), or the whole text."""
        return self._code_and_message()[0]

    @property
    def message(self) -> str:
        """What follows the code (the whole text when it has none)."""
        return self._code_and_message()[1]

    def _code_and_message(self) -> tuple[str, str]:
        # A code is one word before the first colon; a text without one is both.
        head, sep, rest = self.error.partition(":")
        code = head.strip()
        if sep and code and " " not in code:
            return code, rest.strip()
        return self.error, self.error

    @property
    def already_exists(self) -> bool:
        return self.code == ALREADY_EXISTS

    @property
    def search(self) -> dict[str, Any]:
        """The item's search as sent (``{}`` when the service did not echo it)."""
        found = (self.input or {}).get("search")
        return found if isinstance(found, dict) else {}


class BulkTrackingResult(ApiModel):
    """``POST /tracking/bulk``: the trackings made, in the order of the body, and the items
    refused (D73: the call succeeds even when every item failed)."""

    trackings: list[TrackingRecord] = Field(default_factory=list)
    errors: list[BulkTrackingError] = Field(default_factory=list)


class TrackedItem(ApiModel):
    """What a tracking follows (``GET /tracked-item``): one lawsuit instance. A tracking of a
    CNJ has one item per instance; a tracking of a document, one per lawsuit it found."""

    tracked_item_id: str
    tracking_id: str | None = None
    tracking_type: Open[SearchType] | None = None
    lawsuit_cnj: str | None = None
    lawsuit_instance: int | None = None
    tribunal_id: str | None = None
    tribunal_acronym: str | None = None
    communication_hash: str | None = None
    distribution_date: Timestamp | None = None
    steps_count: int | None = None
    last_step_date: Timestamp | None = None
    related_response_id: str | None = None
    lawsuit_name: str | None = None
    tracked_side: Open[Side] | None = None
    lawsuit_status: str | None = None
    lawsuit_amount: Number | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    tags: JsonObject | None = None


class TrackedItemsPage(PageEnvelope):
    page_data: list[TrackedItem] = Field(default_factory=list)


class TrackedItemCount(ApiModel):
    """``GET /tracked-item-count``."""

    count: int = 0

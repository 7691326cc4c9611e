"""The tracking record (recurring monitoring of a search)."""

from __future__ import annotations

from lawsuit_tui.domain.base import ApiModel, JsonObject, Timestamp
from lawsuit_tui.domain.enums import Open, PlanConfigType, TrackingStatus
from lawsuit_tui.domain.requests import Search

__all__ = ["NotificationFilters", "TrackingRecord"]


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

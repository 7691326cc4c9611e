"""Webhook deliveries: the envelope and the payload of each event type.

``payload`` is typed by ``event_type``; an unknown event type (or a payload that does not
fit its model) keeps the raw JSON object.
"""

from __future__ import annotations

from typing import Any

from pydantic import (
    BaseModel,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
)

from lawsuit_tui.domain.base import ApiModel, Timestamp, validated_or_raw
from lawsuit_tui.domain.enums import EventType, Open, Origin, ResponseType
from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.domain.responses import ResponseData, _TypedResponseData

__all__ = [
    "RequestCompletedPayload",
    "ResponseCreatedPayload",
    "TrackingResponsePayload",
    "WebhookEnvelope",
    "WebhookPayload",
    "WebhookTags",
]


class WebhookTags(ApiModel):
    dashboard_id: str | None = None
    cached_response: bool | None = None


class ResponseCreatedPayload(_TypedResponseData):
    request_id: str | None = None
    response_id: str | None = None
    response_type: Open[ResponseType] | None = None
    response_data: ResponseData | None = None
    user_id: str | None = None
    created_at: Timestamp | None = None
    request_created_at: Timestamp | None = None
    is_scrapper_info: bool | None = None
    tags: WebhookTags | None = None
    origin: Open[Origin] | None = None
    origin_id: str | None = None

    @property
    def is_cached(self) -> bool:
        """True for the provisional delivery built from the service's stored data."""
        return self.tags is not None and self.tags.cached_response is True


class TrackingResponsePayload(ResponseCreatedPayload):
    """Same shape as response_created; the envelope's reference_id is the tracking_id."""


class RequestCompletedPayload(RequestRecord):
    """The final request record, status completed."""


WebhookPayload = (
    ResponseCreatedPayload | TrackingResponsePayload | RequestCompletedPayload | dict[str, Any]
)

_PAYLOAD_MODELS: dict[str, type[ApiModel]] = {
    EventType.RESPONSE_CREATED: ResponseCreatedPayload,
    EventType.REQUEST_COMPLETED: RequestCompletedPayload,
    EventType.TRACKING_RESPONSE: TrackingResponsePayload,
}


class WebhookEnvelope(ApiModel):
    """One delivery. ``callback_id`` is the idempotency key (same on redelivery)."""

    user_id: str | None = None
    callback_id: str
    event_type: Open[EventType]
    reference_type: str | None = None
    reference_id: str | None = None
    payload: WebhookPayload | None = None

    @field_validator("payload", mode="wrap")
    @classmethod
    def _type_payload(
        cls, value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> Any:
        model = _PAYLOAD_MODELS.get(str(info.data.get("event_type")))
        if isinstance(value, BaseModel) and model is not None and not isinstance(value, model):
            # A record of the neighbouring type (a RequestRecord for request_completed).
            value = value.model_dump(exclude_unset=True)
        if not isinstance(value, dict):
            return handler(value)
        return validated_or_raw(model, value)

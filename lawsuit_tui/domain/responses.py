"""Response records, typed ``response_data``, and the responses page.

``response_data`` is typed by ``response_type``: a :class:`Lawsuit` for ``lawsuit`` and
``execution`` (D70), a :class:`Warrant` for ``warrant``, an :class:`ApplicationError` for
``application_error``, and the raw JSON object for any other type (entity, and types the
service adds later). A payload that does
not fit its typed model (a lawsuit without ``code``) is kept raw rather than rejected.
"""

from __future__ import annotations

from typing import Any

from pydantic import (
    Field,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
)

from lawsuit_tui.domain.base import ApiModel, JsonObject, Timestamp, validated_or_raw
from lawsuit_tui.domain.completion import is_completion_notice
from lawsuit_tui.domain.enums import (
    ApplicationErrorCode,
    Open,
    Origin,
    RequestStatus,
    ResponseType,
    enum_or_none,
)
from lawsuit_tui.domain.lawsuit import Lawsuit, LawsuitData
from lawsuit_tui.domain.pagination import PageEnvelope
from lawsuit_tui.domain.warrants import Warrant

__all__ = [
    "AiSummary",
    "ApplicationError",
    "LawsuitData",
    "LookupResult",
    "ResponseData",
    "ResponseRecord",
    "ResponsesPage",
    "typed_response_data",
]


class ApplicationError(ApiModel):
    """A logical result of a query (HTTP 200). ``code`` comes as a string or an integer."""

    code: str | int | None = None
    message: str | None = None
    details: Any = None

    @property
    def known_code(self) -> ApplicationErrorCode | None:
        return enum_or_none(ApplicationErrorCode, self.code)


class AiSummary(ApiModel):
    """D80: a ``summary`` response's data, ``{data: [markdown], origin, origin_id}``: the
    AI summary of the response ``origin_id`` (``origin: response``) or of a request."""

    data: list[str] = Field(default_factory=list)
    origin: str | None = None
    origin_id: str | None = None

    @property
    def text(self) -> str:
        """The summary as one markdown text (the service may cut it in several parts)."""
        return "\n\n".join(part.strip() for part in self.data if part.strip())


ResponseData = Lawsuit | ApplicationError | Warrant | AiSummary | JsonObject


# The model of each response type's data; any other type keeps the raw object.
_DATA_MODELS: dict[str, type[ApiModel]] = {
    ResponseType.LAWSUIT: Lawsuit,
    ResponseType.APPLICATION_ERROR: ApplicationError,
    ResponseType.EXECUTION: Lawsuit,  # D70: a penal execution is a lawsuit
    ResponseType.WARRANT: Warrant,
    ResponseType.SUMMARY: AiSummary,
}


def typed_response_data(response_type: object, value: Any) -> Any:
    """``value`` as the model its ``response_type`` names, or unchanged when none fits."""
    if not isinstance(value, dict):
        return value
    model = _DATA_MODELS.get(response_type) if isinstance(response_type, str) else None
    return validated_or_raw(model, value)


class _TypedResponseData(ApiModel):
    """Mixin: validate ``response_data`` according to the ``response_type`` field."""

    @field_validator("response_data", mode="wrap", check_fields=False)
    @classmethod
    def _type_response_data(
        cls, value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> Any:
        if isinstance(value, dict):
            return typed_response_data(info.data.get("response_type"), value)
        return handler(value)


class ResponseRecord(_TypedResponseData):
    """An element of the responses page."""

    request_id: str | None = None
    response_id: str | None = None
    origin: Open[Origin] | None = None
    origin_id: str | None = None
    user_id: str | None = None
    response_type: Open[ResponseType] | None = None
    response_data: ResponseData | None = None
    request_created_at: Timestamp | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    is_scrapper_info: bool | None = None
    force_overwrite: bool | None = None
    cached: bool | None = None
    tags: JsonObject | None = None

    @property
    def is_cached(self) -> bool:
        """True for a provisional response served from the service's stored data.

        Any signal is enough (D85): ``cached`` or ``cached_response`` on the record, or
        ``tags.cached_response``.
        """
        top = self.extra_fields.get("cached_response")
        return (
            self.cached is True or top is True or (self.tags or {}).get("cached_response") is True
        )

    @property
    def is_completion_notice(self) -> bool:
        """D69: the service's notice that the request is complete (not a result)."""
        return is_completion_notice(self.response_type, self.response_data)

    @property
    def lawsuit(self) -> Lawsuit | None:
        return self.response_data if isinstance(self.response_data, Lawsuit) else None

    @property
    def warrant(self) -> Warrant | None:
        return self.response_data if isinstance(self.response_data, Warrant) else None

    @property
    def application_error(self) -> ApplicationError | None:
        data = self.response_data
        return data if isinstance(data, ApplicationError) else None

    @property
    def ai_summary(self) -> AiSummary | None:
        data = self.response_data
        return data if isinstance(data, AiSummary) else None


class ResponsesPage(PageEnvelope):
    """GET /responses: the pagination envelope plus the status of the request."""

    page_data: list[ResponseRecord] = Field(default_factory=list)
    request_status: Open[RequestStatus] | None = None


class LookupResult(ApiModel):
    """POST /lawsuits (cached lookup, either variant): the lawsuits already held."""

    has_lawsuits: bool | None = None
    request_id: str | None = None
    lawsuits: list[Lawsuit] = Field(default_factory=list)

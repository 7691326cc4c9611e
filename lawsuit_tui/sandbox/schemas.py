"""What the sandbox accepts (strict enough to answer 400 per failed rule) and documents.

Input models list the spec's fields with their closed value lists and bounds; unknown fields
are accepted and ignored (D46). Output schemas are documentation for ``/openapi.json``: the
routes answer plain JSON built to the same shapes (domain models where the client's view
fits, dedicated ones here for error bodies and sandbox-only routes).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from lawsuit_tui.domain.pagination import Page
from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.domain.trackings import TrackingRecord

__all__ = [
    "ERROR_RESPONSES",
    "BadRequestError",
    "CreateRequestIn",
    "RequestDeletedOut",
    "ResponseOut",
    "SearchIn",
    "TrackingIn",
    "TrackingPatchIn",
    "add_documented_schemas",
    "error_responses",
    "json_content",
    "schema_ref",
]

SearchTypeIn = Literal[
    "cpf",
    "cnpj",
    "oab",
    "lawsuit_cnj",
    "lawsuit_id",
    "name",
    # D68
    "rji",
    "lawsuit_attachment",
    "execution_attachment",
    "custom",
]
ResponseTypeIn = Literal[
    "lawsuit",
    "parties",
    "attachments",
    "step",
    "lawsuits",
    # D68: sanction and communication are read, answered 422 (not produced here)
    "warrant",
    "execution",
    "sanction",
    "communication",
    # D78, D110
    "entity",
]
SideIn = Literal["Passive", "Active"]


class _In(BaseModel):
    model_config = ConfigDict(extra="ignore")


class KeysFilterIn(_In):
    keys: list[str] | None = None
    not_equal: bool | None = None


class SubjectFilterIn(_In):
    """Both shapes of D6: ``{contains, not_contains}`` or ``{keys, not_equal}``."""

    contains: list[str] | None = None
    not_contains: list[str] | None = None
    keys: list[str] | None = None
    not_equal: bool | None = None


class FilterIn(_In):
    side: SideIn | None = None
    party_names: list[str] | None = None
    party_documents: list[str] | None = None
    distribution_date_gte: datetime | None = None
    distribution_date_lte: datetime | None = None
    last_step_date_gte: datetime | None = None
    last_step_date_lte: datetime | None = None
    tribunals: KeysFilterIn | None = None
    classification_codes: KeysFilterIn | None = None
    classification_names: KeysFilterIn | None = None
    subject_codes: SubjectFilterIn | None = None
    subject_names: SubjectFilterIn | None = None
    amount_gte: float | None = None
    amount_lte: float | None = None


class PaginationIn(_In):
    page: Annotated[int, Field(ge=1)] | None = None
    page_size: Annotated[int, Field(ge=1, le=1000)] | None = None


class CredentialIn(_In):
    customer_key: str | None = None


class SearchParamsIn(_In):
    full_lawsuit: bool | None = None
    public_search: bool | None = None
    lawsuit_instance: Annotated[int, Field(ge=1, le=9)] | None = None
    attachment_id: str | None = None
    attachment_extension: str | None = None
    masked_response: bool | None = None
    filter: FilterIn | None = None
    pagination: PaginationIn | None = None
    credential: CredentialIn | None = None
    should_search_branches: bool | None = None  # D5: also read here


class SearchIn(_In):
    search_type: SearchTypeIn
    # D115: may be empty (a custom search); emptiness is refused by the key's own rules.
    search_key: Annotated[str, Field(max_length=200)]
    search_params: SearchParamsIn | None = None
    on_demand: bool | None = None
    search_name: str | None = None
    response_type: ResponseTypeIn | None = None
    cache_ttl_in_days: Annotated[int, Field(ge=1, le=365)] | None = None  # D13
    should_search_branches: bool | None = None

    @model_validator(mode="before")
    @classmethod
    def _custom_without_key(cls, data: Any) -> Any:
        # D115: the custom-search page says search_key is not required for it.
        if isinstance(data, dict) and data.get("search_type") == "custom":
            return {"search_key": "", **data}
        return data


class CreateRequestIn(_In):
    search: SearchIn
    callback_url: Annotated[str, Field(max_length=2000)] | None = None
    with_attachments: bool | None = None
    tags: dict[str, Any] | None = None
    judit_ia: list[Literal["summary"]] | None = None  # D80


class NotificationFiltersIn(_In):
    step_terms: list[str]  # D66: required when notification_filters is sent


# Whitespace spelt out: generators and Python's ``re`` disagree on what \s holds (\x1e).
EMAIL_PATTERN = r"^[^@ \t\r\n]+@[^@ \t\r\n]+\.[^@ \t\r\n.]+$"


def _email(value: str) -> str:
    # Python's ``re``, as JSON Schema validators read the documented pattern: pydantic's own
    # regex engine disagreed on a few strings (issue 18, a valid PATCH refused).
    if re.search(EMAIL_PATTERN, value) is None:
        raise ValueError("not an e-mail address")
    return value


Email = Annotated[
    str,
    Field(max_length=320, json_schema_extra={"pattern": EMAIL_PATTERN}),
    AfterValidator(_email),
]


class TrackingPatchIn(_In):
    """D65: the fields a PATCH may change (the union of the documents)."""

    recurrence: Annotated[int, Field(ge=1, le=90)] | None = None  # D66: days, 1..90
    callback_url: Annotated[str, Field(max_length=2000)] | None = None
    notification_emails: list[Email] | None = None
    notification_filters: NotificationFiltersIn | None = None
    with_attachments: bool | None = None
    tags: dict[str, Any] | None = None
    fixed_time: bool | None = None
    hour_range: Annotated[int, Field(ge=0, le=23)] | None = None
    execution_minute: Annotated[int, Field(ge=0, le=59)] | None = None


class TrackingIn(TrackingPatchIn):
    """D27: POST /tracking."""

    search: SearchIn


class TokenIn(_In):
    api_key: str


class ClockIn(_In):
    advance_seconds: Annotated[float, Field(ge=0, le=10 * 365 * 86400)] | None = None
    speed: Annotated[float, Field(ge=0, le=10_000)] | None = None


class FaultsIn(_In):
    latency_ms: Annotated[int, Field(ge=0, le=60_000)] | None = None
    error_rate: Annotated[float, Field(ge=0, le=1)] | None = None
    error_statuses: list[Literal[500, 502, 503, 504]] | None = None
    malformed_rate: Annotated[float, Field(ge=0, le=1)] | None = None
    truncated_rate: Annotated[float, Field(ge=0, le=1)] | None = None
    courts_down: list[str] | None = None
    legacy_completion: bool | None = None  # D69


class FailLoginIn(_In):
    system_name: str
    customer_key: str | None = None


# ------------------------------------------------------------------------- outputs


class RequestsPage(Page[RequestRecord]):
    pass


class ResponsesPageOut(Page[ResponseRecord]):
    request_status: str | None = None


class ResponseOut(ResponseRecord):
    """GET /responses/{response_id} (D90): the response, and its request's status."""

    request_status: str | None = None


class TrackingsPage(Page[TrackingRecord]):
    pass


class RequestDeletedOut(BaseModel):
    """D62: the answer of DELETE /requests/{id}."""

    success: bool
    time: datetime


class _ErrorDetail(BaseModel):
    name: str
    message: str


class BadRequestDetail(_ErrorDetail):
    data: list[str]


class TextErrorDetail(_ErrorDetail):
    data: str


class ObjectErrorDetail(_ErrorDetail):
    data: dict[str, Any]


class BadRequestError(BaseModel):
    """D64: 400 ``{error: {name, message, data: ["<field path>: <message>", ...]}}``."""

    error: BadRequestDetail


class TextError(BaseModel):
    """D64: 401, 403, 405, 413, 415, 422 ``{error: {name, message, data: "..."}}``."""

    error: TextErrorDetail


class ObjectError(BaseModel):
    """D64: 404 (naming the id), 409 and 5xx ``{error: {name, message, data: {...}}}``."""

    error: ObjectErrorDetail


class RateLimitError(BaseModel):
    """D64: the rate-limits page's 429 ``{error, message, code: 429}``."""

    error: str
    message: str
    code: int


class MinerErrors(BaseModel):
    """D64: every error of the Miner, ``{errors: [string]}``."""

    errors: list[str]


class TokenOut(BaseModel):
    access_token: str
    token_type: Literal["Bearer"]
    expires_in: int


class ClockOut(BaseModel):
    now: str
    speed: float
    pending_events: int


_DESCRIPTIONS = {
    400: "Bad request: `data` lists every failed rule as `<field path>: <message>`",
    401: "Missing or invalid api-key",
    403: "Key without the feature, or secret lawsuit without credential",
    404: "Unknown id",
    405: "Method not allowed",
    409: "Conflict",
    413: "Body over 1 MiB",
    422: "Valid structure, invalid meaning",
    429: "Rate limit exceeded (Retry-After in seconds)",
    500: "Unexpected failure",
    502: "Bad gateway",
    503: "Service unavailable",
    504: "Gateway time-out",
}


# Models documented by reference: FastAPI builds a validating field for every ``"model"`` of
# ``responses=`` at each route declaration, which made creating the app slow; a ``$ref`` to a
# schema added once, when /openapi.json is first asked for, documents the same thing.
_DOC_MODELS: dict[str, type[BaseModel]] = {}


def schema_ref(model: type[BaseModel]) -> dict[str, str]:
    """A ``$ref`` to ``model``'s schema in the components (added by add_documented_schemas)."""
    _DOC_MODELS[model.__name__] = model
    return {"$ref": f"#/components/schemas/{model.__name__}"}


def json_content(model: type[BaseModel]) -> dict[str, Any]:
    return {"application/json": {"schema": schema_ref(model)}}


def add_documented_schemas(openapi: dict[str, Any]) -> dict[str, Any]:
    """Put the schemas of every model documented by reference into ``openapi``'s components."""
    components: dict[str, Any] = openapi.setdefault("components", {}).setdefault("schemas", {})
    for name, model in list(_DOC_MODELS.items()):
        if name in components:
            continue
        schema = model.model_json_schema(
            ref_template="#/components/schemas/{model}", mode="serialization"
        )
        for def_name, definition in schema.pop("$defs", {}).items():
            components.setdefault(def_name, definition)
        components[name] = schema
    return openapi


def query_parameters_without_null(openapi: dict[str, Any]) -> dict[str, Any]:
    """``openapi`` with each optional query parameter documented as its type alone, as the
    provider's documents do: FastAPI writes ``anyOf [X, null]`` for ``X | None``, but a query
    has no null (an absent parameter is the None), and a value "neither X nor null" that a
    client sends is just text on the wire, which a string parameter takes."""
    for operations in openapi.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema")
                if parameter.get("in") != "query" or not isinstance(schema, dict):
                    continue
                branches = schema.get("anyOf")
                if not isinstance(branches, list) or {"type": "null"} not in branches:
                    continue
                kept = [branch for branch in branches if branch != {"type": "null"}]
                if len(kept) != 1:
                    continue
                rest = {k: v for k, v in schema.items() if k != "anyOf"}
                parameter["schema"] = {**kept[0], **rest}
    return openapi


def _error_model(status: int) -> type[BaseModel]:
    if status == 400:
        return BadRequestError
    if status == 429:
        return RateLimitError
    if status in (404, 409) or status >= 500:
        return ObjectError
    return TextError


def error_responses(*statuses: int, miner: bool = False) -> dict[int | str, dict[str, Any]]:
    """``responses=`` entries documenting the error bodies of ``statuses`` (D64); ``miner``:
    the Miner's ``{errors}`` shape."""
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        model = MinerErrors if miner else _error_model(status)
        out[status] = {
            "description": _DESCRIPTIONS.get(status, "Error"),
            "content": json_content(model),
        }
    return out


# Every service route can answer these (auth, body limits, faults, validation).
COMMON_ERRORS = (400, 401, 403, 413, 422, 500, 502, 503, 504)
ERROR_RESPONSES = error_responses(*COMMON_ERRORS)

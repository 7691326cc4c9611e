"""Bodies the client sends, with the spec's rules as validation.

Every rule fails with a message meant for the person who typed the value (translated
through ``_``). ``to_wire()`` gives the JSON body to send: ``None`` fields left out and
secrets (vault passwords) in clear, which is the only place they are.

:class:`CountBody` reports every problem at once: validating it raises one error listing
them all, and ``CountBody.problems(data)`` returns the list (the sandbox answers
``{errors: [...]}`` with it). :func:`validation_messages` flattens any ``ValidationError`` of
these models into one line per problem.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable
from enum import StrEnum
from typing import Any, ClassVar, TypeGuard

from pydantic import (
    ConfigDict,
    Field,
    SecretStr,
    SerializationInfo,
    ValidationError,
    ValidationInfo,
    field_serializer,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from lawsuit_tui.domain.base import ApiModel, JsonObject, Number, Timestamp
from lawsuit_tui.domain.enums import (
    AmountTier,
    CountKind,
    CountTag,
    Nature,
    Open,
    Origin,
    RequestStatus,
    ResponseType,
    SearchType,
    ServiceIa,
    TrackingStatus,
    enum_or_none,
)
from lawsuit_tui.domain.formatting import format_money
from lawsuit_tui.domain.requests import SearchParams
from lawsuit_tui.domain.trackings import NotificationFilters
from lawsuit_tui.domain.vault import (
    REVEAL_SECRETS,
    WILDCARD_SYSTEM,
    Credential,
    CredentialCustomData,
    reveal_requested,
)
from lawsuit_tui.i18n import N_, _

__all__ = [
    "ATTACHMENT_SEARCHES",
    "DEFAULT_PAGE_SIZE",
    "MAX_BULK_TRACKINGS",
    "MAX_CACHE_TTL_DAYS",
    "MAX_PAGE_SIZE",
    "MAX_RECURRENCE_DAYS",
    "BodyModel",
    "CertificateBody",
    "CountBody",
    "CreateRequestBody",
    "CredentialDeleteBody",
    "CredentialEntry",
    "CredentialItem",
    "CredentialsRegistrationBody",
    "LookupBody",
    "PageParams",
    "RequestsPageParams",
    "ResponsesPageParams",
    "SearchBody",
    "TrackedItemsPageParams",
    "TrackingBulkBody",
    "TrackingCreateBody",
    "TrackingPatchBody",
    "TrackingResponsesParams",
    "TrackingsPageParams",
    "Translate",
    "accepted_response_types",
    "attachments_allowed",
    "invalid_body",
    "response_type_problem",
    "validation_messages",
]

Translate = Callable[[str], str]
"""How a message id becomes text: ``_`` (the UI language) or ``str`` (English, as sent)."""

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 1000

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")
_BASE32 = re.compile(r"[A-Z2-7]+=*")


def is_base32_secret(value: str) -> bool:
    """A two-factor secret as people copy it: base32, grouped by spaces, in either case."""
    return _BASE32.fullmatch("".join(value.split()).upper()) is not None


# D11: the response types each search type accepts; the first is the default.
_ACCEPTED_RESPONSE_TYPES: dict[SearchType, tuple[ResponseType, ...]] = {
    SearchType.LAWSUIT_CNJ: (
        ResponseType.LAWSUIT,
        ResponseType.PARTIES,
        ResponseType.ATTACHMENTS,
        ResponseType.STEP,
    ),
    SearchType.LAWSUIT_ID: (
        ResponseType.LAWSUIT,
        ResponseType.PARTIES,
        ResponseType.ATTACHMENTS,
        ResponseType.STEP,
    ),
    # D68: registration data (entity) of a CPF, a CNPJ or a name.
    SearchType.CPF: (
        ResponseType.LAWSUITS,
        ResponseType.LAWSUIT,
        ResponseType.PARTIES,
        ResponseType.ENTITY,
    ),
    SearchType.CNPJ: (
        ResponseType.LAWSUITS,
        ResponseType.LAWSUIT,
        ResponseType.PARTIES,
        ResponseType.ENTITY,
    ),
    SearchType.OAB: (ResponseType.LAWSUITS, ResponseType.LAWSUIT, ResponseType.PARTIES),
    SearchType.NAME: (
        ResponseType.LAWSUITS,
        ResponseType.LAWSUIT,
        ResponseType.PARTIES,
        ResponseType.ENTITY,
    ),
}

# D68 (amends D11): what the provider's documents add to D11's table, after D11's types.
_D68_RESPONSE_TYPES: dict[SearchType, tuple[ResponseType, ...]] = {
    SearchType.LAWSUIT_CNJ: (ResponseType.EXECUTION,),
    SearchType.LAWSUIT_ID: (ResponseType.EXECUTION,),
    SearchType.CPF: (ResponseType.ENTITY, ResponseType.WARRANT, ResponseType.EXECUTION),
    SearchType.CNPJ: (ResponseType.ENTITY, ResponseType.EXECUTION),
    SearchType.NAME: (ResponseType.ENTITY, ResponseType.WARRANT, ResponseType.EXECUTION),
    SearchType.RJI: (ResponseType.WARRANT,),
    SearchType.LAWSUIT_ATTACHMENT: (ResponseType.LAWSUIT,),
    SearchType.EXECUTION_ATTACHMENT: (ResponseType.LAWSUIT,),
    SearchType.CUSTOM: (ResponseType.LAWSUITS,),
}
# D68: in requests.json's enum, not in the matrix: the service decides on them.
_UNCHECKED_RESPONSE_TYPES = (ResponseType.SANCTION, ResponseType.COMMUNICATION)
# D115: the search types whose key is a CNJ number plus ``search_params.attachment_id``.
ATTACHMENT_SEARCHES = (SearchType.LAWSUIT_ATTACHMENT, SearchType.EXECUTION_ATTACHMENT)

MAX_CACHE_TTL_DAYS = 365
MAX_RECURRENCE_DAYS = 90  # D66: days, 1..90 (the changelog)
MAX_BULK_TRACKINGS = 1000  # D73


def invalid_body(message: str) -> PydanticCustomError:
    """The error a body's rule raises, ``message`` written for the person who typed the value."""
    # The message is already formatted: keep braces in user data from being read as fields.
    return PydanticCustomError("invalid_body", "{message}", {"message": message})


def _check_range(value: int | None, low: int, high: int, message: str) -> None:
    """Refuse ``value`` outside ``low..high`` (None passes); ``message`` is a message id whose
    ``{low}``, ``{high}`` and ``{value}`` are filled in."""
    if value is not None and not low <= value <= high:
        raise invalid_body(_(message).format(low=low, high=high, value=value))


def validation_messages(exc: ValidationError) -> list[str]:
    """One line per problem of a ValidationError raised by these models."""
    lines: list[str] = []
    # include_input=False: the input of a credential holds its password.
    for error in exc.errors(include_url=False, include_input=False):
        ctx = error.get("ctx") or {}
        problems = ctx.get("problems")
        if isinstance(problems, list):
            lines.extend(str(p) for p in problems)
            continue
        message = str(ctx.get("message", error["msg"]))
        loc = ".".join(str(part) for part in error["loc"])
        lines.append(f"{loc}: {message}" if loc else message)
    return lines


def accepted_response_types(search_type: object) -> tuple[ResponseType, ...]:
    """The response types a search type accepts (D11, D68), default first; () when unknown."""
    search = enum_or_none(SearchType, search_type)
    if search is None:
        return ()
    found = _ACCEPTED_RESPONSE_TYPES.get(search, ()) + _D68_RESPONSE_TYPES.get(search, ())
    return tuple(dict.fromkeys(found))


def response_type_problem(search_type: object, response_type: object) -> str | None:
    """Why ``response_type`` cannot be asked for a ``search_type`` (D11); None when it can.

    A search type or a response type this client does not know is let through: the
    service decides on it.
    """
    accepted = accepted_response_types(search_type)
    response = enum_or_none(ResponseType, response_type)
    if not accepted or response is None or response in accepted:
        return None
    if response in _UNCHECKED_RESPONSE_TYPES:
        return None
    return _(
        "response_type {response} cannot be asked for a {search} search; use one of: {choices}"
    ).format(
        response=response.value,
        search=str(search_type),
        choices=", ".join(item.value for item in accepted),
    )


def attachments_allowed(search_type: object, response_type: object) -> bool:
    """Whether ``with_attachments`` means something for this search (D68, amends D12): a
    CNJ search (a lawsuit's files, or an execution's) or a warrant search (its PDF)."""
    if enum_or_none(SearchType, search_type) is SearchType.LAWSUIT_CNJ:
        return True
    return enum_or_none(ResponseType, response_type) is ResponseType.WARRANT


def _check_with_attachments(with_attachments: bool | None, search: SearchBody) -> None:
    if with_attachments and not attachments_allowed(search.search_type, search.response_type):
        raise invalid_body(
            _(
                "with_attachments applies only to lawsuit_cnj and warrant searches, not to {search}"
            ).format(search=str(search.search_type))
        )


def _has_filter(params: SearchParams | None) -> bool:
    flt = params.filter if params is not None else None
    if flt is None:
        return False
    return any(value not in (None, [], {}) for value in flt.model_dump(exclude_none=True).values())


def _check_url(value: str | None) -> str | None:
    if value is not None and not re.match(r"^https?://[^\s/]+", value):
        raise invalid_body(_("callback_url must be an http:// or https:// address"))
    return value


class BodyModel(ApiModel):
    """A body the client sends."""

    def to_wire(self) -> dict[str, Any]:
        """The JSON body to send: None fields left out, secrets in clear."""
        return self.model_dump(mode="json", exclude_none=True, context=REVEAL_SECRETS)


class LookupBody(BodyModel):
    """POST /lawsuits (cached lookup): ``{search: {search_type, search_key}}``."""

    search: SearchBody


class SearchBody(BodyModel):
    search_type: Open[SearchType]
    search_key: str
    response_type: Open[ResponseType] | None = None
    cache_ttl_in_days: int | None = None
    should_search_branches: bool | None = None
    on_demand: bool | None = None
    search_name: str | None = None
    search_params: SearchParams | None = None

    @field_validator("search_key")
    @classmethod
    def _key_not_empty(cls, value: str, info: ValidationInfo) -> str:
        # D115: a custom search has no key (the filters are the search); it is sent empty.
        custom = enum_or_none(SearchType, info.data.get("search_type")) is SearchType.CUSTOM
        if not value.strip() and not custom:
            raise invalid_body(_("search_key must not be empty"))
        return value

    @field_validator("cache_ttl_in_days")
    @classmethod
    def _ttl_in_range(cls, value: int | None) -> int | None:
        _check_range(
            value,
            1,
            MAX_CACHE_TTL_DAYS,
            N_("cache_ttl_in_days must be between 1 and {high} days, not {value}"),
        )
        return value

    @model_validator(mode="after")
    def _compatible_types(self) -> SearchBody:
        problem = response_type_problem(self.search_type, self.response_type)
        if problem:
            raise invalid_body(problem)
        search = enum_or_none(SearchType, self.search_type)
        params = self.search_params
        if search in ATTACHMENT_SEARCHES and not (params and (params.attachment_id or "").strip()):
            # D115: the attachment to fetch is named in search_params (requests.json).
            raise invalid_body(
                _("a {search} search needs search_params.attachment_id").format(
                    search=str(self.search_type)
                )
            )
        if search is SearchType.CUSTOM and not _has_filter(params):
            raise invalid_body(_("a custom search needs at least one filter"))
        return self


class CreateRequestBody(BodyModel):
    """POST /requests."""

    search: SearchBody
    callback_url: str | None = None
    with_attachments: bool | None = None
    judit_ia: list[Open[ServiceIa]] | None = None  # D80: ["summary"] asks for the AI summary

    @field_validator("callback_url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        return _check_url(value)

    @model_validator(mode="after")
    def _attachments_for_lawsuits(self) -> CreateRequestBody:
        _check_with_attachments(self.with_attachments, self.search)
        return self


class PageParams(BodyModel):
    """Query of a paged list: page from 1, page_size within the endpoint's bounds (D21).

    The filters of the subclasses (D23) are our decision; the real service may ignore them.
    """

    min_page_size: ClassVar[int] = 1
    max_page_size: ClassVar[int] = MAX_PAGE_SIZE

    page: int = 1
    page_size: int = DEFAULT_PAGE_SIZE

    @field_validator("page")
    @classmethod
    def _page_from_one(cls, value: int) -> int:
        if value < 1:
            raise invalid_body(_("page must be at least 1, not {value}").format(value=value))
        return value

    @field_validator("page_size")
    @classmethod
    def _page_size_bounds(cls, value: int) -> int:
        _check_range(
            value,
            cls.min_page_size,
            cls.max_page_size,
            N_("page_size must be between {low} and {high}, not {value}"),
        )
        return value

    def to_query(self) -> dict[str, str]:
        """Query parameters: None left out, booleans as ``true``/``false``."""
        query: dict[str, str] = {}
        for key, value in self.to_wire().items():
            query[key] = ("true" if value else "false") if isinstance(value, bool) else str(value)
        return query


class RequestsPageParams(PageParams):
    """GET /requests (page_size 5..100, requests.json, D63) and its filters (D23)."""

    min_page_size: ClassVar[int] = 5
    max_page_size: ClassVar[int] = 100

    status: Open[RequestStatus] | None = None
    search_type: Open[SearchType] | None = None
    search_key: str | None = None
    origin: Open[Origin] | None = None
    origin_id: str | None = None
    created_at_gte: Timestamp | None = None
    include_deleted: bool | None = None


class ResponsesPageParams(PageParams):
    """GET /responses: page_size from 5; ``request_id`` names the request (D23, D24)."""

    min_page_size: ClassVar[int] = 5

    request_id: str | None = None
    origin_id: str | None = None
    response_type: Open[ResponseType] | None = None
    cached: bool | None = None
    created_at_gte: Timestamp | None = None


class TrackingResponsesParams(PageParams):
    """GET /responses/tracking/{origin_id} (D77): the window is required; page_size
    1..1000; the client sends no ``order`` (D76) and reads them oldest first."""

    created_at_gte: Timestamp
    created_at_lte: Timestamp


class TrackingsPageParams(PageParams):
    """GET /tracking: page_size from 5, filters status and search_key (D23); search_type
    and created_at_gte too (tracking.json), one value each (D76)."""

    min_page_size: ClassVar[int] = 5

    status: Open[TrackingStatus] | None = None
    search_key: str | None = None
    search_type: Open[SearchType] | None = None
    created_at_gte: Timestamp | None = None


class TrackedItemsPageParams(PageParams):
    """GET /tracked-item: page_size 5..1000 (D75: the OAS allows 10,000; the client keeps to
    the strictest bound), one value per filter (D76)."""

    min_page_size: ClassVar[int] = 5

    tracking_id: str | None = None
    tribunal_acronym: str | None = None
    lawsuit_status: str | None = None


class _TrackingFields(BodyModel):
    recurrence: int | None = None
    callback_url: str | None = None
    notification_emails: list[str] | None = None
    notification_filters: NotificationFilters | None = None
    with_attachments: bool | None = None
    tags: JsonObject | None = None
    fixed_time: bool | None = None
    hour_range: int | None = None
    execution_minute: int | None = None

    @field_validator("callback_url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        return _check_url(value)

    @field_validator("recurrence")
    @classmethod
    def _recurrence_positive(cls, value: int | None) -> int | None:
        _check_range(
            value,
            1,
            MAX_RECURRENCE_DAYS,
            N_("recurrence is a number of days from 1 to {high}, not {value}"),
        )
        return value

    @field_validator("notification_emails")
    @classmethod
    def _emails(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        bad = [email for email in value if not _EMAIL.match(email.strip())]
        if bad:
            raise invalid_body(
                _("not a valid e-mail address: {emails}").format(emails=", ".join(bad))
            )
        return [email.strip() for email in value]

    @field_validator("hour_range")
    @classmethod
    def _hour(cls, value: int | None) -> int | None:
        _check_range(value, 0, 23, N_("hour_range must be an hour from 0 to 23, not {value}"))
        return value

    @field_validator("execution_minute")
    @classmethod
    def _minute(cls, value: int | None) -> int | None:
        _check_range(
            value, 0, 59, N_("execution_minute must be a minute from 0 to 59, not {value}")
        )
        return value


class TrackingCreateBody(_TrackingFields):
    """POST /tracking (D27, D66): ``fixed_time`` is always sent (false unless asked)."""

    search: SearchBody
    fixed_time: bool | None = False

    @model_validator(mode="after")
    def _attachments_for_lawsuits(self) -> TrackingCreateBody:
        _check_with_attachments(self.with_attachments, self.search)
        return self


class TrackingPatchBody(_TrackingFields):
    """A change to a tracking: every field optional, only the given ones are sent."""


class TrackingBulkBody(BodyModel):
    """POST /tracking/bulk (D73): 1..1000 trackings, each a POST /tracking body."""

    trackings: list[TrackingCreateBody]

    @field_validator("trackings")
    @classmethod
    def _bounded(cls, value: list[TrackingCreateBody]) -> list[TrackingCreateBody]:
        if not 1 <= len(value) <= MAX_BULK_TRACKINGS:
            raise invalid_body(
                _("a bulk creation holds 1 to {high} trackings, not {n}").format(
                    high=MAX_BULK_TRACKINGS, n=len(value)
                )
            )
        return value


def _wildcard_when_blank(value: Any) -> Any:
    """A system name or customer key left blank means the wildcard ``*`` (D8, D83)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return WILDCARD_SYSTEM
    return value


class CredentialItem(Credential):
    """One credential to register: username and password, with the court's two-factor setup
    key in ``custom_data.secret`` when it asks for a code (D67). A blank customer_key means
    the default ``*`` (D8, D83). Certificates have their own body (:class:`CertificateBody`).
    """

    system_name: str
    customer_key: str = WILDCARD_SYSTEM

    @field_validator("system_name")
    @classmethod
    def _system_named(cls, value: str) -> str:
        if not value.strip():
            raise invalid_body(_("system_name must not be empty"))
        return value

    @field_validator("customer_key", mode="before")
    @classmethod
    def _default_key(cls, value: Any) -> Any:
        return _wildcard_when_blank(value)

    @model_validator(mode="after")
    def _complete_login(self) -> CredentialItem:
        has_login = bool(self.username and self.username.strip()) and bool(
            self.password and self.password.get_secret_value()
        )
        if not has_login:
            raise invalid_body(_("a credential needs a username and a password"))
        _check_two_factor(self.two_factor_secret)
        return self


def _check_two_factor(secret: SecretStr | None) -> None:
    # D67: the docs do not say the service checks it; a typo here locks the login for good.
    text = secret.get_secret_value() if secret is not None else ""
    if text and not is_base32_secret(text):
        raise invalid_body(_("the two-factor secret must be base32 (letters A-Z, digits 2-7)"))


class CertificateBody(BodyModel):
    """``POST {vault_url}/credentials/certificate`` (D67): an A1 certificate as Base64 on one
    line, its password, and optionally the system (default ``*``), the customer key (default
    ``*``) and the two-factor setup key in ``custom_data.secret``. The file is checked
    (:func:`~lawsuit_tui.domain.certificates.inspect_pkcs12`) before this body is built."""

    model_config = ConfigDict(hide_input_in_errors=True)

    file_base64: SecretStr
    password: SecretStr
    system_name: str = WILDCARD_SYSTEM
    customer_key: str = WILDCARD_SYSTEM
    custom_data: CredentialCustomData | None = None

    @field_serializer("file_base64", "password", when_used="always")
    def _dump_secret(self, value: SecretStr, info: SerializationInfo) -> str:
        return value.get_secret_value() if reveal_requested(info) else str(value)

    @field_validator("system_name", "customer_key", mode="before")
    @classmethod
    def _default_wildcard(cls, value: Any) -> Any:
        return _wildcard_when_blank(value)

    @field_validator("file_base64")
    @classmethod
    def _one_line(cls, value: SecretStr) -> SecretStr:
        text = value.get_secret_value()
        if not text or any(ch.isspace() for ch in text):
            raise invalid_body(_("the certificate must be Base64 on a single line"))
        return value

    @model_validator(mode="after")
    def _two_factor(self) -> CertificateBody:
        if not self.password.get_secret_value():
            raise invalid_body(_("an A1 certificate needs its password"))
        _check_two_factor(self.custom_data.secret if self.custom_data else None)
        return self


class CredentialEntry(BodyModel):
    """``{credential: {...}}``; the flat form (the credential's fields alone) is read too."""

    model_config = ConfigDict(hide_input_in_errors=True)

    credential: CredentialItem

    @model_validator(mode="before")
    @classmethod
    def _wrap_flat(cls, data: Any) -> Any:
        if isinstance(data, dict) and "credential" not in data and "system_name" in data:
            return {"credential": data}
        return data


class CredentialsRegistrationBody(BodyModel):
    """POST /credentials: ``{credentials: [{credential: {...}}]}``."""

    model_config = ConfigDict(hide_input_in_errors=True)

    credentials: list[CredentialEntry]

    @field_validator("credentials")
    @classmethod
    def _at_least_one(cls, value: list[CredentialEntry]) -> list[CredentialEntry]:
        if not value:
            raise invalid_body(_("register at least one credential"))
        return value

    @classmethod
    def of(cls, *items: CredentialItem) -> CredentialsRegistrationBody:
        return cls(credentials=[CredentialEntry(credential=item) for item in items])


class CredentialDeleteBody(BodyModel):
    system_name: str
    customer_key: str

    @field_validator("system_name", "customer_key")
    @classmethod
    def _not_blank(cls, value: str, info: ValidationInfo) -> str:
        if not value.strip():
            raise invalid_body(_("{field} must not be empty").format(field=info.field_name))
        return value


_COUNT_FIELDS = (
    "kind",
    "tribunals",
    "amount_min",
    "amount_max",
    "amount_tier",
    "budget_years",
    "natures",
    "tags",
    "responses_limit",
)

# Fields allowed for one kind only, with that kind.
_KIND_ONLY = (
    ("budget_years", CountKind.JUDGEMENT_BOND),
    ("natures", CountKind.JUDGEMENT_BOND),
    ("tags", CountKind.SENTENCE_EXECUTION),
)


# List fields: integers (None) or values of an enum.
_LIST_FIELDS: dict[str, type[StrEnum] | None] = {
    "tribunals": None,
    "budget_years": None,
    "natures": Nature,
    "tags": CountTag,
}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_amount(value: object) -> TypeGuard[int | float]:
    """A JSON number: not a bool, and finite (NaN, infinities and ints beyond a double are not)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        # int and float compare exactly: this never overflows as float(value) would.
        return -sys.float_info.max <= value <= sys.float_info.max
    return isinstance(value, float) and math.isfinite(value)


def _is_choice(value: object, enum_cls: type[StrEnum]) -> bool:
    # isinstance first: an array or object is unhashable and must not reach the lookup.
    return isinstance(value, str) and value in enum_cls._value2member_map_


def _choices(enum_cls: type[StrEnum]) -> str:
    return ", ".join(member.value for member in enum_cls)


def _list_problems(data: dict[Any, Any], names: tuple[str, ...], translate: Translate) -> list[str]:
    found: list[str] = []
    for name in names:
        value, enum_cls = data.get(name), _LIST_FIELDS[name]
        if value is None or (
            isinstance(value, list)
            and all(_is_int(v) if enum_cls is None else _is_choice(v, enum_cls) for v in value)
        ):
            continue
        if enum_cls is None:
            found.append(translate(N_("{field} must be a list of integers")).format(field=name))
        else:
            found.append(
                translate(N_("{field} must be a list of values among: {choices}")).format(
                    field=name, choices=_choices(enum_cls)
                )
            )
    return found


class CountBody(BodyModel):
    """The Miner's filter (``RequestLawsuitsFiltersBody``), for ``POST /requests/count`` and
    ``POST /requests/create``. Strict: unknown fields are refused, every rule is checked.

    ``responses_limit`` caps the lawsuits a find request materializes (D72, miner.yaml); it
    has no effect on a count, so :meth:`to_wire` (the count's body) leaves it out and
    :meth:`to_find_wire` (the find's) sends it.
    """

    model_config = ConfigDict(extra="forbid")

    kind: CountKind
    tribunals: list[int] | None = None
    amount_min: Number | None = None
    amount_max: Number | None = None
    amount_tier: AmountTier | None = None
    budget_years: list[int] | None = None
    natures: list[Nature] | None = None
    tags: list[CountTag] | None = None
    responses_limit: int | None = Field(
        default=None, description="cap on the lawsuits a find request includes (>= 1)"
    )

    @classmethod
    def problems(cls, data: object, *, translate: Translate = _) -> list[str]:
        """Every problem of a count body; empty when it is valid. Never raises.

        Unknown fields come first (in the body's order), then the rules in field order.
        ``translate`` renders each message: the default translates it for the person at the
        keyboard; ``translate=str`` keeps it in English (what the service, and so the sandbox,
        answers whatever the UI language).
        """
        if isinstance(data, CountBody):
            return []
        if not isinstance(data, dict):
            return [translate(N_("the count body must be a JSON object"))]
        found = [
            translate(N_("unknown field: {field}")).format(field=key)
            for key in data
            if key not in _COUNT_FIELDS
        ]
        kind = data.get("kind")
        if kind is None:
            found.append(translate(N_("kind is required")))
        elif not _is_choice(kind, CountKind):
            found.append(
                translate(N_("kind must be one of: {choices}")).format(choices=_choices(CountKind))
            )
        found.extend(_list_problems(data, ("tribunals",), translate))
        low, high = data.get("amount_min"), data.get("amount_max")
        for name, value in (("amount_min", low), ("amount_max", high)):
            if value is not None and not _is_amount(value):
                found.append(translate(N_("{field} must be a number")).format(field=name))
        tier = data.get("amount_tier")
        if tier is not None and not _is_choice(tier, AmountTier):
            found.append(
                translate(N_("amount_tier must be one of: {choices}")).format(
                    choices=_choices(AmountTier)
                )
            )
        if tier is not None and (low is not None or high is not None):
            found.append(
                translate(N_("amount_min and amount_max cannot be combined with amount_tier"))
            )
        if _is_amount(low) and _is_amount(high) and low > high:
            found.append(
                translate(
                    N_("amount_min ({low}) must not be greater than amount_max ({high})")
                ).format(low=format_money(low), high=format_money(high))
            )
        found.extend(_list_problems(data, ("budget_years", "natures", "tags"), translate))
        for name, only_for in _KIND_ONLY:
            if data.get(name) is not None and _is_choice(kind, CountKind) and kind != only_for:
                found.append(
                    translate(N_("{field} is only allowed for kind {kind}")).format(
                        field=name, kind=only_for.value
                    )
                )
        limit = data.get("responses_limit")
        if limit is not None and not (_is_int(limit) and limit >= 1):
            found.append(translate(N_("responses_limit must be a whole number of at least 1")))
        return found

    @model_validator(mode="before")
    @classmethod
    def _all_problems_at_once(cls, data: Any) -> Any:
        problems = cls.problems(data)
        if problems:
            raise PydanticCustomError(
                "count_body",
                "{summary}",
                {"summary": "; ".join(problems), "problems": problems},
            )
        return data

    def to_wire(self) -> dict[str, Any]:
        """The count's body: the cap means nothing to a count (concepts page), so it stays."""
        wire = super().to_wire()
        wire.pop("responses_limit", None)
        return wire

    def to_find_wire(self) -> dict[str, Any]:
        """The find request's body, with ``responses_limit`` when set."""
        return super().to_wire()

"""One exception hierarchy for every way a call to the service can fail.

This module must stay importable without httpx (the UI reaches it through services/ and
never imports httpx), so it only knows statuses, headers as a mapping and body bytes.

An ``application_error`` *response* is not here: it is a valid result of a query (HTTP 200)
and comes back as data. Everything here is a failed call.
"""

from __future__ import annotations

import email.utils
import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from http import HTTPStatus

from lawsuit_tui.domain.errors import ValidationItem, parse_error_body
from lawsuit_tui.i18n import _

__all__ = [
    "ApiError",
    "BadRequest",
    "Conflict",
    "CourtUnavailable",
    "Forbidden",
    "Maintenance",
    "MalformedResponse",
    "NotFound",
    "OperationNotAvailable",
    "PayloadTooLarge",
    "RateLimited",
    "ServerError",
    "TransportFailure",
    "Unauthorized",
    "Unprocessable",
    "error_from_response",
    "parse_rate_reset",
    "parse_retry_after",
]

_EXCERPT = 200

# Error names that say which resource was not found: a 404 carrying one of them is about the
# resource, not about the route (see OperationNotAvailable, D16).
_RESOURCE_NAMES = frozenset(
    {
        "REQUEST_NOT_FOUND",
        "TRACKING_NOT_FOUND",
        "RESOURCE_NOT_FOUND",
        "CREDENTIAL_NOT_FOUND",
        "ATTACHMENT_NOT_FOUND",
        "LAWSUIT_NOT_FOUND",
        "HttpNotFoundError",
    }
)


def _names_the_status(text: str) -> bool:
    """Whether ``text`` is only the service's name of an HTTP status (``HttpNotFoundError``,
    ``UNPROCESSABLE_ENTITY``), not a reason of its own."""
    return text in _STATUS_NAMES


# HTTPStatus's names (``BAD_REQUEST``) and the service's error names built from its phrases
# (``Http`` + ``Unprocessable Entity`` + ``Error``).
_STATUS_NAMES = frozenset(
    name
    for status in HTTPStatus
    for name in (status.name, "Http" + "".join(status.phrase.title().split()) + "Error")
)


class ApiError(Exception):
    """A call the service (or the network) did not carry out.

    ``status`` is the HTTP status (None when no answer arrived); ``name``, ``message`` and
    ``code`` come from whichever of the three error shapes the body had; ``items`` are the
    validation items of a 400; ``messages`` any other texts; ``body_excerpt`` the start of
    the body as received (never more than 200 characters).
    """

    default_status: int | None = None

    def __init__(
        self,
        status: int | None = None,
        *,
        name: str | None = None,
        message: str | None = None,
        code: str | int | None = None,
        items: Sequence[ValidationItem] = (),
        messages: Sequence[str] = (),
        body_excerpt: str = "",
        retry_after: float | None = None,
        route: str | None = None,
    ) -> None:
        self.status = self.default_status if status is None else status
        self.name = name
        self.message = message
        self.code = code
        self.items = list(items)
        self.messages = list(messages)
        self.body_excerpt = body_excerpt
        self.retry_after = retry_after
        self.route = route
        super().__init__(self.summary)

    @property
    def title(self) -> str:
        """What kind of failure this is, for a person."""
        return _("The service answered with an error")

    @property
    def detail(self) -> str:
        """The most specific text the answer carried. The service's names of the HTTP status
        itself (``HttpBadRequestError``, ``BAD_REQUEST``) are left out when something more
        specific was said: the title already says the status in words."""
        parts: list[str] = []
        specific = bool(self.items or self.messages)
        if self.message and not (specific and _names_the_status(self.message)):
            parts.append(self.message)
        if (
            self.name
            and self.name != self.message
            and not (specific and _names_the_status(self.name))
        ):
            parts.append(self.name)
        if self.code is not None and str(self.code) not in parts:
            parts.append(str(self.code))
        parts.extend(self.messages)
        for item in self.items:
            text = item.message or item.rule or ""
            parts.append(f"{item.field}: {text}" if item.field else text)
        if not parts and self.body_excerpt:
            parts.append(repr(self.body_excerpt))
        return "; ".join(part for part in parts if part)

    @property
    def summary(self) -> str:
        """One line: kind, status and the service's own words."""
        head = self.title if self.status is None else f"{self.title} (HTTP {self.status})"
        detail = self.detail
        return f"{head}: {detail}" if detail else head

    def __str__(self) -> str:
        return self.summary


class BadRequest(ApiError):
    default_status = 400

    @property
    def title(self) -> str:
        return _("The service refused the request as invalid")


class Unauthorized(ApiError):
    default_status = 401

    @property
    def title(self) -> str:
        return _("The API key was not accepted (missing, invalid or expired)")


class Forbidden(ApiError):
    default_status = 403

    @property
    def title(self) -> str:
        return _("The API key has no permission for this")


class NotFound(ApiError):
    default_status = 404

    @property
    def title(self) -> str:
        return _("Not found")


class Conflict(ApiError):
    default_status = 409

    @property
    def title(self) -> str:
        return _("Conflict with what the service already holds")


class PayloadTooLarge(ApiError):
    default_status = 413

    @property
    def title(self) -> str:
        return _("The request body is too large")


class Unprocessable(ApiError):
    default_status = 422

    @property
    def title(self) -> str:
        return _("The service could not process this")


class RateLimited(ApiError):
    default_status = 429

    @property
    def title(self) -> str:
        return _("Rate limit exceeded")


class ServerError(ApiError):
    default_status = 500

    @property
    def title(self) -> str:
        return _("The service failed")


class CourtUnavailable(ServerError):
    """502 or 504: the court is down or too slow (common in the synchronous lookup)."""

    default_status = 502

    @property
    def title(self) -> str:
        return _("The court is unavailable or did not answer in time")


class Maintenance(ServerError):
    default_status = 503

    @property
    def title(self) -> str:
        return _("The service is under maintenance")


class OperationNotAvailable(ApiError):
    """The service does not offer this optional operation (404/405 not naming a resource)."""

    default_status = 404

    @property
    def title(self) -> str:
        return _("This operation is not available on this service")


class MalformedResponse(ApiError):
    """A success status whose body is not what the interface promises (bad JSON, wrong shape)."""

    default_status = 200

    @property
    def title(self) -> str:
        return _("The service sent an answer that cannot be read")


class TransportFailure(ApiError):
    """No usable answer: connection refused, time-out, connection dropped."""

    default_status = None

    def __init__(self, message: str, *, timed_out: bool = False, sent: bool = True) -> None:
        self.timed_out = timed_out
        # False when the request certainly never left (connection never opened).
        self.sent = sent
        super().__init__(None, message=message)

    @property
    def title(self) -> str:
        return _("Could not reach the service")


_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    422: Unprocessable,
    429: RateLimited,
    500: ServerError,
    502: CourtUnavailable,
    503: Maintenance,
    504: CourtUnavailable,
}


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After value: delta seconds or an HTTP date."""
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    current = now or datetime.now(UTC)
    return max(0.0, (when - current).total_seconds())


def parse_rate_reset(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds until an X-RateLimit-Reset (format not stated, D26): epoch seconds, delta
    seconds (a value below 10^9) or an HTTP date."""
    if value is None or not value.strip():
        return None
    current = now or datetime.now(UTC)
    try:
        number = float(value.strip())
    except ValueError:
        return parse_retry_after(value, now=current)
    if number < 1e9:
        return max(0.0, number)
    return max(0.0, number - current.timestamp())


def _excerpt(body: bytes) -> str:
    text = body[: _EXCERPT * 4].decode("utf-8", errors="replace").strip()
    text = " ".join(text.split())
    return text[:_EXCERPT]


def _json_or_text(body: bytes) -> object:
    try:
        return json.loads(body)
    except ValueError:
        return body.decode("utf-8", errors="replace")


def error_from_response(
    status: int,
    body: bytes,
    headers: Mapping[str, str] | None = None,
    *,
    optional_route: bool = False,
    route: str | None = None,
) -> ApiError:
    """The exception for an error answer, whatever the shape of its body.

    ``optional_route``: the route is one the spec does not show (D16, D23, D28, D34, D41);
    a 405, or a 404 whose body names no resource, means the service lacks the route.
    """
    head = headers or {}
    parsed = _json_or_text(body)
    info = parse_error_body(status, parsed)
    excerpt = _excerpt(body)
    is_json = not isinstance(parsed, str)
    message = info.message
    if not is_json:
        # Not JSON at all (an HTML gateway page, a truncated body): quote its start.
        message = None
    retry_after = parse_retry_after(_header(head, "retry-after"))
    if retry_after is None and status == 429:
        retry_after = parse_rate_reset(_header(head, "x-ratelimit-reset"))
    if optional_route and (status == 405 or (status == 404 and not _names_resource(info))):
        cls: type[ApiError] = OperationNotAvailable
    elif status in _BY_STATUS:
        cls = _BY_STATUS[status]
    elif 500 <= status < 600:
        cls = ServerError
    else:
        cls = ApiError
    messages = list(info.messages)
    if not is_json and excerpt:
        messages = [_("answer starts with {excerpt!r}").format(excerpt=excerpt)]
    return cls(
        status,
        name=info.name,
        message=message,
        code=info.code,
        items=info.items,
        messages=messages,
        body_excerpt=excerpt,
        retry_after=retry_after,
        route=route,
    )


def _names_resource(info: object) -> bool:
    name = getattr(info, "name", None)
    code = getattr(info, "code", None)
    message = getattr(info, "message", None)
    for value in (name, code, message):
        if isinstance(value, str) and (value in _RESOURCE_NAMES or value.endswith("_NOT_FOUND")):
            return True
    return False


def _header(headers: Mapping[str, str], name: str) -> str | None:
    value = headers.get(name)
    if value is None:
        for key, candidate in headers.items():
            if key.lower() == name:
                return candidate
    return value

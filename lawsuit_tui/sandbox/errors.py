"""Error answers of the sandbox, in the three shapes of D9, and the handlers that send them.

- :class:`ServiceError`: the transport shape ``{error: {name, message, data}}``.
- :class:`FlatServiceError`: the flat shape ``{error, message, code}`` (403 and 429).
- :class:`CountErrors`: ``{errors: [...]}`` (every 400 of the count service).

:func:`install_error_handlers` also maps what FastAPI and Starlette raise on their own, so that
their defaults (422 ``detail`` lists, ``{"detail": "Not Found"}``) never leak: a request that
fails validation gets 400 with every failed rule as ``{field, rule, message}``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

__all__ = [
    "STATUS_NAMES",
    "STATUS_WORDS",
    "CountErrors",
    "FlatServiceError",
    "ServiceError",
    "install_error_handlers",
    "transport_body",
    "validation_items",
]

log = logging.getLogger(__name__)

# D9: ``message`` is the status word of the spec's table.
STATUS_WORDS: dict[int, str] = {
    400: "BAD_REQUEST",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    409: "CONFLICT",
    413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    422: "UNPROCESSABLE_ENTITY",
    429: "TOO_MANY_REQUESTS",
    500: "INTERNAL_SERVER_ERROR",
    502: "BAD_GATEWAY",
    503: "SERVICE_UNAVAILABLE",
    504: "GATEWAY_TIMEOUT",
}

# D9: ``name`` when no more specific internal name applies.
STATUS_NAMES: dict[int, str] = {
    400: "HttpBadRequestError",
    401: "HttpUnauthorizedError",
    403: "HttpForbiddenError",
    404: "HttpNotFoundError",
    405: "HttpMethodNotAllowedError",
    409: "HttpConflictError",
    413: "HttpPayloadTooLargeError",
    415: "HttpUnsupportedMediaTypeError",
    422: "HttpUnprocessableEntityError",
    429: "HttpTooManyRequestsError",
    500: "HttpInternalServerError",
    502: "HttpBadGatewayError",
    503: "HttpServiceUnavailableError",
    504: "HttpGatewayTimeoutError",
}

ValidationItem = dict[str, str]


def transport_body(
    status: int, data: Sequence[ValidationItem] | str | Mapping[str, Any], name: str | None = None
) -> dict[str, Any]:
    """The transport-shape body (D9) for ``status``."""
    data_value: Any = list(data) if isinstance(data, list | tuple) else data
    return {
        "error": {
            "name": name or STATUS_NAMES.get(status, "HttpError"),
            "message": STATUS_WORDS.get(status, "ERROR"),
            "data": data_value,
        }
    }


class ServiceError(Exception):
    """An error answered in the transport shape ``{error: {name, message, data}}`` (D9)."""

    def __init__(
        self,
        status: int,
        data: Sequence[ValidationItem] | str = "",
        *,
        name: str | None = None,
        message: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {name or ''}: {data}")
        self.status = status
        self.name = name or STATUS_NAMES.get(status, "HttpError")
        self.message = message or STATUS_WORDS.get(status, "ERROR")
        self.data: list[ValidationItem] | str = list(data) if not isinstance(data, str) else data
        self.headers = dict(headers or {})

    def body(self) -> dict[str, Any]:
        return {"error": {"name": self.name, "message": self.message, "data": self.data}}

    def response(self) -> JSONResponse:
        return JSONResponse(self.body(), status_code=self.status, headers=self.headers)

    @classmethod
    def bad_request(cls, items: Sequence[ValidationItem]) -> ServiceError:
        return cls(400, list(items), name="HttpBadRequestError")

    @classmethod
    def invalid(cls, field: str, rule: str, message: str) -> ServiceError:
        return cls.bad_request([{"field": field, "rule": rule, "message": message}])

    @classmethod
    def not_found(cls, name: str, message: str) -> ServiceError:
        return cls(404, message, name=name)


class FlatServiceError(Exception):
    """An error answered in the flat shape ``{error, message, code}`` (D9: 403 and 429)."""

    def __init__(
        self,
        status: int,
        error: str,
        message: str,
        code: str,
        *,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.error = error
        self.message = message
        self.code = code
        self.headers = dict(headers or {})

    def body(self) -> dict[str, Any]:
        return {"error": self.error, "message": self.message, "code": self.code}

    def response(self) -> JSONResponse:
        return JSONResponse(self.body(), status_code=self.status, headers=self.headers)

    @classmethod
    def forbidden(cls, code: str, message: str) -> FlatServiceError:
        return cls(403, "FORBIDDEN", message, code)


class CountErrors(Exception):
    """A 400 of the count service: ``{errors: [...]}`` naming every problem (D9, D38)."""

    def __init__(self, errors: Sequence[str], status: int = 400) -> None:
        super().__init__("; ".join(errors))
        self.errors = list(errors)
        self.status = status

    def body(self) -> dict[str, Any]:
        return {"errors": self.errors}

    def response(self) -> JSONResponse:
        return JSONResponse(self.body(), status_code=self.status)


def _field_of(loc: Sequence[Any]) -> str:
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("body", "query", "path", "header", "cookie"):
        parts = parts[1:]
    return ".".join(parts) or "body"


def validation_items(errors: Sequence[Mapping[str, Any]]) -> list[ValidationItem]:
    """FastAPI/pydantic errors as the spec's ``{field, rule, message}`` items, one per rule."""
    items: list[ValidationItem] = []
    for error in errors:
        rule = str(error.get("type", "invalid"))
        field = _field_of(error.get("loc", ()))
        if rule == "json_invalid":
            field = "body"
        items.append({"field": field, "rule": rule, "message": str(error.get("msg", rule))})
    return items


def _is_count_route(request: Request) -> bool:
    return request.url.path.startswith("/miner/")


async def _on_service_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServiceError)
    return exc.response()


async def _on_flat_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, FlatServiceError)
    return exc.response()


async def _on_count_errors(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, CountErrors)
    return exc.response()


async def _on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    items = validation_items(exc.errors())
    if _is_count_route(request):  # D9: the count service answers {errors: [...]}
        return CountErrors([f"{i['field']}: {i['message']}" for i in items]).response()
    return ServiceError.bad_request(items).response()


async def _on_http_exception(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    status = exc.status_code
    if status == 422:  # FastAPI's own 422 is a validation failure: ours is 400 (D9)
        status = 400
    detail = exc.detail if isinstance(exc.detail, str) else STATUS_WORDS.get(status, "")
    if status == 404:
        detail = f"No route {request.method} {request.url.path}"
    body = transport_body(status, detail)
    return JSONResponse(body, status_code=status, headers=dict(exc.headers or {}))


async def _on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception("sandbox: unexpected failure on %s %s", request.method, request.url.path)
    return JSONResponse(transport_body(500, "unexpected failure in the sandbox"), status_code=500)


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error in the service's shapes (D9); never FastAPI's 422 nor a bare 500."""
    app.add_exception_handler(ServiceError, _on_service_error)
    app.add_exception_handler(FlatServiceError, _on_flat_error)
    app.add_exception_handler(CountErrors, _on_count_errors)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(StarletteHTTPException, _on_http_exception)
    app.add_exception_handler(Exception, _on_unexpected)

"""Error answers of the sandbox, in the shapes the provider documents (D64), and the handlers
that send them.

Every route raises one of two exceptions and this module decides the body:

- :class:`ServiceError`: the transport shape ``{error: {name, message, data}}`` of the OAS,
  ``data`` typed by status (D64): 400 an array of ``"<field path>: <message>"`` strings (every
  failed rule), 401/403/405/413/415/422 a string, 404/409 an object (a 404 names the id it
  did not find), 5xx ``{message}``.
- :class:`FlatServiceError`: a refusal by code. A 403 is rendered in the transport shape
  with ``name`` = the code (``INSUFFICIENT_PERMISSIONS``, ``SECRECY_RESTRICTED``...); a 429 is
  the rate-limits page's flat ``{error, message, code: 429}`` with ``Retry-After``.
- :class:`CountErrors`: ``{errors: [string]}``, the Miner's one shape. Every error of a Miner
  route is rendered so, whichever exception was raised (D64: the Miner keeps it for every
  error).

:func:`install_error_handlers` also maps what FastAPI and Starlette raise on their own, so that
their defaults (422 ``detail`` lists, ``{"detail": "Not Found"}``, a 405 whose ``Allow`` names
one route only) never leak.

Example, a route refusing an unknown id and a bad field::

    raise ServiceError.not_found("REQUEST_NOT_FOUND", f"request {rid} not found", request_id=rid)
    raise ServiceError.invalid("search.search_type", "enum", "not a search type")
    raise ServiceError.unusable("search.search_key", "not a valid CPF")
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match

__all__ = [
    "RATE_LIMIT_BODY",
    "STATUS_NAMES",
    "STATUS_WORDS",
    "CountErrors",
    "FlatServiceError",
    "ServiceError",
    "error_body_for",
    "install_error_handlers",
    "transport_body",
    "validation_items",
]

log = logging.getLogger(__name__)

# D64: ``message`` is the status word of the OAS error schemas.
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

# D64: ``name`` when no more specific internal name applies.
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

# D64: the rate-limits page's body, word for word.
RATE_LIMIT_BODY: dict[str, Any] = {
    "error": "Too Many Requests",
    "message": "Rate limit exceeded. Try again in a few seconds.",
    "code": 429,
}

ValidationItem = Mapping[str, str]
ErrorData = Sequence[ValidationItem | str] | str | Mapping[str, Any]

# Paths of the Miner: every error is ``{errors: [string]}`` there (D64).
_MINER_PREFIX = "/miner/"


def _item_text(item: ValidationItem | str) -> str:
    if isinstance(item, str):
        return item
    field = str(item.get("field") or "")
    message = str(item.get("message") or item.get("rule") or "invalid")
    return f"{field}: {message}" if field else message


def _data_for(status: int, data: ErrorData) -> list[str] | str | dict[str, Any]:
    """``data`` in the form the OAS gives for ``status`` (D64)."""
    if status == 400:
        if isinstance(data, str):
            return [data] if data else []
        if isinstance(data, Mapping):
            return [f"{k}: {v}" for k, v in data.items()]
        return [_item_text(item) for item in data]
    if status in (404, 409) or status >= 500:
        if isinstance(data, Mapping):
            return dict(data)
        text = data if isinstance(data, str) else "; ".join(_item_text(i) for i in data)
        return {"message": text} if text else {}
    if isinstance(data, str):
        return data
    if isinstance(data, Mapping):
        return str(data.get("message") or "; ".join(f"{k}: {v}" for k, v in data.items()))
    return "; ".join(_item_text(item) for item in data)


def transport_body(status: int, data: ErrorData, name: str | None = None) -> dict[str, Any]:
    """The transport-shape body (D64) for ``status``."""
    return {
        "error": {
            "name": name or STATUS_NAMES.get(status, "HttpError"),
            "message": STATUS_WORDS.get(status, "ERROR"),
            "data": _data_for(status, data),
        }
    }


def _miner_lines(name: str, data: list[str] | str | dict[str, Any]) -> list[str]:
    if isinstance(data, list):
        return data or [name]
    text = data if isinstance(data, str) else str(data.get("message") or "")
    return [f"{name}: {text}" if text else name]


def error_body_for(path: str, status: int, data: ErrorData, name: str | None = None) -> Any:
    """The body of an error answered on ``path``: the Miner's ``{errors}``, else transport."""
    body = transport_body(status, data, name)
    if path.startswith(_MINER_PREFIX):
        error = body["error"]
        return {"errors": _miner_lines(error["name"], error["data"])}
    return body


class ServiceError(Exception):
    """An error answered in the transport shape ``{error: {name, message, data}}`` (D64).

    ``data`` may be given in any form (validation items ``{field, rule, message}``, strings,
    a sentence, an object); the body puts it in the form of its status."""

    def __init__(
        self,
        status: int,
        data: ErrorData = "",
        *,
        name: str | None = None,
        message: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {name or ''}: {data}")
        self.status = status
        self.name = name or STATUS_NAMES.get(status, "HttpError")
        self.message = message or STATUS_WORDS.get(status, "ERROR")
        self.data = _data_for(status, data)
        self.headers = dict(headers or {})

    def body(self, path: str = "") -> Any:
        if path.startswith(_MINER_PREFIX):
            return {"errors": _miner_lines(self.name, self.data)}
        return {"error": {"name": self.name, "message": self.message, "data": self.data}}

    def response(self, path: str = "") -> JSONResponse:
        return JSONResponse(self.body(path), status_code=self.status, headers=self.headers)

    @classmethod
    def bad_request(cls, items: Sequence[ValidationItem | str]) -> ServiceError:
        return cls(400, list(items), name="HttpBadRequestError")

    @classmethod
    def invalid(cls, field: str, rule: str, message: str) -> ServiceError:
        return cls.bad_request([{"field": field, "rule": rule, "message": message}])

    @classmethod
    def unusable(cls, field: str, message: str) -> ServiceError:
        """D94: a value the documented schema allows but the service cannot use (a CPF with
        wrong check digits, an unknown court system): 422, ``data`` naming the field."""
        return cls(422, f"{field}: {message}", name="HttpUnprocessableEntityError")

    @classmethod
    def unprocessable(cls, items: Sequence[ValidationItem | str]) -> ServiceError:
        """As :meth:`unusable`, for several fields at once (``data`` joins them)."""
        return cls(422, list(items), name="HttpUnprocessableEntityError")

    @classmethod
    def not_found(cls, name: str, message: str, **ids: str) -> ServiceError:
        """404 naming what was not found: ``data`` = ``{<id field>: <id>, message}``."""
        return cls(404, {**ids, "message": message}, name=name)

    @classmethod
    def conflict(cls, name: str, data: Mapping[str, Any]) -> ServiceError:
        return cls(409, data, name=name)


class FlatServiceError(Exception):
    """A refusal by code: 403 (transport shape, ``name`` = the code) or 429 (the rate-limits
    page's flat body); any other status keeps the flat ``{error, message, code}``."""

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

    def body(self, path: str = "") -> Any:
        if self.status == 429 and not path.startswith(_MINER_PREFIX):
            return dict(RATE_LIMIT_BODY)
        if self.status == 403 or path.startswith(_MINER_PREFIX):
            return error_body_for(path, self.status, self.message, self.code)
        return {"error": self.error, "message": self.message, "code": self.code}

    def response(self, path: str = "") -> JSONResponse:
        return JSONResponse(self.body(path), status_code=self.status, headers=self.headers)

    @classmethod
    def forbidden(cls, code: str, message: str) -> FlatServiceError:
        return cls(403, "FORBIDDEN", message, code)


class CountErrors(Exception):
    """An error of the Miner: ``{errors: [...]}`` naming every problem (D64, D72)."""

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


def validation_items(errors: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """FastAPI/pydantic errors as ``{field, rule, message}`` items, one per rule."""
    items: list[dict[str, str]] = []
    for error in errors:
        rule = str(error.get("type", "invalid"))
        field = _field_of(error.get("loc", ()))
        if rule == "json_invalid":
            field = "body"
        items.append({"field": field, "rule": rule, "message": str(error.get("msg", rule))})
    return items


async def _on_service_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServiceError)
    return exc.response(request.url.path)


async def _on_flat_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, FlatServiceError)
    return exc.response(request.url.path)


async def _on_count_errors(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, CountErrors)
    return exc.response()


async def _on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    items = validation_items(exc.errors())
    return ServiceError.bad_request(items).response(request.url.path)


def _leaf_routes(routes: Iterable[BaseRoute]) -> Iterator[BaseRoute]:
    for route in routes:
        # FastAPI wraps an included router; its own routes carry the full paths.
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from _leaf_routes(inner.routes)
        else:
            yield route


def allowed_methods(request: Request) -> list[str]:
    """Every method some route of the app answers on this path (for a 405's ``Allow``)."""
    methods: set[str] = set()
    scope = {**request.scope, "method": "GET"}
    for route in _leaf_routes(request.app.router.routes):
        match, _scope = route.matches(scope)
        route_methods = getattr(route, "methods", None)
        if match is not Match.NONE and route_methods:
            methods.update(route_methods)
    return sorted(methods)


async def _on_http_exception(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    status = exc.status_code
    if status == 422:  # FastAPI's own 422 is a validation failure: ours is 400 (D64)
        status = 400
    headers = dict(exc.headers or {})
    data: ErrorData = exc.detail if isinstance(exc.detail, str) else STATUS_WORDS.get(status, "")
    if status == 404:
        data = {"method": request.method, "path": request.url.path, "message": "no such route"}
    elif status == 405:
        # D89: Starlette names the methods of the first route matching the path only; a path
        # served by several routes (GET and POST /requests) allows all of theirs.
        headers["Allow"] = ", ".join(allowed_methods(request))
    body = error_body_for(request.url.path, status, data)
    return JSONResponse(body, status_code=status, headers=headers)


async def _on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception("sandbox: unexpected failure on %s %s", request.method, request.url.path)
    body = error_body_for(request.url.path, 500, {"message": "unexpected failure in the sandbox"})
    return JSONResponse(body, status_code=500)


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error in the documented shapes (D64); never FastAPI's 422 nor a bare 500."""
    app.add_exception_handler(ServiceError, _on_service_error)
    app.add_exception_handler(FlatServiceError, _on_flat_error)
    app.add_exception_handler(CountErrors, _on_count_errors)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(StarletteHTTPException, _on_http_exception)
    app.add_exception_handler(Exception, _on_unexpected)

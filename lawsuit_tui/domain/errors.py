"""Error bodies of the service, in their three shapes, and one parser for all of them.

- transport: ``{error: {name, message, data}}``, data being (D64) an array of strings
  ``"<field path>: <message>"`` (400), a string (401, 403, 422), an object (404 naming the id,
  409, 5xx ``{message}``), or, from older services, validation items ``{field, rule, message}``;
- flat: ``{error, message, code}`` (the 429 of the rate-limits page, ``code`` an integer; some
  older 401 and 403 answers);
- list: ``{errors: [string]}`` (the Miner), a string possibly led by its code
  (``"INSUFFICIENT_CREDITS: ..."``).

:func:`parse_error_body` turns any of them, or anything else at all (text, None, a list),
into one :class:`ServiceErrorInfo` without raising.
"""

from __future__ import annotations

import dataclasses
import json
import re

from lawsuit_tui.domain.base import ApiModel

__all__ = [
    "ErrorDataMessage",
    "ErrorListBody",
    "FlatErrorBody",
    "ServiceErrorInfo",
    "TransportError",
    "TransportErrorBody",
    "ValidationItem",
    "parse_error_body",
]

_MAX_TEXT = 500

# "search.search_key: not a valid CPF", "credentials[0].password: required" (D64): a field
# path starts lower case; a leading upper-case word is a code ("INSUFFICIENT_CREDITS: ...").
_FIELD_TEXT = re.compile(r"^([a-z_][\w]*(?:\[\d+\]|\.[\w]+)*): (.+)$", re.DOTALL)
_CODE_TEXT = re.compile(r"^([A-Z][A-Z0-9_]{2,})(?::|$)")


class ValidationItem(ApiModel):
    field: str | None = None
    rule: str | None = None
    message: str | None = None


class ErrorDataMessage(ApiModel):
    message: str | None = None


class TransportError(ApiModel):
    name: str | None = None
    message: str | None = None
    data: list[ValidationItem | str] | str | ErrorDataMessage | None = None


class TransportErrorBody(ApiModel):
    error: TransportError


class FlatErrorBody(ApiModel):
    error: str | None = None
    message: str | None = None
    code: str | int | None = None


class ErrorListBody(ApiModel):
    errors: list[str]


@dataclasses.dataclass(frozen=True)
class ServiceErrorInfo:
    """What an error answer says, whatever its shape. ``raw`` is the body as received."""

    status: int
    name: str | None = None
    message: str | None = None
    code: str | int | None = None
    items: list[ValidationItem] = dataclasses.field(default_factory=list)
    messages: list[str] = dataclasses.field(default_factory=list)
    raw: object = None

    @property
    def summary(self) -> str:
        """One line for a person: the most specific text the body carries."""
        parts: list[str] = []
        if self.message:
            parts.append(self.message)
        elif self.name:
            parts.append(self.name)
        parts.extend(self.messages)
        parts.extend(_item_text(item) for item in self.items)
        if not parts:
            parts.append(f"HTTP {self.status}")
        return "; ".join(parts)


def _item_text(item: ValidationItem) -> str:
    text = item.message or item.rule or ""
    return f"{item.field}: {text}" if item.field else text


def _text(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int | float | bool):
        return str(value)
    return json.dumps(value, ensure_ascii=False, default=str)[:_MAX_TEXT]


def _code(value: object) -> str | int | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str | int):
        return value
    return _text(value)


def _decode(body: object) -> object:
    """A text or bytes body that holds JSON, as JSON; anything else unchanged."""
    if isinstance(body, bytes | bytearray):
        body = bytes(body).decode("utf-8", errors="replace")
    if isinstance(body, str):
        stripped = body.strip()
        if stripped[:1] in ("{", "["):
            try:
                return json.loads(stripped)
            except ValueError:
                return body
    return body


def _collect_data(data: object, items: list[ValidationItem], messages: list[str]) -> None:
    if isinstance(data, list):
        for element in data:
            _collect_data(element, items, messages)
    elif isinstance(data, dict):
        if "field" in data or "rule" in data:
            items.append(
                ValidationItem(
                    field=_text(data.get("field")),
                    rule=_text(data.get("rule")),
                    message=_text(data.get("message")),
                )
            )
        elif data.get("message") is not None:
            messages.append(_text(data.get("message")) or "")
        else:
            # D64: a 404 names the id it did not find ({"request_id": "..."}).
            messages.extend(f"{key}: {_text(value)}" for key, value in data.items())
    elif isinstance(data, str):
        match = _FIELD_TEXT.match(data)
        if match:
            items.append(ValidationItem(field=match.group(1), message=match.group(2)))
        elif data:
            messages.append(data[:_MAX_TEXT])
    elif data is not None:
        messages.append(_text(data) or "")


def _leading_code(texts: list[str]) -> str | None:
    for text in texts:
        match = _CODE_TEXT.match(text)
        if match:
            return match.group(1)
    return None


def parse_error_body(status: int, body: object) -> ServiceErrorInfo:
    """One :class:`ServiceErrorInfo` from any error body; never raises."""
    raw = body
    body = _decode(body)
    items: list[ValidationItem] = []
    messages: list[str] = []
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict):
            _collect_data(error.get("data"), items, messages)
            name = _text(error.get("name"))
            code = _code(error.get("code", body.get("code")))
            if code is None and name and not name.startswith("Http"):
                # errors.mdx: ``name`` is the internal code (SECRECY_RESTRICTED,
                # REQUEST_NOT_FOUND); the generic Http*Error names say only the status.
                code = name
            return ServiceErrorInfo(
                status=status,
                name=name,
                message=_text(error.get("message")) or _text(body.get("message")),
                code=code,
                items=items,
                messages=messages,
                raw=raw,
            )
        if "errors" in body:
            _collect_data(body.get("errors"), items, messages)
            return ServiceErrorInfo(
                status=status,
                message=_text(body.get("message")),
                code=_code(body.get("code")) or _leading_code(messages),
                items=items,
                messages=messages,
                raw=raw,
            )
        _collect_data(body.get("data"), items, messages)
        return ServiceErrorInfo(
            status=status,
            name=_text(error),
            message=_text(body.get("message")),
            code=_code(body.get("code")),
            items=items,
            messages=messages,
            raw=raw,
        )
    if isinstance(body, list):
        _collect_data(body, items, messages)
    elif isinstance(body, str):
        text = body.strip()[:_MAX_TEXT]
        return ServiceErrorInfo(status=status, message=text or None, raw=raw)
    elif body is not None:
        messages.append(_text(body) or "")
    return ServiceErrorInfo(status=status, items=items, messages=messages, raw=raw)

"""Reading the sandbox's error bodies in tests, whatever their documented shape (D64).

- transport ``{error: {name, message, data}}``: 400 ``data`` = ``["<field path>: <message>"]``,
  401/403/422 a string, 404/409/5xx an object;
- the 429 of the rate-limits page ``{error, message, code: 429}``;
- the Miner's ``{errors: ["<CODE or field>: <message>"]}``.

Assert on what a body means, not on its shape::

    assert error_name(answer.json()) == "REQUEST_NOT_FOUND"
    assert error_fields(answer.json()) == ["search.search_key"]
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["error_data", "error_fields", "error_name", "error_texts"]

_FIELD = re.compile(r"^([A-Za-z_][\w.\[\]-]*): ")


def error_name(body: Any) -> str | None:
    """``error.name`` of the transport shape, ``code`` of a flat body, else the code that
    starts the first of the Miner's ``errors``."""
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict):
            return str(error.get("name"))
        if "code" in body:
            return str(body["code"])
        errors = body.get("errors")
        if isinstance(errors, list) and errors:
            return str(errors[0]).split(":", 1)[0]
    return None


def error_data(body: Any) -> Any:
    """``error.data`` of the transport shape (None for the other shapes)."""
    error = body.get("error") if isinstance(body, dict) else None
    return error.get("data") if isinstance(error, dict) else None


def error_texts(body: Any) -> list[str]:
    """The strings of a 400's ``data`` or of the Miner's ``errors``."""
    if isinstance(body, dict) and isinstance(body.get("errors"), list):
        return [str(item) for item in body["errors"]]
    data = error_data(body)
    if isinstance(data, list):
        return [str(item) for item in data]
    return [data] if isinstance(data, str) else []


def error_fields(body: Any) -> list[str]:
    """The field paths a 400 names, in order (``"search.search_key: ..."`` gives
    ``search.search_key``)."""
    fields: list[str] = []
    for text in error_texts(body):
        match = _FIELD.match(text)
        if match:
            fields.append(match.group(1))
    return fields

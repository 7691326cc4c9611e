"""Helpers shared by the sandbox's route modules."""

from __future__ import annotations

import json
import math
from typing import Any

import orjson
from fastapi.responses import JSONResponse

from lawsuit_tui.sandbox.schemas import ERROR_RESPONSES, error_responses, json_content

__all__ = ["FastJSON", "answer", "documented", "loads_strict"]


class FastJSON(JSONResponse):
    """JSON with orjson: large pages (1000 responses) serialize fast."""

    def render(self, content: Any) -> bytes:
        try:
            return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)
        except orjson.JSONEncodeError as exc:
            if "64-bit" not in str(exc):
                raise
            # An echo of the caller's input (a bulk item refused) may hold an integer beyond
            # 64 bits, which loads_strict takes and orjson cannot write; json can.
            text = json.dumps(content, ensure_ascii=False, separators=(",", ":"))
            return text.encode("utf-8")


def answer(content: Any, status_code: int = 200) -> FastJSON:
    return FastJSON(content, status_code=status_code)


def documented(
    model: Any, *extra_errors: int, description: str = "Success", status: int = 200
) -> dict[Any, Any]:
    """``responses=`` for a route: its success body (``status``: 201 for a creation, D82)
    and every error it can answer (D64)."""
    responses: dict[Any, Any] = {
        status: {"description": description, "content": json_content(model)}
    }
    responses.update(ERROR_RESPONSES)
    responses.update(error_responses(*extra_errors))
    return responses


_OUT_OF_RANGE = "a number in the body is out of range"
_NOT_JSON = "the body is not valid JSON"
# Integers beyond the range of a double: other JSON readers cannot hold them, and comparing
# them with floats would overflow.
_MAX_INT = 2**1023


class _OutOfRange(ValueError):
    pass


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _OutOfRange(_OUT_OF_RANGE)
    return value


def _bounded_int(text: str) -> int:
    value = int(text)
    if abs(value) >= _MAX_INT:
        raise _OutOfRange(_OUT_OF_RANGE)
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads_strict(raw: bytes) -> Any:
    """Parse a JSON body as RFC 8259 does, refusing NaN, Infinity and numbers beyond a double
    (an echo of them could not be written back as JSON). ValueError with a message fit for
    the answer otherwise."""
    try:
        return json.loads(
            raw, parse_float=_finite, parse_int=_bounded_int, parse_constant=_no_constant
        )
    except _OutOfRange:
        raise ValueError(_OUT_OF_RANGE) from None
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ValueError(_NOT_JSON) from None

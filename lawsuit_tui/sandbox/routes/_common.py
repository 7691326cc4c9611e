"""Helpers shared by the sandbox's route modules."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import Request
from fastapi.responses import JSONResponse

from lawsuit_tui.sandbox.schemas import ERROR_RESPONSES, error_responses, json_content

__all__ = ["FastJSON", "answer", "documented", "read_json_body"]


class FastJSON(JSONResponse):
    """JSON with orjson: large pages (1000 responses) serialize fast."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)


def answer(content: Any, status_code: int = 200) -> FastJSON:
    return FastJSON(content, status_code=status_code)


def documented(model: Any, *extra_errors: int, description: str = "Success") -> dict[Any, Any]:
    """``responses=`` for a route: its 200 body and every error it can answer (D9)."""
    responses: dict[Any, Any] = {200: {"description": description, "content": json_content(model)}}
    responses.update(ERROR_RESPONSES)
    responses.update(error_responses(*extra_errors))
    return responses


async def read_json_body(request: Request) -> Any:
    """Parsed JSON of the request (used where FastAPI does not read the body itself)."""
    return orjson.loads(await request.body())

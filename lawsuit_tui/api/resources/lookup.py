"""The lookup: the lawsuits the service already holds for a key (with or without a bearer token)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import orjson
from pydantic import ValidationError

from lawsuit_tui.api.errors import MalformedResponse
from lawsuit_tui.api.models import LookupAnswer
from lawsuit_tui.api.resources.base import RouteCaller
from lawsuit_tui.api.routes import ROUTES
from lawsuit_tui.domain.bodies import LookupBody, SearchBody
from lawsuit_tui.i18n import _

__all__ = ["LookupRoutes"]


class LookupRoutes(RouteCaller):
    async def lookup(self, search_type: str, search_key: str) -> LookupAnswer:
        """POST {lawsuits_url}/lawsuits: the lawsuits the service holds for a key."""
        body = LookupBody(search=SearchBody(search_type=search_type, search_key=search_key))
        return await self._call("lookup", self._model(LookupAnswer), body=body.to_wire())

    async def lookup_bearer(self, search_type: str, search_key: str) -> LookupAnswer:
        """POST {requests_url}/lawsuits with the configured bearer token (D40)."""
        body = LookupBody(search=SearchBody(search_type=search_type, search_key=search_key))
        return await self._call("lookup_bearer", self._model(LookupAnswer), body=body.to_wire())

    async def lookup_with_raw(
        self, search_type: str, search_key: str, *, bearer: bool = False
    ) -> tuple[LookupAnswer, list[dict[str, Any]]]:
        """``lookup`` (or ``lookup_bearer``) plus each lawsuit as the dict received, in the
        same order as ``answer.lawsuits``: the cache keeps what the service sent without
        dumping the models back to JSON (seconds for a lawsuit of 10,000 steps)."""
        body = LookupBody(search=SearchBody(search_type=search_type, search_key=search_key))
        route = "lookup_bearer" if bearer else "lookup"
        received: list[bytes] = []

        def parse(response: httpx.Response) -> Any:
            # Only the head is kept for an error message: the body may be megabytes.
            received[:] = [response.content[:200]]
            return orjson.loads(response.content)

        data = await self._call(route, parse, body=body.to_wire())

        def build() -> tuple[LookupAnswer, list[dict[str, Any]]]:
            answer = LookupAnswer.model_validate(data)
            items = data.get("lawsuits") if isinstance(data, dict) else None
            raw = [x for x in items if isinstance(x, dict)] if isinstance(items, list) else []
            if len(raw) != len(answer.lawsuits):  # not one dict per model: trust the models
                raw = [lawsuit.to_json_dict() for lawsuit in answer.lawsuits]
            return answer, raw

        # Validating a lawsuit of 10,000 steps takes a few hundred ms: not on the event loop.
        try:
            return await asyncio.to_thread(build)
        except (ValidationError, ValueError, TypeError) as exc:
            raise MalformedResponse(
                200,
                message=_("the answer does not match the interface: {problem}").format(
                    problem=str(exc).splitlines()[0][:200]
                ),
                body_excerpt=(received[0] if received else b"").decode("utf-8", errors="replace"),
                route=ROUTES[route].label,
            ) from exc

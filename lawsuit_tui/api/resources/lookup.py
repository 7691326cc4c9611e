"""The datalake listing (``POST /lawsuits``): the lawsuits the service holds for a key, read
page by page (D71), with or without a bearer token (D40)."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from pydantic import ValidationError

from lawsuit_tui.api.errors import MalformedResponse, NotFound
from lawsuit_tui.api.models import LookupAnswer
from lawsuit_tui.api.resources.base import RouteCaller
from lawsuit_tui.api.routes import ROUTES
from lawsuit_tui.domain.datalake import DatalakeSearch, LawsuitsQueryBody
from lawsuit_tui.i18n import _

__all__ = ["LookupRoutes", "lookup_body"]


def lookup_body(search_type: str, search_key: str) -> LawsuitsQueryBody:
    """The listing of a key, as the lookup asks for it: phase and status included (D102)."""
    return LawsuitsQueryBody(search=DatalakeSearch.of(search_type, search_key), process_status=True)


def _items(data: Any) -> list[Any]:
    """The array of lawsuits of a page: ``lawsuits``, or ``response_data`` (D71)."""
    items = data.get("lawsuits", data.get("response_data"))
    return items if isinstance(items, list) else []


def _page(content: bytes) -> Any:
    """A page as received; ValueError (a malformed answer) when it is not one."""
    data = orjson.loads(content)
    if not isinstance(data, dict):
        raise ValueError("the answer is not a JSON object")
    items = data.get("lawsuits", data.get("response_data"))
    if items is None and data.get("has_lawsuits"):
        raise ValueError("has_lawsuits is true but no lawsuits came")
    if items is not None and not isinstance(items, list):
        raise ValueError("lawsuits is not a list")
    return data


class LookupRoutes(RouteCaller):
    async def lookup(self, search_type: str, search_key: str) -> LookupAnswer:
        """POST {lawsuits_url}/lawsuits: every lawsuit the service holds for a key."""
        answer, _raw = await self.lookup_with_raw(search_type, search_key)
        return answer

    async def lookup_bearer(self, search_type: str, search_key: str) -> LookupAnswer:
        """POST {requests_url}/lawsuits with the configured bearer token (D40)."""
        answer, _raw = await self.lookup_with_raw(search_type, search_key, bearer=True)
        return answer

    async def lookup_page(self, body: LawsuitsQueryBody, *, bearer: bool = False) -> Any:
        """One page of the listing, as the JSON received; a 404 reads as "no lawsuits" (D71)."""
        route = "lookup_bearer" if bearer else "lookup"
        try:
            return await self._call(
                route, lambda response: _page(response.content), body=body.to_wire()
            )
        except NotFound:
            return {"has_lawsuits": False, "lawsuits": []}

    async def lookup_with_raw(
        self,
        search_type: str,
        search_key: str,
        *,
        bearer: bool = False,
        body: LawsuitsQueryBody | None = None,
    ) -> tuple[LookupAnswer, list[dict[str, Any]]]:
        """Every page of the listing (``body``, else the key's whole listing), and each
        lawsuit as the dict received, in the same order as ``answer.lawsuits``: the cache
        keeps what the service sent without dumping the models back to JSON (seconds for a
        lawsuit of 10,000 steps).

        Pages are read until a short one (D71: the answer carries no totals); a lawsuit a
        later page repeats is kept once."""
        query = body or lookup_body(search_type, search_key)
        size = query.search_params.pagination.page_size
        pages: list[Any] = []
        items: list[dict[str, Any]] = []
        seen: set[tuple[Any, Any]] = set()
        page = 1
        while True:
            data = await self.lookup_page(query.page(page, size), bearer=bearer)
            pages.append(data)
            found = _items(data)
            fresh = 0
            for item in found:
                key = (item.get("code"), item.get("instance")) if isinstance(item, dict) else None
                if key is None or key not in seen:
                    if key is not None:
                        seen.add(key)
                    items.append(item)
                    fresh += 1
            if len(found) < size or not fresh:
                break
            page += 1
        merged = {**pages[0], "lawsuits": items}
        merged.pop("response_data", None)
        merged["has_lawsuits"] = any(p.get("has_lawsuits") for p in pages) or bool(items)
        route = "lookup_bearer" if bearer else "lookup"

        def build() -> tuple[LookupAnswer, list[dict[str, Any]]]:
            answer = LookupAnswer.model_validate(merged)
            raw = [x for x in items if isinstance(x, dict)]
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
                body_excerpt=orjson.dumps(merged)[:200].decode("utf-8", errors="replace"),
                route=ROUTES[route].label,
            ) from exc

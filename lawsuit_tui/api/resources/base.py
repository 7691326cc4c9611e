"""What every resource of the client shares: one way to call a route and parse its answer.

The client is one class made of one mixin per resource of the service (lookup, requests,
responses, trackings, vault, Miner, attachments...). Each mixin only builds the route's
parameters and parses its answer; :class:`~lawsuit_tui.api.client.ApiClient` supplies
``_call`` (rate window, headers, time-outs, retries, errors). A new route goes into
:mod:`lawsuit_tui.api.routes` and into the mixin of its resource (see CONTRIBUTING.md).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel

__all__ = ["BULK_PAGE_SIZE", "RouteCaller", "filename_of", "wire_of"]

BULK_PAGE_SIZE = 1000

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


class RouteCaller(ABC):
    """The one call every resource mixin goes through."""

    @abstractmethod
    async def _call(
        self,
        route_name: str,
        parse: Callable[[httpx.Response], T],
        *,
        path: Mapping[str, object] | None = None,
        params: Mapping[str, str] | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> T: ...

    @staticmethod
    def _model(model: type[M]) -> Callable[[httpx.Response], M]:
        def parse(response: httpx.Response) -> M:
            return model.model_validate_json(response.content)

        return parse


def wire_of(body: BaseModel | Mapping[str, Any]) -> dict[str, Any]:
    """The JSON body to send: a body model's ``to_wire()``, else its dump without ``None``."""
    if isinstance(body, Mapping):
        return dict(body)
    to_wire = getattr(body, "to_wire", None)
    if callable(to_wire):
        wire: dict[str, Any] = to_wire()
        return wire
    return body.model_dump(mode="json", exclude_none=True)


def filename_of(disposition: str | None) -> str | None:
    """The file name a ``Content-Disposition`` header gives, if any."""
    if not disposition:
        return None
    for part in disposition.split(";"):
        name, _sep, value = part.strip().partition("=")
        if name.lower() == "filename" and value:
            return value.strip().strip('"') or None
    return None

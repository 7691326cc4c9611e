"""The count service: count, and the history of counts kept in the cache."""

from __future__ import annotations

from typing import Any

from lawsuit_tui.domain.bodies import CountBody
from lawsuit_tui.domain.count import CountRequestResult
from lawsuit_tui.services.deps import Deps

__all__ = ["CountService"]


class CountService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    async def count(self, body: CountBody) -> CountRequestResult:
        """POST /requests/count (free); the result and what was asked are kept."""
        result = await self._d.api.count(body)
        sent = body.to_wire()
        sent.pop("limit", None)
        record = {
            **result.to_json_dict(),
            "asked": sent,
            "counted_at": self._d.now().isoformat(),
        }
        await self._d.cache.add_count_request(record)
        return result

    def history(self) -> list[dict[str, Any]]:
        """Counts made, newest first: the service's answer plus ``asked`` and ``counted_at``."""
        return self._d.cache.store.list_count_requests()

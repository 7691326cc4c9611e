"""The Miner: counting what a search would find before paying for it."""

from __future__ import annotations

from lawsuit_tui.api.resources.base import RouteCaller, wire_of
from lawsuit_tui.domain.bodies import CountBody
from lawsuit_tui.domain.count import CountRequestResult

__all__ = ["MinerRoutes"]


class MinerRoutes(RouteCaller):
    async def count(self, body: CountBody) -> CountRequestResult:
        """POST {miner_url}/requests/count. ``limit`` is never sent (D37: strict body)."""
        wire = wire_of(body)
        wire.pop("limit", None)
        return await self._call("count", self._model(CountRequestResult), body=wire)

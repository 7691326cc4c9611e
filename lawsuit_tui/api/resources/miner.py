"""The Miner: counting what a filter finds (free), then buying it as a find request (D72)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import orjson

from lawsuit_tui.api.resources.base import RouteCaller
from lawsuit_tui.domain.bodies import CountBody
from lawsuit_tui.domain.count import CountRequestResult
from lawsuit_tui.domain.miner import (
    MINER_PAGE_SIZE_MAX,
    FindRequestCreated,
    MinerLawsuit,
    MinerRequest,
    MinerResponsesPage,
    Tribunal,
    parse_tribunals,
)

__all__ = ["MinerRoutes"]


class MinerRoutes(RouteCaller):
    async def count(self, body: CountBody) -> CountRequestResult:
        """POST {miner_url}/requests/count: free; ``responses_limit`` is never sent (it
        means nothing to a count)."""
        return await self._call("count", self._model(CountRequestResult), body=body.to_wire())

    async def tribunals(self) -> list[Tribunal]:
        """GET {miner_url}/tribunals: the Miner's courts and their ids."""

        def parse(response: httpx.Response) -> list[Tribunal]:
            return parse_tribunals(orjson.loads(response.content))

        return await self._call("tribunals", parse)

    async def create_find(self, body: CountBody) -> FindRequestCreated:
        """POST {miner_url}/requests/create: paid (credits debited at once), never retried
        once it may have reached the service."""
        return await self._call(
            "create_find", self._model(FindRequestCreated), body=body.to_find_wire()
        )

    async def miner_request(self, request_id: int) -> MinerRequest:
        """GET {miner_url}/requests/{request_id}."""
        return await self._call(
            "get_miner_request", self._model(MinerRequest), path={"request_id": request_id}
        )

    async def miner_responses(
        self, request_id: int, *, page: int = 1, page_size: int = MINER_PAGE_SIZE_MAX
    ) -> MinerResponsesPage:
        """GET {miner_url}/responses?request_id=&page=&page_size= (page size 1..100)."""
        size = max(1, min(page_size, MINER_PAGE_SIZE_MAX))
        params = {"request_id": str(request_id), "page": str(page), "page_size": str(size)}
        return await self._call(
            "list_miner_responses", self._model(MinerResponsesPage), params=params
        )

    async def iter_miner_lawsuits(
        self, request_id: int, *, page_size: int = MINER_PAGE_SIZE_MAX
    ) -> AsyncIterator[MinerLawsuit]:
        """Every lawsuit of a completed find, page after page (deduplicated by code)."""
        seen: set[str] = set()
        page = 1
        while True:
            answer = await self.miner_responses(request_id, page=page, page_size=page_size)
            for lawsuit in answer.data:
                key = lawsuit.code or str(lawsuit.lawsuit_id)
                if key not in seen:
                    seen.add(key)
                    yield lawsuit
            if not answer.data or page >= answer.total_pages:
                return
            page += 1

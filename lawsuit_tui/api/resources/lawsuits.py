"""The lawsuits service's other synchronous routes: counts, aggregations, steps per CNJ,
registration data and the stored copy of one lawsuit (openapi/lawsuits.json; D100-D108)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import orjson
from pydantic import ValidationError

from lawsuit_tui.api.errors import MalformedResponse, NotFound
from lawsuit_tui.api.resources.base import RouteCaller
from lawsuit_tui.api.routes import ROUTES
from lawsuit_tui.domain.datalake import (
    STEPS_COUNT_BATCH,
    DatalakeSearch,
    EntitiesBody,
    LawsuitsCount,
    LawsuitsCountBody,
    StepsCountBody,
    StepsCountItem,
    SyntheticAggregations,
    SyntheticBody,
    SyntheticSearch,
    parse_steps_count,
)
from lawsuit_tui.domain.entities import EntitiesAnswer
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.i18n import _

__all__ = ["LawsuitsRoutes"]


class LawsuitsRoutes(RouteCaller):
    async def count_lawsuits(self, search: DatalakeSearch) -> LawsuitsCount:
        """POST {lawsuits_url}/lawsuits/count: how many lawsuits the datalake holds."""
        body = LawsuitsCountBody(search=search)
        return await self._call("count_lawsuits", self._model(LawsuitsCount), body=body.to_wire())

    async def synthetic_lawsuits(self, search: DatalakeSearch) -> SyntheticAggregations:
        """POST {lawsuits_url}/lawsuits/synthetic: the lawsuits counted by class, subject,
        court, side... (D106)."""
        wanted = SyntheticSearch.model_validate(search.model_dump(exclude={"response_type"}))
        body = SyntheticBody(search=wanted)
        return await self._call(
            "synthetic_lawsuits", self._model(SyntheticAggregations), body=body.to_wire()
        )

    async def steps_count(self, lawsuit_cnj: list[str]) -> list[StepsCountItem]:
        """POST {lawsuits_url}/steps/count, in batches of STEPS_COUNT_BATCH numbers (D107);
        the numbers are checked (and normalized) before any call."""
        numbers = StepsCountBody(lawsuit_cnj=lawsuit_cnj).lawsuit_cnj
        found: list[StepsCountItem] = []
        for start in range(0, len(numbers), STEPS_COUNT_BATCH):
            batch = StepsCountBody(lawsuit_cnj=numbers[start : start + STEPS_COUNT_BATCH])
            found.extend(
                await self._call(
                    "steps_count",
                    lambda response: parse_steps_count(orjson.loads(response.content)),
                    body=batch.to_wire(),
                )
            )
        return found

    async def entities(self, body: EntitiesBody) -> EntitiesAnswer:
        """POST {lawsuits_url}/entities: registration data of a CPF, CNPJ or name (D78)."""
        return await self._call("entities", self._model(EntitiesAnswer), body=body.to_wire())

    async def stored_lawsuit(
        self, lawsuit_cnj: str, instance: int | None = None, **attachments: bool
    ) -> Lawsuit | None:
        """GET {lawsuits_url}/lawsuits/{lawsuit_cnj}: the datalake's copy of one instance
        (D101); None when the datalake holds none. ``attachments``: the options of
        :meth:`stored_lawsuit_with_raw`."""
        found = await self.stored_lawsuit_with_raw(lawsuit_cnj, instance, **attachments)
        return found[0] if found is not None else None

    async def stored_lawsuit_with_raw(
        self,
        lawsuit_cnj: str,
        instance: int | None = None,
        *,
        saved_attachments: bool = False,
        only_attachments_with_steps: bool = False,
        all_attachments: bool = False,
    ) -> tuple[Lawsuit, dict[str, Any]] | None:
        """As :meth:`stored_lawsuit`, with the JSON received (what the cache keeps).
        ``saved_attachments`` adds the attachments whose file is stored,
        ``only_attachments_with_steps`` keeps those tied to a step, ``all_attachments`` lists
        every instance's (D101)."""
        params: dict[str, str] = {}
        if instance is not None:
            params["instance"] = str(instance)
        for name, on in (
            ("saved_att", saved_attachments),
            ("only_att_with_steps", only_attachments_with_steps),
            ("all_att", all_attachments),
        ):
            if on:
                params[name] = "true"
        received: list[bytes] = []

        def parse(response: httpx.Response) -> Any:
            received[:] = [response.content[:200]]
            data = orjson.loads(response.content)
            if not isinstance(data, dict):
                raise ValueError("the stored copy is not a JSON object")
            return data

        try:
            data = await self._call(
                "stored_lawsuit", parse, path={"lawsuit_cnj": lawsuit_cnj}, params=params or None
            )
        except NotFound:
            return None
        try:  # a lawsuit of 10,000 steps takes a few hundred ms to validate: not on the loop
            lawsuit = await asyncio.to_thread(Lawsuit.model_validate, data)
        except ValidationError as exc:
            raise MalformedResponse(
                200,
                message=_("the answer does not match the interface: {problem}").format(
                    problem=str(exc).splitlines()[0][:200]
                ),
                body_excerpt=(received[0] if received else b"").decode("utf-8", errors="replace"),
                route=ROUTES["stored_lawsuit"].label,
            ) from exc
        return lawsuit, data

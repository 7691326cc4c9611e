"""The lawsuits service's other synchronous routes (D74, D78, D101-D107), all reading the
datalake (:mod:`lawsuit_tui.sandbox.datalake`) and counting in its own rate window (D74):

- ``POST /lawsuits/count``: ``{total}``, the listing's length for the same search and filter.
- ``POST /lawsuits/synthetic``: the listing's items counted by class, subject, court...
- ``POST /steps/count``: steps and attachments of each CNJ's stored copy, per instance.
- ``GET /lawsuits/{lawsuit_cnj}``: the stored copy of one instance of a lawsuit.
- ``POST /entities``: registration data of a CPF, CNPJ or name.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from lawsuit_tui.sandbox import datalake
from lawsuit_tui.sandbox.auth import datalake_rate_limited, require_key
from lawsuit_tui.sandbox.datalake_schemas import (
    CountOut,
    EntitiesIn,
    EntitiesOut,
    LawsuitOut,
    LawsuitsIn,
    StepsCountIn,
    StepsCountOut,
    SyntheticOut,
)
from lawsuit_tui.sandbox.dependencies import State
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.routes._common import FastJSON, answer, documented

__all__ = ["router"]

router = APIRouter(
    tags=["datalake"],
    dependencies=[Depends(datalake_rate_limited)],
    default_response_class=FastJSON,
)

Lookup = Annotated[KeyConfig, Depends(require_key("lookup"))]


@router.post(
    "/lawsuits/lawsuits/count",
    summary="How many lawsuits the datalake holds for a key and filter",
    responses=documented(CountOut, 429),
)
async def count(body: LawsuitsIn, config: Lookup, state: State) -> FastJSON:
    selection = await state.run_world(lambda: datalake.select(state, body))
    return answer({"total": len(selection.items)})


@router.post(
    "/lawsuits/lawsuits/synthetic",
    summary="The datalake's lawsuits of a key counted by class, subject, court, side...",
    responses=documented(SyntheticOut, 429),
)
async def synthetic(body: LawsuitsIn, config: Lookup, state: State) -> FastJSON:
    selection = await state.run_world(
        lambda: datalake.select(state, body, accepted=datalake.SYNTHETIC_RESPONSE_TYPES)
    )
    return answer(datalake.aggregate(selection, state.ids.next("synthetic")))


@router.post(
    "/lawsuits/steps/count",
    summary="Steps and attachments of each lawsuit's stored copy, per instance",
    responses=documented(StepsCountOut, 429),
)
async def steps_count(body: StepsCountIn, config: Lookup, state: State) -> FastJSON:
    items = await state.run_world(lambda: datalake.steps_count(state, body.lawsuit_cnj))
    return answer(items)


@router.get(
    "/lawsuits/lawsuits/{lawsuit_cnj}",
    summary="The datalake's stored copy of one lawsuit",
    responses=documented(LawsuitOut, 404, 429),
)
async def stored_lawsuit(
    lawsuit_cnj: str,
    config: Lookup,
    state: State,
    instance: Annotated[int | None, Query(gt=0)] = None,
    all_att: bool = False,
    saved_att: bool = False,
    only_att_with_steps: bool = False,
) -> FastJSON:
    def compute() -> dict[str, object]:
        return datalake.stored_lawsuit(
            state,
            lawsuit_cnj,
            instance,
            all_att=all_att,
            saved_att=saved_att,
            only_att_with_steps=only_att_with_steps,
        )

    lawsuit = await state.run_world(compute)
    state.mark_retrieved(config.key, str(lawsuit.get("code")))
    return answer(lawsuit)


@router.post(
    "/lawsuits/entities",
    summary="Registration data of a person or company (CPF, CNPJ or name)",
    responses=documented(EntitiesOut, 429),
)
async def entities(body: EntitiesIn, config: Lookup, state: State) -> FastJSON:
    request_id = state.ids.next("entities")
    return answer(await state.run_world(lambda: datalake.entities(state, body, request_id)))

"""``POST /lawsuits``: the datalake's lawsuits of a key, synchronously (D39, D40, D71, D102).

``POST /lawsuits/lawsuits`` takes the api-key and counts in the lawsuits service's own rate
window (D74); ``POST /requests/lawsuits`` takes a bearer token from ``/_sandbox/token`` and
answers steps without ``source_name`` (D40, sandbox-only since D86). Each call answers a new
request_id and one page of ``{has_lawsuits, request_id, lawsuits}``; nothing found is
``has_lawsuits: false`` with ``lawsuits: []``. A document search leaves secret lawsuits out; a
CNJ search answers a secret lawsuit stripped to its public fields (D102). With ``on_demand`` a
CNJ missing from the datalake, or older than ``cache_ttl_in_days``, is read at the court first.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from lawsuit_tui.sandbox.auth import datalake_rate_limited, require_bearer, require_key
from lawsuit_tui.sandbox.datalake import select
from lawsuit_tui.sandbox.datalake_schemas import LawsuitsIn, LawsuitsOut
from lawsuit_tui.sandbox.dependencies import State
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.routes._common import FastJSON, answer, documented
from lawsuit_tui.sandbox.state import SandboxState

__all__ = ["router"]

router = APIRouter(tags=["lookup"], default_response_class=FastJSON)


async def _answer(
    state: SandboxState, config: KeyConfig, body: LawsuitsIn, strip_source_name: bool = False
) -> dict[str, Any]:
    params = body.merged_params()
    pagination = params.pagination
    page = pagination.page if pagination else 1
    size = pagination.page_size if pagination else 100

    def compute() -> tuple[list[dict[str, Any]], bool]:
        items = select(state, body).items
        shown = items[(page - 1) * size : page * size]
        if not body.process_status:  # D102: phase and status only when asked
            shown = [{k: v for k, v in lw.items() if k not in ("phase", "status")} for lw in shown]
        if strip_source_name:
            shown = [_without_source_name(lw) for lw in shown]
        return shown, bool(items)

    lawsuits, found = await state.run_world(compute)
    for lawsuit in lawsuits:
        state.mark_retrieved(config.key, str(lawsuit.get("code")))
    return {
        "has_lawsuits": found,
        "request_id": state.ids.next("lookup"),
        "lawsuits": lawsuits,
    }


def _without_source_name(lawsuit: dict[str, Any]) -> dict[str, Any]:
    """D40: the bearer variant's steps carry no source_name (copies; the world is shared)."""
    out = dict(lawsuit)
    out["steps"] = [
        {k: v for k, v in step.items() if k != "source_name"} for step in lawsuit.get("steps") or []
    ]
    if isinstance(lawsuit.get("last_step"), dict):
        out["last_step"] = {k: v for k, v in lawsuit["last_step"].items() if k != "source_name"}
    return out


@router.post(
    "/lawsuits/lawsuits",
    summary="The datalake's lawsuits of a key (hot storage), in pages",
    responses=documented(LawsuitsOut, 429),
    dependencies=[Depends(datalake_rate_limited)],
)
async def cached_lookup(
    body: LawsuitsIn,
    config: Annotated[KeyConfig, Depends(require_key("lookup"))],
    state: State,
) -> FastJSON:
    return answer(await _answer(state, config, body))


@router.post(
    "/requests/lawsuits",
    summary="Cached lawsuit lookup, bearer-token variant (steps without source_name)",
    responses=documented(LawsuitsOut),
)
async def bearer_lookup(
    body: LawsuitsIn,
    config: Annotated[KeyConfig, Depends(require_bearer)],
    state: State,
) -> FastJSON:
    return answer(await _answer(state, config, body, strip_source_name=True))

"""Cached lookup on both routes (D39, D40): stored lawsuits for a search key, synchronously.

``POST /lawsuits/lawsuits`` takes the api-key; ``POST /requests/lawsuits`` takes a bearer
token from ``/_sandbox/token`` and answers steps without ``source_name``. Not rate-limited
(D25). Each call answers a new request_id; no lawsuit is ``has_lawsuits: false``; a CNJ
search of a secret lawsuit without an active credential (default key ``*``) is 403
``SECRECY_RESTRICTED``; a document search leaves secret lawsuits out.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from lawsuit_tui.sandbox.auth import require_bearer, require_key
from lawsuit_tui.sandbox.dependencies import State
from lawsuit_tui.sandbox.errors import FlatServiceError
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.routes._common import FastJSON, answer, documented
from lawsuit_tui.sandbox.schemas import LookupIn, LookupOut
from lawsuit_tui.sandbox.searches import LAWSUIT_SEARCHES, normalize_search_key
from lawsuit_tui.sandbox.state import SandboxState

__all__ = ["router"]

router = APIRouter(tags=["lookup"])


def _lookup(state: SandboxState, key: str, body: LookupIn) -> list[dict[str, Any]]:
    """The stored lawsuits for the key (runs in the world's thread)."""
    world = state.world
    search = body.search
    lookup_type = "lawsuit_cnj" if search.search_type in LAWSUIT_SEARCHES else search.search_type
    lawsuits: list[dict[str, Any]] = []
    for code, instance in world.find(lookup_type, key):
        if world.is_secret(code, instance):
            if search.search_type not in LAWSUIT_SEARCHES:
                continue  # D39: a document search leaves secret lawsuits out
            system = world.court_system(code, instance)
            if state.vault.status(system, "*") != "active":
                raise FlatServiceError.forbidden(
                    "SECRECY_RESTRICTED",
                    "the lawsuit is secret and there is no active credential for its court system",
                )
        lawsuits.extend(state.stored_view(code, instance))
    return lawsuits


async def _answer(
    state: SandboxState, config: KeyConfig, body: LookupIn, strip_source_name: bool = False
) -> dict[str, Any]:
    key = normalize_search_key(body.search.search_type, body.search.search_key)

    def compute() -> list[dict[str, Any]]:
        found = _lookup(state, key, body)
        return [_without_source_name(lw) for lw in found] if strip_source_name else found

    lawsuits = await state.run_world(compute)
    for lawsuit in lawsuits:
        state.mark_retrieved(config.key, str(lawsuit.get("code")))
    return {
        "has_lawsuits": bool(lawsuits),
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
    summary="Cached lawsuit lookup",
    response_class=FastJSON,
    responses=documented(LookupOut),
)
async def cached_lookup(
    body: LookupIn,
    config: Annotated[KeyConfig, Depends(require_key("lookup"))],
    state: State,
) -> FastJSON:
    return answer(await _answer(state, config, body))


@router.post(
    "/requests/lawsuits",
    summary="Cached lawsuit lookup, bearer-token variant (steps without source_name)",
    response_class=FastJSON,
    responses=documented(LookupOut),
)
async def bearer_lookup(
    body: LookupIn,
    config: Annotated[KeyConfig, Depends(require_bearer)],
    state: State,
) -> FastJSON:
    return answer(await _answer(state, config, body, strip_source_name=True))

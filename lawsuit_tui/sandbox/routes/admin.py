"""Sandbox-only routes under ``/_sandbox`` (D45, D35, D40): not part of the service.

They need an api-key (any configured one), except ``GET /_sandbox/samples``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict

from lawsuit_tui.sandbox.auth import require_any_key
from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.dependencies import State
from lawsuit_tui.sandbox.errors import ServiceError
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.routes._common import FastJSON, answer, documented
from lawsuit_tui.sandbox.schemas import (
    ClockIn,
    ClockOut,
    FailLoginIn,
    FaultsIn,
    TokenIn,
    TokenOut,
)
from lawsuit_tui.sandbox.state import SandboxState

__all__ = ["router"]

router = APIRouter(prefix="/_sandbox", tags=["sandbox"])

AnyKey = Annotated[KeyConfig, Depends(require_any_key)]


class OpenObject(BaseModel):
    model_config = ConfigDict(extra="allow", title="SandboxObject")


def _clock(state: SandboxState) -> dict[str, Any]:
    return {
        "now": iso(state.clock.now()),
        "speed": state.clock.speed,
        "pending_events": state.clock.pending_events,
    }


@router.get("/samples", summary="Keys to try, by kind", responses=documented(OpenObject))
async def samples(state: State) -> FastJSON:
    # D185: kept with the state; made (and kept) in a transaction of its own once the world
    # is built, so no lock is held while it builds (the middleware opens none here).
    return answer(await state.sample_keys())


@router.post("/token", summary="Mint a bearer token (D40)", responses=documented(TokenOut))
async def token(body: TokenIn, _: AnyKey, state: State) -> FastJSON:  # D45: key needed
    if body.api_key not in state.keys:
        raise ServiceError(401, "api_key invalid", name="HttpUnauthorizedError")
    access_token, expires_in = state.tokens.mint(body.api_key, state.clock.now())
    return answer({"access_token": access_token, "token_type": "Bearer", "expires_in": expires_in})


@router.get("/clock", summary="The sandbox clock", responses=documented(ClockOut))
async def get_clock(_: AnyKey, state: State) -> FastJSON:
    return answer(_clock(state))


@router.post(
    "/clock",
    summary="Advance the clock or change its speed; events now due fire",
    responses=documented(ClockOut),
)
async def set_clock(body: ClockIn, _: AnyKey, state: State) -> FastJSON:
    if body.speed is not None:
        state.clock.set_speed(body.speed)
    if body.advance_seconds:
        state.clock.advance(body.advance_seconds)
    await state.background.settle()  # what fell due has happened when the answer comes
    return answer(_clock(state))


@router.get("/faults", summary="Faults in force", responses=documented(OpenObject))
async def get_faults(_: AnyKey, state: State) -> FastJSON:
    return answer(state.faults.as_dict())


@router.post("/faults", summary="Set faults (D45)", responses=documented(OpenObject))
async def set_faults(body: FaultsIn, _: AnyKey, state: State) -> FastJSON:
    faults = state.faults
    for name in (
        "latency_ms",
        "error_rate",
        "malformed_rate",
        "truncated_rate",
        "legacy_completion",
    ):
        value = getattr(body, name)
        if value is not None:
            setattr(faults, name, value)
    if body.error_statuses is not None:
        faults.error_statuses = list(body.error_statuses) or [500, 502, 503, 504]
    if body.courts_down is not None:
        faults.courts_down = {c.strip().upper() for c in body.courts_down if c.strip()}
    return answer(faults.as_dict())


@router.get(
    "/stats", summary="Calls, 429s and webhook deliveries", responses=documented(OpenObject)
)
async def stats(_: AnyKey, state: State) -> FastJSON:
    snapshot = state.stats.snapshot()
    snapshot["requests"] = len(state.requests)
    snapshot["responses"] = sum(len(v) for v in state.responses.values())
    snapshot["trackings"] = len(state.trackings)
    snapshot["webhook_deliveries"] = [d.summary() for d in state.webhooks.recent(50)]
    return answer(snapshot)


@router.post(
    "/vault/fail-login",
    summary="Make a credential's court login fail: it turns inactive (D35)",
    responses=documented(OpenObject, 404),
)
async def fail_login(body: FailLoginIn, _: AnyKey, state: State) -> FastJSON:
    await state.world_ready()
    vault = state.vault
    customer_key = body.customer_key or "*"
    found = vault.mark_login_failed(body.system_name, customer_key)
    if found is None:
        raise ServiceError.not_found(
            "CREDENTIAL_NOT_FOUND", f"no credential for {body.system_name} under {customer_key}"
        )
    return answer(
        {
            "system_name": body.system_name,
            "customer_key": customer_key,
            "credential_status": vault.status(body.system_name, customer_key),
        }
    )

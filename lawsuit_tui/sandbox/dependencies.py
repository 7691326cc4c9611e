"""How routes get the sandbox: its state and the engines over it, as FastAPI dependencies.

A route declares what it works on by type::

    async def get_request(request_id: str, config: RequestsKey, engine: Requests) -> FastJSON:

``State`` is the app's one :class:`SandboxState`; ``Requests`` and ``Trackings`` are the
engines over it (made per call: they keep nothing of their own). Outside a route (the app, a
test, the in-process client) the state is :func:`sandbox_state` of the app.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.applications import Starlette

from lawsuit_tui.sandbox.request_engine import RequestEngine
from lawsuit_tui.sandbox.state import SandboxState
from lawsuit_tui.sandbox.tracking_engine import TrackingEngine

__all__ = [
    "Requests",
    "State",
    "Trackings",
    "current_state",
    "request_engine",
    "sandbox_state",
    "tracking_engine",
]


def sandbox_state(app: Starlette) -> SandboxState:
    """The state of a sandbox app made by :func:`lawsuit_tui.sandbox.app.create_app`."""
    state: SandboxState = app.state.sandbox
    return state


# The dependencies are async: FastAPI runs sync ones in worker threads; the state lives on the
# loop.


async def current_state(request: Request) -> SandboxState:
    return sandbox_state(request.app)


State = Annotated[SandboxState, Depends(current_state)]


async def request_engine(state: State) -> RequestEngine:
    return RequestEngine(state)


async def tracking_engine(state: State) -> TrackingEngine:
    return TrackingEngine(state)


Requests = Annotated[RequestEngine, Depends(request_engine)]
Trackings = Annotated[TrackingEngine, Depends(tracking_engine)]

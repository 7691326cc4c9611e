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
from lawsuit_tui.sandbox.timed import Kind
from lawsuit_tui.sandbox.tracking_engine import TrackingEngine

__all__ = [
    "Requests",
    "State",
    "Trackings",
    "current_state",
    "register_timed_work",
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


def register_timed_work(state: SandboxState) -> None:
    """Tell the state's timed work how requests and trackings move on (sandbox/timed.py)."""
    state.timed.register(
        "requests",
        Kind(
            lambda request_id: RequestEngine(state).due(request_id),
            lambda request_id, at: TrackingEngine(state).requests.advance(request_id, at),
        ),
    )
    state.timed.register(
        "trackings",
        Kind(
            lambda tracking_id: TrackingEngine(state).due(tracking_id),
            lambda tracking_id, at: TrackingEngine(state).advance(tracking_id, at),
        ),
    )

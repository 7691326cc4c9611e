"""``create_app``: the sandbox as a FastAPI app, cheap to create (the world is built lazily).

Route families live in ``lawsuit_tui/sandbox/routes/<family>.py``, one ``router`` each, with
full paths under the five base prefixes of D1 (``/requests``, ``/lawsuits``, ``/tracking``,
``/vault``, ``/miner``) and ``/_sandbox`` for the sandbox-only routes (D45). They are mounted
in the order of :data:`ROUTE_MODULES`; a family that fails to import stops the app from being
made (the error is the import's own).
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
from fastapi import APIRouter, FastAPI

from lawsuit_tui.sandbox.clock import SandboxClock
from lawsuit_tui.sandbox.dependencies import register_timed_work, sandbox_state
from lawsuit_tui.sandbox.errors import install_error_handlers
from lawsuit_tui.sandbox.keys import parse_keys
from lawsuit_tui.sandbox.middleware import SandboxMiddleware
from lawsuit_tui.sandbox.schemas import add_documented_schemas, query_parameters_without_null
from lawsuit_tui.sandbox.state import SandboxState

if TYPE_CHECKING:
    from lawsuit_tui.sandbox.world import World

__all__ = [
    "DEFAULT_API_KEY",
    "ROUTE_MODULES",
    "close_app",
    "create_app",
    "drain",
    "sandbox_state",
]

DEFAULT_API_KEY = "sandbox"
# The route families (modules of lawsuit_tui/sandbox/routes), in the order they are mounted.
ROUTE_MODULES = (
    "lookup",
    "datalake",
    "requests",
    "responses",
    "tracking",
    "attachments",
    "vault",
    "count",
    "admin",
    "files",
    "transfer_files",
    "miner",
    "portfolio",
)


def create_app(
    *,
    seed: int = 7,
    api_keys: Sequence[str] = (DEFAULT_API_KEY,),
    rate_limit: tuple[int, float] = (180, 60.0),
    datalake_rate_limit: tuple[int, float] = (500, 60.0),
    clock: SandboxClock | None = None,
    callback_url: str | None = None,
    webhook_transport: httpx.AsyncBaseTransport | None = None,
    world: World | None = None,
    id_salt: str | None = None,
    state_path: Path | None = None,
) -> FastAPI:
    """The sandbox app. ``api_keys`` items are ``KEY`` or ``KEY:no-miner,no-vault``.

    ``clock``: the sandbox's time (default: the real time, at speed 1). ``state_path``: keep
    the state in that file, shared with every process that opens it (D180): what it holds is
    read now (blocking; a file made for another seed raises ``StateMismatch``), and its ids are
    salted by its generation. Without it (the default, and the tests') the state lives in
    memory. ``id_salt``: mixed into the ids of an in-memory sandbox (None: a function of the
    seed alone)."""
    state = SandboxState(
        seed=seed,
        keys=parse_keys(api_keys or (DEFAULT_API_KEY,)),
        clock=clock or SandboxClock(),
        rate_limit=rate_limit,
        datalake_rate_limit=datalake_rate_limit,
        callback_url=callback_url,
        webhook_transport=webhook_transport,
        world=world,
        id_salt=id_salt,
    )
    register_timed_work(state)
    if state_path is not None:
        state.keep_on_disk(state_path)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        state.reopen()  # started again after a shutdown
        state.background.ensure_running()
        try:
            yield
        finally:
            await state.aclose()

    app = FastAPI(
        title="Court lawsuit data service (lawsuit-tui sandbox)",
        version="1.0.0",
        description=(
            "The sandbox of lawsuit-tui: the service interface of interface.md with the "
            "decisions of docs/interface-decisions.md, over a generated world. Routes under "
            "/_sandbox are not part of the service."
        ),
        lifespan=lifespan,
        docs_url="/docs",
        redoc_url=None,
    )
    app.state.sandbox = state
    _document_by_reference(app)
    install_error_handlers(app)
    app.add_middleware(SandboxMiddleware, state=state)
    for name in ROUTE_MODULES:
        app.include_router(route_family(name))
    return app


def route_family(name: str) -> APIRouter:
    """The ``router`` of ``lawsuit_tui/sandbox/routes/<name>.py``."""
    router: APIRouter = importlib.import_module(f"lawsuit_tui.sandbox.routes.{name}").router
    return router


def _document_by_reference(app: FastAPI) -> None:
    """Add the schemas that routes document by ``$ref`` to the generated document."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = add_documented_schemas(FastAPI.openapi(app))
            app.openapi_schema = query_parameters_without_null(document)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


async def drain(app: FastAPI, limit: float = 10.0) -> None:
    """Run every timed event due at the sandbox's current time and wait for what it started."""
    await sandbox_state(app).background.drain(limit)


async def close_app(app: FastAPI) -> None:
    """Stop the app's background work and let go of its state's file (what its lifespan does
    when it is served; an app used over ``httpx.ASGITransport`` gets no lifespan events)."""
    await sandbox_state(app).aclose()

"""``create_app``: the sandbox as a FastAPI app, cheap to create (the world is built lazily).

Routes live in ``lawsuit_tui/sandbox/routes/*.py``, one ``router`` each, with full paths under
the five base prefixes of D1 (``/requests``, ``/lawsuits``, ``/tracking``, ``/vault``,
``/miner``) and ``/_sandbox`` for the sandbox-only routes (D45).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import httpx
from fastapi import FastAPI

from lawsuit_tui.sandbox.auth import parse_keys
from lawsuit_tui.sandbox.clock import SandboxClock
from lawsuit_tui.sandbox.errors import install_error_handlers
from lawsuit_tui.sandbox.middleware import SandboxMiddleware
from lawsuit_tui.sandbox.state import SandboxState

if TYPE_CHECKING:
    from lawsuit_tui.sandbox.world import World

__all__ = ["DEFAULT_API_KEY", "ROUTE_MODULES", "create_app", "drain", "sandbox_state"]

log = logging.getLogger(__name__)

DEFAULT_API_KEY = "sandbox"
ROUTE_MODULES = (
    "lookup",
    "requests",
    "responses",
    "tracking",
    "attachments",
    "vault",
    "count",
    "admin",
)


def create_app(
    *,
    seed: int = 7,
    api_keys: Sequence[str] = (DEFAULT_API_KEY,),
    rate_limit: tuple[int, float] = (180, 60.0),
    clock: SandboxClock | None = None,
    callback_url: str | None = None,
    webhook_transport: httpx.AsyncBaseTransport | None = None,
    world: World | None = None,
    id_salt: str | None = None,
) -> FastAPI:
    """The sandbox app. ``api_keys`` items are ``KEY`` or ``KEY:no-miner,no-vault``.

    ``id_salt``: mixed into the ids of what the run creates (requests, responses...), so
    two runs with the same seed do not reuse them; None (the default) keeps them a function
    of the seed alone."""
    state = SandboxState(
        seed=seed,
        keys=parse_keys(api_keys or (DEFAULT_API_KEY,)),
        clock=clock or SandboxClock(),
        rate_limit=rate_limit,
        callback_url=callback_url,
        webhook_transport=webhook_transport,
        world=world,
        id_salt=id_salt,
    )

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        state.ensure_running()
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
        try:
            module = importlib.import_module(f"lawsuit_tui.sandbox.routes.{name}")
        except ImportError as exc:
            if exc.name != f"lawsuit_tui.sandbox.routes.{name}":
                raise
            log.warning("sandbox: routes module %r is missing; its routes are left out", name)
            continue
        app.include_router(module.router)
    return app


def _document_by_reference(app: FastAPI) -> None:
    """Add the schemas that routes document by ``$ref`` to the generated document."""
    from lawsuit_tui.sandbox.schemas import add_documented_schemas

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = add_documented_schemas(FastAPI.openapi(app))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def sandbox_state(app: FastAPI) -> SandboxState:
    state: SandboxState = app.state.sandbox
    return state


async def drain(app: FastAPI, limit: float = 10.0) -> None:
    """Run every timed event due at the sandbox's current time and wait for what it started."""
    await sandbox_state(app).drain(limit)

"""Opening the service context after the first frame, once, for every screen to wait on.

The service layer, httpx and the sandbox (FastAPI) take most of a second to import: the app
draws its first frame without them and opens the context in a worker; screens that ask
meanwhile wait (:meth:`ContextOpening.wait`).
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lawsuit_tui.config import Settings
    from lawsuit_tui.services.context import ServiceContext

__all__ = ["ContextFactory", "ContextOpening", "ServicesUnavailable", "open_context"]

ContextFactory = Callable[[], Awaitable["ServiceContext"]]
"""Builds the context instead of the settings (tests: the in-process sandbox)."""


class ServicesUnavailable(Exception):
    """The service context could not be opened; the app has shown why."""


def preload_services(sandbox: bool) -> None:
    """Import what opening the context needs (called in a thread: keys typed meanwhile are
    not held up)."""
    importlib.import_module("lawsuit_tui.services.context")
    if sandbox:
        importlib.import_module("lawsuit_tui.sandbox.app")
        importlib.import_module("lawsuit_tui.sandbox.world")


async def open_context(
    settings: Settings, *, force_sandbox: bool, read_only: bool
) -> ServiceContext:
    """The context the settings describe (the sandbox when ``force_sandbox``)."""
    from lawsuit_tui.services.context import ServiceContext

    if force_sandbox and settings.mode != "sandbox":
        settings = settings.model_copy(update={"api_key": None})
    return await ServiceContext.open(settings, read_only=read_only)


class ContextOpening:
    """The context once it is open, and the wait of those who ask before."""

    def __init__(self) -> None:
        self.context: ServiceContext | None = None
        self._future: asyncio.Future[ServiceContext] | None = None

    def _pending(self) -> asyncio.Future[ServiceContext]:
        if self._future is None:
            self._future = asyncio.get_running_loop().create_future()
        return self._future

    async def wait(self) -> ServiceContext:
        """The context; ServicesUnavailable if it could not be opened."""
        if self.context is not None:
            return self.context
        return await asyncio.shield(self._pending())

    def opened(self, context: ServiceContext) -> None:
        self.context = context
        future = self._pending()
        if not future.done():
            future.set_result(context)

    def failed(self, why: str) -> None:
        future = self._pending()
        if not future.done():
            future.set_exception(ServicesUnavailable(why))
            future.exception()  # mark retrieved: screens may never ask

"""Running a command's use case: open the services, run it, close them, answer an exit code.

A failure the user can act on becomes one line on standard error and its exit code
(:mod:`lawsuit_tui.commands.output`); anything else is a bug and raises.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from pydantic import ValidationError

from lawsuit_tui.commands.output import EXIT_BAD_INPUT, EXIT_REFUSED, bad_input_message, error_line
from lawsuit_tui.config import Settings
from lawsuit_tui.i18n import _
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.errors import ApiError, CacheError, InvalidSearchKey

__all__ = ["run_with_context"]


def run_with_context(
    settings: Settings,
    use_case: Callable[[ServiceContext], Awaitable[int]],
    *,
    read_only: bool = False,
) -> int:
    """Open a context, run ``use_case`` in it, close it; map failures to exit codes."""

    async def main() -> int:
        ctx = await ServiceContext.open(settings, read_only=read_only)
        try:
            if ctx.status.cache_message:
                error_line(ctx.status.cache_message)
            return await use_case(ctx)
        finally:
            await ctx.aclose()

    try:
        return asyncio.run(main())
    except (InvalidSearchKey, ValidationError) as exc:
        error_line(bad_input_message(exc))
        return EXIT_BAD_INPUT
    except ApiError as exc:
        error_line(str(exc))
        return EXIT_REFUSED
    except CacheError as exc:
        error_line(_("cache: {problem}").format(problem=exc))
        return EXIT_REFUSED

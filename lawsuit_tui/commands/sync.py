"""`lawsuit-tui sync`: every open request, every tracking and every new response, cached."""

from __future__ import annotations

import argparse

from lawsuit_tui.commands.output import EXIT_OK, ProgressPrinter
from lawsuit_tui.commands.session import run_with_context
from lawsuit_tui.config import Settings
from lawsuit_tui.i18n import _
from lawsuit_tui.services.context import ServiceContext


def run(args: argparse.Namespace, settings: Settings) -> int:
    async def use_case(ctx: ServiceContext) -> int:
        printer = ProgressPrinter()
        report = await ctx.sync.sync(printer)
        printer.finish()
        print(
            _(
                "requests: {requests}; trackings: {trackings}; responses: {new} new of "
                "{read} read; calls: {calls} ({limited} rate limited); {seconds:.1f} s"
            ).format(
                requests=report.requests_updated,
                trackings=report.trackings_updated,
                new=report.responses_new,
                read=report.responses_read,
                calls=report.calls,
                limited=report.rate_limited,
                seconds=report.seconds,
            )
        )
        return EXIT_OK

    # A sync exists to keep what it reads: it does not start when nothing could.
    return run_with_context(settings, use_case, needs_cache=True)

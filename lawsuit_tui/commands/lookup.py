"""`lawsuit-tui lookup KEY [--json]`: the cached lookup, from a script."""

from __future__ import annotations

import argparse
import sys

import orjson

from lawsuit_tui.commands.output import EXIT_BAD_INPUT, EXIT_OK, error_line
from lawsuit_tui.commands.session import run_with_context
from lawsuit_tui.config import Settings
from lawsuit_tui.domain.formatting import format_date
from lawsuit_tui.domain.identifiers import InvalidSearchKey, parse_search_key
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.services.context import ServiceContext


def lawsuit_line(lawsuit: Lawsuit) -> str:
    """One line per lawsuit: number, instance, court, class, status, last step date."""
    last = lawsuit.last_step.step_date if lawsuit.last_step else None
    parts = [
        lawsuit.code,
        _("instance {n}").format(n=lawsuit.instance) if lawsuit.instance else "",
        lawsuit.tribunal_acronym or lawsuit.tribunal or "",
        lawsuit.name or "",
        lawsuit.status or "",
        _("last step {date}").format(date=format_date(last)) if last else "",
    ]
    return "  ".join(p for p in parts if p)


def run(args: argparse.Namespace, settings: Settings) -> int:
    try:
        key = parse_search_key(args.key)
    except InvalidSearchKey as exc:
        error_line(exc.message)
        return EXIT_BAD_INPUT

    async def use_case(ctx: ServiceContext) -> int:
        result = await ctx.lookup.lookup(key)
        if args.json:
            payload = {
                "search_type": key.search_type,
                "search_key": key.key,
                "request_id": result.request_id,
                "has_lawsuits": bool(result.lawsuits),
                "lawsuits": [x.to_json_dict() for x in result.lawsuits],
            }
            sys.stdout.write(orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode() + "\n")
            return EXIT_OK
        count = len(result.lawsuits)
        print(
            ngettext("{n} lawsuit for {key}", "{n} lawsuits for {key}", count).format(
                n=count, key=key.display
            )
        )
        for lawsuit in result.lawsuits:
            print(lawsuit_line(lawsuit))
        return EXIT_OK

    return run_with_context(settings, use_case)

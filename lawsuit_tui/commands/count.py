"""`lawsuit-tui count --kind ... [...]`: the free count service."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import orjson

from lawsuit_tui.commands.output import EXIT_BAD_INPUT, EXIT_OK, error_line
from lawsuit_tui.commands.session import run_with_context
from lawsuit_tui.config import Settings
from lawsuit_tui.domain.bodies import CountBody
from lawsuit_tui.i18n import _
from lawsuit_tui.services.context import ServiceContext


def count_data(args: argparse.Namespace) -> dict[str, Any]:
    """The count body from the command line (absent options left out)."""
    data: dict[str, Any] = {"kind": args.kind}
    # The parser's dest names are plural; the singular (the flag's name) is read too.
    for name in ("tribunals", "budget_years", "natures", "tags"):
        value = getattr(args, name, None) or getattr(args, name[:-1], None)
        if value:
            data[name] = list(value)
    for name in ("amount_min", "amount_max", "amount_tier"):
        value = getattr(args, name, None)
        if value is not None:
            data[name] = value
    return data


def run(args: argparse.Namespace, settings: Settings) -> int:
    data = count_data(args)
    problems = CountBody.problems(data)
    if problems:
        error_line("; ".join(problems))
        return EXIT_BAD_INPUT
    body = CountBody.model_validate(data)

    async def use_case(ctx: ServiceContext) -> int:
        result = await ctx.count.count(body)
        if args.json:
            sys.stdout.write(
                orjson.dumps(result.to_json_dict(), option=orjson.OPT_INDENT_2).decode() + "\n"
            )
        else:
            print(
                _("{total} lawsuits (count request {id}, {status})").format(
                    total=result.total_lawsuits, id=result.request_id, status=result.status
                )
            )
        return EXIT_OK

    return run_with_context(settings, use_case)

"""`lawsuit-tui count --kind ... [...]`: the Miner's free count.

Courts are given as acronyms (``--tribunal TJSP``) or Miner ids (``--tribunal 10``, D127):
acronyms are resolved through the Miner's list (``GET /tribunals``, free). A court that is
neither is bad input (exit 2). ``--json`` prints the service's answer.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import orjson

from lawsuit_tui.commands.output import EXIT_BAD_INPUT, EXIT_OK, error_line
from lawsuit_tui.commands.session import run_with_context
from lawsuit_tui.config import Settings
from lawsuit_tui.domain.bodies import CountBody
from lawsuit_tui.domain.miner import Tribunal
from lawsuit_tui.domain.vocabulary import MINER_STATUS_WORDS, word
from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.services.context import ServiceContext

__all__ = ["body_or_exit", "count_data", "refuse_bad_filter", "resolve_tribunals", "run"]


class BadCourt(ValueError):
    """A --tribunal that names no court of the Miner."""


def count_data(args: argparse.Namespace) -> dict[str, Any]:
    """The Miner filter from the command line (absent options left out; courts as typed)."""
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


def resolve_tribunals(typed: list[Any], courts: list[Tribunal]) -> list[int]:
    """``["TJSP", "10", 1]`` -> Miner ids; :class:`BadCourt` naming what is not a court."""
    by_acronym = {court.name.replace("-", "").upper(): court.tribunal_id for court in courts}
    ids = {court.tribunal_id for court in courts}
    found: list[int] = []
    unknown: list[str] = []
    for value in typed:
        text = str(value).strip()
        if text.isdigit() and int(text) in ids:
            found.append(int(text))
        elif text.replace("-", "").upper() in by_acronym:
            found.append(by_acronym[text.replace("-", "").upper()])
        else:
            unknown.append(text)
    if unknown:
        raise BadCourt(
            _("not a court of the Miner: {courts} (see `lawsuit-tui miner tribunals`)").format(
                courts=", ".join(unknown)
            )
        )
    return list(dict.fromkeys(found))


async def miner_body(ctx: ServiceContext, data: dict[str, Any]) -> CountBody:
    """The filter with its courts as Miner ids (the list is read only when an acronym is
    given); :class:`BadCourt` or the body's ValidationError for bad input."""
    typed = data.get("tribunals") or []
    if typed:
        numeric = all(str(value).strip().isdigit() for value in typed)
        courts = [] if numeric else await ctx.count.tribunals()
        if numeric:
            data = {**data, "tribunals": [int(str(value)) for value in typed]}
        else:
            data = {**data, "tribunals": resolve_tribunals(typed, courts)}
    return CountBody.model_validate(data)


def problems_of(data: dict[str, Any]) -> list[str]:
    """The filter's problems that need no call (courts are checked once resolved)."""
    checked = (
        {**data, "tribunals": [0] * len(data.get("tribunals") or [])}
        if data.get("tribunals")
        else data
    )
    return CountBody.problems(checked)


def refuse_bad_filter(data: dict[str, Any]) -> bool:
    """Say the filter's problems in one line (True), before any call; False when it is sound."""
    problems = problems_of(data)
    if problems:
        error_line("; ".join(problems))
    return bool(problems)


async def body_or_exit(ctx: ServiceContext, data: dict[str, Any]) -> CountBody | int:
    """The body with its courts resolved, or the exit code after saying which is no court."""
    try:
        return await miner_body(ctx, data)
    except BadCourt as exc:
        error_line(str(exc))
        return EXIT_BAD_INPUT


def run(args: argparse.Namespace, settings: Settings) -> int:
    data = count_data(args)
    if refuse_bad_filter(data):
        return EXIT_BAD_INPUT

    async def use_case(ctx: ServiceContext) -> int:
        body = await body_or_exit(ctx, data)
        if isinstance(body, int):
            return body
        result = await ctx.count.count(body)
        if args.json:
            sys.stdout.write(
                orjson.dumps(result.to_json_dict(), option=orjson.OPT_INDENT_2).decode() + "\n"
            )
        else:
            total = result.total_lawsuits or 0
            print(
                ngettext(
                    "{total} lawsuit (count {id}, {status})",
                    "{total} lawsuits (count {id}, {status})",
                    total,
                ).format(
                    total=total,
                    id=result.request_id,
                    status=word(MINER_STATUS_WORDS, result.status),
                )
            )
        return EXIT_OK

    return run_with_context(settings, use_case)

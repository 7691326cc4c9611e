"""`lawsuit-tui miner tribunals | find | status ID | responses ID`: the Miner, headless (D72).

``find`` takes the count's filter (and ``--limit``) and is **paid**: it refuses to run without
``--yes`` (exit 2, before any call); it prints the request id and the credits debited, and with
``--wait`` follows the request to completed (progress on standard error) and prints its
lawsuits as ``responses`` does. ``responses`` prints
every lawsuit of a completed find, one a line (``CNJ  court  amount  parties``), or with
``--json`` one JSON array. The Miner's refusals (INSUFFICIENT_CREDITS, REQUEST_NOT_COMPLETED...)
are one line in words and exit 1.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import orjson

from lawsuit_tui.commands.count import body_or_exit, count_data, refuse_bad_filter
from lawsuit_tui.commands.output import (
    EXIT_BAD_INPUT,
    EXIT_NOTHING_MATCHED,
    EXIT_OK,
    EXIT_REFUSED,
    error_line,
)
from lawsuit_tui.commands.session import run_with_context
from lawsuit_tui.config import Settings
from lawsuit_tui.domain.formatting import format_money
from lawsuit_tui.domain.miner import MinerLawsuit, MinerRequest
from lawsuit_tui.domain.vocabulary import MINER_ERROR_WORDS, MINER_STATUS_WORDS, word
from lawsuit_tui.i18n import _
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.errors import ApiError, NotFound

__all__ = ["run"]


def _print_json(value: Any) -> None:
    sys.stdout.write(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode() + "\n")


def _refused(exc: ApiError) -> int:
    """The Miner's ``{errors: [...]}`` codes in words, one line; a request it does not
    have (its 404, or another key's) is "nothing matched" (D135)."""
    said = [word(MINER_ERROR_WORDS, line) for line in exc.messages] or [str(exc)]
    error_line(" ".join(said))
    return EXIT_NOTHING_MATCHED if isinstance(exc, NotFound) else EXIT_REFUSED


def _print_lawsuits(lawsuits: list[MinerLawsuit]) -> None:
    for item in lawsuits:
        amount = format_money(item.amount) if item.amount is not None else ""
        print(f"{item.code}  {item.tribunal_id}  {amount}  {item.name or ''}")


def _credits(cost: object) -> str:
    if isinstance(cost, float) and cost.is_integer():
        return str(int(cost))
    return str(cost)


def _status_line(state: MinerRequest) -> str:
    return _("request {id} ({type}): {status}, {done} of {total} lawsuits").format(
        id=state.request_id,
        type=state.type or "?",
        status=word(MINER_STATUS_WORDS, state.status),
        done=state.processed_lawsuits or (state.total_lawsuits if state.is_finished else 0),
        total=state.total_lawsuits or 0,
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    command = args.miner_command
    if command == "find":
        return _find(args, settings)

    async def use_case(ctx: ServiceContext) -> int:
        try:
            if command == "tribunals":
                courts = await ctx.count.tribunals()
                if args.json:
                    _print_json([court.to_json_dict() for court in courts])
                else:
                    for court in courts:
                        print(f"{court.tribunal_id:>8}  {court.name:<7} {court.full_name}")
            elif command == "status":
                state = await ctx.count.find_status(args.request_id)
                if args.json:
                    _print_json(state.to_json_dict())
                else:
                    print(_status_line(state))
            else:
                lawsuits = await ctx.count.all_lawsuits(args.request_id)
                if args.json:
                    _print_json([item.to_json_dict() for item in lawsuits])
                else:
                    _print_lawsuits(lawsuits)
        except ApiError as exc:
            return _refused(exc)
        return EXIT_OK

    return run_with_context(settings, use_case)


def _find(args: argparse.Namespace, settings: Settings) -> int:
    data = count_data(args)
    if args.limit is not None:
        data["responses_limit"] = args.limit
    if refuse_bad_filter(data):
        return EXIT_BAD_INPUT
    if not args.yes:
        error_line(
            _(
                "a find request is paid (credits are debited when it is created): "
                "add --yes to create it; `lawsuit-tui count` first is free"
            )
        )
        return EXIT_BAD_INPUT

    async def use_case(ctx: ServiceContext) -> int:
        body = await body_or_exit(ctx, data)
        if isinstance(body, int):
            return body
        final: MinerRequest | None = None
        lawsuits: list[MinerLawsuit] = []
        try:
            created = await ctx.count.create_find(body)
            print(
                _("find request {id} created: {cost} credits debited").format(
                    id=created.request_id, cost=_credits(created.cost)
                ),
                file=sys.stderr if args.json else sys.stdout,
            )
            if args.wait:
                final = await ctx.count.follow_find(
                    created.request_id, lambda s: print(_status_line(s), file=sys.stderr)
                )
                if final.status == "completed":
                    lawsuits = await ctx.count.all_lawsuits(created.request_id)
        except ApiError as exc:
            return _refused(exc)
        if args.json:
            answer = created.to_json_dict()
            if final is not None:
                answer["request"] = final.to_json_dict()
                answer["lawsuits"] = [item.to_json_dict() for item in lawsuits]
            _print_json(answer)
        else:
            _print_lawsuits(lawsuits)
        return EXIT_REFUSED if final is not None and final.status == "failed" else EXIT_OK

    # Paid: refused before the call when nothing could keep what it buys.
    return run_with_context(settings, use_case, needs_cache=True)

"""`lawsuit-tui datalake {entity,count,synthetic,steps,lawsuit} ...`: the lawsuits service's
synchronous routes from a script (D111).

Each answer is kept in the cache with its time; ``--max-age HOURS`` answers from the cache
when it holds a younger answer (no call), ``--offline`` answers from the cache whatever its
age and never calls. What a call cost goes to standard error in text mode and under ``cost``
in JSON. Exit codes (``exit_codes.py``): 0 done, 1 the service said no, 2 bad input (before
any call), 4 nothing by that name (nothing kept offline, no stored copy, no registration
data), 5 paid but not kept; a call is refused before it is made when nothing could keep it.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime, time, timedelta
from typing import Any

import orjson
from pydantic import ValidationError

from lawsuit_tui.commands.datalake_text import entity_lines, steps_lines, synthetic_lines
from lawsuit_tui.commands.lookup import lawsuit_line
from lawsuit_tui.commands.output import (
    EXIT_BAD_INPUT,
    EXIT_NOTHING_MATCHED,
    EXIT_OK,
    bad_input_message,
    error_line,
)
from lawsuit_tui.commands.session import run_with_context
from lawsuit_tui.config import Settings
from lawsuit_tui.domain.datalake import DatalakeSearch, StepsCountBody
from lawsuit_tui.domain.formatting import format_datetime, format_int, parse_date_br
from lawsuit_tui.domain.identifiers import InvalidSearchKey, SearchKey, parse_search_key
from lawsuit_tui.domain.requests import Filter
from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.datalake import Kept, entity_key, lawsuit_filter

__all__ = ["filter_of", "run"]


class _BadInput(ValueError):
    pass


def _day(text: str | None, *, end: bool) -> datetime | None:
    if not text:
        return None
    try:
        day = parse_date_br(text)
    except ValueError as exc:
        raise _BadInput(str(exc)) from None
    return datetime.combine(day, time(23, 59, 59) if end else time.min, tzinfo=UTC)


def filter_of(args: argparse.Namespace) -> Filter | None:
    """The datalake filter the options ask for; None when they ask for none."""
    if args.tribunals and args.excluded_tribunals:
        raise _BadInput(_("--tribunal and --exclude-tribunal cannot be used together"))
    return lawsuit_filter(
        side=args.side,
        tribunals=args.tribunals,
        excluded_tribunals=args.excluded_tribunals,
        class_codes=args.class_codes,
        subject_codes=args.subject_codes,
        distributed_from=_day(args.distributed_from, end=False),
        distributed_to=_day(args.distributed_to, end=True),
        amount_min=args.amount_min,
        amount_max=args.amount_max,
    )


def _cost(kept: Kept[Any]) -> dict[str, Any]:
    return {
        "calls": kept.cost.calls,
        "on_demand": kept.cost.on_demand,
        "from_cache": kept.from_cache,
        "fetched_at": kept.fetched_at.isoformat(),
    }


def _print_json(payload: dict[str, Any]) -> None:
    sys.stdout.write(orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode() + "\n")


def _print_cost(kept: Kept[Any]) -> None:
    when = format_datetime(kept.fetched_at)
    print(
        _("{cost}; answer of {when}").format(cost=kept.cost.describe(), when=when),
        file=sys.stderr,
    )


def _nothing_kept(what: str) -> int:
    error_line(
        _("nothing kept in the cache for {what}; run again without --offline").format(what=what)
    )
    return EXIT_NOTHING_MATCHED


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Check the input (exit 2 before any call), then run the action."""
    try:
        action = _prepare(args)
    except (InvalidSearchKey, ValidationError, _BadInput) as exc:
        error_line(bad_input_message(exc))
        return EXIT_BAD_INPUT
    # Every datalake call is paid (D108): refused before any call when nothing could keep the
    # answer; --offline only reads what the cache kept.
    return run_with_context(settings, action, needs_cache=not args.offline)


def _age(args: argparse.Namespace) -> timedelta | None:
    return timedelta(hours=args.max_age) if args.max_age else None


def _prepare(args: argparse.Namespace) -> Any:
    command = args.datalake_command
    if command == "entity":
        return _entity(args, entity_key(args.key))
    if command in ("count", "synthetic"):
        key = parse_search_key(args.key)
        flt = filter_of(args)
        DatalakeSearch.of(key.search_type, key.key, flt)  # the filter's rules, before any call
        return _counted(args, key, flt)
    if command == "steps":
        return _steps(args, StepsCountBody(lawsuit_cnj=args.numbers).lawsuit_cnj)
    key = parse_search_key(args.number)
    if key.search_type != "lawsuit_cnj":
        raise _BadInput(_("{key} is not a CNJ number").format(key=key.display))
    return _lawsuit(args, key)


def _entity(args: argparse.Namespace, key: SearchKey) -> Any:
    async def use_case(ctx: ServiceContext) -> int:
        service = ctx.datalake
        if args.offline:
            kept = service.kept_entity(key, on_demand=args.on_demand)
            if kept is None:
                return _nothing_kept(key.display)
        else:
            kept = await service.entity(
                key,
                on_demand=args.on_demand,
                reveal_partners=args.reveal_partners,
                max_age=_age(args),
            )
        answer = kept.value
        if args.json:
            _print_json(
                {
                    "search_type": key.search_type,
                    "search_key": key.key,
                    "request_id": answer.request_id,
                    "has_lawsuits": answer.has_lawsuits,
                    "entities": [e.to_json_dict() for e in answer.response_data],
                    "cost": _cost(kept),
                }
            )
            return EXIT_OK if answer.response_data else EXIT_NOTHING_MATCHED
        if not answer.response_data:
            print(_("No registration data for {key}.").format(key=key.display))
            _print_cost(kept)
            return EXIT_NOTHING_MATCHED
        for number, entity in enumerate(answer.response_data):
            if number:
                print()
            print("\n".join(entity_lines(entity)))
        _print_cost(kept)
        return EXIT_OK

    return use_case


def _counted(args: argparse.Namespace, key: SearchKey, flt: Filter | None) -> Any:
    """``count`` or ``synthetic``: the same question (a key and a filter), two answers."""
    count = args.datalake_command == "count"

    async def use_case(ctx: ServiceContext) -> int:
        service = ctx.datalake
        kept: Kept[Any] | None
        if args.offline:
            kept = service.kept_count(key, flt) if count else service.kept_synthetic(key, flt)
        elif count:
            kept = await service.count(key, flt, max_age=_age(args))
        else:
            kept = await service.synthetic(key, flt, max_age=_age(args))
        if kept is None:
            return _nothing_kept(key.display)
        value: Any = kept.value
        if args.json:
            search = DatalakeSearch.of(key.search_type, key.key, flt)
            payload: dict[str, Any] = {
                "search_type": key.search_type,
                "search_key": key.key,
                "filter": (search.to_wire().get("search_params") or {}).get("filter"),
            }
            if count:
                payload["total"] = value
            else:
                payload["aggregations"] = value.to_json_dict()
            _print_json({**payload, "cost": _cost(kept)})
            return EXIT_OK
        if count:
            print(
                ngettext("{n} lawsuit for {key}", "{n} lawsuits for {key}", value).format(
                    n=format_int(value), key=key.display
                )
            )
        else:
            print("\n".join(synthetic_lines(value)))
        _print_cost(kept)
        return EXIT_OK

    return use_case


def _steps(args: argparse.Namespace, numbers: list[str]) -> Any:
    async def use_case(ctx: ServiceContext) -> int:
        age = _age(args)
        if args.offline:
            age = timedelta.max  # any kept answer will do
            missing = [n for n in numbers if ctx.datalake.kept_steps(n) is None]
            if missing:
                return _nothing_kept(", ".join(missing))
        kept = await ctx.datalake.steps_count(numbers, max_age=age)
        if args.json:
            _print_json({"items": [i.to_json_dict() for i in kept.value], "cost": _cost(kept)})
            return EXIT_OK
        print("\n".join(steps_lines(kept.value)))
        _print_cost(kept)
        return EXIT_OK

    return use_case


def _lawsuit(args: argparse.Namespace, key: SearchKey) -> Any:
    async def use_case(ctx: ServiceContext) -> int:
        kept = (
            ctx.datalake.kept_lawsuit_copy(key.key, args.instance)
            if args.offline
            else await ctx.datalake.lawsuit_copy(key.key, args.instance, max_age=_age(args))
        )
        if kept is None:
            return _nothing_kept(key.display)
        lawsuit = kept.value
        if args.json:
            _print_json(
                {
                    "lawsuit_cnj": key.key,
                    "lawsuit": lawsuit.to_json_dict() if lawsuit is not None else None,
                    "cost": _cost(kept),
                }
            )
            return EXIT_OK if lawsuit is not None else EXIT_NOTHING_MATCHED
        if lawsuit is None:
            error_line(_("the service holds no stored copy of {code}").format(code=key.display))
            return EXIT_NOTHING_MATCHED
        print(lawsuit_line(lawsuit))
        updated = lawsuit.updated_at
        if updated:
            print(_("stored copy updated {when}").format(when=format_datetime(updated)))
        _print_cost(kept)
        return EXIT_OK

    return use_case

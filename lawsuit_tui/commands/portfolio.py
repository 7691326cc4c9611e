"""``lawsuit-tui portfolio ...``: import a portfolio file, see its status, change it in bulk.

- ``import FILE [--tier NAME] [--dry-run] [--json] [--chunk-size N]``: every row checked
  before anything is sent; the preview (invalid rows and why, duplicates, rows tracked already,
  the runs a month per tier) on standard output; then the trackings created in bulk, progress
  on standard error. Safe to run again after Ctrl-C or a kill: only what is missing is made.
- ``status [--json]``: counts by tier and status, and the runs a month.
- ``pause|resume|delete|set-tier TIER`` over a selection (``--tier``, ``--tag``, ``--status``,
  ``--court``, ``--file``; together they all must hold), confirmed by ``--yes`` or, on a
  terminal, by answering the question that says how many and what changes.

Exit codes: 0 every valid row tracked / every selected tracking changed; 1 the service refused
some, or could not be reached to finish (run it again); 2 a bad file, configuration or usage.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson

from lawsuit_tui.commands.output import (
    EXIT_BAD_INPUT,
    EXIT_NOTHING_MATCHED,
    EXIT_OK,
    EXIT_REFUSED,
    ProgressPrinter,
    error_line,
)
from lawsuit_tui.commands.session import run_with_context
from lawsuit_tui.config import Settings
from lawsuit_tui.domain.formatting import format_int
from lawsuit_tui.domain.portfolio import ImportRow, PortfolioCheck
from lawsuit_tui.domain.vocabulary import TRACKING_STATUS_WORDS, word
from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.errors import ApiError, OperationNotAvailable
from lawsuit_tui.services.portfolio import (
    ChangePlan,
    PortfolioConfigError,
    PortfolioEntry,
    PortfolioStatus,
    Selection,
    describe_change,
    runs_text,
    tier_word,
)
from lawsuit_tui.services.portfolio_files import PortfolioFileError
from lawsuit_tui.services.portfolio_import import (
    ImportOutcome,
    ImportPlan,
    ImportProgress,
    rows_summary,
)
from lawsuit_tui.services.results import Progress

__all__ = ["run"]

# How many invalid rows the human preview lists (all of them are in --json).
SHOWN_PROBLEMS = 50
OPERATION_OF = {"pause": "pause", "resume": "resume", "delete": "delete", "set-tier": "set_tier"}


def run(args: argparse.Namespace, settings: Settings) -> int:
    action = args.portfolio_command
    if action == "import":
        return _import(args, settings)
    if action == "status":
        return _status(args, settings)
    return _change(args, settings)


def _dump(value: Any) -> None:
    sys.stdout.write(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode() + "\n")


# --- import ---------------------------------------------------------------------------------


def _row_json(row: ImportRow) -> dict[str, Any]:
    return {"row": row.number, "key": row.text}


def import_report(
    path: str, plan: ImportPlan, outcome: ImportOutcome | None, *, dry_run: bool
) -> dict[str, Any]:
    """The one object ``import --json`` prints."""
    check = plan.check
    runs = plan.monthly_runs()
    report: dict[str, Any] = {
        "file": path,
        "dry_run": dry_run,
        "rows": len(check.rows),
        "valid": len(check.valid),
        "invalid": [
            {**_row_json(r), "code": r.problem.code, "error": r.problem.message}
            for r in check.invalid
            if r.problem is not None
        ],
        "duplicates": [{**_row_json(r), "same_as": r.duplicate_of} for r in check.duplicates],
        "by_tier": check.by_tier(plan.to_create),
        "monthly_runs": {
            **{name: round(value, 1) for name, value in runs.items()},
            "total": round(sum(runs.values()), 1),
        },
    }
    if outcome is None:
        report["already_tracked"] = [
            {**_row_json(r), "tracking_id": tid} for r, tid in plan.already_tracked
        ]
        report["to_create"] = len(plan.to_create)
        report["created"] = []
        report["failed"] = []
    else:
        report["already_tracked"] = [
            {**_row_json(r), "tracking_id": tid} for r, tid in outcome.already
        ]
        report["created"] = [{**_row_json(r), "tracking_id": tid} for r, tid in outcome.created]
        report["failed"] = [
            {**_row_json(r), "code": code, "error": message} for r, code, message in outcome.failed
        ]
        report["reconciled"] = outcome.reconciled
        report["calls"] = outcome.calls
        report["rate_limited"] = outcome.rate_limited
    return report


def _print_preview(path: str, plan: ImportPlan) -> None:
    check = plan.check
    print(rows_summary(path, check))
    for row in check.invalid[:SHOWN_PROBLEMS]:
        message = row.problem.message if row.problem else ""
        print(_("  row {row}: {key} · {error}").format(row=row.number, key=row.text, error=message))
    if len(check.invalid) > SHOWN_PROBLEMS:
        rest = len(check.invalid) - SHOWN_PROBLEMS
        print(
            ngettext(
                "  … and {n} more invalid row (--json lists them all)",
                "  … and {n} more invalid rows (--json lists them all)",
                rest,
            ).format(n=format_int(rest))
        )
    print(_("Tracked already: {n}").format(n=format_int(len(plan.already_tracked))))
    counts = check.by_tier(plan.to_create)
    runs = plan.monthly_runs()
    parts = [
        _("{tier} {n} (+{runs} runs a month)").format(
            tier=tier_word(name), n=format_int(n), runs=runs_text(runs.get(name, 0.0))
        )
        for name, n in counts.items()
    ]
    print(
        _("To create: {n}").format(n=format_int(len(plan.to_create)))
        + (": " + "; ".join(parts) if parts else "")
    )
    print(_("Runs a month added: {runs}").format(runs=runs_text(sum(runs.values()))))
    if plan.open_intents:
        print(
            ngettext(
                "An earlier import was interrupted ({n} call of unknown outcome): it is "
                "checked against the service before anything is sent.",
                "An earlier import was interrupted ({n} calls of unknown outcome): they are "
                "checked against the service before anything is sent.",
                plan.open_intents,
            ).format(n=plan.open_intents)
        )


def _progress_printer(printer: ProgressPrinter) -> Callable[[ImportProgress], None]:
    def show(progress: ImportProgress) -> None:
        message = progress.message
        if progress.eta_seconds is not None:
            message += " · " + _("about {seconds} s left").format(
                seconds=format_int(round(progress.eta_seconds))
            )
        printer(
            Progress(
                progress.done,
                progress.total,
                progress.calls,
                progress.waiting_for_rate_limit,
                message,
            )
        )

    return show


def _import(args: argparse.Namespace, settings: Settings) -> int:
    path = Path(args.file).expanduser()

    async def use_case(ctx: ServiceContext) -> int:
        try:
            importer = ctx.portfolio_importer(chunk_size=args.chunk_size)
            if args.tier is not None:
                name = importer.tiers.resolve(args.tier)
                if name is None:
                    raise PortfolioConfigError(
                        _("--tier: {name!r} is not a tier (known: {known})").format(
                            name=args.tier, known=importer.tiers.known()
                        )
                    )
                importer.tiers = replace(importer.tiers, default=name)
            check: PortfolioCheck = await importer.read(path)
        except (PortfolioFileError, PortfolioConfigError) as exc:
            error_line(str(exc))
            return EXIT_BAD_INPUT
        if not check.rows:
            error_line(_("{file}: no rows to import").format(file=path))
            return EXIT_BAD_INPUT
        plan = await importer.plan(check)
        if not args.json:
            _print_preview(str(path), plan)
        if args.dry_run:
            if args.json:
                _dump(import_report(str(path), plan, None, dry_run=True))
            return EXIT_OK
        printer = ProgressPrinter()
        try:
            outcome = await importer.run(plan, _progress_printer(printer))
        except OperationNotAvailable:
            printer.finish()
            error_line(_("this service does not create trackings in bulk (POST /tracking/bulk)"))
            return EXIT_REFUSED
        except ApiError as exc:
            printer.finish()
            error_line(
                _("{problem}; nothing is lost: run the import again to finish it").format(
                    problem=exc
                )
            )
            return EXIT_REFUSED
        printer.finish()
        if args.json:
            _dump(import_report(str(path), plan, outcome, dry_run=False))
        else:
            _print_outcome(outcome)
        return EXIT_OK if outcome.complete else EXIT_REFUSED

    # Paid, once per key (D160): refused before any call when nothing could keep its record.
    return run_with_context(settings, use_case, needs_cache=not args.dry_run)


def _print_outcome(outcome: ImportOutcome) -> None:
    print(
        _("Created {created} · tracked already {already} · refused {failed}").format(
            created=format_int(len(outcome.created)),
            already=format_int(len(outcome.already)),
            failed=format_int(len(outcome.failed)),
        )
    )
    if outcome.reconciled:
        print(
            _("{n} of them were found at the service after an interrupted call").format(
                n=format_int(outcome.reconciled)
            )
        )
    for row, _code, message in outcome.failed[:SHOWN_PROBLEMS]:
        print(_("  row {row}: {key} · {error}").format(row=row.number, key=row.text, error=message))


# --- status ---------------------------------------------------------------------------------


def status_report(status: PortfolioStatus, tracked_items: int | None = None) -> dict[str, Any]:
    return {
        "tracked_items": tracked_items,
        "total": status.total,
        "by_tier": {
            name or "": {
                "count": count,
                "by_status": status.by_tier_status.get(name, {}),
                "monthly_runs": round(status.monthly_runs.get(name, 0.0), 1),
            }
            for name, count in status.by_tier.items()
        },
        "by_status": status.by_status,
        "monthly_runs": round(status.total_runs, 1),
    }


def _status(args: argparse.Namespace, settings: Settings) -> int:
    async def use_case(ctx: ServiceContext) -> int:
        entries = await ctx.portfolio.refresh()
        status = ctx.portfolio.status(entries)
        items = await ctx.trackings.tracked_item_count()
        if args.json:
            _dump(status_report(status, items))
            return EXIT_OK
        print(
            ngettext("{n} tracking", "{n} trackings", status.total).format(
                n=format_int(status.total)
            )
            + " · "
            + _("{runs} runs a month").format(runs=runs_text(status.total_runs))
            + (
                ""
                if items is None
                else " · "
                + ngettext(
                    "{n} lawsuit instance followed", "{n} lawsuit instances followed", items
                ).format(n=format_int(items))
            )
        )
        for name, count in status.by_tier.items():
            statuses = ", ".join(
                f"{word(TRACKING_STATUS_WORDS, s)} {format_int(n)}"
                for s, n in sorted(status.by_tier_status.get(name, {}).items())
            )
            print(
                _("  {tier}: {n} ({statuses}) · {runs} runs a month").format(
                    tier=tier_word(name),
                    n=format_int(count),
                    statuses=statuses,
                    runs=runs_text(status.monthly_runs.get(name, 0.0)),
                )
            )
        return EXIT_OK

    return run_with_context(settings, use_case)


# --- bulk changes ---------------------------------------------------------------------------


def _selection(args: argparse.Namespace, keys: frozenset[tuple[str, str]] | None) -> Selection:
    return Selection(
        tier=args.select_tier,
        label=args.tag,
        status=args.status,
        court=args.court,
        keys=keys,
    )


def _confirmed(question: str) -> bool:
    print(question + " " + _("[y/N]"), end=" ", flush=True)
    try:
        answer = input()
    except EOFError:
        return False
    return answer.strip().casefold() in ("y", "yes", "s", "sim")


def _entry_json(entry: PortfolioEntry) -> dict[str, Any]:
    return {"tracking_id": entry.tracking_id, "key": entry.display, "tier": entry.tier}


def _change(args: argparse.Namespace, settings: Settings) -> int:
    operation = OPERATION_OF[args.portfolio_command]
    if not any((args.select_tier, args.tag, args.status, args.court, args.file)):
        error_line(_("say which trackings: --tier, --tag, --status, --court or --file"))
        return EXIT_BAD_INPUT
    if not args.yes and not sys.stdin.isatty():
        error_line(_("add --yes to change trackings without a question (no terminal to ask)"))
        return EXIT_BAD_INPUT

    keys_file = Path(args.file).expanduser() if args.file else None

    async def use_case(ctx: ServiceContext) -> int:
        keys: frozenset[tuple[str, str]] | None = None
        try:
            tiers = ctx.portfolio.tiers
            target = None
            if operation == "set_tier":
                target = tiers.resolve(args.new_tier)
                if target is None:
                    raise PortfolioConfigError(
                        _("{name!r} is not a tier (known: {known})").format(
                            name=args.new_tier, known=tiers.known()
                        )
                    )
            if args.select_tier is not None:
                args.select_tier = tiers.resolve(args.select_tier) or args.select_tier
            if keys_file is not None:
                check = await ctx.portfolio_importer().read(keys_file)
                keys = frozenset(row.identity for row in check.valid if row.identity)
        except (PortfolioFileError, PortfolioConfigError) as exc:
            error_line(str(exc))
            return EXIT_BAD_INPUT
        entries = await ctx.portfolio.refresh()
        chosen = ctx.portfolio.select(entries, _selection(args, keys))
        plan = ctx.portfolio.plan(operation, chosen, target)
        question = describe_change(plan)
        if not chosen:  # nothing matched the selection (D135's 4); none to change is a 0
            if args.json:
                _dump(_change_report(plan, None))
            else:
                print(_("Nothing to change: {what}").format(what=question))
            return EXIT_NOTHING_MATCHED
        if not plan.affected:
            if args.json:
                _dump(_change_report(plan, None))
            else:
                print(_("Nothing to change: {what}").format(what=question))
            return EXIT_OK
        if not args.yes and not _confirmed(question + "?"):
            error_line(_("nothing changed"))
            return EXIT_BAD_INPUT
        printer = ProgressPrinter()

        def progress(done: int, total: int) -> None:
            printer(Progress(done, total, ctx.api.stats.calls, False, _("Changing trackings")))

        outcome = await ctx.portfolio.apply(plan, progress)
        printer.finish()
        if args.json:
            _dump(_change_report(plan, outcome))
        else:
            print(
                _("Changed {done} of {n}; refused {failed}").format(
                    done=format_int(len(outcome.done)),
                    n=format_int(len(plan.affected)),
                    failed=format_int(len(outcome.failed)),
                )
            )
            for entry, message in outcome.failed[:SHOWN_PROBLEMS]:
                print(f"  {entry.display}: {message}")
            if outcome.partial:
                print(
                    _(
                        "{n} moved without their step terms or fixed time: the service "
                        "refused to change those"
                    ).format(n=format_int(len(outcome.partial)))
                )
        return EXIT_OK if not outcome.failed else EXIT_REFUSED

    return run_with_context(settings, use_case)


def _change_report(plan: ChangePlan, outcome: Any) -> dict[str, Any]:
    report: dict[str, Any] = {
        "operation": plan.operation,
        "tier": plan.tier,
        "selected": len(plan.entries),
        "affected": len(plan.affected),
        "unchanged": plan.unchanged,
        "monthly_runs_before": round(plan.runs_before, 1),
        "monthly_runs_after": round(plan.runs_after, 1),
        "done": [],
        "failed": [],
        "partial": [],
    }
    if outcome is not None:
        report["done"] = [_entry_json(e) for e in outcome.done]
        report["failed"] = [{**_entry_json(e), "error": m} for e, m in outcome.failed]
        report["partial"] = [_entry_json(e) for e in outcome.partial]
    return report

"""``lawsuit-tui inbox``: the inbox's movements for cron and e-mail (D175).

First asks the service for new movements (the poll of D173; ``--no-check`` skips it), then
prints what the filter keeps, newest first: a table (the default), ``--format json`` (one
object, every field) or ``--format csv`` (for a Brazilian spreadsheet, D176: redirect it to a
file). ``--mark-read`` marks what was printed as read, once it is printed.

WHEN (``--since``, ``--until``) is ``today``/``hoje``, ``yesterday``/``ontem``, a duration
back from now (``24h``, ``7d``, ``30m``, ``2w``), a date (``21/11/2026``, ``2026-11-21``:
its midnight where the user is) or an ISO date-time.

The table prints nothing at all when nothing matched, so that cron mails only when something
moved. Exit codes (commands/exit_codes.py): 0 done; 4 nothing matched (JSON and CSV still
print their empty document); 1 the service or the cache said no; 2 bad usage or input, before
any call; 5 the read marks could not be kept (beside the process that holds the cache they are
handed to it).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Callable
from datetime import UTC, datetime

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
from lawsuit_tui.domain.enums import TierName
from lawsuit_tui.domain.formatting import display_zone, format_datetime, format_int
from lawsuit_tui.domain.inbox import InboxFilter, Movement, fold, parse_when
from lawsuit_tui.domain.vocabulary import MOVEMENT_KIND_WORDS, TIER_WORDS, word
from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.inbox_export import csv_chunks, json_chunks, read_in_chunks
from lawsuit_tui.services.results import Progress

__all__ = ["FORMATS", "run", "table_lines"]

FORMATS = ("table", "json", "csv")
_TABLE_WIDTH = 120  # when the output is not a terminal (a mail, a file)


def _moment(text: str | None, name: str, now: datetime) -> datetime | None:
    if text is None:
        return None
    try:
        return parse_when(text, now=now, zone=display_zone())
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None


def _tier(text: str | None) -> str | None:
    """The tier as cached (``hot``), also when typed as the interface names it (``quente``)."""
    if text is None:
        return None
    typed = fold(text.strip())
    for code in TierName:
        if typed == fold(word(TIER_WORDS, code)):
            return code.value
    return text.strip()


def _what(movement: Movement) -> str:
    if movement.error_code:
        return f"{word(MOVEMENT_KIND_WORDS, movement.kind)}: {movement.error_code}"
    if not movement.steps:
        return word(MOVEMENT_KIND_WORDS, movement.kind)
    newest = movement.steps[0]
    text = " ".join(newest.content.split())
    line = f"{newest.step_type}: {text}" if newest.step_type else text
    more = len(movement.steps) - 1
    return f"(+{more}) {line}" if more else line


def table_lines(movements: list[Movement], width: int) -> list[str]:
    """The table: when, court, tier, lawsuit, terms, what moved (cut to ``width``)."""
    header = [_("Received"), _("Court"), _("Tier"), _("Lawsuit"), _("Step terms found"), _("Step")]
    rows = [
        [
            ("* " if m.unread else "  ") + format_datetime(m.received_at),
            m.court,
            word(TIER_WORDS, m.tier) if m.tier else "",
            m.code,
            ", ".join(m.terms),
            _what(m),
        ]
        for m in movements
    ]
    widths = [max([len(header[i])] + [len(row[i]) for row in rows]) for i in range(5)]
    widths[0] = max(widths[0], 18)
    lines = []
    for row in [header, *rows]:
        head = "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:5]))
        line = f"{head}  {row[5]}"
        lines.append(line if len(line) <= width else line[: width - 1] + "…")
    return lines


def _progress(printer: ProgressPrinter, ctx: ServiceContext) -> Callable[[int, int], None]:
    """The poll's progress (trackings asked) as the other commands show theirs."""
    api = ctx.api
    calls_before = api.stats.calls

    def tell(done: int, total: int) -> None:
        printer(
            Progress(
                done=done,
                total=total,
                calls=api.stats.calls - calls_before,
                waiting_for_rate_limit=api.limiter.waiting > 0,
                message=_("asking for new movements"),
            )
        )

    return tell


def run(args: argparse.Namespace, settings: Settings) -> int:
    fmt = getattr(args, "format", "table")
    try:  # bad input is one line and exit 2, before anything opens (checked again below)
        _moment(args.since, "--since", datetime.now(UTC))
        _moment(args.until, "--until", datetime.now(UTC))
    except ValueError as exc:
        error_line(str(exc))
        return EXIT_BAD_INPUT

    async def use_case(ctx: ServiceContext) -> int:
        inbox = ctx.inbox
        now = inbox.now()
        try:
            since = _moment(args.since, "--since", now)
            until = _moment(args.until, "--until", now)
        except ValueError as exc:
            error_line(str(exc))
            return EXIT_BAD_INPUT
        if args.mark_read and not ctx.cache.writable:
            error_line(_("--mark-read: the cache is held by another process; nothing was marked."))
            return EXIT_REFUSED
        if not args.no_check:
            printer = ProgressPrinter()
            outcome = await inbox.poll(_progress(printer, ctx))
            printer.finish()
            if outcome.new:
                printer.line(
                    ngettext("{n} new movement.", "{n} new movements.", len(outcome.new)).format(
                        n=format_int(len(outcome.new))
                    )
                )
        chosen = InboxFilter(
            tier=_tier(args.tier),
            court=args.court,
            term=args.term,
            tracking_id=args.tracking,
            unread=args.unread,
            since=since,
            until=until,
            text=args.search or "",
        )
        ids = inbox.select(chosen)
        out = sys.stdout.buffer
        if fmt == "json":
            for chunk in json_chunks(read_in_chunks(ids, inbox.movements), len(ids), now):
                out.write(chunk)
        elif fmt == "csv":
            for chunk in csv_chunks(read_in_chunks(ids, inbox.movements)):
                out.write(chunk)
        else:
            width = shutil.get_terminal_size((_TABLE_WIDTH, 24)).columns
            if not sys.stdout.isatty():
                width = _TABLE_WIDTH
            movements = list(read_in_chunks(ids, inbox.movements))
            if not movements:
                return EXIT_NOTHING_MATCHED  # silent: cron mails only when something moved
            for line in table_lines(movements, width):
                out.write((line + "\n").encode())
            unread = sum(1 for m in movements if m.unread)
            summary = ngettext("{n} movement", "{n} movements", len(ids)).format(
                n=format_int(len(ids))
            )
            summary += " · " + ngettext("{n} unread", "{n} unread", unread).format(
                n=format_int(unread)
            )
            out.write((summary + "\n").encode())
        out.flush()
        if args.mark_read and ids:
            marked = await inbox.mark(ids)
            error_line(
                ngettext("{n} movement marked read.", "{n} movements marked read.", marked).format(
                    n=format_int(marked)
                )
            )
        return EXIT_OK if ids else EXIT_NOTHING_MATCHED

    return run_with_context(settings, use_case)

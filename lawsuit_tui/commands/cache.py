"""`lawsuit-tui cache {stats,prune,path,verify [--acknowledge],recover [--all]}`.

The use cases are ``services/cache_maintenance.py`` and ``services/paid_calls.py``; here,
what is printed and the exit code. stats and verify open the cache read-only, so they work
while the app or the webhook receiver holds it; prune needs the writer lock and says so when
another process has it; recover brings the record of paid calls into the cache (through
the holder, when another process holds it).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from lawsuit_tui.commands.output import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_REFUSED,
    cache_refusal,
    error_line,
    human_size,
)
from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.services.cache_maintenance import cache_stats, prune_cache, verify_cache
from lawsuit_tui.services.errors import CacheError, CacheLocked
from lawsuit_tui.services.paths import CacheSettings, cache_path


def _stats(directory: Path) -> int:
    stats: dict[str, Any] = cache_stats(directory)
    print(_("Cache: {path}").format(path=stats["path"]))
    print(_("Schema version: {version}").format(version=stats["schema_version"]))
    labels = {
        "requests": _("Requests"),
        "responses": _("Responses"),
        "lawsuits": _("Lawsuits"),
        "trackings": _("Trackings"),
        "deliveries": _("Webhook deliveries"),
        "quarantine": _("Quarantined deliveries"),
        "count_requests": _("Count requests"),
        "vault": _("Vault snapshots"),
    }
    for table, label in labels.items():
        print(f"{label}: {stats['counts'].get(table, 0)}")
    print(_("Provisional lawsuits: {n}").format(n=stats["provisional_lawsuits"]))
    print(
        _("On disk: {size} in {files} files (journal {journal})").format(
            size=human_size(stats["bytes_on_disk"]),
            files=stats["files"],
            journal=human_size(stats["bytes_journal"]),
        )
    )
    for item in stats["set_aside"]:
        if item.acknowledged:
            print(_("Set aside (damaged, acknowledged): {name}").format(name=item.name))
        else:
            print(_("Set aside (damaged, not acknowledged): {name}").format(name=item.name))
    for problem in stats["problems"]:
        print(_("Problem: {problem}").format(problem=problem))
    return EXIT_OK


def _prune(directory: Path, days: int) -> int:
    if days < 0:
        error_line(_("--older-than must be 0 or more days."))
        return EXIT_BAD_INPUT
    removed = prune_cache(directory, days)
    print(_("Removed {n} records stored more than {days} days ago.").format(n=removed, days=days))
    return EXIT_OK


def _verify(directory: Path, *, acknowledge: bool) -> int:
    report = verify_cache(directory, acknowledge=acknowledge)
    for name in report.acknowledged:
        print(_("Acknowledged (kept for inspection, no longer reported): {name}").format(name=name))
    for problem in report.problems:
        print(_("Problem: {problem}").format(problem=problem))
    for item in report.waiting:
        print(
            _("Damaged and set aside, not yet acknowledged: {name} ({size})").format(
                name=item.name, size=human_size(item.size)
            )
        )
    if report.clean:
        print(_("Cache verified: every file could be read."))
        return EXIT_OK
    found = len(report.problems) + len(report.waiting)
    print(ngettext("{n} problem found.", "{n} problems found.", found).format(n=found))
    if report.waiting:
        print(
            _(
                "What those files held that could be read was kept in the cache. Once you "
                "have looked at them, 'lawsuit-tui cache verify --acknowledge' stops the "
                "warnings (the files stay where they are)."
            )
        )
    return EXIT_REFUSED


def _recover(args: argparse.Namespace, settings: Any) -> int:
    # The record is brought in by every command that opens the services (session.py);
    # this one only does that, and says what it found.
    from lawsuit_tui.commands.session import describe_recovery, kind_word, run_with_context
    from lawsuit_tui.services.context import ServiceContext

    every = bool(getattr(args, "all", False))

    async def use_case(ctx: ServiceContext) -> int:
        report = await ctx.paid_calls.recover(from_start=every)
        for line in describe_recovery(report):
            print(line)
        for kind, ids in report.listed:
            print(
                _("recorded, nothing to bring into the cache: {what} {ids}").format(
                    what=kind_word(kind), ids=", ".join(ids) or "-"
                )
            )
        print(
            _(
                "Record of paid calls: {path}; {read} line(s) looked at, {recovered} brought "
                "into the cache, {present} already there."
            ).format(
                path=ctx.paid_calls.path,
                read=report.read_lines,
                recovered=len(report.recovered),
                present=report.present,
            )
        )
        return EXIT_REFUSED if report.problems else EXIT_OK

    return run_with_context(settings, use_case, needs_cache=True, recover_first=False)


def run(args: argparse.Namespace, settings: CacheSettings) -> int:
    directory = cache_path(settings)
    command = getattr(args, "cache_command", None) or "stats"
    try:
        if command == "path":
            print(directory)
            return EXIT_OK
        if command == "stats":
            return _stats(directory)
        if command == "prune":
            days = getattr(args, "older_than", None)
            if days is None:
                error_line(_("prune needs --older-than DAYS."))
                return EXIT_BAD_INPUT
            return _prune(directory, int(days))
        if command == "verify":
            return _verify(directory, acknowledge=bool(getattr(args, "acknowledge", False)))
        if command == "recover":
            return _recover(args, settings)
    except BrokenPipeError:
        raise  # the reader of standard output went away: cli.py ends quietly
    except CacheLocked as exc:
        error_line(str(exc))
        return EXIT_REFUSED
    except (CacheError, OSError) as exc:
        return cache_refusal(exc, directory)
    error_line(_("Unknown cache command: {name}").format(name=command))
    return EXIT_BAD_INPUT

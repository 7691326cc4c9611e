"""`lawsuit-tui cache {stats,prune --older-than DAYS,path,verify}`: look after the local cache.

stats and verify open the cache read-only, so they work while the TUI or the webhook
receiver holds it; prune needs the writer lock and says so when another process has it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Protocol

from lawsuit_tui.i18n import _
from lawsuit_tui.services.paths import cache_path
from lawsuit_tui.store import CacheError, CacheLocked, Store


class _Settings(Protocol):
    @property
    def cache_dir(self) -> Path: ...

    @property
    def mode(self) -> str: ...


def _human(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


def _stats(directory: Path) -> int:
    with Store.open(directory, read_only=True) as store:
        stats: dict[str, Any] = store.stats()
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
            size=_human(stats["bytes_on_disk"]),
            files=stats["files"],
            journal=_human(stats["bytes_journal"]),
        )
    )
    for name in stats["damaged_files"]:
        print(_("Set aside (damaged): {name}").format(name=name))
    for problem in stats["problems"]:
        print(_("Problem: {problem}").format(problem=problem))
    return 0


def _prune(directory: Path, days: int) -> int:
    if days < 0:
        print(_("--older-than must be 0 or more days."), file=sys.stderr)
        return 2
    with Store.open(directory) as store:
        removed = store.prune(days)
    print(_("Removed {n} records stored more than {days} days ago.").format(n=removed, days=days))
    return 0


def _verify(directory: Path) -> int:
    with Store.open(directory, read_only=True) as store:
        problems = list(dict.fromkeys([*store.problems, *store.verify()]))
    if not problems:
        print(_("Cache verified: every file could be read."))
        return 0
    for problem in problems:
        print(_("Problem: {problem}").format(problem=problem))
    print(_("{n} problem(s) found.").format(n=len(problems)))
    return 1


def run(args: argparse.Namespace, settings: _Settings) -> int:
    directory = cache_path(settings)
    command = getattr(args, "cache_command", None) or "stats"
    try:
        if command == "path":
            print(directory)
            return 0
        if command == "stats":
            return _stats(directory)
        if command == "prune":
            days = getattr(args, "older_than", None)
            if days is None:
                print(_("prune needs --older-than DAYS."), file=sys.stderr)
                return 2
            return _prune(directory, int(days))
        if command == "verify":
            return _verify(directory)
    except CacheLocked as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except CacheError as exc:
        print(_("Cache error: {error}").format(error=exc), file=sys.stderr)
        return 1
    print(_("Unknown cache command: {name}").format(name=command), file=sys.stderr)
    return 2

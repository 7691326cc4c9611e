"""`lawsuit-tui export {requests,responses,lawsuits} [--request-id ID] [--format ...] [--out F]`.

The use case is ``services/export.py``; here, the command line: where the bytes go, what
is said, and the exit code. A record that cannot be read is skipped and named (exit 1,
D141); a request the cache does not hold matched nothing (exit 4, D142); damaged files not
yet acknowledged make the export suspect (exit 6); ``--out`` never replaces a file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lawsuit_tui.commands.output import (
    EXIT_BAD_INPUT,
    EXIT_DAMAGED,
    EXIT_NOTHING_MATCHED,
    EXIT_OK,
    EXIT_REFUSED,
    cache_refusal,
    error_line,
)
from lawsuit_tui.config import Settings
from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.services.cache_maintenance import DamageReport
from lawsuit_tui.services.errors import CacheError, os_problem
from lawsuit_tui.services.export import FileExists, export_cache, write_new_file
from lawsuit_tui.services.paths import cache_path


def run(args: argparse.Namespace, settings: Settings) -> int:
    table: str = getattr(args, "table", None) or args.what
    request_id: str | None = args.request_id
    out = Path(args.out).expanduser() if args.out is not None else None
    if out is not None and (out.exists() or out.is_symlink()):
        error_line(
            _("--out {path}: the file exists; an export never replaces a file").format(path=out)
        )
        return EXIT_BAD_INPUT
    directory = cache_path(settings)
    try:
        result = export_cache(directory, table, request_id, args.format)
    except (CacheError, OSError) as exc:
        return cache_refusal(exc, directory)
    if out is None:
        sys.stdout.buffer.write(result.data)
        sys.stdout.flush()
    else:
        try:
            write_new_file(out, result.data)
        except FileExists as exc:
            error_line(str(exc))
            return EXIT_REFUSED
        except OSError as exc:
            error_line(os_problem(exc, out, setting="--out"))
            return EXIT_REFUSED
    return _verdict(result.skipped, result.matched, request_id, result.damage)


def _verdict(
    skipped: list[str], matched: bool, request_id: str | None, damage: DamageReport
) -> int:
    for what in skipped:
        error_line(_("skipped a record that cannot be read: {what}").format(what=what))
    if skipped:
        error_line(
            ngettext(
                "{n} record could not be read and is not in the export; "
                "'lawsuit-tui cache verify' says more",
                "{n} records could not be read and are not in the export; "
                "'lawsuit-tui cache verify' says more",
                len(skipped),
            ).format(n=len(skipped))
        )
        return EXIT_REFUSED
    if not matched:
        error_line(_("the cache holds no request {id}").format(id=request_id))
        return EXIT_NOTHING_MATCHED
    if damage.waiting:
        for line in damage.lines():
            error_line(line)
        return EXIT_DAMAGED
    return EXIT_OK

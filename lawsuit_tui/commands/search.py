"""`lawsuit-tui search TEXT [--json] [--limit N] [--reindex]`: full-text search of the cache.

Offline: the service is never called and the cache is opened read-only, so it runs beside the
app or the webhook receiver. The index beside the cache is brought up to date first (the first
time on a big cache, that is the whole cache: progress on standard error).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import orjson

from lawsuit_tui.commands.output import (
    EXIT_NOTHING_MATCHED,
    EXIT_OK,
    ProgressPrinter,
    cache_refusal,
    error_line,
)
from lawsuit_tui.config import Settings
from lawsuit_tui.domain.formatting import format_date
from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.services.errors import CacheError
from lawsuit_tui.services.paths import cache_path
from lawsuit_tui.services.results import Progress
from lawsuit_tui.services.search import HIT_END, HIT_START, SearchHit, SearchService

_BOLD, _PLAIN = "\x1b[1m", "\x1b[22m"


def hit_json(hit: SearchHit) -> dict[str, Any]:
    return {
        "code": hit.code,
        "instance": hit.instance,
        "title": hit.title,
        "court": hit.court,
        "updated_at": hit.updated or None,
        "snippet": hit.plain_snippet,
        "matched": hit.matched,
        "score": round(hit.score, 4),
    }


def hit_lines(rank: int, hit: SearchHit, *, bold: bool) -> list[str]:
    """Two lines: where and what the lawsuit is, then the words that matched in context."""
    where = [hit.code]
    if hit.instance:
        where.append(_("instance {n}").format(n=hit.instance))
    where.extend(part for part in (hit.court, hit.title) if part)
    if hit.updated:
        where.append(_("updated {date}").format(date=format_date(hit.updated)))
    snippet = hit.snippet
    if bold:
        snippet = snippet.replace(HIT_START, _BOLD).replace(HIT_END, _PLAIN)
    else:
        snippet = hit.plain_snippet
    return [f"{rank:>3}. " + " · ".join(where), f"     {snippet}"]


def run(args: argparse.Namespace, settings: Settings) -> int:
    directory = cache_path(settings)
    if not directory.exists():
        error_line(_("nothing is cached yet ({path})").format(path=directory))
        return print_hits(args, [])
    try:
        service = SearchService.open_offline(directory)
    except (CacheError, OSError) as exc:
        return cache_refusal(exc, directory)
    try:
        if args.reindex:
            printer = ProgressPrinter()

            def progress(done: int, total: int) -> None:
                message = _("indexing the cache")
                printer(Progress(done, total, 0, waiting_for_rate_limit=False, message=message))

            status = service.rebuild_now(progress)
            printer.finish()
            error_line(
                ngettext(
                    "index rebuilt: {n} lawsuit", "index rebuilt: {n} lawsuits", status.lawsuits
                ).format(n=status.lawsuits)
            )
        hits = service.search_now(args.text, args.limit)
    except BrokenPipeError:
        raise  # the reader went away: cli.py ends quietly
    except (CacheError, OSError) as exc:
        # The index beside the cache is made on the first search: where it cannot be (the
        # cache is a file, a read-only disk) that is said in a sentence, not a traceback.
        return cache_refusal(exc, directory)
    finally:
        service.close()
    return print_hits(args, hits)


def print_hits(args: argparse.Namespace, hits: list[SearchHit]) -> int:
    """The hits on standard output; exit 4 when there is none, as an export that matched
    nothing (D135), so that a script can tell "not cached" from a result."""
    found = EXIT_OK if hits else EXIT_NOTHING_MATCHED
    if args.json:
        payload = {"query": args.text, "count": len(hits), "results": [hit_json(h) for h in hits]}
        sys.stdout.write(orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode() + "\n")
        return found
    print(
        ngettext("{n} lawsuit matches “{text}”", "{n} lawsuits match “{text}”", len(hits)).format(
            n=len(hits), text=args.text
        )
    )
    bold = sys.stdout.isatty()
    for rank, hit in enumerate(hits, 1):
        print("\n".join(hit_lines(rank, hit, bold=bold)))
    return found

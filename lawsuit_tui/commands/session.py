"""Running a command's use case: open the services, run it, close them, answer an exit code.

Around every use case:

- the cache: when another process holds it, writes are handed to that process; when it
  takes none, the command waits for it with a countdown on standard error (D137). A command
  that pays or exists to keep things (``needs_cache``: request, sync) refuses to start when
  nothing could keep what it would fetch; the others run, and say what was not kept;
- paid calls: the id of every request or tracking created is printed on standard error the
  moment the service answers (before anything else can fail), and what an earlier run paid
  for and could not keep is brought into the cache first (D136);
- waits for the rate limit: a countdown on standard error (never on standard output, which
  ``--json`` keeps clean);
- damage: files of the cache found damaged and set aside are named, and the command exits
  :data:`EXIT_DAMAGED` when this run found them (D139).

A failure the user can act on becomes one line on standard error and its exit code
(:mod:`lawsuit_tui.commands.output`); anything else is a bug and raises.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable

from pydantic import ValidationError

from lawsuit_tui.commands.output import (
    EXIT_BAD_INPUT,
    EXIT_DAMAGED,
    EXIT_NOT_KEPT,
    EXIT_NOTHING_MATCHED,
    EXIT_OK,
    EXIT_REFUSED,
    Countdown,
    bad_input_message,
    cache_problem,
    error_line,
)
from lawsuit_tui.config import Settings
from lawsuit_tui.i18n import _, pgettext
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.errors import ApiError, CacheError, InvalidSearchKey
from lawsuit_tui.services.paid_calls import CreatedCall, Recovery

__all__ = ["CACHE_WAIT_SECONDS", "nothing_named", "run_with_context"]

# How long a command waits for a cache held by a process that takes no writes (one opening
# a large cache, a `cache prune` under way) before it gives up.
CACHE_WAIT_SECONDS = 30.0
# The write a command that pays tries before it sends anything (see _try_writing).
LAST_COMMAND_KEY = "commands:last"

_KIND_WORDS = {
    "request": lambda: pgettext("what was created", "request"),
    "tracking": lambda: pgettext("what was created", "tracking"),
    "count": lambda: pgettext("what was created", "count"),
    "credentials": lambda: pgettext("what was created", "credentials"),
}


def kind_word(kind: str) -> str:
    word = _KIND_WORDS.get(kind)
    return word() if word is not None else kind


def announce_created(call: CreatedCall) -> None:
    """The ids of what the service has just created (paid), before anything can fail."""
    if call.kind in ("count", "credentials"):
        return  # free, or nothing to lose: the command prints them anyway
    for ident in call.ids or ("?",):
        if call.kind == "request":
            error_line(_("created request {id}").format(id=ident))
        elif call.kind == "tracking":
            error_line(_("created tracking {id}").format(id=ident))
        else:
            error_line(_("created {what} {id}").format(what=kind_word(call.kind), id=ident))


def describe_recovery(report: Recovery) -> list[str]:
    lines = []
    for kind, ident in report.recovered:
        lines.append(
            _("brought into the cache from the record of paid calls: {what} {id}").format(
                what=kind_word(kind), id=ident
            )
        )
    lines.extend(report.problems)
    return lines


def not_kept_lines(ctx: ServiceContext) -> list[str]:
    """What a run could not keep: the writes, and the paid calls it made."""
    lines: list[str] = []
    if ctx.cache.unkept:
        lines.append(_("not kept in the cache: {what}").format(what=ctx.cache.unkept.describe()))
    paid = [c for c in ctx.paid_call_log.calls if c.kind in ("request", "tracking") and c.ids]
    if paid:
        ids = ", ".join(f"{kind_word(c.kind)} {i}" for c in paid for i in c.ids)
        unrecorded = ctx.paid_call_log.unrecorded
        if unrecorded:
            problem = unrecorded[0].problem or ""
            lines.append(
                _(
                    "created at the service and NOT recorded ({problem}): {ids}; keep these ids"
                ).format(problem=problem, ids=ids)
            )
        else:
            lines.append(
                _(
                    "created at the service and recorded in {path}: {ids}; "
                    "'lawsuit-tui cache recover' brings them into the cache"
                ).format(path=ctx.paid_call_log.path, ids=ids)
            )
    return lines


def run_with_context(
    settings: Settings,
    use_case: Callable[[ServiceContext], Awaitable[int]],
    *,
    read_only: bool = False,
    needs_cache: bool = False,
    recover_first: bool = True,
) -> int:
    """Open a context, run ``use_case`` in it, close it; map failures to exit codes.

    ``needs_cache``: the command is refused (before any call) when the cache cannot keep
    what it fetches; otherwise it runs and exits :data:`EXIT_NOT_KEPT` if anything was lost.
    ``recover_first``: bring the record of paid calls into the cache before the use case.
    """

    async def main() -> int:
        waits = Countdown()
        ctx = await ServiceContext.open(
            settings,
            read_only=read_only,
            cache_wait=0.0 if read_only else CACHE_WAIT_SECONDS,
            on_cache_wait=lambda left, pid: waits.show(
                _("the cache is in use by process {pid}; waiting {seconds} s for it").format(
                    pid=pid or "?", seconds=round(left)
                )
            ),
        )
        waits.clear()
        unsubscribe = [
            ctx.paid_call_log.subscribe(announce_created),
            ctx.api.on_rate_wait(waits.follow_rate_wait),
        ]
        try:
            refused = _cache_state(ctx, read_only=read_only, needs_cache=needs_cache)
            if refused is not None:
                return refused
            if recover_first and ctx.cache.writable:
                # Damage found now may have taken paid calls with it: the whole record is
                # looked at again (only what the cache lacks costs a call).
                report = await ctx.paid_calls.recover(from_start=bool(ctx.damage.found_now))
                for line in describe_recovery(report):
                    error_line(line)
            if needs_cache:
                refused = await _try_writing(ctx)
                if refused is not None:
                    return refused
            try:
                code = await use_case(ctx)
            except CacheError as exc:
                error_line(cache_problem(exc))
                lines = not_kept_lines(ctx)
                for line in lines:
                    error_line(line)
                return EXIT_NOT_KEPT if ctx.paid_call_log.calls else EXIT_REFUSED
            lines = not_kept_lines(ctx) if ctx.cache.unkept else []
            for line in lines:
                error_line(line)
            if lines and code == EXIT_OK:
                code = EXIT_NOT_KEPT
            if code == EXIT_OK and ctx.damage.found_now:
                code = EXIT_DAMAGED
            return code
        finally:
            for stop in unsubscribe:
                stop()
            waits.clear()
            await ctx.aclose()

    try:
        return asyncio.run(main())
    except (InvalidSearchKey, ValidationError) as exc:
        error_line(bad_input_message(exc))
        return EXIT_BAD_INPUT
    except ApiError as exc:
        error_line(str(exc))
        return EXIT_REFUSED
    except CacheError as exc:
        error_line(cache_problem(exc))
        return EXIT_REFUSED


def nothing_named(exc: ApiError) -> int:
    """The service holds nothing by the id the command was given (its 404): said in one
    line, and :data:`EXIT_NOTHING_MATCHED`, as an export of a request not cached."""
    error_line(str(exc))
    return EXIT_NOTHING_MATCHED


async def _try_writing(ctx: ServiceContext) -> int | None:
    """One small durable write before anything is paid: a full disk, a file size limit or a
    holder that cannot write is found now, when nothing has been sent yet (D136)."""
    try:
        await ctx.cache.set_meta(LAST_COMMAND_KEY, {"pid": os.getpid(), "at": time.time()})
    except CacheError as exc:
        error_line(
            _("{problem} Nothing was sent, so nothing was paid.").format(problem=cache_problem(exc))
        )
        return EXIT_REFUSED
    return None


def _cache_state(ctx: ServiceContext, *, read_only: bool, needs_cache: bool) -> int | None:
    """Say what is wrong with the cache; an exit code when the command must not run."""
    for line in ctx.damage.lines():
        error_line(line)
    message = ctx.status.current.cache_message
    if ctx.cache.writable or read_only:
        return None
    if needs_cache:
        error_line(
            _("{problem} Nothing was sent, so nothing was paid.").format(
                problem=message or _("The cache cannot be written.")
            )
        )
        return EXIT_REFUSED
    if message:
        error_line(message)
    return None

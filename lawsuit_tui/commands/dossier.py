"""`lawsuit-tui dossier KEY`: the due diligence of a CPF or CNPJ from a script.

Runs the profile's steps (or ``--steps``), each answered from the cache when its kept data are
younger than the age (the profile's, or ``--max-age HOURS``), and prints the report (Markdown,
HTML or JSON) on standard output or into a new file (``--out``, never over an existing one).
Before any paid step it says on standard error what the run will cost and asks once; ``--yes``
answers for the script, and without a terminal to ask a paid run is refused (exit 2) unless the
profile says ``confirm = false`` (D191). ``--offline`` prints the kept dossier, no call.

Exit codes (``exit_codes.py``): 0 done (a document without lawsuits too: a clean dossier is
an answer); 1 a step failed (the report says which and why; the others ran); 2 bad input, or a
paid run without ``--yes`` and no terminal (before any call); 3 every failed step was a search
the service answered only with errors (the BNMP down, D199); 4 no dossier of the document is
kept (``--offline``); 5 not all of it could be kept in the cache. A paid run is refused before
any call when nothing could keep what it buys (D136).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import timedelta
from pathlib import Path

from lawsuit_tui.commands.output import (
    EXIT_APPLICATION_ERROR,
    EXIT_BAD_INPUT,
    EXIT_NOTHING_MATCHED,
    EXIT_OK,
    EXIT_REFUSED,
    bad_input_message,
    confirmed,
    error_line,
)
from lawsuit_tui.commands.session import run_with_context
from lawsuit_tui.config import Settings
from lawsuit_tui.domain import vocabulary as v
from lawsuit_tui.domain.dossier import STEPS, StepStatus
from lawsuit_tui.domain.identifiers import InvalidSearchKey
from lawsuit_tui.i18n import _
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.dossier import DossierProgress, dossier_key
from lawsuit_tui.services.dossier_model import Dossier, DossierPlan, ProfileError, profile_of
from lawsuit_tui.services.dossier_report import report_bytes
from lawsuit_tui.services.errors import os_problem
from lawsuit_tui.services.export import FileExists, write_new_file

__all__ = ["run", "steps_arg"]


def steps_arg(text: str) -> list[str]:
    """``gate,count,entity``: known step names, comma-separated (argparse type)."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [name for name in names if name not in STEPS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            _("unknown step {steps}; the steps are: {known}").format(
                steps=", ".join(unknown) or repr(text), known=",".join(STEPS)
            )
        )
    return names


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Check the input (exit 2 before any call), then run the dossier."""
    try:
        key = dossier_key(args.key)
        profile = profile_of(settings.dossier, args.profile)
    except (InvalidSearchKey, ProfileError) as exc:
        error_line(bad_input_message(exc))
        return EXIT_BAD_INPUT
    out = Path(args.out).expanduser() if args.out else None
    if out is not None and (out.exists() or out.is_symlink()):
        error_line(_("{path} already exists; a report never replaces a file").format(path=out))
        return EXIT_BAD_INPUT
    age = timedelta(hours=args.max_age) if args.max_age is not None else profile.max_age

    async def use_case(ctx: ServiceContext) -> int:
        service = ctx.dossiers
        if args.offline:
            dossier = await asyncio.to_thread(service.kept, key)
            if dossier is None:
                error_line(
                    _("no dossier of {key} in the cache; run it without --offline").format(
                        key=key.display
                    )
                )
                return EXIT_NOTHING_MATCHED
        else:
            plan = await asyncio.to_thread(
                lambda: service.plan(key, profile=profile, steps=args.steps, max_age=age)
            )
            if not _agreed(plan, args.yes):
                return EXIT_BAD_INPUT
            dossier = await service.run(plan, _progress)
            await service.remember_name(dossier)
        data = report_bytes(dossier, args.format, ctx.deps.now())
        if out is None:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        else:
            try:
                target = await asyncio.to_thread(write_new_file, out, data)
            except FileExists as exc:
                error_line(str(exc))
                return EXIT_BAD_INPUT
            except OSError as exc:
                error_line(os_problem(exc, out, setting="--out"))
                return EXIT_REFUSED
            error_line(_("report saved in {path}").format(path=target))
        return EXIT_OK if args.offline else _exit_code(dossier)

    return run_with_context(settings, use_case, needs_cache=not args.offline)


def _exit_code(dossier: Dossier) -> int:
    """0, or what the failed steps say: 3 when each was answered, but only with errors."""
    failed = [r for r in dossier.steps.values() if r.status == StepStatus.FAILED]
    if not failed:
        return EXIT_OK
    return EXIT_APPLICATION_ERROR if all(r.error_codes for r in failed) else EXIT_REFUSED


def _agreed(plan: DossierPlan, yes: bool) -> bool:
    """Asked once for the whole run (D191): what each paid step costs, then yes or no."""
    if not plan.needs_confirmation or yes:
        return True
    lines = [_("The dossier of {key} will cost:").format(key=plan.key.display)]
    for planned in plan.steps:
        if not planned.cost.free:
            lines.append(
                f"  {v.word(v.DOSSIER_STEP_WORDS, planned.step)}: {planned.cost.describe()}"
            )
    lines.append(_("In all: {cost}.").format(cost=plan.cost.describe()))
    for line in lines:
        error_line(line)
    if not sys.stdin.isatty():
        error_line(_("add --yes to run the paid steps without a question (no terminal to ask)"))
        return False
    if confirmed(_("Run it?")):
        return True
    error_line(_("nothing was asked"))
    return False


def _progress(event: DossierProgress) -> None:
    record = event.record
    if record is None:
        return
    step = v.word(v.DOSSIER_STEP_WORDS, event.step)
    status = v.word(v.STEP_STATUS_WORDS, record.status)
    line = f"{step}: {status}"
    if record.status == StepStatus.DONE:
        source = _("from the local cache") if record.from_cache else record.cost.describe()
        line += f" ({source})"
    elif record.problem:
        line += f": {record.problem}"
    error_line(line)

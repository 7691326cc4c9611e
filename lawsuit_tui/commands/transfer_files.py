"""`lawsuit-tui transfer-files list|get ID|download ID|mark ID STATUS [--json]` (D123).

The files the provider prepared for the company: listed newest first, one with its download
address, saved (progress on standard error, the path on standard output; never over an
existing file), marked ``downloaded`` or ``error`` with a message.

Exit codes (commands/output.py): 0 done; 1 the service said no (unknown file, a file not ready,
a refused mark); 2 bad input (an error without ``--message``), before any call.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import orjson

from lawsuit_tui.commands.output import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_REFUSED,
    ProgressPrinter,
    error_line,
)
from lawsuit_tui.commands.session import nothing_named, run_with_context
from lawsuit_tui.config import Settings
from lawsuit_tui.domain.formatting import format_datetime, format_int, format_size
from lawsuit_tui.domain.transfer_files import TransferFile, TransferFilesPageParams
from lawsuit_tui.domain.vocabulary import TRANSFER_FILE_STATUS_WORDS, word
from lawsuit_tui.i18n import _
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.errors import NotFound
from lawsuit_tui.services.results import Progress
from lawsuit_tui.services.transfer_files import TransferFileNotReady

__all__ = ["file_line", "run"]


def _json(payload: Any) -> None:
    sys.stdout.write(orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode() + "\n")


def file_line(item: TransferFile) -> str:
    """One file on one line: id, when, type, status, lawsuits, size, description."""
    return "  ".join(
        part
        for part in (
            item.transfer_file_id,
            format_datetime(item.created_at),
            str(item.file_type or "").upper(),
            word(TRANSFER_FILE_STATUS_WORDS, item.status),
            _("{n} lawsuits").format(n=format_int(item.lawsuits_count)),
            format_size(item.size_bytes),
            item.description or "",
        )
        if part
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    action = args.files_command
    if action == "mark" and args.status == "error" and not (args.message or "").strip():
        error_line(_("say what went wrong: marking a file as error needs --message"))
        return EXIT_BAD_INPUT

    async def use_case(ctx: ServiceContext) -> int:
        service = ctx.transfer_files
        try:
            if action == "list":
                params = TransferFilesPageParams(status=args.status) if args.status else None
                files = await service.list(params)
                if args.json:
                    _json({"transfer_files": [f.to_json_dict() for f in files]})
                else:
                    for item in files:
                        print(file_line(item))
                return EXIT_OK
            if action == "get":
                item = await service.get(args.id)
                if args.json:
                    _json(item.to_json_dict())
                else:
                    print(file_line(item))
                    if item.pre_signed_url:
                        print(item.pre_signed_url)
                return EXIT_OK
            if action == "download":
                printer = ProgressPrinter()
                folder = args.to or settings.download_dir

                def progress(received: int, total: int | None) -> None:
                    printer(
                        Progress(
                            done=received,
                            total=total,
                            calls=0,
                            waiting_for_rate_limit=False,
                            message=_("downloading {id}").format(id=args.id),
                        )
                    )

                saved = await service.download(args.id, folder, progress=progress, mark=args.mark)
                printer.finish()
                if args.json:
                    _json({"path": str(saved.path), "size": saved.size, "marked": args.mark})
                else:
                    print(saved.path)
                return EXIT_OK
            item = await service.mark(args.id, args.status, args.message)
            if args.json:
                _json(item.to_json_dict())
            else:
                print(file_line(item))
            return EXIT_OK
        except TransferFileNotReady as exc:
            error_line(str(exc))
            return EXIT_REFUSED
        except NotFound as exc:  # D123: TRANSFER_FILE_NOT_FOUND
            return nothing_named(exc)

    return run_with_context(settings, use_case)

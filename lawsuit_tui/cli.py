"""Entry point ``lawsuit-tui`` (and ``python -m lawsuit_tui``).

Kept fast on purpose: only the standard library, platformdirs and our gettext wrapper are
imported here, so ``--help`` and usage errors answer at once. Settings (pydantic) are loaded
after parsing, and each subcommand lives in ``lawsuit_tui/commands/<name>.py`` with
``run(args, settings) -> int``, imported only when it runs.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import ipaddress
import math
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lawsuit_tui import __version__
from lawsuit_tui.commands.exit_codes import EXIT_STDOUT_CLOSED
from lawsuit_tui.i18n import _, current_language, detect_language, set_language

if TYPE_CHECKING:
    from lawsuit_tui.config import Settings

PROG = "lawsuit-tui"
# Each is lawsuit_tui/commands/<name>.py with ``run(args, settings) -> int``.
COMMANDS = (
    "tui",
    "config",
    "sandbox",
    "webhooks",
    "lookup",
    "request",
    "sync",
    "export",
    "count",
    "cache",
    "search",
    "transfer-files",
    "miner",
    "datalake",
    "portfolio",
    "inbox",
    "dossier",
)
RESPONSE_TYPES = (
    "lawsuit",
    "parties",
    "attachments",
    "step",
    "lawsuits",
    "entity",
    "warrant",
    "execution",
)
# D68: the search types a key's shape cannot tell (a name, an RJI...) are given by option.
SEARCH_TYPES = (
    "cpf",
    "cnpj",
    "oab",
    "lawsuit_cnj",
    "name",
    "rji",
    "lawsuit_attachment",
    "execution_attachment",
    "custom",
)
TRANSFER_FILE_STATUSES = ("pending", "in_progress", "completed", "downloaded", "error", "failed")
EXPORT_TABLES = ("requests", "responses", "lawsuits")
EXPORT_FORMATS = ("json", "jsonl", "csv")
COUNT_KINDS = ("judgement-bond", "sentence-execution")
AMOUNT_TIERS = ("0-100k", "100k-250k", "250k-500k", "500k-750k", "750k-1.5M", "1.5M+")
NATURES = ("alimentary", "common")
COUNT_TAGS = ("precatory_dispatched", "possible_precatory", "possible_approved_calculation")
SIDES = ("active", "passive", "interested", "unknown")


def add_miner_filter(parser: argparse.ArgumentParser) -> None:
    """The options of a Miner filter (count and find share them)."""
    parser.add_argument("--kind", choices=COUNT_KINDS, required=True, help=_("type of credit"))
    parser.add_argument(
        "--tribunal",
        dest="tribunals",
        type=miner_court_arg,
        action="append",
        default=[],
        metavar=_("COURT"),
        help=_("court: acronym (TJSP) or Miner id (10); repeatable"),
    )
    parser.add_argument(
        "--amount-min", type=amount_arg, default=None, metavar=_("X"), help=_("minimum amount")
    )
    parser.add_argument(
        "--amount-max", type=amount_arg, default=None, metavar=_("X"), help=_("maximum amount")
    )
    parser.add_argument("--amount-tier", choices=AMOUNT_TIERS, default=None, help=_("amount range"))
    parser.add_argument(
        "--budget-year",
        dest="budget_years",
        type=budget_year_arg,
        action="append",
        default=[],
        metavar=_("Y"),
        help=_("budget year (repeatable; judgement-bond only)"),
    )
    parser.add_argument(
        "--nature",
        dest="natures",
        choices=NATURES,
        action="append",
        default=[],
        help=_("nature (repeatable; judgement-bond only)"),
    )
    parser.add_argument(
        "--tag",
        dest="tags",
        choices=COUNT_TAGS,
        action="append",
        default=[],
        help=_("tag (repeatable; sentence-execution only)"),
    )


# --- argument types (errors become argparse usage errors, exit 2) -------------------------


# The bounds of the rate_limit settings (config.py): beyond them a value is a typo.
MAX_RATE_CALLS = 100_000
MAX_RATE_SECONDS = 86_400.0
# D138: a court id is a positive 32-bit integer (the Miner's reach seven digits: TRE-SP is
# 1151652, D127); budget years have four digits; other whole numbers (days) stay far below
# what the service's integers hold.
MAX_WHOLE = 1_000_000
MAX_TRIBUNAL = 2**31 - 1
BUDGET_YEARS = (1900, 2100)
# A court's acronym as the Miner's list writes it (TJSP, TRT2, TRE-SP), resolved by the command.
_ACRONYM = re.compile(r"[A-Za-z][A-Za-z0-9-]{1,15}")


def rate_limit_arg(text: str) -> tuple[int, float]:
    """``CALLS/SECONDS``, for example ``180/60`` or ``30/2.5``."""
    calls_text, sep, seconds_text = text.partition("/")
    try:
        if not sep:
            raise ValueError(text)
        calls, seconds = int(calls_text), float(seconds_text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected CALLS/SECONDS, for example 180/60, not {value!r}").format(value=text)
        ) from None
    if calls <= 0 or not seconds > 0:
        raise argparse.ArgumentTypeError(
            _("CALLS and SECONDS must both be positive, not {value!r}").format(value=text)
        )
    if calls > MAX_RATE_CALLS or not seconds <= MAX_RATE_SECONDS:  # inf and NaN fail here
        raise argparse.ArgumentTypeError(
            _("at most {calls} calls in at most {seconds} seconds (a day), not {value!r}").format(
                calls=_int(MAX_RATE_CALLS), seconds=_int(int(MAX_RATE_SECONDS)), value=text
            )
        )
    return calls, seconds


def _int(value: int) -> str:
    from lawsuit_tui.domain.formatting import format_int  # stdlib only, loaded when used

    return format_int(value)


def _bounded_int(text: str, low: int, high: int) -> int | None:
    """``text`` as a whole number between ``low`` and ``high``, else None (no huge ints:
    the digits are counted before they are converted)."""
    digits = text.strip().lstrip("+-")
    if not digits.isdigit() or len(digits) > len(str(high)):
        return None
    value = int(text)
    return value if low <= value <= high else None


def miner_court_arg(text: str) -> int | str:
    """A court of a Miner filter: its Miner id (1 to :data:`MAX_TRIBUNAL`) or its acronym,
    which the command resolves through the Miner's list (D127)."""
    stripped = text.strip()
    if _ACRONYM.fullmatch(stripped):
        return stripped
    value = _bounded_int(stripped, 1, MAX_TRIBUNAL)
    if value is None:
        raise argparse.ArgumentTypeError(
            _("{value!r} is not a court: an acronym (TJSP) or a Miner id from 1 to {high}").format(
                value=text, high=_int(MAX_TRIBUNAL)
            )
        )
    return value


def budget_year_arg(text: str) -> int:
    low, high = BUDGET_YEARS
    value = _bounded_int(text, low, high)
    if value is None:
        raise argparse.ArgumentTypeError(
            _("{value!r} is not a year from {low} to {high}").format(value=text, low=low, high=high)
        )
    return value


def customer_key_arg(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError(
            _("the customer key is empty; give one, or leave the option out for the default")
        )
    return text


def cidr_arg(text: str) -> str:
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{value!r} is not an IP network such as 10.0.0.0/8").format(value=text)
        ) from None
    return text


def port_arg(text: str) -> int:
    port = _bounded_int(text, 0, 65535)
    if port is None:
        raise argparse.ArgumentTypeError(
            _("{value!r} is not a port number (0-65535)").format(value=text)
        )
    return port


def positive_int_arg(text: str) -> int:
    value = _bounded_int(text, 1, MAX_WHOLE)
    if value is None:
        raise argparse.ArgumentTypeError(
            _("{value!r} is not a positive whole number").format(value=text)
        )
    return value


def non_negative_int_arg(text: str) -> int:
    value = _bounded_int(text, 0, MAX_WHOLE)
    if value is None:
        raise argparse.ArgumentTypeError(_("{value!r} is not a whole number").format(value=text))
    return value


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        value = _bounded_int(text, low, high)
        if value is None:
            raise argparse.ArgumentTypeError(
                _("{value!r} is not a whole number from {low} to {high}").format(
                    value=text, low=low, high=high
                )
            )
        return value

    return parse


def amount_arg(text: str) -> float:
    """An amount as the TUI reads it: ``1.234,56``, ``1234.56``, ``R$ 1.000``; 0 or more."""
    from lawsuit_tui.domain.formatting import parse_money_br  # stdlib only, loaded when used

    try:
        value = float(parse_money_br(text))
    except ValueError:
        value = -1.0
    if not 0 <= value < math.inf:  # NaN fails too
        raise argparse.ArgumentTypeError(_("{value!r} is not an amount").format(value=text))
    return value


def seed_arg(text: str) -> int:
    value = _bounded_int(text, -(2**63), 2**63 - 1)
    if value is None:
        raise argparse.ArgumentTypeError(
            _("{value!r} is not a seed (a whole number of at most 64 bits)").format(value=text)
        )
    return value


# --- the parser ----------------------------------------------------------------------------


class HelpFormatter(argparse.HelpFormatter):
    """argparse's, except that a text already laid out in lines (the exit codes) is kept."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "\n".join(indent + line for line in text.splitlines())
        return super()._fill_text(text, width, indent)


def _with_exit_codes(parser: argparse.ArgumentParser) -> None:
    """The table of exit codes at the end of the help of ``parser`` and of every command."""
    from lawsuit_tui.commands.exit_codes import exit_codes_epilog  # light: i18n only

    epilog = exit_codes_epilog()
    pending = [parser]
    while pending:
        current = pending.pop()
        current.epilog = epilog
        current.formatter_class = HelpFormatter
        for action in current._actions:
            if isinstance(action, argparse._SubParsersAction):
                pending.extend(action.choices.values())


def _add_tui_options(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument(
        "--sandbox",
        action="store_true",
        default=default,
        help=_("use the built-in sandbox even when an API key is configured"),
    )
    parser.add_argument(
        "--read-only",
        action="store_true",
        default=default,
        help=_("open the local cache read-only"),
    )
    parser.add_argument(
        "--webhooks",
        action="store_true",
        default=default,
        help=_(
            "start the webhook receiver inside the app (its Webhooks screen starts and stops "
            "it too)"
        ),
    )


def build_parser() -> argparse.ArgumentParser:
    """The whole command line; help texts are translated at build time."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=_(
            "A keyboard-first terminal workstation for Brazilian court lawsuit data. "
            "Without a command it starts the TUI."
        ),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"{PROG} {__version__}",
        help=_("show program's version number and exit"),
    )
    _add_tui_options(parser, default=False)
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"), title=_("commands"))
    parser.set_defaults(command="tui")

    tui = sub.add_parser("tui", help=_("start the terminal interface (the default)"))
    # SUPPRESS keeps `lawsuit-tui --sandbox tui` from being reset by the subcommand.
    _add_tui_options(tui, default=argparse.SUPPRESS)

    config = sub.add_parser("config", help=_("show the effective configuration"))
    config_sub = config.add_subparsers(dest="config_command", metavar=_("ACTION"), required=True)
    config_sub.add_parser(
        "show", help=_("print every setting, secrets masked, and where it came from")
    )
    config_sub.add_parser("path", help=_("print the path of the configuration file"))

    sandbox = sub.add_parser(
        "sandbox", help=_("serve the sandbox of the service on a port, or start it afresh")
    )
    sandbox_sub = sandbox.add_subparsers(dest="sandbox_command", metavar=_("ACTION"), required=True)
    serve = sandbox_sub.add_parser("serve", help=_("serve the sandbox over HTTP"))
    serve.add_argument("--host", default="127.0.0.1", help=_("address to listen on"))
    serve.add_argument(
        "--port", type=port_arg, default=8765, help=_("port to listen on (default 8765)")
    )
    serve.add_argument(
        "--api-key",
        dest="api_keys",
        action="append",
        default=[],
        metavar=_("KEY"),
        help=_("accept this API key (repeatable; KEY:no-miner withholds a feature)"),
    )
    serve.add_argument(
        "--seed", type=seed_arg, default=None, help=_("seed of the generated world (default 7)")
    )
    serve.add_argument(
        "--callback-url", default=None, metavar=_("URL"), help=_("account-wide webhook URL")
    )
    serve.add_argument(
        "--rate-limit",
        type=rate_limit_arg,
        default=None,
        metavar=_("CALLS/SECONDS"),
        help=_("rate limit per key (default 180/60)"),
    )
    serve.add_argument(
        "--datalake-rate-limit",
        type=rate_limit_arg,
        default=None,
        metavar=_("CALLS/SECONDS"),
        help=_("rate limit per key of the lawsuits service's synchronous routes (default 500/60)"),
    )
    serve.add_argument(
        "--state",
        default=None,
        metavar=_("PATH"),
        help=_(
            "keep the sandbox's state in this file, shared with every process that opens it "
            "('embedded': the app's own sandbox); without it, a fresh sandbox in memory"
        ),
    )
    reset = sandbox_sub.add_parser(
        "reset",
        help=_("remove the app's sandbox (requests, trackings, credentials...) and its cache"),
    )
    reset.add_argument("--yes", action="store_true", help=_("do not ask first"))

    webhooks = sub.add_parser("webhooks", help=_("receive the service's callbacks"))
    webhooks_sub = webhooks.add_subparsers(
        dest="webhooks_command", metavar=_("ACTION"), required=True
    )
    receive = webhooks_sub.add_parser("serve", help=_("run the webhook receiver"))
    receive.add_argument(
        "--host", default=None, help=_("address to listen on (default from config: 127.0.0.1)")
    )
    receive.add_argument(
        "--port", type=port_arg, default=None, help=_("port to listen on (default 8080)")
    )
    receive.add_argument(
        "--path-token",
        default=None,
        metavar=_("TOKEN"),
        help=_("secret path segment of the receiver URL (generated when absent)"),
    )
    receive.add_argument(
        "--allow-from",
        type=cidr_arg,
        action="append",
        default=[],
        metavar=_("CIDR"),
        help=_("accept deliveries only from this network (repeatable)"),
    )

    lookup = sub.add_parser("lookup", help=_("look up a lawsuit in the cached lookup"))
    lookup.add_argument("key", metavar=_("KEY"), help=_("CNJ number, CPF, CNPJ or OAB"))
    lookup.add_argument("--json", action="store_true", help=_("print JSON"))

    search = sub.add_parser(
        "search",
        help=_("search everything cached by any words (offline)"),
        description=_(
            "Full-text search of the cached lawsuits: party and lawyer names, CPF, CNPJ and "
            "OAB numbers, CNJ numbers, classes, subjects, courts and step texts. Accents and "
            "case are ignored; every word must match, and a word may be cut short."
        ),
    )
    search.add_argument("text", metavar=_("TEXT"), help=_("the words to look for"))
    search.add_argument("--json", action="store_true", help=_("print JSON"))
    search.add_argument(
        "--limit",
        type=bounded_int(1, 1000),
        default=20,
        metavar=_("N"),
        help=_("at most N results, best first (default 20)"),
    )
    search.add_argument(
        "--reindex", action="store_true", help=_("rebuild the search index from the cache first")
    )

    request = sub.add_parser("request", help=_("create an asynchronous request"))
    request.add_argument(
        "key",
        metavar=_("KEY"),
        help=_("CNJ number, CPF, CNPJ or OAB (a name or RJI with --search-type)"),
    )
    request.add_argument(
        "--search-type",
        choices=SEARCH_TYPES,
        default=None,
        help=_("what KEY is (default: told by its shape)"),
    )
    request.add_argument(
        "--attachment-id",
        default=None,
        metavar=_("ID"),
        help=_("the attachment to fetch (lawsuit_attachment, execution_attachment)"),
    )
    request.add_argument(
        "--response-type", choices=RESPONSE_TYPES, default=None, help=_("what to return")
    )
    request.add_argument(
        "--on-demand", action="store_true", help=_("go to the court, skipping stored data")
    )
    request.add_argument(
        "--wait", action="store_true", help=_("follow the request until it completes")
    )
    request.add_argument("--json", action="store_true", help=_("print JSON"))
    request.add_argument(
        "--with-attachments",
        action="store_true",
        help=_("also fetch attachments (CNJ searches) or the warrant's PDF"),
    )
    request.add_argument(
        "--ai-summary",
        action="store_true",
        help=_("also ask for the provider's AI summary of each lawsuit"),
    )
    request.add_argument(
        "--customer-key",
        type=customer_key_arg,
        default=None,
        metavar=_("K"),
        help=_("vault credentials to use (default from config)"),
    )
    request.add_argument(
        "--cache-ttl-days",
        type=non_negative_int_arg,
        default=None,
        metavar=_("N"),
        help=_("serve from stored data refreshed within N days"),
    )

    response = sub.add_parser("response", help=_("show one response by its id"))
    response.add_argument("response_id", metavar=_("ID"), help=_("the response's id"))
    response.add_argument("--json", action="store_true", help=_("print JSON"))

    sub.add_parser("sync", help=_("bring open requests and trackings up to date"))

    export = sub.add_parser("export", help=_("export cached data"))
    export.add_argument("table", choices=EXPORT_TABLES, help=_("what to export"))
    export.add_argument("--request-id", default=None, metavar=_("ID"), help=_("only this request"))
    export.add_argument(
        "--format", choices=EXPORT_FORMATS, default="json", help=_("output format (default json)")
    )
    export.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar=_("FILE"),
        help=_("write to FILE instead of standard output"),
    )

    inbox = sub.add_parser(
        "inbox",
        help=_("the movements of the trackings, newest first (for cron and e-mail)"),
        description=_(
            "Asks the service for new movements first (--no-check: only the cache), then "
            "prints what the filters keep. WHEN: today, yesterday, 24h, 7d, 21/11/2026, "
            "2026-11-21 or an ISO date-time."
        ),
    )
    inbox.add_argument("--unread", action="store_true", help=_("only the movements not read"))
    inbox.add_argument(
        "--since", default=None, metavar=_("WHEN"), help=_("only those that came since WHEN")
    )
    inbox.add_argument(
        "--until", default=None, metavar=_("WHEN"), help=_("only those that came before WHEN")
    )
    inbox.add_argument("--tier", default=None, metavar=_("TIER"), help=_("only this tier"))
    inbox.add_argument(
        "--court", default=None, metavar=_("COURT"), help=_("only this court (TJSP)")
    )
    inbox.add_argument(
        "--term",
        default=None,
        metavar=_("TERM"),
        help=_("only those where this step term was found"),
    )
    inbox.add_argument(
        "--tracking", default=None, metavar=_("ID"), help=_("only this tracking's movements")
    )
    inbox.add_argument(
        "--search", default=None, metavar=_("WORDS"), help=_("only those holding every word")
    )
    inbox.add_argument(
        "--format",
        choices=("table", "json", "csv"),
        default="table",
        help=_("table (default), json, or csv for a spreadsheet"),
    )
    inbox.add_argument("--mark-read", action="store_true", help=_("mark what was printed as read"))
    inbox.add_argument(
        "--no-check", action="store_true", help=_("do not ask the service: the cache only")
    )

    count = sub.add_parser("count", help=_("count lawsuits matching a filter (free)"))
    add_miner_filter(count)
    count.add_argument("--json", action="store_true", help=_("print JSON"))

    miner = sub.add_parser(
        "miner", help=_("the Miner: its courts, find requests (paid) and their lawsuits")
    )
    miner_sub = miner.add_subparsers(dest="miner_command", metavar=_("ACTION"), required=True)
    courts = miner_sub.add_parser("tribunals", help=_("the Miner's courts and their ids"))
    courts.add_argument("--json", action="store_true", help=_("print JSON"))
    find = miner_sub.add_parser(
        "find", help=_("buy the lawsuits matching a filter: a find request (paid)")
    )
    add_miner_filter(find)
    find.add_argument(
        "--limit", type=positive_int_arg, default=None, metavar=_("N"), help=_("at most N lawsuits")
    )
    find.add_argument(
        "--yes", action="store_true", help=_("confirm: the credits are debited at once")
    )
    find.add_argument(
        "--wait", action="store_true", help=_("follow the request until it is completed")
    )
    find.add_argument("--json", action="store_true", help=_("print JSON"))
    status = miner_sub.add_parser("status", help=_("the state of a Miner request"))
    status.add_argument("request_id", type=int, metavar=_("ID"))
    status.add_argument("--json", action="store_true", help=_("print JSON"))
    responses = miner_sub.add_parser(
        "responses", help=_("the lawsuits of a completed find request")
    )
    responses.add_argument("request_id", type=int, metavar=_("ID"))
    responses.add_argument("--json", action="store_true", help=_("print JSON"))

    cache = sub.add_parser("cache", help=_("inspect and maintain the local cache"))
    cache_sub = cache.add_subparsers(dest="cache_command", metavar=_("ACTION"), required=True)
    cache_sub.add_parser("stats", help=_("sizes and counts of the cache"))
    prune = cache_sub.add_parser("prune", help=_("remove old entries"))
    prune.add_argument(
        "--older-than",
        type=positive_int_arg,
        required=True,
        metavar=_("DAYS"),
        help=_("remove entries older than DAYS"),
    )
    cache_sub.add_parser("path", help=_("print the cache directory"))
    verify = cache_sub.add_parser(
        "verify",
        help=_("read every cache file and report problems and damaged files set aside"),
    )
    verify.add_argument(
        "--acknowledge",
        action="store_true",
        help=_(
            "stop reporting the damaged files set aside so far (they stay on disk for inspection)"
        ),
    )
    recover = cache_sub.add_parser(
        "recover",
        help=_(
            "bring into the cache what the record of paid calls holds and the cache does not "
            "(every command also does this when it starts)"
        ),
    )
    recover.add_argument(
        "--all",
        action="store_true",
        help=_("look at every line of the record again, not only those not yet looked at"),
    )

    files = sub.add_parser("transfer-files", help=_("files the provider prepared for your company"))
    files_sub = files.add_subparsers(dest="files_command", metavar=_("ACTION"), required=True)
    listing = files_sub.add_parser("list", help=_("list the files, newest first"))
    listing.add_argument(
        "--status",
        choices=TRANSFER_FILE_STATUSES,
        default=None,
        help=_("only files with this status"),
    )
    listing.add_argument("--json", action="store_true", help=_("print JSON"))
    one = files_sub.add_parser("get", help=_("one file and its download address"))
    one.add_argument("id", metavar=_("ID"), help=_("the file's transfer_file_id"))
    one.add_argument("--json", action="store_true", help=_("print JSON"))
    fetch = files_sub.add_parser("download", help=_("save a file (never over an existing one)"))
    fetch.add_argument("id", metavar=_("ID"), help=_("the file's transfer_file_id"))
    fetch.add_argument(
        "--to",
        type=Path,
        default=None,
        metavar=_("DIR"),
        help=_("the folder to save into (default: the download folder of the config)"),
    )
    fetch.add_argument(
        "--mark", action="store_true", help=_("then tell the provider it was downloaded")
    )
    fetch.add_argument("--json", action="store_true", help=_("print JSON"))
    mark = files_sub.add_parser("mark", help=_("tell the provider a file was used or is broken"))
    mark.add_argument("id", metavar=_("ID"), help=_("the file's transfer_file_id"))
    mark.add_argument(
        "status", choices=("downloaded", "error"), help=_("downloaded, or error (with --message)")
    )
    mark.add_argument(
        "--message", default=None, metavar=_("TEXT"), help=_("what went wrong (for error)")
    )
    mark.add_argument("--json", action="store_true", help=_("print JSON"))

    _add_datalake_parser(sub)
    _add_portfolio(sub)
    _add_dossier(sub)
    _with_exit_codes(parser)
    return parser


def _add_cache_age(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-age",
        type=positive_int_arg,
        default=None,
        metavar=_("HOURS"),
        help=_("answer from the local cache when it holds an answer younger than this"),
    )
    parser.add_argument(
        "--offline",
        action="store_true",
        help=_("answer from the local cache only, whatever its age; no call"),
    )
    parser.add_argument("--json", action="store_true", help=_("print JSON"))


def _add_datalake_filter(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("key", metavar=_("KEY"), help=_("CPF, CNPJ, OAB or CNJ number"))
    parser.add_argument("--side", choices=SIDES, default=None, help=_("the key's side"))
    parser.add_argument(
        "--tribunal",
        dest="tribunals",
        action="append",
        default=[],
        metavar=_("ACRONYM"),
        help=_("only this court, e.g. TJSP or TRT2 (repeatable)"),
    )
    parser.add_argument(
        "--exclude-tribunal",
        dest="excluded_tribunals",
        action="append",
        default=[],
        metavar=_("ACRONYM"),
        help=_("leave this court out (repeatable)"),
    )
    parser.add_argument(
        "--class-code",
        dest="class_codes",
        action="append",
        default=[],
        metavar=_("CODE"),
        help=_("CNJ class code (repeatable)"),
    )
    parser.add_argument(
        "--subject-code",
        dest="subject_codes",
        action="append",
        default=[],
        metavar=_("CODE"),
        help=_("CNJ subject code (repeatable)"),
    )
    parser.add_argument(
        "--distributed-from", default=None, metavar=_("DATE"), help=_("distributed on or after")
    )
    parser.add_argument(
        "--distributed-to", default=None, metavar=_("DATE"), help=_("distributed on or before")
    )
    parser.add_argument(
        "--amount-min", type=amount_arg, default=None, metavar=_("X"), help=_("minimum amount")
    )
    parser.add_argument(
        "--amount-max", type=amount_arg, default=None, metavar=_("X"), help=_("maximum amount")
    )
    _add_cache_age(parser)


def _add_datalake_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``lawsuit-tui datalake ...``: the lawsuits service's synchronous routes (D111)."""
    datalake = sub.add_parser(
        "datalake", help=_("ask the service's datalake: registration data, counts, copies")
    )
    actions = datalake.add_subparsers(dest="datalake_command", metavar=_("ACTION"), required=True)
    entity = actions.add_parser("entity", help=_("registration data of a CPF, CNPJ or name"))
    entity.add_argument("key", metavar=_("KEY"), help=_("CPF, CNPJ or a name"))
    entity.add_argument(
        "--on-demand", action="store_true", help=_("read the Receita Federal live (costs more)")
    )
    entity.add_argument(
        "--reveal-partners",
        action="store_true",
        help=_("show partners' CPFs unmasked (never kept in the cache)"),
    )
    _add_cache_age(entity)
    count = actions.add_parser("count", help=_("how many lawsuits the datalake holds for a key"))
    _add_datalake_filter(count)
    synthetic = actions.add_parser(
        "synthetic", help=_("a key's lawsuits counted by court, class, subject, side...")
    )
    _add_datalake_filter(synthetic)
    steps = actions.add_parser("steps", help=_("steps and attachments of each CNJ number"))
    steps.add_argument("numbers", nargs="+", metavar=_("CNJ"), help=_("CNJ numbers"))
    _add_cache_age(steps)
    lawsuit = actions.add_parser("lawsuit", help=_("the service's stored copy of a lawsuit"))
    lawsuit.add_argument("number", metavar=_("CNJ"), help=_("CNJ number"))
    lawsuit.add_argument(
        "--instance", type=positive_int_arg, default=None, metavar=_("N"), help=_("instance")
    )
    _add_cache_age(lawsuit)


TRACKING_STATUSES = ("created", "updating", "updated", "paused", "suspended")


def chunk_size_arg(text: str) -> int:
    value = positive_int_arg(text)
    if value > 1000:
        raise argparse.ArgumentTypeError(
            _("{value!r}: a bulk call carries at most 1000 trackings").format(value=text)
        )
    return value


def _add_portfolio(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    portfolio = sub.add_parser(
        "portfolio", help=_("import a portfolio, see its status, change it in bulk")
    )
    actions = portfolio.add_subparsers(dest="portfolio_command", metavar=_("ACTION"), required=True)
    imported = actions.add_parser(
        "import",
        help=_("check a CSV or .xlsx file of keys and track every valid one (once)"),
    )
    imported.add_argument(
        "file", metavar=_("FILE"), help=_("CSV, .xlsx or text file, one key a row")
    )
    imported.add_argument(
        "--tier",
        default=None,
        metavar=_("NAME"),
        help=_("tier of the rows that name none (default from config: warm)"),
    )
    imported.add_argument(
        "--dry-run", action="store_true", help=_("check and show the preview; send nothing")
    )
    imported.add_argument(
        "--chunk-size",
        type=chunk_size_arg,
        default=None,
        metavar=_("N"),
        help=_("trackings per bulk call, 1-1000 (default from config: 1000)"),
    )
    imported.add_argument("--json", action="store_true", help=_("print one JSON object"))

    status = actions.add_parser("status", help=_("counts by tier and status, runs a month"))
    status.add_argument("--json", action="store_true", help=_("print JSON"))

    for name, helptext in (
        ("pause", _("pause the selected trackings")),
        ("resume", _("resume the selected trackings")),
        ("delete", _("delete the selected trackings (cannot be undone)")),
        ("set-tier", _("move the selected trackings to another tier")),
    ):
        action = actions.add_parser(name, help=helptext)
        if name == "set-tier":
            action.add_argument("new_tier", metavar=_("TIER"), help=_("the tier to move them to"))
        action.add_argument(
            "--tier",
            dest="select_tier",
            default=None,
            metavar=_("T"),
            help=_("the trackings of this tier"),
        )
        action.add_argument(
            "--tag", default=None, metavar=_("X"), help=_("the trackings with this label")
        )
        action.add_argument(
            "--status",
            choices=TRACKING_STATUSES,
            default=None,
            help=_("the trackings in this status"),
        )
        action.add_argument(
            "--court", default=None, metavar=_("C"), help=_("the lawsuits of this court (TJSP)")
        )
        action.add_argument(
            "--file",
            default=None,
            metavar=_("F"),
            help=_("the trackings of the keys in this file"),
        )
        action.add_argument("--yes", action="store_true", help=_("do it without asking"))
        action.add_argument("--json", action="store_true", help=_("print JSON"))


def _steps_arg(text: str) -> list[str]:
    from lawsuit_tui.commands.dossier import steps_arg

    return steps_arg(text)


def _add_dossier(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``lawsuit-tui dossier KEY``: the due diligence of a CPF or CNPJ (D190-D196)."""
    dossier = sub.add_parser(
        "dossier",
        help=_("due diligence of a CPF or CNPJ: the KYC steps, then a report"),
        description=_(
            "Runs the KYC steps of a person or company (gate, counts, aggregations, "
            "registration data, lawsuits, warrants, executions), each from the local cache "
            "when its data are young enough, and prints the report. Before any paid step it "
            "says what the run will cost and asks once."
        ),
    )
    dossier.add_argument("key", metavar=_("KEY"), help=_("CPF or CNPJ"))
    dossier.add_argument(
        "--steps",
        type=_steps_arg,
        default=None,
        metavar=_("STEPS"),
        help=_(
            "comma-separated: gate,count,aggregations,entity,lawsuits,warrants,executions "
            "(default: the profile's)"
        ),
    )
    dossier.add_argument(
        "--profile", default=None, metavar=_("NAME"), help=_("a [dossier.profiles] entry")
    )
    dossier.add_argument(
        "--format", choices=("md", "html", "json"), default="md", help=_("report format")
    )
    dossier.add_argument(
        "--out", default=None, metavar=_("PATH"), help=_("write the report to a new file")
    )
    dossier.add_argument(
        "--max-age",
        type=positive_int_arg,
        default=None,
        metavar=_("HOURS"),
        help=_("use kept data younger than this (default: the profile's, 24)"),
    )
    dossier.add_argument(
        "--offline", action="store_true", help=_("print the kept dossier; no call")
    )
    dossier.add_argument("--yes", action="store_true", help=_("run the paid steps without asking"))


# --- language and dispatch -----------------------------------------------------------------


def _config_file(environ: Mapping[str, str]) -> Path:
    # lawsuit_tui.config.config_path, without importing pydantic.
    from lawsuit_tui.preferences import config_file

    return config_file(environ)


def peek_language(environ: Mapping[str, str] | None = None) -> str:
    """The language for --help, before settings are loaded: env, then the file, then LANG."""
    from lawsuit_tui.preferences import read_preferences

    env = os.environ if environ is None else environ
    return detect_language(read_preferences(env).language, env)


def _error(message: str) -> None:
    print(f"{PROG}: {message}", file=sys.stderr)


def _load_settings(args: argparse.Namespace) -> Settings | int:
    from lawsuit_tui.config import ConfigError, config_path, load_settings

    try:
        return load_settings()
    except ConfigError as exc:
        if args.command == "config" and getattr(args, "config_command", None) == "path":
            # Finding the broken file must still work.
            print(config_path())
            return 0
        _error(str(exc))
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    set_language(peek_language())
    parser = build_parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:  # --help, --version, usage errors
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)

    command: str = args.command
    module_name = f"lawsuit_tui.commands.{command.replace('-', '_')}"
    settings: Settings | None = None
    if command != "tui":
        # The TUI draws its first frame before pydantic is even imported: it loads and checks
        # the settings itself right after (lawsuit_tui/preferences.py says why).
        loaded = _load_settings(args)
        if isinstance(loaded, int):
            return loaded
        settings = loaded
        set_language(detect_language(settings.language))
        from lawsuit_tui.config import display_zone
        from lawsuit_tui.domain.formatting import set_display_zone

        set_display_zone(display_zone(settings.timezone, current_language()))

    module = importlib.import_module(module_name)  # a command that cannot load is a bug: raise
    try:
        code = module.run(args, settings)
        sys.stdout.flush()  # here, where a closed pipe can still be caught
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _stdout_closed()
    return code if isinstance(code, int) else 0


def _stdout_closed() -> int:
    """Whoever read standard output stopped (``| head``): say nothing, as a C program
    killed by SIGPIPE would, and exit with its status (128 + 13)."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush must not fail
    return EXIT_STDOUT_CLOSED

"""Entry point ``lawsuit-tui`` (and ``python -m lawsuit_tui``).

Kept fast on purpose: only the standard library, platformdirs and our gettext wrapper are
imported here, so ``--help`` and usage errors answer at once. Settings (pydantic) are loaded
after parsing, and each subcommand lives in ``lawsuit_tui/commands/<name>.py`` with
``run(args, settings) -> int``, imported only when it runs.
"""

from __future__ import annotations

import argparse
import importlib
import ipaddress
import math
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lawsuit_tui import __version__
from lawsuit_tui.i18n import _, detect_language, set_language

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
    "inbox",
)
RESPONSE_TYPES = ("lawsuit", "parties", "attachments", "step", "lawsuits")
EXPORT_TABLES = ("requests", "responses", "lawsuits")
EXPORT_FORMATS = ("json", "jsonl", "csv")
COUNT_KINDS = ("judgement-bond", "sentence-execution")
AMOUNT_TIERS = ("0-100k", "100k-250k", "250k-500k", "500k-750k", "750k-1.5M", "1.5M+")
NATURES = ("alimentary", "common")
COUNT_TAGS = ("precatory_dispatched", "possible_precatory", "possible_approved_calculation")


# --- argument types (errors become argparse usage errors, exit 2) -------------------------


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
    return calls, seconds


def cidr_arg(text: str) -> str:
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{value!r} is not an IP network such as 10.0.0.0/8").format(value=text)
        ) from None
    return text


def port_arg(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            _("{value!r} is not a port number (0-65535)").format(value=text)
        )
    return port


def positive_int_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(
            _("{value!r} is not a positive whole number").format(value=text)
        )
    return value


def non_negative_int_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(_("{value!r} is not a whole number").format(value=text))
    return value


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


# --- the parser ----------------------------------------------------------------------------


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
        help=_("start the webhook receiver inside the app (F8 starts and stops it too)"),
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

    sandbox = sub.add_parser("sandbox", help=_("serve the sandbox of the service on a port"))
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
        "--seed", type=int, default=None, help=_("seed of the generated world (default 7)")
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

    request = sub.add_parser("request", help=_("create an asynchronous request"))
    request.add_argument("key", metavar=_("KEY"), help=_("CNJ number, CPF, CNPJ or OAB"))
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
        "--with-attachments", action="store_true", help=_("also fetch attachments (CNJ only)")
    )
    request.add_argument(
        "--customer-key",
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
    count.add_argument("--kind", choices=COUNT_KINDS, required=True, help=_("kind of lawsuit"))
    count.add_argument(
        "--tribunal",
        dest="tribunals",
        type=int,
        action="append",
        default=[],
        metavar=_("N"),
        help=_("court code (repeatable)"),
    )
    count.add_argument(
        "--amount-min", type=amount_arg, default=None, metavar=_("X"), help=_("minimum amount")
    )
    count.add_argument(
        "--amount-max", type=amount_arg, default=None, metavar=_("X"), help=_("maximum amount")
    )
    count.add_argument("--amount-tier", choices=AMOUNT_TIERS, default=None, help=_("amount range"))
    count.add_argument(
        "--budget-year",
        dest="budget_years",
        type=int,
        action="append",
        default=[],
        metavar=_("Y"),
        help=_("budget year (repeatable; judgement-bond only)"),
    )
    count.add_argument(
        "--nature",
        dest="natures",
        choices=NATURES,
        action="append",
        default=[],
        help=_("nature (repeatable; judgement-bond only)"),
    )
    count.add_argument(
        "--tag",
        dest="tags",
        choices=COUNT_TAGS,
        action="append",
        default=[],
        help=_("tag (repeatable; sentence-execution only)"),
    )
    count.add_argument("--json", action="store_true", help=_("print JSON"))

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
    cache_sub.add_parser("verify", help=_("read every cache file and report problems"))

    return parser


# --- language and dispatch -----------------------------------------------------------------


def _config_file(environ: Mapping[str, str]) -> Path:
    # The same rule as lawsuit_tui.config.config_path, without importing pydantic (tested equal).
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
    module_name = f"lawsuit_tui.commands.{command}"
    settings: Settings | None = None
    if command != "tui":
        # The TUI draws its first frame before pydantic is even imported: it loads and checks
        # the settings itself right after (lawsuit_tui/preferences.py says why).
        loaded = _load_settings(args)
        if isinstance(loaded, int):
            return loaded
        settings = loaded
        set_language(detect_language(settings.language))

    module = importlib.import_module(module_name)  # a command that cannot load is a bug: raise
    try:
        code = module.run(args, settings)
    except KeyboardInterrupt:
        return 130
    return code if isinstance(code, int) else 0

"""``lawsuit-tui sandbox serve``: the sandbox over HTTP with uvicorn; ``sandbox reset``: start
the embedded sandbox afresh.

``serve``: once the socket accepts connections, the first line of standard output is the root
URL (the actual port when ``--port 0``), then which key(s) it accepts, then where its state is
kept. Without ``--state`` it starts afresh and keeps its state in memory; ``--state PATH``
keeps it in that file, shared with every process that opens it (``--state embedded``: the
sandbox the app and the commands use, D180). Ctrl-C or SIGTERM stops it cleanly (exit 0).

``reset``: after a question (or ``--yes``), removes the embedded sandbox's state and its
cache, so the next run starts a new sandbox (new ids, the clock at the real time). Refused
(exit 1) while the app or a command uses them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import socket
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lawsuit_tui.i18n import _

if TYPE_CHECKING:
    import uvicorn

__all__ = ["EMBEDDED", "describe_keys", "reset", "root_url", "run", "serve"]

# ``--state embedded``: the state the app and the commands share.
EMBEDDED = "embedded"


def _mask(key: str) -> str:
    """A key the user typed, shown without revealing it (the default one is no secret)."""
    name, sep, options = key.partition(":")
    shown = name if name == "sandbox" or len(name) <= 4 else f"{name[:2]}…{name[-2:]}"
    return f"'{shown}'" + (f" ({options})" if sep and options else "")


def describe_keys(keys: Sequence[str]) -> str:
    if list(keys) == ["sandbox"]:
        return _("accepting api-key 'sandbox'")
    return _("accepting api-key(s) {keys}").format(keys=", ".join(_mask(k) for k in keys))


def root_url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _rate_limit(value: object, default: tuple[int, float] = (180, 60.0)) -> tuple[int, float]:
    if value is None:
        return default
    if isinstance(value, tuple):
        return int(value[0]), float(value[1])
    from lawsuit_tui.sandbox.ratelimit import parse_rate_limit

    return parse_rate_limit(str(value))


async def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    api_keys: Sequence[str] = ("sandbox",),
    seed: int = 7,
    callback_url: str | None = None,
    rate_limit: tuple[int, float] = (180, 60.0),
    speed: float = 1.0,
    datalake_rate_limit: tuple[int, float] = (500, 60.0),
    state_path: Path | None = None,
) -> int:
    """Serve until Ctrl-C or SIGTERM. ``speed``: how fast the sandbox's clock runs (the
    setting ``sandbox.speed``; 1 is real time). ``state_path``: keep the state in that file
    (None: in memory, a fresh sandbox)."""
    import uvicorn

    from lawsuit_tui.sandbox.app import create_app
    from lawsuit_tui.sandbox.clock import SandboxClock
    from lawsuit_tui.webhooks.server import bind_socket

    # The socket is ours: uvicorn would sys.exit(3) on an address it cannot use.
    try:
        sock = bind_socket(host, port)
    except socket.gaierror as exc:
        print(
            _(
                "lawsuit-tui sandbox serve: --host {host}: not an address of this machine ({error})"
            ).format(host=host, error=exc.strerror or exc),
            file=sys.stderr,
        )
        return 2
    except OSError as exc:
        print(
            _("lawsuit-tui sandbox serve: cannot listen on {host}:{port}: {error}").format(
                host=host, port=port, error=exc.strerror or exc
            ),
            file=sys.stderr,
        )
        return 1
    from lawsuit_tui.sandbox.state_file import StateFileError

    try:
        app = create_app(
            seed=seed,
            api_keys=api_keys,
            rate_limit=rate_limit,
            datalake_rate_limit=datalake_rate_limit,
            callback_url=callback_url,
            clock=SandboxClock(speed=speed),
            state_path=state_path,
        )
    except (StateFileError, OSError, sqlite3.Error) as exc:
        sock.close()
        print(
            _("lawsuit-tui sandbox serve: --state {path}: {error}").format(
                path=state_path, error=exc
            ),
            file=sys.stderr,
        )
        return 1
    config = uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False)
    server = uvicorn.Server(config)
    # Signals are ours: Ctrl-C and SIGTERM ask uvicorn to exit; uvicorn's own capture would
    # re-raise the signal after shutdown (SIGTERM would then kill us with status -15).
    server.capture_signals = contextlib.nullcontext  # type: ignore[method-assign,assignment]
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, _request_exit, server)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            with contextlib.suppress(SystemExit, Exception):
                await task
            print(
                _("the sandbox could not start on {host}:{port}").format(host=host, port=port),
                file=sys.stderr,
            )
            return 1
        await asyncio.sleep(0.02)
    actual_port = int(sock.getsockname()[1])
    print(root_url(host, actual_port), flush=True)
    print(describe_keys(api_keys), flush=True)
    if state_path is None:
        print(_("a fresh sandbox, kept in memory"), flush=True)
    else:
        print(_("its state kept in {path}").format(path=state_path), flush=True)
    await task
    return 0


def _request_exit(server: uvicorn.Server) -> None:
    server.should_exit = True


def run(args: argparse.Namespace, settings: Any) -> int:
    if getattr(args, "sandbox_command", "serve") == "reset":
        return reset(args, settings)
    keys = list(getattr(args, "api_keys", None) or getattr(args, "api_key", None) or [])
    port_arg: int | None = getattr(args, "port", None)
    port = 8765 if port_arg is None else int(port_arg)
    seed: int | None = getattr(args, "seed", None)
    sandbox_settings = getattr(settings, "sandbox", None)
    if seed is None:
        seed = getattr(sandbox_settings, "seed", 7)
    speed = float(getattr(sandbox_settings, "speed", 1.0))
    try:
        rate_limit = _rate_limit(getattr(args, "rate_limit", None))
        datalake_rate_limit = _rate_limit(
            getattr(args, "datalake_rate_limit", None), default=(500, 60.0)
        )
        from lawsuit_tui.sandbox.keys import parse_keys

        parse_keys(keys or ["sandbox"])
    except ValueError as exc:
        print(_("lawsuit-tui sandbox serve: {error}").format(error=exc), file=sys.stderr)
        return 2
    state_path = _state_path(getattr(args, "state", None), settings, int(seed))
    try:
        return asyncio.run(
            serve(
                host=getattr(args, "host", None) or "127.0.0.1",
                port=port,
                api_keys=keys or ["sandbox"],
                seed=int(seed),
                callback_url=getattr(args, "callback_url", None),
                rate_limit=rate_limit,
                speed=speed,
                datalake_rate_limit=datalake_rate_limit,
                state_path=state_path,
            )
        )
    except KeyboardInterrupt:
        return 0


def _state_path(value: str | None, settings: Any, seed: int) -> Path | None:
    """``--state``: a file, or ``embedded`` (the app's own sandbox, of ``seed``)."""
    if not value:
        return None
    if value == EMBEDDED:
        from lawsuit_tui.services.sandbox_home import state_path_for

        return state_path_for(Path(settings.cache_dir), seed)
    return Path(value).expanduser()


def reset(args: argparse.Namespace, settings: Any) -> int:
    """``lawsuit-tui sandbox reset [--yes]``: start the embedded sandbox afresh."""
    from lawsuit_tui.commands.output import EXIT_BAD_INPUT, EXIT_REFUSED, error_line
    from lawsuit_tui.services.errors import os_problem
    from lawsuit_tui.services.sandbox_home import SandboxInUse, reset_sandbox, sandbox_state_path

    where = sandbox_state_path(settings)
    if not getattr(args, "yes", False):
        if not sys.stdin.isatty():
            error_line(_("add --yes to reset the sandbox without a question (no terminal to ask)"))
            return EXIT_BAD_INPUT
        question = _(
            "Remove the sandbox's requests, trackings, credentials and counts, and its cache "
            "({path}), and start a new sandbox?"
        ).format(path=where.parent)
        print(question + " " + _("[y/N]"), end=" ", flush=True)
        try:
            answer = input()
        except EOFError:
            answer = ""
        if answer.strip().casefold() not in ("y", "yes", "s", "sim"):
            error_line(_("nothing removed"))
            return EXIT_BAD_INPUT
    try:
        outcome = reset_sandbox(settings)
    except SandboxInUse as exc:
        holder = f" (pid {exc.holder})" if exc.holder else ""
        error_line(
            _(
                "the sandbox is in use by another lawsuit-tui process{holder}: close it and "
                "reset again ({what})"
            ).format(holder=holder, what=exc.what)
        )
        return EXIT_REFUSED
    except OSError as exc:
        error_line(os_problem(exc, where))
        return EXIT_REFUSED
    if outcome.had_state or outcome.had_cache:
        print(_("The sandbox was reset: the next run starts a new one."))
    else:
        print(_("There was no sandbox to reset: the next run starts a new one."))
    return 0

"""``lawsuit-tui webhooks serve``: the webhook receiver on its own, under uvicorn.

Once the socket accepts connections, the first line of standard output is the receiver's
URL. The path token in it is the secret: shown in full only when it was generated now (and
saved to the config file) or given with --path-token; a token from the config is masked.
Ctrl-C or SIGTERM stops it cleanly: no new connections, the deliveries in hand finish, the
cache is closed (exit 0). The cache is opened for writing; when another process holds it
the command says so and exits with status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import signal
import sys
from typing import TYPE_CHECKING

from lawsuit_tui.i18n import _
from lawsuit_tui.services.paths import cache_path

if TYPE_CHECKING:
    from lawsuit_tui.config import Settings
    from lawsuit_tui.webhooks.receiver import Receiver

__all__ = ["run", "serve"]

_TOKEN_CHARS = re.compile(r"^[A-Za-z0-9._~-]+$")
_SHORT_TOKEN = 16


def _err(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


async def serve(
    settings: Settings,
    *,
    host: str,
    port: int,
    path_token: str | None,
    allow_from: list[str],
) -> int:
    from lawsuit_tui.services.errors import CacheError, CacheLocked
    from lawsuit_tui.services.shared_cache import CacheHost
    from lawsuit_tui.services.webhooks import open_receiver_cache
    from lawsuit_tui.webhooks.receiver import create_receiver
    from lawsuit_tui.webhooks.server import (
        bind_socket,
        make_server,
        public_receiver_url,
        receiver_url,
        start_server,
    )
    from lawsuit_tui.webhooks.token import mask_token, resolve_token

    secrets = [
        s.get_secret_value()
        for s in (settings.api_key, settings.bearer_token)
        if s is not None and s.get_secret_value()
    ]
    directory = cache_path(settings)
    try:
        store = await asyncio.to_thread(open_receiver_cache, directory, secrets=secrets)
    except CacheLocked as exc:
        _err(str(exc))
        _err(_("The webhook receiver needs to write to the cache; it was not started."))
        return 1
    except (CacheError, OSError) as exc:
        _err(_("Cannot open the cache at {path}: {error}").format(path=directory, error=exc))
        return 1
    app: Receiver | None = None
    # The commands run meanwhile (a cron sync, a request) hand their writes to this process.
    writes_from_others = CacheHost(store)
    if not await writes_from_others.start():
        _err(
            _(
                "Other commands cannot hand their writes to this one ({problem}); they will wait."
            ).format(problem=writes_from_others.problem)
        )
    try:
        for problem in store.problems:
            _err(_("Cache: {problem}").format(problem=problem))
        try:
            sock = bind_socket(host, port)
        except OSError as exc:
            _err(
                _("The webhook receiver cannot listen on {host}:{port}: {error}").format(
                    host=host, port=port, error=exc.strerror or exc
                )
            )
            return 1
        # Only once listening is sure: a generated token must be shown the one time it is saved.
        try:
            token, source = resolve_token(settings, path_token)
        except Exception as exc:  # ConfigError or an unwritable config file
            sock.close()
            _err(_("Cannot save the generated path token: {error}").format(error=exc))
            return 1
        app = create_receiver(store, path_token=token, allow_from=allow_from)
        actual_port = int(sock.getsockname()[1])
        server = make_server(app)
        loop = asyncio.get_running_loop()

        def request_exit() -> None:
            if server.should_exit:
                server.force_exit = True  # a second Ctrl-C: stop waiting
            server.should_exit = True

        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, request_exit)
        task = await start_server(server, sock)
        shown = token if source in ("given", "generated") else mask_token(token)
        print(receiver_url(host, actual_port, shown), flush=True)
        if source == "generated":
            print(
                _(
                    "A new path token was generated and saved to {path}; it is shown only "
                    "this once. The URL above is the secret: give it only to the service."
                ).format(path=settings.config_file),
                flush=True,
            )
        elif source == "config":
            print(
                _("Path token from {path} (masked; it is the secret part of the URL).").format(
                    path=settings.config_file
                ),
                flush=True,
            )
        public = settings.webhooks.public_url
        if public:
            print(
                _("Public URL to register with the service: {url}").format(
                    url=public_receiver_url(public, shown)
                ),
                flush=True,
            )
        if allow_from:
            print(
                _("Accepting deliveries only from: {cidrs}").format(cidrs=", ".join(allow_from)),
                flush=True,
            )
        print(
            _("Writing to the cache at {path}. Ctrl-C stops.").format(path=store.path), flush=True
        )
        await task
        await app.aclose()
        stats = app.stats
        print(
            _("Stopped. Deliveries stored: {stored}, redeliveries: {repeated}.").format(
                stored=stats.stored, repeated=stats.repeated
            ),
            flush=True,
        )
        return 0
    finally:
        await writes_from_others.aclose()
        if app is not None:
            await app.aclose()  # the writer thread finishes what it holds before the close
        await asyncio.to_thread(store.close)


def run(args: argparse.Namespace, settings: Settings) -> int:
    if getattr(args, "webhooks_command", "serve") != "serve":
        _err(_("Unknown webhooks action."))
        return 2
    given = getattr(args, "path_token", None)
    if given is not None:
        if not _TOKEN_CHARS.match(given):
            _err(
                _("--path-token: use only letters, digits and . _ ~ - (it is a URL path segment).")
            )
            return 2
        if len(given) < _SHORT_TOKEN:
            _err(
                _("Warning: a path token shorter than {n} characters is easy to guess.").format(
                    n=_SHORT_TOKEN
                )
            )
    host = getattr(args, "host", None) or settings.webhooks.host
    port = getattr(args, "port", None)
    allow_from = list(getattr(args, "allow_from", None) or settings.webhooks.allow_from)
    try:
        return asyncio.run(
            serve(
                settings,
                host=host,
                port=settings.webhooks.port if port is None else int(port),
                path_token=given,
                allow_from=allow_from,
            )
        )
    except KeyboardInterrupt:
        return 0

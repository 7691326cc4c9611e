"""Serving the receiver with uvicorn: on its own (``webhooks serve``) or inside the TUI's loop.

We bind the listening socket ourselves (uvicorn calls ``sys.exit`` when it cannot bind,
which must never happen inside the TUI), and uvicorn never installs signal handlers: the
standalone command installs its own, the TUI keeps its own.

uvicorn runs with ``access_log=False`` (the path holds the token) and ``proxy_headers=False``
(a sender must not choose its address for the allow-list with X-Forwarded-For).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Any

import uvicorn

from lawsuit_tui.i18n import _
from lawsuit_tui.services.webhooks import IngestTarget, ingestor_for
from lawsuit_tui.webhooks.receiver import (
    ANSWER_WITHIN,
    MAX_BODY,
    OnDelivery,
    Receiver,
    create_receiver,
)
from lawsuit_tui.webhooks.token import mask_token, resolve_token

if TYPE_CHECKING:
    from lawsuit_tui.config import Settings
    from lawsuit_tui.webhooks.receiver import ReceiverStats

__all__ = [
    "GRACEFUL_SECONDS",
    "EmbeddedReceiver",
    "QuietServer",
    "ReceiverUnavailable",
    "ThreadedServer",
    "bind_socket",
    "make_server",
    "public_receiver_url",
    "receiver_url",
    "start_server",
    "start_server_task",
]

# Deliveries in hand get this long to finish on Ctrl-C / SIGTERM (each answers within 8 s).
GRACEFUL_SECONDS = 15.0


class ReceiverUnavailable(Exception):
    """The receiver cannot run (cache read-only, address in use); the message is for the user."""


class QuietServer(uvicorn.Server):
    """uvicorn without its signal handling (the embedding program owns the signals)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


def receiver_url(host: str, port: int, token: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/{token}"


def public_receiver_url(public_url: str, token: str) -> str:
    return f"{public_url.rstrip('/')}/{token}"


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket (port 0: the system picks one). Raises OSError."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _canon, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(1024)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock


def make_server(app: Any, *, log_level: str = "warning") -> QuietServer:
    config = uvicorn.Config(
        app,
        log_level=log_level,
        access_log=False,
        proxy_headers=False,
        server_header=False,
        lifespan="off",  # nothing to start; notifications are drained by the owner
        timeout_graceful_shutdown=int(GRACEFUL_SECONDS),
        timeout_keep_alive=15,
    )
    return QuietServer(config)


async def start_server(server: uvicorn.Server, sock: socket.socket) -> asyncio.Task[None]:
    """Run ``server`` on ``sock`` in a task; return once it accepts connections."""
    task = asyncio.create_task(server.serve(sockets=[sock]))
    await start_server_task(server, task)
    return task


async def start_server_task(server: uvicorn.Server, task: asyncio.Task[None]) -> None:
    """Wait until the server in ``task`` accepts connections (or stopped: raise)."""
    while not server.started:
        if task.done():
            await task  # raises what stopped it
            raise ReceiverUnavailable(_("The webhook receiver stopped while starting."))
        await asyncio.sleep(0.01)


class EmbeddedReceiver:
    """The receiver inside the current asyncio loop (the TUI's), over the TUI's own cache.

    ``await start()`` returns the URL, token included. Show it in full only when
    ``token_source == "generated"`` (the token was just created and saved) or ``"given"``;
    otherwise show ``masked_url``. It raises
    :class:`ReceiverUnavailable` when the cache is read-only (another process, maybe a
    standalone receiver, holds the cache) or the address cannot be bound. ``await stop()``
    finishes the deliveries in hand, then returns. ``on_delivery`` is called on the loop
    with a :class:`~lawsuit_tui.services.webhooks.DeliverySummary` for each new delivery.
    """

    def __init__(
        self,
        cache: IngestTarget,
        settings: Settings,
        on_delivery: OnDelivery | None = None,
        *,
        host: str | None = None,
        port: int | None = None,
        path_token: str | None = None,
        allow_from: Sequence[str] | None = None,
        max_body: int = MAX_BODY,
        answer_within: float = ANSWER_WITHIN,
    ) -> None:
        self.cache = cache
        self.settings = settings
        self.on_delivery = on_delivery
        self.host = host or settings.webhooks.host
        self.port = settings.webhooks.port if port is None else port
        self._given_token = path_token
        self.allow_from = list(settings.webhooks.allow_from if allow_from is None else allow_from)
        self.max_body = max_body
        self.answer_within = answer_within
        self.url: str | None = None
        self.masked_url: str | None = None
        self.public_url: str | None = None
        self.token_source: str | None = None  # given, config or generated (show it once)
        self._token: str | None = None
        self.app: Receiver | None = None
        self._server: QuietServer | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    @property
    def stats(self) -> ReceiverStats | None:
        return self.app.stats if self.app is not None else None

    async def start(self) -> str:
        if self.running and self.url is not None:
            return self.url
        ingestor = ingestor_for(self.cache)
        if not ingestor.writable:
            raise ReceiverUnavailable(
                _(
                    "The cache is open read-only (another lawsuit-tui process writes to it), "
                    "so this window cannot receive webhooks. Deliveries received by that "
                    "process appear here as it stores them."
                )
            )
        try:
            sock = bind_socket(self.host, self.port)
        except OSError as exc:
            raise ReceiverUnavailable(
                _("The webhook receiver cannot listen on {host}:{port}: {error}").format(
                    host=self.host, port=self.port, error=exc.strerror or exc
                )
            ) from None
        try:
            # After the bind: a generated token is saved only when it will be shown.
            if self._token is None:
                token, self.token_source = await asyncio.to_thread(
                    resolve_token, self.settings, self._given_token
                )
                self._token = token
            else:
                token = self._token
                if self.token_source == "generated":
                    self.token_source = "config"  # a restart: saved by now, so shown masked
        except Exception as exc:  # ConfigError, or a config file that cannot be written
            sock.close()
            raise ReceiverUnavailable(
                _("Cannot save the generated path token: {error}").format(error=exc)
            ) from exc
        except BaseException:
            sock.close()
            raise
        self.app = create_receiver(
            ingestor,
            path_token=token,
            allow_from=self.allow_from,
            max_body=self.max_body,
            on_delivery=self.on_delivery,
            answer_within=self.answer_within,
        )
        port = int(sock.getsockname()[1])
        self._server = make_server(self.app)
        try:
            self._task = await start_server(self._server, sock)
        except BaseException:
            sock.close()
            raise
        self.url = receiver_url(self.host, port, token)
        self.masked_url = receiver_url(self.host, port, mask_token(token))
        public = self.settings.webhooks.public_url
        self.public_url = public_receiver_url(public, token) if public else None
        return self.url

    async def stop(self) -> None:
        server, task = self._server, self._task
        if server is None or task is None:
            return
        server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await task
        if self.app is not None:
            await self.app.aclose()
        self._server = None
        self._task = None
        self.url = None


class ThreadedServer:
    """Any ASGI app under uvicorn in a thread of its own, with its own event loop.

    For callers without a loop to share (benchmarks, test harnesses). ``start()`` returns the
    bound port once the server accepts connections; ``stop()`` shuts it down gracefully.
    """

    def __init__(self, app: Any, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.app = app
        self.host = host
        self.port = port
        self._server: QuietServer | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    def start(self, timeout: float = 10.0) -> int:
        sock = bind_socket(self.host, self.port)
        self.port = int(sock.getsockname()[1])
        self._server = make_server(self.app)
        server = self._server

        def run() -> None:
            async def main() -> None:
                task = asyncio.create_task(server.serve(sockets=[sock]))
                try:
                    await start_server_task(server, task)
                finally:
                    self._ready.set()
                await task

            try:
                asyncio.run(main())
            except BaseException as exc:  # reported by start()
                self._error = exc
                self._ready.set()

        self._thread = threading.Thread(target=run, name="lawsuit-tui-webhooks", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout) or self._error is not None or not server.started:
            self.stop()
            raise ReceiverUnavailable(f"the server did not start: {self._error!r}")
        return self.port

    def stop(self, timeout: float = GRACEFUL_SECONDS + 5) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
        self._server = None
        self._thread = None

"""The embedded webhook receiver, switched on and off from the app (F8 and the palette).

Each delivery it stores reaches every screen as ``CacheChanged`` (they read the cache again)
and, when it is news, raises a notice that ``app.follow_notice`` follows to what it is about.
A tracking's delivery is news when it stored a movement in the inbox (one the poll stored
first is not stored again), so each movement is announced once, and the notice leads there.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.ui.host import host_of
from lawsuit_tui.ui.messages import CacheChanged, post_to_every_screen

if TYPE_CHECKING:
    from textual.app import App

    from lawsuit_tui.services.webhooks import DeliverySummary
    from lawsuit_tui.webhooks.server import EmbeddedReceiver

__all__ = ["ReceiverSwitch", "delivery_notice"]


def delivery_notice(summary: DeliverySummary) -> tuple[str, str | None, dict[str, Any]]:
    """What a new webhook delivery says, and where ``app.follow_notice`` takes the user."""
    short = (summary.request_id or summary.reference_id or "")[:8]
    tracking = summary.reference_type == "tracking" or summary.event_type == "tracking_response"
    if tracking and summary.movements:
        count = len(summary.movements)
        return (
            ngettext(
                "Webhook: {n} new movement in the inbox.",
                "Webhook: {n} new movements in the inbox.",
                count,
            ).format(n=count),
            "inbox",
            {},
        )
    if summary.kind == "response" and summary.request_id:
        if summary.provisional:
            text = _("Webhook: a cached response for request {id}.")
        else:
            text = _("Webhook: the court's response for request {id}.")
        return text.format(id=short), "requests", {"request_id": summary.request_id}
    if summary.kind == "request" and summary.request_id:
        status = summary.status or _("updated")
        return (
            _("Webhook: request {id} {status}.").format(id=short, status=status),
            "requests",
            {"request_id": summary.request_id},
        )
    return (
        _("Webhook: a {event} delivery was stored as it came.").format(event=summary.event_type),
        None,
        {},
    )


def _port_of(url: str | None) -> str:
    if not url:
        return ""
    rest = url.split("://", 1)[-1]
    host_port = rest.split("/", 1)[0]
    return host_port.rsplit(":", 1)[-1]


class ReceiverSwitch:
    """The receiver of this session (``receiver``, made on first start), and its deliveries.

    ``on_change`` is called whenever what the status line shows of it changes; ``is_news``
    says whether a stored delivery is news (the movement ledger's claim).
    """

    def __init__(
        self,
        app: App[Any],
        *,
        on_change: Callable[[], None],
        is_news: Callable[[DeliverySummary], bool],
    ) -> None:
        self._app = app
        self._on_change = on_change
        self._is_news = is_news
        self.receiver: EmbeddedReceiver | None = None
        self.busy = False
        """A start or stop is under way (a second press waits for it)."""
        self.deliveries = 0
        """Deliveries stored this session."""

    @property
    def running(self) -> bool:
        return self.receiver is not None and self.receiver.running

    @property
    def address(self) -> str:
        """``host:port`` while the receiver listens, else ""."""
        receiver = self.receiver
        if receiver is None or not receiver.running:
            return ""
        return f"{receiver.host}:{_port_of(receiver.url)}"

    def toggle(self) -> None:
        """Start the receiver, or stop it when it runs."""
        if self.busy:
            return
        self.busy = True
        self._app.run_worker(
            self._toggle(), group="app.receiver", exclusive=False, exit_on_error=False
        )

    async def _toggle(self) -> None:
        app = self._app
        host = host_of(app)
        try:
            context = await host.context()
            if self.receiver is not None and self.receiver.running:
                await self.receiver.stop()
                self._on_change()
                app.notify(_("Webhook receiver stopped."), title=_("Webhooks"), timeout=4)
                return
            # uvicorn takes a while to import: not on the loop, not before it is wanted.
            await asyncio.to_thread(importlib.import_module, "lawsuit_tui.webhooks.server")
            from lawsuit_tui.webhooks.server import EmbeddedReceiver, ReceiverUnavailable

            if self.receiver is None:
                self.receiver = EmbeddedReceiver(context.store, host.settings, self.delivered)
            try:
                url = await self.receiver.start()
            except ReceiverUnavailable as error:
                app.notify(str(error), title=_("Webhooks"), severity="warning", timeout=15)
                return
            self._on_change()
            app.notify(
                self._started_text(self.receiver, url),
                title=_("Webhooks"),
                timeout=30 if self.receiver.token_source == "generated" else 8,
            )
        finally:
            self.busy = False

    def _started_text(self, receiver: EmbeddedReceiver, url: str) -> str:
        host = host_of(self._app)
        screen, key = host.binding_key("app.goto.webhooks"), host.binding_key("webhooks.toggle")
        if receiver.token_source in ("generated", "given"):
            # The path token is the secret: shown in full only now (it was just made or typed).
            shown = receiver.public_url or url
            self._app.copy_to_clipboard(shown)  # OSC 52: to the user's clipboard, never a file
            text = _("Receiving webhooks at {url} (copied)").format(url=shown)
            if receiver.token_source == "generated":
                text += "\n" + _(
                    "The path token was generated and saved in the config; it is not shown again."
                )
        else:
            text = _("Receiving webhooks at {url}").format(url=receiver.masked_url or "")
            text += "\n" + _("The full URL uses the path token from the config.")
        return (
            text
            + "\n"
            + _("Its screen ({screen}) shows it; {key} there stops it.").format(
                screen=screen, key=key
            )
        )

    def delivered(self, summary: DeliverySummary) -> None:
        """A delivery is durable in the cache: refresh what shows it, and say so."""
        app = self._app
        self.deliveries += 1
        self._on_change()
        post_to_every_screen(app, partial(CacheChanged, summary))
        if not summary.new:
            return  # a redelivery changes nothing
        if not self._is_news(summary):
            return  # the inbox's poll stored (and announced) this movement already
        message, destination_id, params = delivery_notice(summary)
        if destination_id is None:
            app.notify(message, title=_("Webhooks"), timeout=6)
            return
        if (
            destination_id == "requests"
            and getattr(app.screen, "followed_request", None) == summary.request_id
        ):
            return  # the user is looking at that request: the screen updates itself
        host_of(app).announce(message, destination_id, **params)

    async def stop(self) -> None:
        """Stop a running receiver (the app is closing); it finishes the deliveries in hand."""
        if self.receiver is not None and self.receiver.running:
            await self.receiver.stop()

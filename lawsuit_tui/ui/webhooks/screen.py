"""The webhook receiver's screen (F8): its address, its token, start and stop, what arrived.

The receiver itself belongs to the app (``ReceiverSwitch``): it keeps running while the user
is elsewhere. This screen shows it, refreshed every second while on show.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from lawsuit_tui.domain.formatting import format_datetime, format_int
from lawsuit_tui.i18n import N_, _
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand

if TYPE_CHECKING:
    from lawsuit_tui.ui.messages import LanguageChanged
    from lawsuit_tui.ui.webhooks.receiver import ReceiverSwitch


class ReceiverScreen(FramedScreen):
    """Where the service's callbacks arrive, and how many did."""

    TITLE_TEXT = N_("Webhooks")
    HELP_TEXT = N_(
        "The webhook receiver takes the service's callbacks (requests that end, responses, "
        "tracking movements) and stores them as they arrive; every screen shows them at once. "
        "Give the service the URL below as callback_url. The path token in it is the secret: "
        "it is shown masked, {copy} copies the whole URL. {toggle} starts or stops the "
        "receiver; it keeps running while you work elsewhere."
    )
    HELP_KEYS: ClassVar[dict[str, str]] = {"copy": "webhooks.copy", "toggle": "webhooks.toggle"}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "switch_receiver", _("Start/stop"), id="webhooks.toggle"),
        Binding("c", "copy", _("Copy URL"), id="webhooks.copy"),
    ]

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="receiver-box"):
            yield Static("", id="receiver-state")

    def on_mount(self) -> None:
        super().on_mount()
        self.show_state()
        self.set_interval(1.0, self.show_state)

    @property
    def switch(self) -> ReceiverSwitch:
        switch: ReceiverSwitch = getattr(self.app, "receiver_switch")  # noqa: B009 - the app's
        return switch

    def show_state(self) -> None:
        self.query_one("#receiver-state", Static).update(receiver_table(self.switch, self.app))

    def on_language_changed(self, message: LanguageChanged) -> None:
        super().on_language_changed(message)
        self.show_state()

    def action_switch_receiver(self) -> None:
        self.switch.toggle()

    def action_copy(self) -> None:
        receiver = self.switch.receiver
        url = (receiver.public_url or receiver.url) if receiver is not None else None
        if not url or not self.switch.running:
            key = self.host.binding_key("webhooks.toggle")
            self.notify(_("The receiver is stopped: {key} starts it.").format(key=key))
            return
        self.host.copy_text(url, _("the webhook URL"))

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Stop the webhook receiver")
            if self.switch.running
            else _("Start the webhook receiver"),
            _("Deliveries of the service, stored as they arrive"),
            self.action_switch_receiver,
            binding_id="webhooks.toggle",
        )
        yield PaletteCommand(
            _("Copy the webhook URL"),
            _("With its token, for the service's callback_url"),
            self.action_copy,
            binding_id="webhooks.copy",
        )


def receiver_table(switch: ReceiverSwitch, app: Any) -> Table:
    """State, address, token, deliveries and the last problems, as label/value lines."""
    receiver = switch.receiver
    running = switch.running
    table = Table.grid(padding=(0, 2))
    table.add_column(style="dim", no_wrap=True)
    table.add_column()
    state = Text(_("receiving"), style="bold") if running else Text(_("stopped"))
    if switch.busy:
        state = Text(_("starting or stopping…"), style="italic")
    table.add_row(_("State"), state)
    if receiver is not None and running:
        table.add_row(_("Address"), receiver.masked_url or "")
        if receiver.public_url:
            table.add_row(_("Public address"), _("set (webhooks.public_url)"))
        sources = {
            "generated": _("generated for this machine and kept in the config"),
            "config": _("from the config (webhooks.path_token)"),
            "given": _("given on the command line"),
        }
        table.add_row(_("Path token"), sources.get(receiver.token_source or "", ""))
    else:
        key = getattr(app, "binding_key", lambda _id: "s")("webhooks.toggle")
        table.add_row(_("Address"), _("none while stopped: {key} starts it").format(key=key))
    table.add_row(_("Received this session"), format_int(switch.deliveries))
    stats = receiver.stats if receiver is not None else None
    if stats is not None:
        table.add_row(_("Stored"), format_int(stats.stored))
        table.add_row(_("Already stored (redelivered)"), format_int(stats.repeated))
        table.add_row(_("Refused as bad input (400, 413)"), format_int(stats.rejected))
        table.add_row(_("Not stored, sender asked to retry (503)"), format_int(stats.failed))
        table.add_row(_("Senders outside the allow-list (403)"), format_int(stats.refused))
        if stats.last_delivery_at is not None:
            table.add_row(
                _("Last delivery"),
                f"{format_datetime(stats.last_delivery_at)}  {stats.last_event or ''}".rstrip(),
            )
        problems = [
            f"{format_datetime(when, seconds=True)}  {status}  {why}"
            for when, status, why in list(stats.problems)[-5:]
        ]
        table.add_row(_("Last problems"), "\n".join(problems) if problems else _("none"))
    return table

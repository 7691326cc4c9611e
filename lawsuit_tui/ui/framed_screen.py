"""``FramedScreen``: the base of every full screen, inside the app's frame.

The frame is the top bar (where the user is, the sandbox badge), the screen's body
(``compose_body``), the status line and the Footer. The base also gives each screen the
service context (``await self.services()``), the app (``self.host``, a
:class:`~lawsuit_tui.ui.host.ScreenHost`), the one failure path (a worker of the screen that
ends in error becomes ``host.report_error``), the first load (``on_services_ready``) and its
commands in the palette (``palette_commands``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer
from textual.worker import Worker, WorkerState

from lawsuit_tui.i18n import _
from lawsuit_tui.ui.host import ScreenHost, host_of
from lawsuit_tui.ui.keys import named_keys
from lawsuit_tui.ui.widgets.chrome import StatusLine, TopBar

if TYPE_CHECKING:
    from lawsuit_tui.services.context import ServiceContext
    from lawsuit_tui.ui.messages import LanguageChanged

__all__ = ["FramedScreen", "PaletteCommand"]


@dataclass(frozen=True, slots=True)
class PaletteCommand:
    """A command the palette offers while a screen is active."""

    title: str
    help: str
    callback: Callable[[], Any]
    binding_id: str | None = None
    """The binding that does the same; the palette shows its key."""


class FramedScreen(Screen[None]):
    """Top bar, body (``compose_body``), status line and Footer; services and failures."""

    TITLE_TEXT: ClassVar[str] = ""
    """Shown in the top bar; mark with N_ (translated at use)."""
    HELP_TEXT: ClassVar[str] = ""
    """A paragraph for the help screen; mark with N_. Keys it names are placeholders."""
    HELP_KEYS: ClassVar[Mapping[str, str]] = {}
    """The placeholders of HELP_TEXT: a binding id (``"lookup.fresh"``: the user's key for
    it) or one of Textual's own keys (``"enter"``), as :func:`~lawsuit_tui.ui.keys.named_keys`
    fills them."""

    _services_started = False

    @property
    def host(self) -> ScreenHost:
        """The app, as screens may use it."""
        return host_of(self.app)

    def compose(self) -> ComposeResult:
        yield TopBar(self.screen_title())
        yield from self.compose_body()
        with Vertical(id="chrome-bottom"):
            yield StatusLine()
            yield Footer()

    def compose_body(self) -> ComposeResult:
        yield from ()

    def screen_title(self) -> str:
        return _(self.TITLE_TEXT) if self.TITLE_TEXT else ""

    def help_text(self) -> str:
        """HELP_TEXT in the current language, with the keys the user has."""
        if not self.HELP_TEXT:
            return ""
        return _(self.HELP_TEXT).format(**named_keys(self.app, self.HELP_KEYS))

    def set_screen_title(self, title: str) -> None:
        self.query_one(TopBar).set_title(title)

    async def services(self) -> ServiceContext:
        """The ready service context (waits while it opens)."""
        return await self.host.context()

    def on_mount(self) -> None:
        context = self.host.services
        if context is not None:
            self.call_after_refresh(self.services_ready, context)

    def services_ready(self, context: ServiceContext) -> None:
        """Called by the app (ServicesReady) and on mount: runs ``on_services_ready`` once."""
        if self._services_started or not self.is_attached:
            return
        self._services_started = True
        self.on_services_ready(context)

    def on_services_ready(self, context: ServiceContext) -> None:
        """Start the first load here (called once, when the context is open)."""

    def palette_commands(self) -> Iterable[PaletteCommand]:
        return ()

    def on_language_changed(self, message: LanguageChanged) -> None:
        """The interface language changed: redo the frame's own texts.

        Screens whose body holds text made in ``compose`` extend this (call super)."""
        self.query_one(TopBar).set_title(self.screen_title())
        self.query_one(StatusLine).refresh_status()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            self.host.report_error(event.worker.error)

"""Long work on a portfolio (an import, a bulk change) with a progress bar and an ETA.

:class:`WorkProgressScreen` runs ``work(report)`` in its own worker and shows a Textual
``ProgressBar`` (with its ETA) that ``report(done, total, message)`` moves; it dismisses with
what ``work`` returned, or None when it failed (the error goes to the app's one presenter) or
the user stopped it. Stopping cancels the work where it is: what an import had under way is
found again by the next import (D161); a bulk change keeps what it already did.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, ProgressBar, Static
from textual.worker import Worker, WorkerState

from lawsuit_tui.i18n import _
from lawsuit_tui.ui.host import host_of

__all__ = ["Report", "WorkProgressScreen"]

Report = Callable[[int, int, str], None]
"""``report(done, total, message)``."""


class WorkProgressScreen(ModalScreen[Any]):
    """A progress bar over the screen while ``work`` runs."""

    CSS_PATH = "trackings.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "stop", _("Stop"), id="trackings.progress.stop"),
    ]

    def __init__(
        self,
        title: str,
        work: Callable[[Report], Awaitable[Any]],
        *,
        stop_note: str = "",
    ) -> None:
        super().__init__()
        self._title = title
        self._work = work
        self._stop_note = stop_note
        self.finished = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="wp-box") as box:
            box.border_title = self._title
            yield Static(_("Starting…"), id="wp-message", markup=False)
            yield ProgressBar(total=None, show_eta=True, id="wp-bar")
            yield Static(self._stop_note, id="wp-note", markup=False)
            with Horizontal(classes="dialog-buttons"):
                key = host_of(self.app).binding_key("trackings.progress.stop")
                yield Button(_("Stop ({key})").format(key=key), id="wp-stop", variant="error")

    def on_mount(self) -> None:
        self.run_worker(
            self._run(), group="trackings.progress", exclusive=True, exit_on_error=False
        )

    async def _run(self) -> None:
        result = await self._work(self.report)
        self.finished = True
        self.dismiss(result)

    def report(self, done: int, total: int, message: str) -> None:
        """Move the bar (safe to call from the work's coroutine)."""
        if not self.is_attached:
            return
        self.query_one("#wp-bar", ProgressBar).update(total=max(total, 1), progress=done)
        self.query_one("#wp-message", Static).update(message)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            host_of(self.app).report_error(event.worker.error)
            if not self.finished:
                self.finished = True
                self.dismiss(None)

    @on(Button.Pressed, "#wp-stop")
    def _stop_pressed(self) -> None:
        self.action_stop()

    def action_stop(self) -> None:
        if self.finished:
            return
        self.finished = True
        self.workers.cancel_group(self, "trackings.progress")
        self.dismiss(None)

"""Ask for a file of keys (CSV, .xlsx or text), to mark the portfolio's trackings of those keys."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from lawsuit_tui.i18n import _
from lawsuit_tui.ui.keys import named_keys

__all__ = ["KeysFilePrompt"]


class KeysFilePrompt(ModalScreen[Path | None]):
    """A path; Enter accepts it, the cancel key goes back."""

    CSS_PATH = "trackings.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Cancel"), id="trackings.keys_file.cancel"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="kf-box") as box:
            box.border_title = _("Mark the trackings of a file's keys")
            box.border_subtitle = _("{mark} marks · {cancel} cancels").format(
                **named_keys(self.app, {"mark": "enter", "cancel": "trackings.keys_file.cancel"})
            )
            yield Static(
                _(
                    "A CSV, .xlsx or text file with one key per row, as for an import: every "
                    "tracking of those keys is marked, ready for a bulk change."
                ),
                classes="dialog-text",
            )
            yield Input(placeholder=_("path/to/keys.csv"), id="kf-path")
            yield Static("", id="kf-problem")

    @on(Input.Submitted, "#kf-path")
    def _accept(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            self.query_one("#kf-problem", Static).update(_("Name a file."))
            return
        self.dismiss(Path(text).expanduser())

    def action_cancel(self) -> None:
        self.dismiss(None)

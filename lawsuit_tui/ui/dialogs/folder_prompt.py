"""Ask for a folder (downloads, exports) in a modal; the caller does the file work."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from lawsuit_tui.i18n import _
from lawsuit_tui.ui.host import host_of
from lawsuit_tui.ui.keys import named_keys

if TYPE_CHECKING:
    from textual.app import App

__all__ = ["FolderPrompt", "ask_folder"]


class FolderPrompt(ModalScreen[Path | None]):
    """A folder, prefilled with the configured one; Enter accepts, Escape cancels."""

    CSS_PATH = "dialogs.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Cancel"), id="prompt.cancel"),
    ]

    def __init__(self, title: str, explanation: str, folder: Path) -> None:
        super().__init__()
        self._title = title
        self._explanation = explanation
        self._folder = folder

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = self._title
            box.border_subtitle = _("{save} saves · {cancel} cancels").format(
                **named_keys(self.app, {"save": "enter", "cancel": "prompt.cancel"})
            )
            yield Static(self._explanation, classes="dialog-text")
            yield Input(str(self._folder), id="folder")
            yield Static("", id="folder-problem", classes="field-error")

    @on(Input.Submitted, "#folder")
    def _accept(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            self.query_one("#folder-problem", Static).update(_("Type a folder."))
            return
        path = Path(text).expanduser()
        if path.exists() and not path.is_dir():
            self.query_one("#folder-problem", Static).update(_("This is a file, not a folder."))
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)


def ask_folder(
    app: App[Any],
    title: str,
    then: Callable[[Path], object],
    *,
    explanation: str | None = None,
) -> None:
    """Ask for a folder, prefilled with the configured download folder, and call
    ``then(folder)`` once one is chosen (nothing when cancelled).

    ``explanation`` says what is written there; by default, a downloaded file that never
    replaces one.
    """

    def chosen(folder: Path | None) -> None:
        if folder is not None:
            then(folder)

    if explanation is None:
        explanation = _("The file is saved in this folder (never over an existing file).")
    app.push_screen(FolderPrompt(title, explanation, host_of(app).settings.download_dir), chosen)

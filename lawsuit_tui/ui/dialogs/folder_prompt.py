"""Ask for a folder (downloads, exports) in a modal; the caller does the file work."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.binding import Binding, BindingType

from lawsuit_tui.i18n import _
from lawsuit_tui.ui.dialogs.answered import if_answered
from lawsuit_tui.ui.dialogs.text_prompt import LinePrompt
from lawsuit_tui.ui.host import host_of
from lawsuit_tui.ui.keys import named_keys

if TYPE_CHECKING:
    from textual.app import App

__all__ = ["FolderPrompt", "ask_folder"]


class FolderPrompt(LinePrompt[Path]):
    """A folder, prefilled with the configured one; Enter accepts, Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Cancel"), id="prompt.cancel"),
    ]

    def __init__(self, title: str, explanation: str, folder: Path) -> None:
        super().__init__(title, explanation, value=str(folder))

    def keys_line(self) -> str:
        return _("{save} saves · {cancel} cancels").format(
            **named_keys(self.app, {"save": "enter", "cancel": "prompt.cancel"})
        )

    def answer(self, text: str) -> Path:
        if not text:
            raise ValueError(_("Type a folder."))
        path = Path(text).expanduser()
        if path.exists() and not path.is_dir():
            raise ValueError(_("This is a file, not a folder."))
        return path


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

    if explanation is None:
        explanation = _("The file is saved in this folder (never over an existing file).")
    app.push_screen(
        FolderPrompt(title, explanation, host_of(app).settings.download_dir), if_answered(then)
    )

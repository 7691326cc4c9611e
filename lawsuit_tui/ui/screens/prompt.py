"""Ask for a folder (downloads, exports) in a modal, then do the file work in a worker."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from lawsuit_tui.i18n import _

if TYPE_CHECKING:
    from lawsuit_tui.ui.app import LawsuitApp


class FolderPrompt(ModalScreen[Path | None]):
    """A folder, prefilled with the configured one; Enter accepts, Escape cancels."""

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
            box.border_subtitle = _("Enter saves · Escape cancels")
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


def export_lawsuit(app: LawsuitApp, code: str, instance: int | None) -> None:
    """Ask for a folder and write the cached lawsuit there as JSON."""

    def chosen(folder: Path | None) -> None:
        if folder is not None:
            app.run_worker(
                _write_export(app, code, instance, folder),
                group="app.export",
                exclusive=True,
                exit_on_error=False,
            )

    app.push_screen(
        FolderPrompt(
            _("Export {code}").format(code=code),
            _("The lawsuit, as the cache holds it, is saved as a JSON file in this folder."),
            app.settings.download_dir,
        ),
        chosen,
    )


async def _write_export(app: LawsuitApp, code: str, instance: int | None, folder: Path) -> None:
    context = await app.context()
    target = await context.lawsuits.export_to(code, instance, folder)
    app.notify(_("Saved {path}").format(path=target))

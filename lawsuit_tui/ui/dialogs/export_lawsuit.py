"""Exporting a lawsuit: the user chooses a folder, the service writes the file."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lawsuit_tui.i18n import _
from lawsuit_tui.ui.dialogs.folder_prompt import ask_folder
from lawsuit_tui.ui.host import host_of

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import App

__all__ = ["export_lawsuit"]


def export_lawsuit(app: App[Any], code: str, instance: int | None) -> None:
    """Ask for a folder and save the cached lawsuit there as JSON."""

    def write(folder: Path) -> None:
        app.run_worker(
            _write_export(app, code, instance, folder),
            group="app.export",
            exclusive=True,
            exit_on_error=False,
        )

    ask_folder(
        app,
        _("Export {code}").format(code=code),
        write,
        explanation=_(
            "The lawsuit, as the cache holds it, is saved as a JSON file in this folder."
        ),
    )


async def _write_export(app: App[Any], code: str, instance: int | None, folder: Path) -> None:
    context = await host_of(app).context()
    target = await context.lawsuits.export_to(code, instance, folder)
    app.notify(_("Saved {path}").format(path=target))

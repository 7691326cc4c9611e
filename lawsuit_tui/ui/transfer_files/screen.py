"""The company's transfer files (D123): what the provider prepared, its state, and the file.

Enter saves a ready file into a folder (a progress bar while it comes, the path when done);
``m`` tells the provider it was downloaded, ``e`` that it could not be used (with why);
``r`` reads the list again (files being prepared become ready as time passes).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from lawsuit_tui.domain.enums import TransferFileStatus, enum_or_none
from lawsuit_tui.domain.formatting import format_date, format_datetime, format_int, format_size
from lawsuit_tui.domain.transfer_files import TransferFile
from lawsuit_tui.domain.vocabulary import TRANSFER_FILE_STATUS_WORDS, word
from lawsuit_tui.i18n import N_, _, ngettext
from lawsuit_tui.ui.framed_screen import PaletteCommand
from lawsuit_tui.ui.table_screen import TableScreen
from lawsuit_tui.ui.widgets.download_bar import DownloadBar
from lawsuit_tui.ui.widgets.paged_table import PagedTable

if TYPE_CHECKING:
    from lawsuit_tui.services.context import ServiceContext

__all__ = ["TransferFilesScreen", "file_row"]

_STATUS_STYLE = {
    TransferFileStatus.COMPLETED: "bold",
    TransferFileStatus.ERROR: "bold reverse",
    TransferFileStatus.FAILED: "bold reverse",
    TransferFileStatus.DOWNLOADED: "dim",
}


def file_row(item: TransferFile) -> Sequence[str | Text]:
    status = word(TRANSFER_FILE_STATUS_WORDS, item.status)
    known = enum_or_none(TransferFileStatus, item.status)
    style = _STATUS_STYLE.get(known, "italic") if known is not None else ""
    return (
        format_date(item.created_at),
        item.description or item.name or "",
        str(item.file_type or "").upper(),
        format_int(item.lawsuits_count),
        format_size(item.size_bytes),
        Text(status, style=style),
    )


def file_key(item: TransferFile) -> str:
    return item.transfer_file_id


def file_detail(item: TransferFile | None) -> Text:
    if item is None:
        return Text(_("The provider has prepared no file for this company yet."))
    lines = [
        Text(item.description or item.name or "", style="bold"),
        Text(item.name or item.transfer_file_id, style="dim"),
    ]
    moments = [
        (_("ready {when}"), item.completed_at),
        (_("downloaded {when}"), item.downloaded_at),
        (_("error reported {when}"), item.error_at),
        (_("failed {when}"), item.failed_at),
    ]
    said = [text.format(when=format_datetime(when)) for text, when in moments if when]
    if said:
        lines.append(Text(" · ".join(said)))
    if item.error_message:
        lines.append(Text(_("Problem: {message}").format(message=item.error_message)))
    if not item.ready:
        lines.append(Text(_("Not ready: there is nothing to download yet."), style="italic"))
    return Text("\n").join(lines)


class TransferFilesScreen(TableScreen[TransferFile]):
    TITLE_TEXT = N_("Transfer files")
    HELP_TEXT = N_(
        "Files the provider prepared for your company (loads of lawsuits, custom reports), "
        "newest first. {save} saves a ready file; {mark} tells the provider it was "
        "downloaded, {report} that it could not be used; {refresh} reads the list again."
    )
    HELP_KEYS: ClassVar[Mapping[str, str]] = {
        "save": "transfer_files.download",
        "mark": "transfer_files.mark",
        "report": "transfer_files.report",
        "refresh": "transfer_files.refresh",
    }
    CSS_PATH = "transfer_files.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", _("Back"), id="transfer_files.back"),
        Binding("enter,d", "download", _("Download"), id="transfer_files.download"),
        Binding("m", "mark", _("Mark downloaded"), id="transfer_files.mark"),
        Binding("e", "report", _("Report a problem"), id="transfer_files.report"),
        Binding("r", "refresh", _("Refresh"), id="transfer_files.refresh"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.files: list[TransferFile] = []

    def compose_body(self) -> ComposeResult:
        yield Static(_("Reading the files…"), id="tf-summary")
        yield PagedTable(
            [
                ("created", _("Created"), 10),
                ("description", _("Description"), None),
                ("type", _("Type"), 7),
                ("lawsuits", _("Lawsuits"), 9),
                ("size", _("Size"), 7),
                ("status", _("Status"), 14),
            ],
            file_row,
            file_key,
            id="tf-list",
            page_size=100,
        )
        yield Static("", id="tf-detail")
        yield DownloadBar(id="download")

    def on_services_ready(self, context: ServiceContext) -> None:
        self._load()

    @work(exclusive=True, group="transfer_files.load", exit_on_error=False)
    async def _load(self) -> None:
        context = await self.services()
        self.table.loading = not self.files
        try:
            self.files = await context.transfer_files.list()
        finally:
            self.table.loading = False
        self.table.set_items(self.files)
        self._show()

    def _selected(self) -> TransferFile | None:
        return self.table.selected_item()

    def _show(self) -> None:
        ready = sum(1 for item in self.files if item.ready)
        self.query_one("#tf-summary", Static).update(
            ngettext("{n} file", "{n} files", len(self.files)).format(n=format_int(len(self.files)))
            + " · "
            + ngettext("{n} ready", "{n} ready", ready).format(n=format_int(ready))
        )
        self.query_one("#tf-detail", Static).update(file_detail(self._selected()))
        self.refresh_bindings()

    @on(DataTable.RowHighlighted, "#tf-list")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show()

    @on(DataTable.RowSelected, "#tf-list")
    def _chosen(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_download()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("download", "mark", "report"):
            item = self._selected()
            return item is not None and item.ready
        return True

    def _replace(self, item: TransferFile) -> None:
        self.files = [
            item if f.transfer_file_id == item.transfer_file_id else f for f in self.files
        ]
        self.table.update_item(item)
        self._show()

    # --- actions ---------------------------------------------------------------------------

    def action_back(self) -> None:
        self.dismiss()

    def action_refresh(self) -> None:
        self._load()

    def action_download(self) -> None:
        item = self._selected()
        if item is None or not item.ready:
            return
        from lawsuit_tui.ui.dialogs.folder_prompt import ask_folder

        ask_folder(
            self.app,
            _("Download {name}").format(name=item.name or item.transfer_file_id),
            partial(self._download, item),
        )

    @work(exclusive=True, group="transfer_files.download", exit_on_error=False)
    async def _download(self, item: TransferFile, folder: Path) -> None:
        context = await self.services()
        bar = self.query_one(DownloadBar)
        bar.start(item.name or item.transfer_file_id)
        try:
            saved = await context.transfer_files.download(
                item.transfer_file_id, folder, progress=bar.progress
            )
        finally:
            bar.finish()
        self.notify(
            _("Saved {path}. {key} tells the provider it was downloaded.").format(
                path=saved.path, key=self.host.binding_key("transfer_files.mark")
            ),
            timeout=10,
        )

    def action_mark(self) -> None:
        item = self._selected()
        if item is not None and item.ready:
            self._mark(item, TransferFileStatus.DOWNLOADED, None)

    def action_report(self) -> None:
        item = self._selected()
        if item is None or not item.ready:
            return
        from lawsuit_tui.ui.transfer_files.error_report import ErrorReportDialog

        def reported(message: str | None) -> None:
            if message and item is not None:
                self._mark(item, TransferFileStatus.ERROR, message)

        self.app.push_screen(ErrorReportDialog(item.name or item.transfer_file_id), reported)

    @work(group="transfer_files.mark", exit_on_error=False)
    async def _mark(self, item: TransferFile, status: str, message: str | None) -> None:
        context = await self.services()
        changed = await context.transfer_files.mark(item.transfer_file_id, status, message)
        self._replace(changed)
        self.notify(
            _("{name}: {status}").format(
                name=changed.name or changed.transfer_file_id,
                status=word(TRANSFER_FILE_STATUS_WORDS, changed.status),
            ),
            timeout=4,
        )

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Download the file"),
            _("Save it in a folder"),
            self.action_download,
            binding_id="transfer_files.download",
        )
        yield PaletteCommand(
            _("Mark the file downloaded"),
            _("Tell the provider it was used"),
            self.action_mark,
            binding_id="transfer_files.mark",
        )
        yield PaletteCommand(
            _("Report a problem with the file"),
            _("Tell the provider what went wrong"),
            self.action_report,
            binding_id="transfer_files.report",
        )
        yield PaletteCommand(
            _("Refresh the files"),
            _("Read the list again"),
            self.action_refresh,
            binding_id="transfer_files.refresh",
        )

"""The lawsuits a find request bought (``GET /responses`` of the Miner, D72), a page at a time.

Pushed over the count screen when a find completes, or from the history. The Miner's pages
(100 lawsuits each) are read one after the other and appended, so the first rows show at once;
Enter opens a lawsuit's tree (through the host), ``e`` writes them all to a CSV file in a
folder the user confirms.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from lawsuit_tui.domain.formatting import format_int, format_money
from lawsuit_tui.domain.miner import MINER_PAGE_SIZE_MAX, MinerLawsuit
from lawsuit_tui.domain.vocabulary import COUNT_KIND_WORDS, word
from lawsuit_tui.i18n import N_, _, ngettext
from lawsuit_tui.ui.dialogs.folder_prompt import ask_folder
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand
from lawsuit_tui.ui.widgets.paged_table import Cell, PagedTable

if TYPE_CHECKING:
    from lawsuit_tui.services.context import ServiceContext

__all__ = ["FindLawsuitsScreen"]


def _row(item: MinerLawsuit, courts: dict[int, str]) -> Sequence[Cell]:
    court = courts.get(item.tribunal_id or -1, str(item.tribunal_id or ""))
    return (
        item.code or "",
        court,
        format_money(item.amount) if item.amount is not None else "",
        item.name or "",
    )


class FindLawsuitsScreen(FramedScreen):
    """The lawsuits of one completed find request."""

    TITLE_TEXT = N_("Find request")
    HELP_TEXT = N_(
        "The lawsuits a find request bought from the Miner, as it returned them. {open} opens "
        "a lawsuit (its parties and steps); {export} writes them all to a CSV file; {back} goes "
        "back to the count."
    )
    CSS_PATH = "count.tcss"

    HELP_KEYS: ClassVar[Mapping[str, str]] = {
        "open": "enter",
        "export": "count.find_lawsuits.export",
        "back": "count.find_lawsuits.back",
    }

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", _("Back"), id="count.find_lawsuits.back"),
        Binding("e", "export", _("Export CSV"), id="count.find_lawsuits.export"),
    ]

    def __init__(self, request_id: int, courts: dict[int, str] | None = None) -> None:
        super().__init__()
        self.request_id = request_id
        self.courts = dict(courts or {})
        self.lawsuits: list[MinerLawsuit] = []
        self.total: int | None = None
        self.reading = True

    def compose_body(self) -> ComposeResult:
        yield Static("", id="fl-summary", markup=False)
        yield PagedTable[MinerLawsuit](
            [
                ("code", _("CNJ number"), 25),
                ("court", _("Court"), 7),
                ("amount", _("Amount"), 16),
                ("name", _("Parties"), None),
            ],
            lambda item: _row(item, self.courts),
            lambda item: item.code or str(item.lawsuit_id),
            id="fl-table",
        )
        # the whole selected row: at 80 columns the parties are cut in the table
        yield Static("", id="fl-detail", markup=False)

    def on_mount(self) -> None:
        super().on_mount()
        self._show_summary()

    def on_services_ready(self, context: ServiceContext) -> None:
        self.load()

    @property
    def table(self) -> PagedTable[MinerLawsuit]:
        return self.query_one("#fl-table", PagedTable)

    @work(exclusive=True, group="count.find_lawsuits.load", exit_on_error=False)
    async def load(self) -> None:
        context = await self.services()
        if not self.courts:
            known = context.count.cached_tribunals() or await context.count.tribunals()
            self.courts = {court.tribunal_id: court.name for court in known}
        self.reading = True
        self.lawsuits = []
        page = 1
        try:
            while True:
                answer = await context.count.lawsuits(self.request_id, page, MINER_PAGE_SIZE_MAX)
                self.total = answer.total
                self.lawsuits.extend(answer.data)
                self.table.set_items(list(self.lawsuits))
                self._show_summary()
                if not answer.data or page >= answer.total_pages:
                    break
                page += 1
        finally:
            self.reading = False
            self._show_summary()
        self.table.focus()

    def _show_summary(self) -> None:
        loaded = len(self.lawsuits)
        total = self.total if self.total is not None else loaded
        text = ngettext(
            "Find request #{id}: {n} lawsuit", "Find request #{id}: {n} lawsuits", total
        ).format(id=self.request_id, n=format_int(total))
        if self.reading and loaded < total:
            text += " · " + _("{loaded} read so far…").format(loaded=format_int(loaded))
        kinds = {word(COUNT_KIND_WORDS, item.kind) for item in self.lawsuits if item.kind}
        if kinds:
            text += " · " + ", ".join(sorted(kinds))
        self.query_one("#fl-summary", Static).update(text)

    @on(DataTable.RowHighlighted, "#fl-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        item = self.table.selected_item()
        detail = self.query_one("#fl-detail", Static)
        if item is None:
            detail.update("")
            return
        court = self.courts.get(item.tribunal_id or -1, "")
        amount = format_money(item.amount) if item.amount is not None else ""
        parts = [item.code or "", court, amount, item.name or ""]
        detail.update(" · ".join(part for part in parts if part))

    @on(DataTable.RowSelected, "#fl-table")
    def _open(self, event: DataTable.RowSelected) -> None:
        event.stop()
        item = self.table.selected_item()
        if item is not None and item.code:
            self.host.open_lawsuit(item.code, item.instance)

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_export(self) -> None:
        ask_folder(
            self.app,
            _("Export find request #{id}").format(id=self.request_id),
            self.export,
            explanation=_(
                "Every lawsuit of the request is written to a CSV file in this folder "
                "(never over an existing file)."
            ),
        )

    @work(exclusive=True, group="count.find_lawsuits.export", exit_on_error=False)
    async def export(self, folder: Path) -> None:
        context = await self.services()
        path, count = await context.count.export_csv(self.request_id, folder)
        self.notify(
            ngettext(
                "{n} lawsuit written to {path}", "{n} lawsuits written to {path}", count
            ).format(n=format_int(count), path=path),
            timeout=8,
        )

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Export the find request"),
            _("Write its lawsuits to a CSV file"),
            self.action_export,
            binding_id="count.find_lawsuits.export",
        )

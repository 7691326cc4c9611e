"""What a tracking follows: one row per lawsuit instance (the service's tracked items, D157).

A tracking of a CPF follows every lawsuit the search found; this lists them with their court,
status, step count and last step, and Enter opens one. Pushed over the tracking's detail.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from lawsuit_tui.domain.formatting import format_date, format_int
from lawsuit_tui.domain.trackings import TrackedItem
from lawsuit_tui.i18n import _, ngettext, pgettext
from lawsuit_tui.ui.errors import is_not_available
from lawsuit_tui.ui.host import host_of

__all__ = ["TrackedItemsScreen"]


class TrackedItemsScreen(ModalScreen[None]):
    """The lawsuits ``tracking_id`` follows."""

    CSS_PATH = "trackings.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", _("Close"), id="trackings.items.close"),
        Binding("enter", "open", _("Open lawsuit"), id="trackings.items.open", show=False),
    ]

    def __init__(self, title: str, tracking_id: str) -> None:
        super().__init__()
        self._title = title
        self.tracking_id = tracking_id
        self.items: list[TrackedItem] = []
        self.loaded = False

    def compose(self) -> ComposeResult:
        with Vertical(id="ti-box") as box:
            box.border_title = self._title
            yield Static(_("Reading what the tracking follows…"), id="ti-summary", markup=False)
            table: DataTable[str | Text] = DataTable(
                id="ti-table", cursor_type="row", zebra_stripes=True
            )
            yield table

    def on_mount(self) -> None:
        table = self.query_one("#ti-table", DataTable)
        table.add_column(_("Lawsuit"), key="lawsuit", width=25)
        table.add_column(_("Inst."), key="instance", width=5)
        table.add_column(_("Court"), key="court", width=8)
        table.add_column(_("Status"), key="status", width=10)
        table.add_column(pgettext("trackings column", "Steps"), key="steps", width=6)
        table.add_column(_("Last step"), key="last", width=10)
        table.focus()
        self.load()

    @work(exclusive=True, group="trackings.items.load", exit_on_error=False)
    async def load(self) -> None:
        context = await host_of(self.app).context()
        summary = self.query_one("#ti-summary", Static)
        try:
            self.items = await context.trackings.tracked_items(self.tracking_id)
        except Exception as exc:
            if not is_not_available(exc):
                raise
            summary.update(_("This service does not list what a tracking follows."))
            return
        self.loaded = True
        table = self.query_one("#ti-table", DataTable)
        table.clear()
        for item in self.items:
            table.add_row(
                item.lawsuit_cnj or "",
                str(item.lawsuit_instance or ""),
                item.tribunal_acronym or "",
                item.lawsuit_status or "",
                Text(format_int(item.steps_count), justify="right"),
                format_date(item.last_step_date),
                key=item.tracked_item_id,
            )
        key = host_of(self.app).binding_key("trackings.items.open")
        summary.update(
            ngettext(
                "{n} lawsuit instance followed · {key} opens one",
                "{n} lawsuit instances followed · {key} opens one",
                len(self.items),
            ).format(n=format_int(len(self.items)), key=key)
        )

    @on(DataTable.RowSelected, "#ti-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        table = self.query_one("#ti-table", DataTable)
        if not self.items or not 0 <= table.cursor_row < len(self.items):
            return
        item = self.items[table.cursor_row]
        if item.lawsuit_cnj:
            self.dismiss(None)
            host_of(self.app).open_lawsuit(item.lawsuit_cnj, item.lawsuit_instance)

    def action_close(self) -> None:
        self.dismiss(None)

"""F9: the dossiers kept in the cache, the one updated last first, and a field for a new one.

Everything here is read from the cache: the list opens offline, and so does each dossier.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Input, Static

from lawsuit_tui.domain import vocabulary as v
from lawsuit_tui.domain.formatting import format_date, format_int
from lawsuit_tui.domain.identifiers import InvalidSearchKey
from lawsuit_tui.i18n import N_, _, ngettext
from lawsuit_tui.services.dossier import DossierSummary, dossier_key
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand
from lawsuit_tui.ui.widgets.paged_table import PagedTable

if TYPE_CHECKING:
    from lawsuit_tui.services.context import ServiceContext
    from lawsuit_tui.ui.messages import CacheChanged, LanguageChanged

__all__ = ["DossierListScreen"]


def _cells(item: DossierSummary) -> Sequence[str | Text]:
    notes = [v.word(v.VERDICT_WORDS, item.verdict) if item.verdict else _("no decision")]
    if item.failed:
        notes.append(
            ngettext("{n} step failed", "{n} steps failed", item.failed).format(n=item.failed)
        )
    if item.tracked:
        notes.append(_("tracked"))
    return (
        Text(item.key.display, style="bold"),
        item.name or "",
        " · ".join(notes),
        format_date(item.updated_at),
    )


def _key(item: DossierSummary) -> str:
    return item.key.key


class DossierListScreen(FramedScreen):
    """The dossiers, recent first; a CPF or CNPJ typed opens (or starts) its dossier."""

    TITLE_TEXT = N_("Dossiers")
    HELP_TEXT = N_(
        "Due diligence of a person or company. Type a CPF or CNPJ and press {open}: a dossier "
        "kept in the cache opens at once, offline; a new one says what it will cost before "
        "anything is asked. Below, every dossier kept, the one updated last first; {open} "
        "opens one, {search} goes back to the field."
    )
    HELP_KEYS: ClassVar[dict[str, str]] = {
        "open": "dossier_list.open",
        "search": "dossier_list.focus_search",
    }
    CSS_PATH = "dossier.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", _("Open"), id="dossier_list.open", show=False),
        Binding(
            "escape",
            "focus_search",
            _("Document field"),
            id="dossier_list.focus_search",
            show=False,
        ),
        Binding("down", "to_list", _("To the list"), id="dossier_list.to_list", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.loaded = False

    def compose_body(self) -> ComposeResult:
        with Vertical(id="dossier-form"):
            yield Input(placeholder=self._placeholder(), id="dossier-key")
            yield Static("", id="dossier-hint")
        yield Static("", id="dossiers-title")
        yield PagedTable(
            [
                ("document", _("Document"), 18),
                ("name", _("Name"), -3),
                ("state", _("Decision"), -2),
                ("updated", _("Updated"), 11),
            ],
            _cells,
            _key,
            id="dossiers",
        )

    def _placeholder(self) -> str:
        return _("CPF or CNPJ — then {key}").format(key=self.host.binding_key("dossier_list.open"))

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#dossier-key", Input).focus()

    def on_services_ready(self, context: ServiceContext) -> None:
        self.load()

    def on_screen_resume(self) -> None:
        if self.host.services is not None:
            self.load()  # a dossier run meanwhile comes first

    def on_cache_changed(self, message: CacheChanged) -> None:
        self.load()

    @work(exclusive=True, group="dossier_list.load", exit_on_error=False)
    async def load(self) -> None:
        context = await self.services()
        items = await asyncio.to_thread(context.dossiers.recent)
        table: PagedTable[DossierSummary] = self.query_one("#dossiers", PagedTable)
        table.set_items(items)
        table.display = bool(items)
        self._title(len(items))
        self.loaded = True

    def _title(self, count: int) -> None:
        self.query_one("#dossiers-title", Static).update(
            ngettext("{n} dossier kept", "{n} dossiers kept", count).format(n=format_int(count))
            if count
            else _("No dossier yet: type a CPF or CNPJ above.")
        )

    def on_language_changed(self, message: LanguageChanged) -> None:
        super().on_language_changed(message)
        self.query_one("#dossier-key", Input).placeholder = self._placeholder()
        self.load()

    # --- opening ----------------------------------------------------------------------------

    @on(Input.Submitted, "#dossier-key")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._open_typed()

    def _open_typed(self) -> None:
        field = self.query_one("#dossier-key", Input)
        hint = self.query_one("#dossier-hint", Static)
        try:
            key = dossier_key(field.value)
        except InvalidSearchKey as error:
            hint.update(str(error))
            hint.add_class("-error")
            return
        hint.update("")
        hint.remove_class("-error")
        self.host.open_dossier(key.key)

    def action_open(self) -> None:
        if self.query_one("#dossier-key", Input).has_focus:
            self._open_typed()
            return
        table: PagedTable[DossierSummary] = self.query_one("#dossiers", PagedTable)
        item = table.selected_item()
        if item is not None:
            self.host.open_dossier(item.key.key)

    @on(DataTable.RowSelected, "#dossiers")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_focus_search(self) -> None:
        self.query_one("#dossier-key", Input).focus()

    def action_to_list(self) -> None:
        table = self.query_one("#dossiers", PagedTable)
        if table.display:
            table.focus()

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Document field"),
            _("Type a CPF or CNPJ"),
            self.action_focus_search,
            binding_id="dossier_list.focus_search",
        )

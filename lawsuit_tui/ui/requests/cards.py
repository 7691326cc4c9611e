"""A warrant and registration data, each on a screen of its own (pushed from the responses).

The responses list shows a few lines of each answer; these screens show all of it, in the words
of :mod:`lawsuit_tui.ui.widgets.criminal_text`. A warrant's document is saved from here (a
progress bar for a big one, the path said when done); its lawsuit is one key away.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import RenderableType
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from lawsuit_tui.domain.formatting import format_document
from lawsuit_tui.i18n import N_, _
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand
from lawsuit_tui.ui.widgets.criminal_text import entity_card, warrant_card
from lawsuit_tui.ui.widgets.download_bar import DownloadBar

if TYPE_CHECKING:
    from lawsuit_tui.domain.warrants import Warrant

__all__ = ["EntityCardScreen", "WarrantCardScreen"]


class CardScreen(FramedScreen):
    """One answer read whole: its card (``card()``) in a scroll that has the keys, redone in
    a new language; the screen's ``back`` action closes it."""

    CSS_PATH = "cards.tcss"

    def card(self) -> RenderableType:
        raise NotImplementedError

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="card-scroll"):
            yield Static(self.card(), id="card")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#card-scroll").focus()

    def on_language_changed(self, message: Any) -> None:
        super().on_language_changed(message)
        self.query_one("#card", Static).update(self.card())

    def action_back(self) -> None:
        self.dismiss()


class WarrantCardScreen(CardScreen):
    TITLE_TEXT = N_("Arrest warrant")
    HELP_TEXT = N_(
        "Everything the BNMP says about this warrant, and what it means for the person named "
        "in it. {save} saves the warrant's document; {lawsuit} opens the lawsuit that issued "
        "it; {copy} copies the warrant's number."
    )
    HELP_KEYS: ClassVar[Mapping[str, str]] = {
        "save": "warrant.download",
        "lawsuit": "warrant.lawsuit",
        "copy": "warrant.copy",
    }

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", _("Back"), id="warrant.back"),
        Binding("d", "download", _("Save document"), id="warrant.download"),
        Binding("o", "lawsuit", _("Open lawsuit"), id="warrant.lawsuit"),
        Binding("c", "copy", _("Copy number"), id="warrant.copy"),
    ]

    def __init__(self, warrant: Warrant) -> None:
        super().__init__()
        self.warrant = warrant

    def compose_body(self) -> ComposeResult:
        yield from super().compose_body()
        yield DownloadBar(id="download")

    def card(self) -> RenderableType:
        return warrant_card(
            self.warrant,
            self.host.binding_key("warrant.download"),
            self.host.binding_key("warrant.lawsuit"),
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "download":
            return bool(self.warrant.code and self.warrant.attachments)
        if action == "lawsuit":
            return bool(self.warrant.code)
        if action == "copy":
            return bool(self.warrant.number)
        return True

    def action_lawsuit(self) -> None:
        if self.warrant.code:
            self.host.open_lawsuit(self.warrant.code)

    def action_copy(self) -> None:
        if self.warrant.number:
            self.host.copy_text(self.warrant.number, _("the warrant's number"))

    def action_download(self) -> None:
        from lawsuit_tui.ui.dialogs.folder_prompt import ask_folder

        ask_folder(self.app, _("Save the warrant's document"), self._download)

    @work(exclusive=True, group="warrant.download", exit_on_error=False)
    async def _download(self, folder: Path) -> None:
        context = await self.services()
        bar = self.query_one(DownloadBar)
        bar.start(self.warrant.number or self.warrant.code or "")
        try:
            saved = await context.warrants.download_document(
                self.warrant, folder, progress=bar.progress
            )
        finally:
            bar.finish()
        self.notify(_("Saved {path}").format(path=saved.path), timeout=8)

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Save the warrant's document"),
            _("The PDF of the BNMP"),
            self.action_download,
            binding_id="warrant.download",
        )
        yield PaletteCommand(
            _("Open the warrant's lawsuit"),
            _("The criminal action that issued it"),
            self.action_lawsuit,
            binding_id="warrant.lawsuit",
        )


class EntityCardScreen(CardScreen):
    TITLE_TEXT = N_("Registration data")
    HELP_TEXT = N_(
        "Who the person or company is, as the revenue service and the provider's registries "
        "say: documents, status, addresses, contacts, parents or partners. {copy} copies the "
        "main document."
    )
    HELP_KEYS: ClassVar[Mapping[str, str]] = {"copy": "entity.copy"}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", _("Back"), id="entity.back"),
        Binding("c", "copy", _("Copy document"), id="entity.copy"),
    ]

    def __init__(self, data: Mapping[str, Any]) -> None:
        super().__init__()
        self.data = dict(data)

    def card(self) -> RenderableType:
        return entity_card(self.data)

    def action_copy(self) -> None:
        document = str(self.data.get("main_document") or "")
        if document:
            self.host.copy_text(format_document(document), _("the document"))

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Copy the document"),
            _("The CPF or CNPJ"),
            self.action_copy,
            binding_id="entity.copy",
        )

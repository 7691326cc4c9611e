"""A pager for long text (a step's content, an attachment's text): read-only, wrapped."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Footer, TextArea

from lawsuit_tui.i18n import _
from lawsuit_tui.ui.host import host_of


class TextViewScreen(ModalScreen[None]):
    """A long text, read-only and wrapped; ``c`` copies it."""

    CSS_PATH = "dialogs.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss", _("Close"), id="text.close"),
        Binding("c", "copy", _("Copy all"), id="text.copy"),
    ]

    def __init__(self, title: str, text: str, *, selected: bool = False) -> None:
        super().__init__()
        self._title = title
        self._text = text
        self._selected = selected
        """Open with all of it selected (a copy the clipboard may not have received)."""

    def compose(self) -> ComposeResult:
        area = TextArea(
            self._text,
            read_only=True,
            soft_wrap=True,
            show_line_numbers=False,
            id="text-view",
        )
        area.border_title = self._title
        area.border_subtitle = _("{key} closes").format(
            key=host_of(self.app).binding_key("text.close")
        )
        yield area
        yield Footer()

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.focus()
        if self._selected:
            area.select_all()

    def action_copy(self) -> None:
        area = self.query_one(TextArea)
        text = area.selected_text or self._text
        self.app.copy_to_clipboard(text)
        self.notify(_("Copied {n} characters.").format(n=len(text)), timeout=3)

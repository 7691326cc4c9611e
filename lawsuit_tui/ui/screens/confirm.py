"""A yes/no question in a modal; dismissed with True (yes) or False."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from lawsuit_tui.i18n import _


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,n", "answer(False)", _("No"), id="confirm.no"),
        Binding("y", "answer(True)", _("Yes"), id="confirm.yes"),
    ]

    def __init__(self, title: str, question: str, *, yes: str = "", no: str = "") -> None:
        super().__init__()
        self._title = title
        self._question = question
        self._yes = yes or _("Yes")
        self._no = no or _("Cancel")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = self._title
            yield Static(self._question, classes="dialog-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self._yes + " (y)", id="yes", variant="primary")
                yield Button(self._no + " (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

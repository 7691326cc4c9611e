"""A yes/no question in a modal; dismissed with True (yes) or False.

A destructive question (delete, cancel) starts with "No" focused, so that an Enter typed
by habit, or one meant for the screen below, keeps what it was about.
"""

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
    """Yes or no; dismissed with True for yes."""

    CSS_PATH = "dialogs.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,n", "answer(False)", _("No"), id="confirm.no"),
        Binding("y", "answer(True)", _("Yes"), id="confirm.yes"),
    ]

    def __init__(
        self,
        title: str,
        question: str,
        *,
        yes: str = "",
        no: str = "",
        destructive: bool = False,
    ) -> None:
        super().__init__()
        self.destructive = destructive
        self._title = title
        self._question = question
        self._yes = yes or _("Yes")
        self._no = no or _("Cancel")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = self._title
            yield Static(self._question, classes="dialog-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button(
                    self._yes + " (y)",
                    id="yes",
                    variant="error" if self.destructive else "primary",
                )
                yield Button(self._no + " (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no" if self.destructive else "#yes", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

"""Ask for one line of text (an id pasted from elsewhere) in a modal; the caller acts on it."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from lawsuit_tui.i18n import _
from lawsuit_tui.ui.keys import named_keys

__all__ = ["TextPrompt"]


class TextPrompt(ModalScreen[str | None]):
    """One line; Enter accepts it when ``check`` finds no problem (it returns the problem's
    words, or None), Escape cancels. Dismisses with the text, stripped, or None."""

    CSS_PATH = "dialogs.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Cancel"), id="text_prompt.cancel"),
    ]

    def __init__(
        self,
        title: str,
        explanation: str,
        *,
        placeholder: str = "",
        check: Callable[[str], str | None] | None = None,
    ) -> None:
        super().__init__()
        self._title = title
        self._explanation = explanation
        self._placeholder = placeholder
        self._check = check

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = self._title
            box.border_subtitle = _("{open} opens · {cancel} cancels").format(
                **named_keys(self.app, {"open": "enter", "cancel": "text_prompt.cancel"})
            )
            yield Static(self._explanation, classes="dialog-text")
            yield Input(placeholder=self._placeholder, id="prompt-text")
            yield Static("", id="prompt-problem", classes="field-error")

    @on(Input.Changed, "#prompt-text")
    def _typed(self, event: Input.Changed) -> None:
        self.query_one("#prompt-problem", Static).update("")

    @on(Input.Submitted, "#prompt-text")
    def _accept(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        problem = _("Type or paste the text.") if not text else None
        if problem is None and self._check is not None:
            problem = self._check(text)
        if problem:
            self.query_one("#prompt-problem", Static).update(problem)
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)

"""Ask for one line in a modal (an id pasted from elsewhere, a folder); the caller acts on it.

:class:`LinePrompt` is the dialog: a title, the keys in its subtitle, an explanation, the
field, and the field's problem under it (cleared as the user types). Enter accepts the line
when :meth:`LinePrompt.answer` makes an answer of it (it raises ``ValueError`` with the
problem otherwise); Escape cancels. Each prompt says what its line is and what its keys do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from lawsuit_tui.i18n import _
from lawsuit_tui.ui.keys import named_keys

__all__ = ["LinePrompt", "TextPrompt"]

Answer = TypeVar("Answer")


class LinePrompt(ModalScreen[Answer | None]):
    """One line; dismissed with what :meth:`answer` makes of it, or None when cancelled."""

    CSS_PATH = "dialogs.tcss"

    def __init__(
        self, title: str, explanation: str, *, value: str = "", placeholder: str = ""
    ) -> None:
        super().__init__()
        self._title = title
        self._explanation = explanation
        self._value = value
        self._placeholder = placeholder

    def keys_line(self) -> str:
        """The dialog's subtitle: what Enter and the cancel key do."""
        raise NotImplementedError

    def answer(self, text: str) -> Answer:
        """The answer the line (stripped) gives; ValueError with the problem to show."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = self._title
            box.border_subtitle = self.keys_line()
            yield Static(self._explanation, classes="dialog-text")
            yield Input(self._value, placeholder=self._placeholder, id="prompt-text")
            yield Static("", id="prompt-problem", classes="field-error")

    @on(Input.Changed, "#prompt-text")
    def _typed(self, event: Input.Changed) -> None:
        self.query_one("#prompt-problem", Static).update("")

    @on(Input.Submitted, "#prompt-text")
    def _accept(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            answer = self.answer(event.value.strip())
        except ValueError as problem:
            self.query_one("#prompt-problem", Static).update(str(problem))
            return
        self.dismiss(answer)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TextPrompt(LinePrompt[str]):
    """One line of text; Enter accepts it when ``check`` finds no problem (it returns the
    problem's words, or None). Dismisses with the text, stripped, or None."""

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
        super().__init__(title, explanation, placeholder=placeholder)
        self._check = check

    def keys_line(self) -> str:
        return _("{open} opens · {cancel} cancels").format(
            **named_keys(self.app, {"open": "enter", "cancel": "text_prompt.cancel"})
        )

    def answer(self, text: str) -> str:
        problem = _("Type or paste the text.") if not text else None
        if problem is None and self._check is not None:
            problem = self._check(text)
        if problem:
            raise ValueError(problem)
        return text

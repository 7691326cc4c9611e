"""Report that a transfer file could not be used: the message the provider's team reads."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input

from lawsuit_tui.i18n import _
from lawsuit_tui.ui.widgets.form import (
    FieldBox,
    FormDialog,
    cancel_button,
    send_button,
    show_problems,
)

__all__ = ["ErrorReportDialog"]


class ErrorReportDialog(FormDialog[str | None]):
    """What went wrong with a file; F10 sends, Escape cancels. Dismissed with the message."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Cancel"), id="transfer_files.report.cancel"),
        Binding("f10", "submit", _("Send"), id="transfer_files.report.submit", priority=True),
    ]

    def __init__(self, file_name: str) -> None:
        super().__init__()
        self._file_name = file_name

    def form_title(self) -> str:
        return _("Report a problem with {name}").format(name=self._file_name)

    def compose_fields(self) -> ComposeResult:
        yield FieldBox(
            _("What went wrong"),
            Input(placeholder=_("e.g. file truncated, columns missing"), id="message"),
            field="message",
            hint=_("The provider's team reads this to fix the file."),
        )

    def compose_buttons(self) -> ComposeResult:
        yield cancel_button(self.app, "transfer_files.report.cancel", button_id="cancel")
        yield send_button(
            self.app, _("Send ({key})"), "transfer_files.report.submit", button_id="send"
        )

    def on_mount(self) -> None:
        self.query_one("#message", Input).focus()

    def action_submit(self) -> None:
        text = self.query_one("#message", Input).value.strip()
        if not text:
            show_problems(self, {"message": _("Say what went wrong.")})
            return
        self.dismiss(text)

"""The one question before a paid find request (D72): how many lawsuits at most, and yes.

It says what is bought (the count's total and its filter), how it is charged (credits per
lawsuit by amount tier, debited when the request is created, no refund once queued: the
Miner's credits page) and takes the cap (``responses_limit``), the count's total by default.
Dismissed with the cap, or None when cancelled.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input, Static

from lawsuit_tui.domain.formatting import format_int
from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.ui.widgets.form import (
    FieldBox,
    FormDialog,
    cancel_button,
    parse_int,
    send_button,
)

__all__ = ["FindDialog"]


class FindDialog(FormDialog[int | None]):
    """Create a find request for a counted filter: the cap, then yes (F10) or no (Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Cancel"), id="count.find.cancel"),
        Binding("f10", "submit", _("Create"), id="count.find.submit"),
    ]

    def __init__(self, total: int, summary: str) -> None:
        super().__init__()
        self.total = total
        self.summary = summary

    def form_title(self) -> str:
        return _("Create a find request (paid)")

    def compose_fields(self) -> ComposeResult:
        yield Static(
            ngettext(
                "{n} lawsuit matches: {summary}.",
                "{n} lawsuits match: {summary}.",
                self.total,
            ).format(n=format_int(self.total), summary=self.summary),
            id="fd-what",
            markup=False,
        )
        yield Static(
            _(
                "The Miner charges credits for each lawsuit it returns, priced by "
                "amount tier as your contract sets, and debits them when the request "
                "is created; a created request is not refunded."
            ),
            id="fd-cost",
            markup=False,
        )
        yield FieldBox(
            _("At most (lawsuits)"),
            Input(str(self.total), id="fd-cap"),
            field="cap",
            hint=_("Lower it to buy a sample: you pay only for what it returns."),
        )

    def compose_buttons(self) -> ComposeResult:
        yield cancel_button(self.app, "count.find.cancel", button_id="fd-cancel")
        yield send_button(
            self.app,
            _("Create and pay ({key})"),
            "count.find.submit",
            button_id="fd-submit",
            variant="warning",
        )

    def on_mount(self) -> None:
        self.query_one("#fd-cap", Input).focus()

    def action_submit(self) -> None:
        box = self.query_one("#box-cap", FieldBox)
        try:
            cap = parse_int(self.query_one("#fd-cap", Input).value, what=_("At most"), low=1)
        except ValueError as exc:
            box.set_error(str(exc))
            return
        box.set_error(None)
        self.dismiss(cap)

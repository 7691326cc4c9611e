"""The dossier's two dialogs: the analyst's decision (a form) and the report's format."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from lawsuit_tui.domain import vocabulary as v
from lawsuit_tui.domain.dossier import Verdict
from lawsuit_tui.i18n import _
from lawsuit_tui.ui.host import host_of
from lawsuit_tui.ui.keys import words_of_key
from lawsuit_tui.ui.widgets.form import (
    FieldBox,
    FormDialog,
    cancel_button,
    send_button,
    show_problems,
)

__all__ = ["DecisionDialog", "DecisionText", "ReportFormatDialog"]


@dataclass(frozen=True)
class DecisionText:
    verdict: Verdict
    note: str
    by: str


class DecisionDialog(FormDialog[DecisionText | None]):
    """Approve, approve with conditions or reject, why, and who (D193); F10 records it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Cancel"), id="dossier.decision.cancel"),
        Binding("f10", "submit", _("Record"), id="dossier.decision.submit", priority=True),
    ]

    def __init__(self, who: str, by: str, current: Verdict | None = None) -> None:
        super().__init__()
        self._who = who
        self._by = by
        self._current = current

    def form_title(self) -> str:
        return _("Decision on {who}").format(who=self._who)

    def compose_fields(self) -> ComposeResult:
        yield FieldBox(
            _("Decision"),
            Select(
                [(v.word(v.VERDICT_WORDS, verdict), verdict) for verdict in Verdict],
                value=self._current or Verdict.APPROVE,
                allow_blank=False,
                id="verdict",
            ),
            field="verdict",
        )
        yield FieldBox(
            _("Why"),
            Input(placeholder=_("e.g. guarantee required; labour exposure"), id="note"),
            field="note",
            hint=_("Required unless you approve without conditions."),
        )
        yield FieldBox(_("By"), Input(self._by, id="by"), field="by")

    def compose_buttons(self) -> ComposeResult:
        yield cancel_button(self.app, "dossier.decision.cancel", button_id="cancel")
        yield send_button(
            self.app, _("Record ({key})"), "dossier.decision.submit", button_id="send"
        )

    def on_mount(self) -> None:
        self.query_one("#verdict", Select).focus()

    def action_submit(self) -> None:
        verdict = self.query_one("#verdict", Select).value
        note = self.query_one("#note", Input).value.strip()
        by = self.query_one("#by", Input).value.strip()
        problems: dict[str, str] = {}
        if verdict != Verdict.APPROVE and not note:
            problems["note"] = _("Say why: the onboarding file keeps it.")
        if not by:
            problems["by"] = _("Say who decides.")
        if problems or not isinstance(verdict, Verdict):
            show_problems(self, problems, go_to_first=True)
            return
        self.dismiss(DecisionText(verdict, note, by))


class ReportFormatDialog(ModalScreen[str | None]):
    """HTML (for the onboarding file), Markdown or JSON; dismissed with the format."""

    CSS_PATH = "dossier.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Cancel"), id="dossier.report_format.cancel"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="rf-box") as box:
            box.border_title = _("Export the dossier")
            yield Static(
                _("{choose} chooses; {key} goes back. The file is new: none is replaced.").format(
                    choose=words_of_key(self.app, "enter"),
                    key=host_of(self.app).binding_key("dossier.report_format.cancel"),
                ),
                classes="dialog-text",
            )
            yield OptionList(
                Option(_("HTML page: prints well, opens in any browser"), id="html"),
                Option(_("Markdown text"), id="md"),
                Option(_("JSON: one key per section, for a system"), id="json"),
                id="rf-options",
            )

    def on_mount(self) -> None:
        self.query_one("#rf-options", OptionList).focus()

    @on(OptionList.OptionSelected, "#rf-options")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)

"""The inbox's two forms: what to show (the filters) and what to export."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Checkbox, Input, Select

from lawsuit_tui.domain.formatting import format_int
from lawsuit_tui.domain.inbox import InboxFilter
from lawsuit_tui.domain.vocabulary import TIER_WORDS, word
from lawsuit_tui.i18n import _
from lawsuit_tui.services.inbox_export import CSV_FORMAT, JSON_FORMAT
from lawsuit_tui.ui.widgets.form import (
    FieldBox,
    FormDialog,
    cancel_button,
    send_button,
    show_problems,
)

__all__ = [
    "ANY",
    "PERIODS",
    "ExportChoice",
    "FilterChoice",
    "InboxExportDialog",
    "InboxFilterDialog",
    "Period",
    "period_label",
]

ANY = ""

Period = str
"""``""`` (any time), ``today``, ``yesterday`` (since yesterday's start), ``7d``, ``30d``."""
PERIODS: tuple[Period, ...] = ("", "today", "yesterday", "7d", "30d")


def period_label(period: Period) -> str:
    return {
        "": _("Any time"),
        "today": _("Today"),
        "yesterday": _("Since yesterday"),
        "7d": _("Last 7 days"),
        "30d": _("Last 30 days"),
    }[period]


def _options(values: list[tuple[str, int]], label: Any = str) -> list[tuple[str, str]]:
    return [(_("Any"), ANY)] + [
        (f"{label(value)} ({format_int(count)})", value) for value, count in values
    ]


@dataclass(frozen=True)
class FilterChoice:
    """What the filter form gives back: the fields it edits, and the period chosen."""

    tier: str | None
    court: str | None
    step_type: str | None
    term: str | None
    unread: bool
    period: Period


class InboxFilterDialog(FormDialog[FilterChoice | None]):
    """Tier, court, step type, term (each with how many movements have it), period, unread."""

    CSS_PATH: ClassVar[list[Any]] = [*FormDialog.CSS_PATH, "inbox.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Cancel"), id="inbox.filters.cancel"),
        Binding("f10", "submit", _("Apply"), id="inbox.filters.apply"),
    ]

    def __init__(self, current: InboxFilter, period: Period, facets: Any) -> None:
        super().__init__()
        self._current = current
        self._period = period
        self._facets = facets

    def form_title(self) -> str:
        return _("Show in the inbox")

    def compose_fields(self) -> ComposeResult:
        now = self._current
        facets = self._facets

        def select(name: str, values: list[tuple[str, int]], value: str | None, **kw: Any) -> Any:
            options = _options(values, **kw)
            known = {option for _label, option in options}
            chosen = value if value in known else ANY
            return Select[str](options, value=chosen, allow_blank=False, id=f"if-{name}")

        with Horizontal(classes="field-pair"):
            yield FieldBox(
                _("When it came"),
                Select[str](
                    [(period_label(p), p) for p in PERIODS],
                    value=self._period,
                    allow_blank=False,
                    id="if-period",
                ),
                field="period",
            )
            yield FieldBox(
                _("Read or not"),
                Checkbox(_("Unread only"), now.unread, id="if-unread"),
                field="unread",
            )
        with Horizontal(classes="field-pair"):
            yield FieldBox(
                _("Tier"),
                select("tier", facets.tiers, now.tier, label=lambda v: word(TIER_WORDS, v)),
                field="tier",
            )
            yield FieldBox(_("Court"), select("court", facets.courts, now.court), field="court")
        yield FieldBox(
            _("Step type"),
            select("step-type", facets.step_types, now.step_type),
            field="step-type",
        )
        yield FieldBox(_("Step term found"), select("term", facets.terms, now.term), field="term")

    def compose_buttons(self) -> ComposeResult:
        yield cancel_button(self.app, "inbox.filters.cancel", button_id="if-cancel")
        yield send_button(self.app, _("Apply ({key})"), "inbox.filters.apply", button_id="if-apply")

    def on_mount(self) -> None:
        self.query_one("#if-period", Select).focus()

    def _value(self, name: str) -> str | None:
        value = self.query_one(f"#if-{name}", Select).value
        return value if isinstance(value, str) and value else None

    def action_submit(self) -> None:
        period = self.query_one("#if-period", Select).value
        self.dismiss(
            FilterChoice(
                tier=self._value("tier"),
                court=self._value("court"),
                step_type=self._value("step-type"),
                term=self._value("term"),
                unread=self.query_one("#if-unread", Checkbox).value,
                period=period if isinstance(period, str) else "",
            )
        )


@dataclass(frozen=True)
class ExportChoice:
    file_format: str
    scope: str  # "shown", "today" or "selected"
    folder: Path


class InboxExportDialog(FormDialog[ExportChoice | None]):
    """CSV (a Brazilian spreadsheet) or JSON; the movements shown, today's, or the selected."""

    CSS_PATH: ClassVar[list[Any]] = [*FormDialog.CSS_PATH, "inbox.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Cancel"), id="inbox.export.cancel"),
        Binding("f10", "submit", _("Export"), id="inbox.export.submit"),
    ]

    def __init__(self, counts: dict[str, int], folder: Path) -> None:
        super().__init__()
        self._counts = counts
        self._folder = folder

    def form_title(self) -> str:
        return _("Export movements")

    def compose_fields(self) -> ComposeResult:
        counts = self._counts
        scopes = [
            (_("The movements shown ({n})").format(n=format_int(counts["shown"])), "shown"),
            (_("Today's movements ({n})").format(n=format_int(counts["today"])), "today"),
        ]
        if counts.get("selected"):
            scopes.insert(
                0,
                (
                    _("The selected movements ({n})").format(n=format_int(counts["selected"])),
                    "selected",
                ),
            )
        with Horizontal(classes="field-pair"):
            yield FieldBox(
                _("Format"),
                Select[str](
                    [
                        (_("CSV (spreadsheet)"), CSV_FORMAT),
                        (_("JSON (every field)"), JSON_FORMAT),
                    ],
                    value=CSV_FORMAT,
                    allow_blank=False,
                    id="ie-format",
                ),
                field="format",
                hint=_("CSV: ; between cells, decimal comma, dd/mm/yyyy."),
            )
            yield FieldBox(
                _("Which"),
                Select[str](scopes, value=scopes[0][1], allow_blank=False, id="ie-scope"),
                field="scope",
            )
        yield FieldBox(
            _("Folder"),
            Input(str(self._folder), id="ie-folder"),
            field="folder",
            hint=_("A new file is made there; none is ever replaced."),
        )

    def compose_buttons(self) -> ComposeResult:
        yield cancel_button(self.app, "inbox.export.cancel", button_id="ie-cancel")
        yield send_button(
            self.app, _("Export ({key})"), "inbox.export.submit", button_id="ie-submit"
        )

    def on_mount(self) -> None:
        self.query_one("#ie-format", Select).focus()

    def action_submit(self) -> None:
        text = self.query_one("#ie-folder", Input).value.strip()
        folder = Path(text).expanduser() if text else None
        problems: dict[str, str] = {}
        if folder is None:
            problems["folder"] = _("Type a folder.")
        elif folder.exists() and not folder.is_dir():
            problems["folder"] = _("This is a file, not a folder.")
        show_problems(self, problems, go_to_first=True)
        if problems or folder is None:
            return
        file_format = self.query_one("#ie-format", Select).value
        scope = self.query_one("#ie-scope", Select).value
        self.dismiss(
            ExportChoice(
                file_format=file_format if isinstance(file_format, str) else CSV_FORMAT,
                scope=scope if isinstance(scope, str) else "shown",
                folder=folder,
            )
        )

"""Importing a portfolio from the app: the file (or a pasted list), the preview, the creation.

F10 checks: every row of the file is read and checked (keys and check digits, repeated keys,
tiers), the rows that will not be sent are listed with why, then what is tracked already (the
cache at once, the service's list a moment later) and the runs a month the new trackings add
per tier. F10 again, once the preview is up to date, asks before creating; the creation runs
with a progress bar and an ETA, and can be stopped: the next import finds what was under way
and creates only what is missing (D161). In the sandbox the path starts at the demo portfolio
(``assets/portfolio/carteira-demo.csv``), so a first import shows a real preview.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, Input, Select, Static, TextArea

from lawsuit_tui.assets_dir import asset_path
from lawsuit_tui.domain.formatting import format_int
from lawsuit_tui.domain.portfolio import ImportRow, PortfolioCheck
from lawsuit_tui.i18n import N_, _, ngettext, pgettext
from lawsuit_tui.services.portfolio import PortfolioConfigError, runs_text, tier_word
from lawsuit_tui.services.portfolio_files import PortfolioFileError
from lawsuit_tui.services.portfolio_import import (
    ImportOutcome,
    ImportPlan,
    PortfolioImporter,
    rows_summary,
)
from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand
from lawsuit_tui.ui.trackings.work_progress import Report, WorkProgressScreen
from lawsuit_tui.ui.widgets.form import FieldBox
from lawsuit_tui.ui.widgets.table_columns import room_left, set_column_width
from lawsuit_tui.ui.widgets.typed_order import keep_typed_order

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    from lawsuit_tui.services.context import ServiceContext

__all__ = ["PortfolioImportScreen", "outcome_lines", "preview_lines"]

keep_typed_order(TextArea)  # the pasted list is edited here: its keys in the order typed

DEMO_FILE = "portfolio/carteira-demo.csv"
# Rows of the problems table drawn at most (each may wrap over two lines).
SHOWN_PROBLEMS = 500


def preview_lines(source: str, plan: ImportPlan) -> list[str]:
    """What the preview says above the list of rows that will not be sent."""
    check = plan.check
    lines = [rows_summary(source, check)]
    already = format_int(len(plan.already_tracked))
    known = (
        _("Tracked already: {n}").format(n=already)
        if plan.service_checked
        else _("Tracked already (in the cache; asking the service…): {n}").format(n=already)
    )
    runs = plan.monthly_runs()
    lines.append(
        " · ".join(
            (
                known,
                _("to create: {n}").format(n=format_int(len(plan.to_create))),
                _("+{runs} runs a month").format(runs=runs_text(sum(runs.values()))),
            )
        )
    )
    counts = check.by_tier(plan.to_create)
    if counts:
        lines.append(
            " · ".join(
                _("{tier} {n} (+{runs})").format(
                    tier=tier_word(name), n=format_int(n), runs=runs_text(runs.get(name, 0.0))
                )
                for name, n in counts.items()
            )
        )
    if plan.open_intents:
        lines.append(
            _("An earlier import was interrupted: what it had under way is checked first.")
        )
    return lines


def outcome_lines(outcome: ImportOutcome) -> list[str]:
    lines = [
        _("Created {created} · tracked already {already} · refused {failed}").format(
            created=format_int(len(outcome.created)),
            already=format_int(len(outcome.already)),
            failed=format_int(len(outcome.failed)),
        )
    ]
    if outcome.reconciled:
        lines.append(
            _("{n} were found at the service after an interrupted import").format(
                n=format_int(outcome.reconciled)
            )
        )
    return lines


class PortfolioImportScreen(FramedScreen):
    """Pushed over the portfolio; ``on_close(changed)`` when it is left, ``changed`` True once
    trackings may have been made."""

    TITLE_TEXT = N_("Import a portfolio")
    HELP_TEXT = N_(
        "Name a CSV (comma or semicolon, UTF-8 or Windows-1252), an .xlsx sheet or a text file "
        "with one key per row, or paste keys, one per line. Optional columns: tier (nível), "
        "tags (etiquetas), customer_key (chave) and name (nome). {submit} checks every row and "
        "shows those that will not be sent and why, what is tracked already and the runs a "
        "month per tier; {submit} again creates the trackings, a thousand per call, with a "
        "progress bar. An import stopped or killed halfway, run again, creates only what is "
        "missing."
    )
    HELP_KEYS: ClassVar[Mapping[str, str]] = {"submit": "trackings.import.submit"}
    CSS_PATH = "trackings.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f10", "submit", _("Check, then create"), id="trackings.import.submit"),
        Binding("escape", "back", _("Back"), id="trackings.import.back"),
    ]

    def __init__(self, on_close: Callable[[bool], None] | None = None) -> None:
        super().__init__()
        self._on_close = on_close
        self.plan: ImportPlan | None = None
        self.outcome: ImportOutcome | None = None
        self._checked: tuple[str, str, object] | None = None
        self._importer: PortfolioImporter | None = None
        self._source = ""
        self.changed = False

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="imp-row"):
            yield FieldBox(
                _("File: CSV, .xlsx or text"),
                Input(placeholder=_("path/to/portfolio.csv"), id="imp-path"),
                field="path",
            )
            yield FieldBox(
                _("Tier of rows without one"),
                Select[str]([], id="imp-tier", allow_blank=True, prompt=_("Default")),
                field="tier",
            )
        yield FieldBox(
            _("Or paste keys, one per line (the file is then ignored)"),
            TextArea(id="imp-paste", soft_wrap=False),
            field="paste",
        )
        yield Static("", id="imp-summary", markup=False)
        table: DataTable[str | Text] = DataTable(
            id="imp-problems", cursor_type="row", zebra_stripes=True
        )
        yield table
        yield Static("", id="imp-hint", markup=False)

    def on_mount(self) -> None:
        super().on_mount()
        table = self.query_one("#imp-problems", DataTable)
        table.add_column(_("Row"), key="row", width=6)
        table.add_column(pgettext("portfolio column", "Key"), key="key", width=25)
        table.add_column(_("Why it is not sent"), key="why", width=self._why_width())
        table.display = False
        self.query_one("#imp-path", Input).focus()
        self._hint()

    def on_services_ready(self, context: ServiceContext) -> None:
        path = self.query_one("#imp-path", Input)
        if context.mode == "sandbox" and not path.value:
            with contextlib.suppress(FileNotFoundError, ValueError):
                path.value = str(asset_path(DEMO_FILE))
        try:
            tiers = context.portfolio.tiers
        except PortfolioConfigError as exc:
            self.query_one("#box-tier", FieldBox).set_error(str(exc))
            return
        select = self.query_one("#imp-tier", Select)
        select.set_options([(tier_word(name), name) for name in tiers.tiers])
        select.prompt = _("Default: {tier}").format(tier=tier_word(tiers.default))

    def _why_width(self) -> int:
        """What the row and key columns leave."""
        return room_left(self.app.size.width, (6, 25), least=20)

    def on_resize(self) -> None:
        if self.is_mounted:
            set_column_width(self.query_one("#imp-problems", DataTable), "why", self._why_width())

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Check the portfolio, then create it"),
            _("Every row is checked first; once checked, the trackings are created"),
            self.action_submit,
            binding_id="trackings.import.submit",
        )

    # --- state ------------------------------------------------------------------------------

    def _inputs(self) -> tuple[str, str, object]:
        return (
            self.query_one("#imp-path", Input).value.strip(),
            self.query_one("#imp-paste", TextArea).text.strip(),
            self.query_one("#imp-tier", Select).value,
        )

    @property
    def ready_to_create(self) -> bool:
        return (
            self.plan is not None
            and self.plan.service_checked
            and self._checked == self._inputs()
            and bool(self.plan.to_create)
        )

    def _hint(self) -> None:
        key = self.host.binding_key("trackings.import.submit")
        if self.ready_to_create and self.plan is not None:
            n = len(self.plan.to_create)
            text = ngettext("{key}: create {n} tracking", "{key}: create {n} trackings", n).format(
                key=key, n=format_int(n)
            )
        else:
            text = _("{key}: check every row (nothing is sent)").format(key=key)
        self.query_one("#imp-hint", Static).update(text)

    @on(Input.Changed, "#imp-path")
    @on(TextArea.Changed, "#imp-paste")
    @on(Select.Changed, "#imp-tier")
    def _inputs_changed(self) -> None:
        self._hint()

    def _show(self, lines: list[str], rows: list[ImportRow] | None = None) -> None:
        self.query_one("#imp-summary", Static).update("\n".join(lines))
        if rows is None:
            return
        table = self.query_one("#imp-problems", DataTable)
        table.clear()
        for row in rows[:SHOWN_PROBLEMS]:
            why = row.problem.message if row.problem else ""
            # A long reason wraps within the screen rather than running off its edge.
            table.add_row(str(row.number), row.text, Text(why), key=f"r{row.number}", height=None)
        if len(rows) > SHOWN_PROBLEMS:
            # A table of every row would be slow to draw; the command's --json lists them all.
            rest = len(rows) - SHOWN_PROBLEMS
            table.add_row(
                "…",
                "",
                Text(
                    ngettext(
                        "and {n} more row (lawsuit-tui portfolio import --dry-run --json lists "
                        "them all)",
                        "and {n} more rows (lawsuit-tui portfolio import --dry-run --json lists "
                        "them all)",
                        rest,
                    ).format(n=format_int(rest))
                ),
                key="more",
                height=None,
            )
        table.display = bool(rows)

    # --- check ------------------------------------------------------------------------------

    def action_submit(self) -> None:
        if self.ready_to_create:
            self._ask_to_create()
        else:
            self.check()

    @work(exclusive=True, group="trackings.import.check", exit_on_error=False)
    async def check(self) -> None:
        context = await self.services()
        path_text, pasted, tier = self._inputs()
        for field in ("path", "tier", "paste"):
            self.query_one(f"#box-{field}", FieldBox).set_error(None)
        try:
            importer = context.portfolio_importer()
        except PortfolioConfigError as exc:
            self.query_one("#box-tier", FieldBox).set_error(str(exc))
            return
        if isinstance(tier, str):
            importer.tiers = replace(importer.tiers, default=tier)
        self._show([_("Reading and checking every row…")], [])
        try:
            if pasted:
                source = _("pasted list")
                check: PortfolioCheck = importer.check_text(pasted)
            elif path_text:
                path = await asyncio.to_thread(lambda: Path(path_text).expanduser())
                source = path.name
                check = await importer.read(path)
            else:
                self.query_one("#box-path", FieldBox).set_error(
                    _("Name a file, or paste keys below")
                )
                self._show([])
                return
        except PortfolioFileError as exc:
            self.query_one("#box-path", FieldBox).set_error(str(exc))
            self._show([])
            return
        if not check.rows:
            box = "paste" if pasted else "path"
            self.query_one(f"#box-{box}", FieldBox).set_error(_("No rows to import"))
            self._show([])
            return
        self._importer = importer
        self._source = source
        self.outcome = None
        problems = sorted(check.invalid + check.duplicates, key=lambda row: row.number)
        # The cache answers at once; the service's whole list follows.
        self.plan = await importer.plan(check, ask_service=False)
        self._checked = (path_text, pasted, tier)
        self._show(preview_lines(source, self.plan), problems)
        self._hint()
        self.plan = await importer.plan(check)
        self._show(preview_lines(source, self.plan))
        self._hint()

    # --- create -----------------------------------------------------------------------------

    def _ask_to_create(self) -> None:
        plan = self.plan
        if plan is None:
            return
        n = len(plan.to_create)
        runs = runs_text(sum(plan.monthly_runs().values()))
        question = ngettext(
            "Create {n} tracking? The portfolio's runs grow by {runs} a month.",
            "Create {n} trackings? The portfolio's runs grow by {runs} a month.",
            n,
        ).format(n=format_int(n), runs=runs)

        def answered(yes: bool | None) -> None:
            if yes:
                self._create()

        self.app.push_screen(
            ConfirmScreen(_("Import a portfolio"), question, yes=_("Create")), answered
        )

    def _create(self) -> None:
        importer, plan = self._importer, self.plan
        if importer is None or plan is None:
            return
        self.changed = True

        async def work(report: Report) -> ImportOutcome:
            def moved(progress: Any) -> None:
                report(progress.done, progress.total, progress.message)

            return await importer.run(plan, moved)

        def finished(outcome: ImportOutcome | None) -> None:
            if outcome is None:
                self._show(
                    [
                        _(
                            "Stopped. Nothing is lost: check and create again to finish; "
                            "only what is missing is created."
                        )
                    ]
                )
                self.plan = None
                self._hint()
                return
            self.outcome = outcome
            self._show(outcome_lines(outcome))
            table = self.query_one("#imp-problems", DataTable)
            # The rows the service refused join those that were never sent.
            for row, _code, message in outcome.failed:
                table.add_row(
                    str(row.number), row.text, Text(message), key=f"f{row.number}", height=None
                )
            table.display = table.row_count > 0
            self.plan = None
            self._hint()

        self.app.push_screen(
            WorkProgressScreen(
                _("Creating trackings"),
                work,
                stop_note=_("Stopping is safe: the next import creates only what is missing."),
            ),
            finished,
        )

    def action_back(self) -> None:
        self.app.pop_screen()
        if self._on_close is not None:
            self._on_close(self.changed)

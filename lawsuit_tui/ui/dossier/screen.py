"""The dossier of one CPF or CNPJ: the KYC steps as they run, then each section at a glance.

Opening a dossier kept in the cache shows it at once, offline; a new one is planned (what each
step costs, from the cache alone), the analyst is asked once for the paid steps (D191), and the
steps run with their progress. Sections, one tab each (keys 1-6): the overview (steps, counts,
alarms), identity (registration data, partners one key away from their own dossier), exposure
(charts), the lawsuits (sortable, filterable, opening into the lawsuit tree), warrants and
executions (what they mean), and the decision with the tracking of the document.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, VerticalScroll
from textual.widgets import (
    DataTable,
    Input,
    OptionList,
    ProgressBar,
    Static,
    TabbedContent,
    TabPane,
)
from textual.widgets.option_list import Option

from lawsuit_tui.domain import vocabulary as v
from lawsuit_tui.domain.dossier import LawsuitRow, StepStatus
from lawsuit_tui.domain.enums import Side, coerce_enum
from lawsuit_tui.domain.formatting import format_date, format_datetime, format_money
from lawsuit_tui.domain.identifiers import InvalidSearchKey, SearchKey
from lawsuit_tui.i18n import N_, _, pgettext
from lawsuit_tui.services.dossier import DossierProgress, dossier_key
from lawsuit_tui.services.dossier_model import StepRecord
from lawsuit_tui.ui.dialogs.answered import if_answered
from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.dossier.charts import chart_widget
from lawsuit_tui.ui.dossier.sections import (
    criminal_lines,
    data_age,
    exposure_figures,
    exposure_summary,
    header_text,
    identity_card,
    overview_text,
    partner_line,
    plan_lines,
    steps_table,
)
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand
from lawsuit_tui.ui.keys import words_of_key
from lawsuit_tui.ui.widgets.paged_table import PagedTable

if TYPE_CHECKING:
    from lawsuit_tui.services.context import ServiceContext
    from lawsuit_tui.services.dossier_model import Dossier, DossierPlan
    from lawsuit_tui.ui.dossier.dialogs import DecisionText
    from lawsuit_tui.ui.messages import LanguageChanged

__all__ = ["DossierScreen"]

TABS: tuple[tuple[str, str], ...] = (
    ("tab-overview", N_("Overview")),
    ("tab-identity", N_("Identity")),
    ("tab-exposure", N_("Exposure")),
    ("tab-lawsuits", N_("Lawsuits")),
    ("tab-criminal", N_("Warrants")),
    ("tab-decision", N_("Decision")),
)

# The orders the lawsuits table can take, in the order ``o`` goes through them.
SORTS: tuple[tuple[str, str], ...] = (
    ("distributed", N_("newest distribution first")),
    ("amount", N_("largest amount first")),
    ("last_step", N_("latest step first")),
    ("court", N_("by court")),
    ("class", N_("by class")),
    ("side", N_("by side")),
)


def _side_cell(side: str | None) -> str:
    """The side in the table's short words: the column is headed "Side" ("Polo"), so
    "passive" ("passivo") says it in a third of "passive side" ("polo passivo")."""
    member = coerce_enum(Side, side) if side else None
    if member == Side.ACTIVE:
        return pgettext("side", "active")
    if member == Side.PASSIVE:
        return pgettext("side", "passive")
    if member == Side.INTERESTED:
        return pgettext("side", "third party")
    return v.word(v.SIDE_WORDS, side) if side else ""


def _row_cells(row: LawsuitRow) -> tuple[str | Text, ...]:
    return (
        row.court,
        format_date(row.distributed),
        row.class_name,
        _side_cell(row.side),
        Text(format_money(row.amount), justify="right") if row.amount is not None else "",
        format_date(row.last_step_at),
    )


def _row_key(row: LawsuitRow) -> str:
    return f"{row.code}|{row.instance or ''}"


def _sorted(rows: list[LawsuitRow], order: str) -> list[LawsuitRow]:
    if order == "amount":
        return sorted(rows, key=lambda r: (r.amount is None, -(r.amount or 0), r.code))
    if order == "last_step":
        return sorted(
            rows,
            key=lambda r: (
                r.last_step_at is None,
                -(r.last_step_at.timestamp() if r.last_step_at else 0),
            ),
        )
    if order in ("court", "class", "side"):
        field = {"court": "court", "class": "class_name", "side": "side"}[order]
        return sorted(rows, key=lambda r: (str(getattr(r, field) or "~").casefold(), r.code))
    return sorted(rows, key=lambda r: (r.distributed is None, -_stamp(r.distributed)))


def _stamp(when: datetime | None) -> float:
    return when.timestamp() if when is not None else 0.0


class DossierScreen(FramedScreen):
    """One dossier (pushed over the list of dossiers, the lookup or a lawsuit)."""

    TITLE_TEXT = N_("Dossier")
    HELP_TEXT = N_(
        "The due diligence of a CPF or CNPJ, as the provider's KYC guide runs it: gate, "
        "counts, aggregations, registration data, lawsuits, warrants and executions. A paid "
        "run is asked about once. {refresh} runs again the steps older than the configured "
        "age; {decide} records your decision; {track} tracks the document; {export} saves "
        "the report (HTML, Markdown or JSON). Keys 1 to 6 show the sections; in the lawsuits, "
        "{filter} filters and {sort} changes the order; {open} opens a lawsuit, a partner's "
        "dossier or a warrant."
    )
    HELP_KEYS: ClassVar[Mapping[str, str]] = {
        "refresh": "dossier.refresh",
        "decide": "dossier.decide",
        "track": "dossier.track",
        "export": "dossier.export",
        "filter": "dossier.filter",
        "sort": "dossier.sort",
        "open": "enter",
    }
    CSS_PATH = "dossier.tcss"
    # From 120 columns the charts go two a row (dossier.tcss). Not a ClassVar: Textual
    # declares it on Screen as an attribute.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]  # noqa: RUF012

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", _("Back"), id="dossier.back"),
        Binding("r", "refresh", _("Refresh"), id="dossier.refresh"),
        Binding("R", "rerun", _("Run all again"), id="dossier.rerun", show=False),
        Binding("a", "decide", _("Decide"), id="dossier.decide"),
        Binding("t", "track", _("Track"), id="dossier.track"),
        Binding("x", "export", _("Export"), id="dossier.export"),
        Binding("slash", "filter", _("Filter"), id="dossier.filter", show=False),
        Binding("o", "sort", _("Sort"), id="dossier.sort", show=False),
        *(
            Binding(
                str(number),
                f"show_tab('{tab}')",
                _(title),
                id=f"dossier.{tab.removeprefix('tab-')}",
                show=False,
            )
            for number, (tab, title) in enumerate(TABS, start=1)
        ),
    ]

    def __init__(self, key_text: str) -> None:
        super().__init__()
        self.key_text = key_text
        self.key: SearchKey | None = None
        self.dossier: Dossier | None = None
        self.plan: DossierPlan | None = None
        self.running = False
        self.loaded = False
        """The first load (kept dossier or plan) is done: tests wait on it."""
        self._records: dict[str, StepRecord] = {}
        self._details: dict[str, str] = {}
        self._started: dict[str, float] = {}
        self._order = SORTS[0][0]
        self._rows: list[LawsuitRow] = []
        self._charts_drawn = False
        self.last_export: Path | None = None
        """The last report saved from this screen."""

    # --- layout --------------------------------------------------------------------------

    def screen_title(self) -> str:
        return _("Dossier {key}").format(key=self.key.display if self.key else self.key_text)

    def compose_body(self) -> ComposeResult:
        yield Static(self.key_text, id="dossier-header")
        with TabbedContent(id="dossier-tabs"):
            with TabPane(_(TABS[0][1]), id="tab-overview"), VerticalScroll(id="overview"):
                yield Static("", id="dossier-summary")
                yield Static("", id="dossier-steps")
                yield ProgressBar(id="dossier-progress", show_eta=True)
            with TabPane(_(TABS[1][1]), id="tab-identity"):
                with VerticalScroll(id="identity-scroll"):
                    yield Static("", id="identity-card")
                yield Static("", id="partners-title")
                yield OptionList(id="partners")
            with TabPane(_(TABS[2][1]), id="tab-exposure"), VerticalScroll(id="exposure"):
                yield Static("", id="exposure-counts")
                yield Container(id="charts")
            with TabPane(_(TABS[3][1]), id="tab-lawsuits"):
                yield Input(placeholder=self._filter_placeholder(), id="lawsuit-filter")
                yield Static("", id="lawsuits-title")
                table: PagedTable[LawsuitRow] = PagedTable(
                    [
                        # Sized to what they hold, headers never cut (PagedTable): at 80
                        # columns the class gives way, never an amount or a date.
                        ("court", _("Court"), 9),
                        ("distributed", _("Distributed"), -1),
                        ("class", _("Class"), -3),
                        ("side", _("Side"), -1),
                        ("amount", _("Amount"), -3),
                        ("last", _("Last step"), 10),
                    ],
                    _row_cells,
                    _row_key,
                    id="lawsuits",
                )
                yield table
                yield Static("", id="lawsuit-detail", markup=False)
            with TabPane(_(TABS[4][1]), id="tab-criminal"):
                yield OptionList(id="criminal")
            with TabPane(_(TABS[5][1]), id="tab-decision"), VerticalScroll(id="decision-scroll"):
                yield Static("", id="decision-text")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#dossier-progress", ProgressBar).display = False
        self.query_one("#lawsuit-filter", Input).display = False
        self.query_one("#dossier-tabs", TabbedContent).focus()
        context = self.host.services
        if context is not None:
            # The cache is read while the first frame is drawn, not after it: a dossier
            # reopened offline shows in one go (bench/dossier.py).
            self.services_ready(context)

    def on_services_ready(self, context: ServiceContext) -> None:
        try:
            self.key = dossier_key(self.key_text)
        except InvalidSearchKey as error:
            self.query_one("#dossier-header", Static).update(str(error))
            self.loaded = True
            return
        self.set_screen_title(self.screen_title())
        self._load()

    # --- loading and running ---------------------------------------------------------------

    @work(exclusive=True, group="dossier.load", exit_on_error=False)
    async def _load(self) -> None:
        context = await self.services()
        assert self.key is not None
        key = self.key
        kept = await asyncio.to_thread(context.dossiers.kept, key)
        if kept is not None:
            self.show(kept)
            self.loaded = True
            return
        plan = await asyncio.to_thread(context.dossiers.plan, key)
        self.plan = plan
        self._show_plan(plan)
        self.loaded = True
        self._ask_and_run(plan)

    def _ask_and_run(self, plan: DossierPlan) -> None:
        if not plan.steps:
            return
        if not plan.needs_confirmation:
            self._run(plan)
            return
        question = "\n".join(
            [_("Run the dossier of {key}?").format(key=plan.key.display), "", *plan_lines(plan)]
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self._run(plan)
            else:
                self._set_summary(
                    Text(
                        _("Nothing was asked. {key} runs the dossier.").format(
                            key=self.host.binding_key("dossier.refresh")
                        )
                    )
                )

        self.app.push_screen(
            ConfirmScreen(_("A paid dossier"), question, yes=_("Run it")), answered
        )

    @work(exclusive=True, group="dossier.run", exit_on_error=False)
    async def _run(self, plan: DossierPlan) -> None:
        context = await self.services()
        if plan.paid and not await self.host.paid_call_allowed(
            _("Run the paid steps of the dossier of {key}").format(key=plan.key.display)
        ):
            return
        self.plan = plan
        self.running = True
        self._records = {p.step: self._records.get(p.step) or _planned(p.step) for p in plan.steps}
        self._details = {}
        bar = self.query_one("#dossier-progress", ProgressBar)
        bar.update(total=len(plan.steps), progress=0)
        bar.display = True
        self._show_steps()
        ticker = self.set_interval(1.0, self._show_steps)
        try:
            dossier = await context.dossiers.run(plan, self._progress)
            await context.dossiers.remember_name(dossier)
        finally:
            ticker.stop()
            self.running = False
            bar.display = False
            self.refresh_bindings()
        self.show(dossier)
        failed = [n for n in plan.step_names if dossier.step(n).status == StepStatus.FAILED]
        if failed:
            self.notify(
                _("{steps} failed; the other steps ran. {key} tries them again.").format(
                    steps=", ".join(v.word(v.DOSSIER_STEP_WORDS, n) for n in failed),
                    key=self.host.binding_key("dossier.refresh"),
                ),
                severity="warning",
            )

    def _progress(self, event: DossierProgress) -> None:
        if event.record is not None:
            self._records[event.step] = event.record
            self._details.pop(event.step, None)
            self._started.pop(event.step, None)
            self.query_one("#dossier-progress", ProgressBar).advance(1)
        else:
            record = self._records.get(event.step) or _planned(event.step)
            record.status = event.status
            self._records[event.step] = record
            self._details[event.step] = event.detail
            self._started.setdefault(event.step, time.monotonic())
        self._show_steps()

    def _show_steps(self) -> None:
        names = list(self._records) or list(self.dossier.steps if self.dossier else [])
        details = dict(self._details)
        for step, started in self._started.items():
            seconds = int(time.monotonic() - started)
            if seconds >= 2:
                details[step] = f"{details.get(step, '')} · {seconds} s".strip(" ·")
        self.query_one("#dossier-steps", Static).update(steps_table(names, self._records, details))

    def _show_plan(self, plan: DossierPlan) -> None:
        self.query_one("#dossier-header", Static).update(header_text(None, plan.key.display))
        self._records = {p.step: _planned(p.step) for p in plan.steps}
        self._show_steps()
        self._set_summary(Text("\n".join(plan_lines(plan))))

    def _set_summary(self, text: Text) -> None:
        self.query_one("#dossier-summary", Static).update(text)

    # --- showing a dossier ------------------------------------------------------------------

    def show(self, dossier: Dossier) -> None:
        """Every section from ``dossier`` (the language in force; the reader's place kept)."""
        self.dossier = dossier
        self._records = dict(dossier.steps)
        self.query_one("#dossier-header", Static).update(header_text(dossier, dossier.key.display))
        self._show_steps()
        self._show_overview(dossier)
        self.query_one("#identity-card", Static).update(identity_card(dossier))
        self._show_partners(dossier)
        # The charts are drawn when their section is first shown: opening a dossier does not
        # wait for four plots nobody has looked at yet.
        self._charts_drawn = False
        if self.query_one("#dossier-tabs", TabbedContent).active == "tab-exposure":
            self._show_charts(dossier)
        self._rows = [
            LawsuitRow.of(lawsuit, dossier.document) for lawsuit in dossier.lawsuits or []
        ]
        self._show_lawsuits()
        self._show_criminal(dossier)
        self._show_decision(dossier)
        self.refresh_bindings()

    def _show_overview(self, dossier: Dossier) -> None:
        text = overview_text(dossier)
        context = self.host.services
        if context is not None:
            age = data_age(dossier, context.deps.now())
            if age:
                text.append(age + " · ", "dim")
                text.append(
                    _("{key} runs again the steps older than {hours} h.").format(
                        key=self.host.binding_key("dossier.refresh"),
                        hours=context.dossiers.settings.max_age_hours,
                    ),
                    "dim",
                )
        self._set_summary(text)

    def _show_partners(self, dossier: Dossier) -> None:
        entity = dossier.entity
        partners = entity.partner_links if entity is not None else []
        title = self.query_one("#partners-title", Static)
        options = self.query_one("#partners", OptionList)
        options.clear_options()
        options.display = bool(partners)
        if not partners or entity is None:
            title.update("")
            return
        title.update(
            Text(
                (
                    _("Partners and administrators: {key} opens a partner's dossier")
                    if entity.is_company
                    else _("Companies of which this person is a partner: {key} opens one")
                ).format(key=words_of_key(self.app, "enter")),
                style="bold",
            )
        )
        options.add_options([Option(partner_line(p), id=str(i)) for i, p in enumerate(partners)])

    @on(TabbedContent.TabActivated, "#dossier-tabs")
    def _tab_shown(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id == "tab-exposure" and not self._charts_drawn and self.dossier:
            self._show_charts(self.dossier)

    def _show_charts(self, dossier: Dossier) -> None:
        self._charts_drawn = True
        charts = self.query_one("#charts", Container)
        charts.remove_children()
        self.query_one("#exposure-counts", Static).update(exposure_summary(dossier))
        widgets: list[Any] = [chart_widget(figure) for figure in exposure_figures(dossier)]
        if not widgets:
            widgets.append(
                Static(_("No aggregation or listing yet: nothing to draw."), classes="chart-empty")
            )
        charts.mount_all(widgets)

    def _show_lawsuits(self) -> None:
        table: PagedTable[LawsuitRow] = self.query_one("#lawsuits", PagedTable)
        wanted = self.query_one("#lawsuit-filter", Input).value.strip().casefold()
        rows = [r for r in self._rows if not wanted or wanted in _haystack(r)]
        rows = _sorted(rows, self._order)
        table.set_items(rows, keep_position=False)
        order = dict(SORTS)[self._order]
        title = _("{shown} of {total} lawsuits · {order} ({key} changes it)").format(
            shown=len(rows),
            total=len(self._rows),
            order=_(order),
            key=self.host.binding_key("dossier.sort"),
        )
        if self.dossier is not None and self.dossier.lawsuits is None:
            record = self.dossier.step("lawsuits")
            title = record.problem or _("The listing has not run.")
        self.query_one("#lawsuits-title", Static).update(title)
        self._show_lawsuit_detail()

    def _show_lawsuit_detail(self) -> None:
        table: PagedTable[LawsuitRow] = self.query_one("#lawsuits", PagedTable)
        row = table.selected_item()
        detail = self.query_one("#lawsuit-detail", Static)
        detail.update(
            " · ".join(p for p in (row.code, row.class_name, row.status, row.last_step) if p)
            if row is not None
            else ""
        )

    def _show_criminal(self, dossier: Dossier) -> None:
        options = self.query_one("#criminal", OptionList)
        options.clear_options()
        options.add_options([Option(text, id=key) for key, text in criminal_lines(dossier)])

    def _show_decision(self, dossier: Dossier) -> None:
        text = Text()
        keys = {
            "decide": self.host.binding_key("dossier.decide"),
            "track": self.host.binding_key("dossier.track"),
        }
        if not dossier.decisions:
            text.append(_("No decision yet. {decide} records one.").format(**keys) + "\n")
        for decision in reversed(dossier.decisions):
            text.append(v.word(v.VERDICT_WORDS, decision.verdict), "bold")
            text.append(
                " · "
                + _("{by} on {when}").format(by=decision.by, when=format_datetime(decision.at))
                + "\n"
            )
            if decision.note:
                text.append("  " + decision.note + "\n")
        text.append("\n")
        if dossier.tracking is not None:
            text.append(
                _("Tracked: tracking {id}, tier {tier}, since {when}.").format(
                    id=dossier.tracking.tracking_id,
                    tier=v.word(v.TIER_WORDS, dossier.tracking.tier),
                    when=format_date(dossier.tracking.at),
                )
            )
        else:
            text.append(_("Not tracked. {track} tracks the document.").format(**keys))
        self.query_one("#decision-text", Static).update(text)

    def on_language_changed(self, message: LanguageChanged) -> None:
        """Every text again in the new language (D148): tabs, sections, the table's words."""
        super().on_language_changed(message)
        tabs = self.query_one("#dossier-tabs", TabbedContent)
        for pane_id, title in TABS:
            tabs.get_tab(pane_id).label = _(title)
        self.query_one("#lawsuit-filter", Input).placeholder = self._filter_placeholder()
        if self.dossier is not None:
            self.show(self.dossier)
        elif self.plan is not None:
            self._show_plan(self.plan)

    def _filter_placeholder(self) -> str:
        return _("Filter: court, class, side, number…")

    # --- actions ----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("refresh", "rerun"):
            return self.key is not None and not self.running
        if action in ("decide", "track", "export"):
            return self.dossier is not None and not self.running
        if action in ("filter", "sort"):
            return self.dossier is not None
        return True

    def action_back(self) -> None:
        filter_input = self.query_one("#lawsuit-filter", Input)
        if filter_input.has_focus:
            filter_input.value = ""
            filter_input.display = False
            self.query_one("#lawsuits", PagedTable).focus()
            return
        if len(self.app.screen_stack) > 1:
            self.app.pop_screen()

    def action_show_tab(self, tab: str) -> None:
        self.query_one("#dossier-tabs", TabbedContent).active = tab

    def action_refresh(self) -> None:
        self._plan_again(stale_only=True)

    def action_rerun(self) -> None:
        self._plan_again(stale_only=False)

    @work(exclusive=True, group="dossier.plan", exit_on_error=False)
    async def _plan_again(self, *, stale_only: bool) -> None:
        """D195: a refresh plans only the steps older than the age (or that failed); "run
        all again" asks every step of the profile again, whatever the cache holds."""
        context = await self.services()
        if self.key is None:
            return
        service = context.dossiers
        age = service.refresh_age
        steps: list[str] | None = None
        if stale_only and self.dossier is not None:
            steps = self.dossier.stale_steps(context.deps.now(), age)
            if not steps:
                self.notify(
                    _("Every step is younger than {hours} h: nothing to refresh.").format(
                        hours=service.settings.max_age_hours
                    )
                )
                return
        key = self.key
        plan = await asyncio.to_thread(
            lambda: service.plan(key, steps=steps, max_age=age if stale_only else None)
        )
        self._ask_and_run(plan)

    def action_decide(self) -> None:
        if self.dossier is None:
            return
        from lawsuit_tui.ui.dossier.dialogs import DecisionDialog

        context = self.host.services
        by = context.dossiers.analyst() if context is not None else ""
        current = self.dossier.decision
        self.app.push_screen(
            DecisionDialog(
                self.dossier.name or self.dossier.key.display,
                by,
                current.verdict if current is not None else None,
            ),
            if_answered(self._record_decision),
        )

    @work(exclusive=True, group="dossier.decision", exit_on_error=False)
    async def _record_decision(self, answer: DecisionText) -> None:
        context = await self.services()
        assert self.key is not None
        decision = await context.dossiers.decide(
            self.key, answer.verdict, answer.note, by=answer.by
        )
        self.notify(
            _("Decision recorded: {verdict}.").format(
                verdict=v.word(v.VERDICT_WORDS, decision.verdict)
            )
        )
        await self._reload(context)
        self.action_show_tab("tab-decision")

    async def _reload(self, context: ServiceContext) -> None:
        assert self.key is not None
        kept = await asyncio.to_thread(context.dossiers.kept, self.key)
        if kept is not None:
            self.show(kept)

    def action_track(self) -> None:
        context = self.host.services
        if self.dossier is None or context is None:
            return
        from lawsuit_tui.ui.dialogs.tier_picker import TierPickerScreen

        tiers = context.portfolio.tiers
        self.app.push_screen(
            TierPickerScreen(
                _("Track {key} in which tier?").format(key=self.dossier.key.display),
                dict(tiers.tiers),
                tiers.default,
            ),
            if_answered(self._track),
        )

    @work(exclusive=True, group="dossier.track", exit_on_error=False)
    async def _track(self, tier: str) -> None:
        context = await self.services()
        dossier = self.dossier
        if dossier is None or not await self.host.paid_call_allowed(
            _("Track {key}").format(key=dossier.key.display)
        ):
            return
        made = await context.dossiers.track(dossier.key, tier, name=dossier.name)
        if made.existing:
            self.notify(
                _("{key} is tracked already (tracking {id}): nothing was created.").format(
                    key=dossier.key.display, id=made.tracking_id
                )
            )
        else:
            self.notify(
                _("Tracking {id} created in tier {tier}.").format(
                    id=made.tracking_id, tier=v.word(v.TIER_WORDS, tier)
                )
            )
        await self._reload(context)

    def action_export(self) -> None:
        if self.dossier is None:
            return
        from lawsuit_tui.ui.dossier.dialogs import ReportFormatDialog

        self.app.push_screen(ReportFormatDialog(), if_answered(self._ask_export_folder))

    def _ask_export_folder(self, fmt: str) -> None:
        from lawsuit_tui.ui.dialogs.folder_prompt import ask_folder

        ask_folder(
            self.app,
            _("Export the dossier"),
            partial(self._export, fmt),
            explanation=_("The report is saved in this folder, under a new name."),
        )

    @work(exclusive=True, group="dossier.export", exit_on_error=False)
    async def _export(self, fmt: str, folder: Path) -> None:
        from lawsuit_tui.services.dossier_report import save_report

        context = await self.services()
        dossier = self.dossier
        if dossier is None:
            return
        now = context.deps.now()
        path = await asyncio.to_thread(save_report, dossier, fmt, folder, now)
        self.last_export = path
        self.notify(_("Saved {path}").format(path=path))

    def action_filter(self) -> None:
        self.action_show_tab("tab-lawsuits")
        filter_input = self.query_one("#lawsuit-filter", Input)
        filter_input.display = True
        filter_input.focus()

    def action_sort(self) -> None:
        names = [name for name, _title in SORTS]
        self._order = names[(names.index(self._order) + 1) % len(names)]
        self.action_show_tab("tab-lawsuits")
        self._show_lawsuits()

    @on(Input.Changed, "#lawsuit-filter")
    def _filter_changed(self) -> None:
        self._show_lawsuits()

    @on(Input.Submitted, "#lawsuit-filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one("#lawsuits", PagedTable).focus()

    @on(DataTable.RowHighlighted, "#lawsuits")
    def _row_highlighted(self) -> None:
        self._show_lawsuit_detail()

    @on(DataTable.RowSelected, "#lawsuits")
    def _open_lawsuit(self, event: DataTable.RowSelected) -> None:
        event.stop()
        table: PagedTable[LawsuitRow] = self.query_one("#lawsuits", PagedTable)
        row = table.selected_item()
        if row is not None:
            self.host.open_lawsuit(row.code, row.instance)

    @on(OptionList.OptionSelected, "#partners")
    def _open_partner(self, event: OptionList.OptionSelected) -> None:
        entity = self.dossier.entity if self.dossier is not None else None
        if entity is None or event.option.id is None:
            return
        partner = entity.partner_links[int(event.option.id)]
        if partner.main_document and not partner.masked:
            self.host.open_dossier(partner.main_document)
            return
        self._reveal_partner(partner.entity_id, partner.name)

    @work(exclusive=True, group="dossier.partner", exit_on_error=False)
    async def _reveal_partner(self, entity_id: str | None, name: str | None) -> None:
        """A partner's CPF comes masked (D78): it is asked for unmasked, once, at the cost of
        one call, and never kept (D109); then that partner's dossier opens."""
        context = await self.services()
        if self.key is None:
            return
        asked = await self.app.push_screen_wait(
            ConfirmScreen(
                _("A partner's CPF"),
                _(
                    "The registry masks the CPF of {name}. Asking for it unmasked costs {cost}; "
                    "it is shown, never kept. Ask?"
                ).format(name=name or "?", cost=context.datalake.cost_of("entity").describe()),
                yes=_("Ask"),
            )
        )
        if not asked:
            return
        answer = await context.datalake.entity(self.key, reveal_partners=True)
        for entity in answer.value.response_data:
            for partner in entity.partner_links:
                same = (entity_id and partner.entity_id == entity_id) or partner.name == name
                if same and partner.main_document and not partner.masked:
                    self.host.open_dossier(partner.main_document)
                    return
        self.notify(_("The registry did not give that partner's CPF."), severity="warning")

    @on(OptionList.OptionSelected, "#criminal")
    def _open_criminal(self, event: OptionList.OptionSelected) -> None:
        dossier = self.dossier
        kind, _sep, index = (event.option.id or "").partition(":")
        if dossier is None or not index.isdigit():
            return
        if kind == "execution" and dossier.executions:
            execution = dossier.executions[int(index)]
            self.host.open_lawsuit(execution.code, execution.instance)
        elif kind == "warrant" and dossier.request_ids.get("warrants"):
            self.host.open_request(dossier.request_ids["warrants"])

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Refresh the dossier"),
            _("Run again the steps older than the configured age"),
            self.action_refresh,
            binding_id="dossier.refresh",
        )
        yield PaletteCommand(
            _("Run every step again"),
            _("Ask every step of the profile again, whatever the cache holds"),
            self.action_rerun,
            binding_id="dossier.rerun",
        )
        if self.dossier is not None:
            yield PaletteCommand(
                _("Decide"),
                _("Approve or reject, and why"),
                self.action_decide,
                binding_id="dossier.decide",
            )
            yield PaletteCommand(
                _("Track the document"),
                _("A tracking in a tier"),
                self.action_track,
                binding_id="dossier.track",
            )
            yield PaletteCommand(
                _("Export the dossier"),
                _("HTML, Markdown or JSON"),
                self.action_export,
                binding_id="dossier.export",
            )


def _planned(step: str) -> StepRecord:
    return StepRecord(step, StepStatus.PLANNED)


def _haystack(row: LawsuitRow) -> str:
    side = v.word(v.SIDE_WORDS, row.side) if row.side else ""
    return " ".join(
        (row.code, row.court, row.class_name, side, row.last_step, row.status)
    ).casefold()

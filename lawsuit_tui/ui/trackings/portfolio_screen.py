"""The portfolio (F4): every tracking of this key, thousands of rows, by tier, label, status
and court; marked in bulk and changed in bulk; imported from a file.

The list shows the cache at once and then the service's list, a page at a time
(``PagedTable``). Filters: text (key, name, labels, court, tier), status and tier. Space marks
a row, ``a`` marks every row shown (or clears the marks); pause, resume, delete and "move to a
tier" act on the marked rows, or on the row under the cursor when none is marked, each after a
question that says how many change and the runs a month before and after (D165). Enter opens a
tracking's detail, ``n`` registers one, ``e`` edits one, ``i`` imports a portfolio file.
``r`` refreshes, as on every list of the app.

New movements: the app's :class:`MovementWatch` refreshes the list while the screen exists (it
polls for the session); the screen stops listening when it is removed. A language switch keeps
the screen (D148): it redoes the words it made from its data.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Input, Select, Static

from lawsuit_tui.domain.enums import TrackingStatus
from lawsuit_tui.domain.formatting import format_int
from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.i18n import N_, _, ngettext
from lawsuit_tui.services.portfolio import (
    ChangePlan,
    PortfolioConfigError,
    PortfolioEntry,
    describe_change,
    entry_of,
    runs_text,
    tier_word,
)
from lawsuit_tui.services.portfolio_files import PortfolioFileError
from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.framed_screen import PaletteCommand
from lawsuit_tui.ui.messages import LanguageChanged
from lawsuit_tui.ui.table_screen import TableScreen
from lawsuit_tui.ui.trackings.movement_watch import POLL_SECONDS, MovementWatch
from lawsuit_tui.ui.trackings.portfolio_text import (
    entry_matches,
    portfolio_columns,
    row_cells,
    status_word,
)
from lawsuit_tui.ui.trackings.tracking_text import STATUS_VARIABLES
from lawsuit_tui.ui.trackings.work_progress import Report, WorkProgressScreen
from lawsuit_tui.ui.widgets.paged_table import PagedTable
from lawsuit_tui.ui.widgets.theme_text import theme_style

if TYPE_CHECKING:
    from lawsuit_tui.services.context import ServiceContext

__all__ = ["ALL", "LIVE", "PortfolioScreen"]

LIVE = "live"  # the status filter's default: everything but deleted trackings
ALL = "all"
PAGE_SIZE = 100
_TITLES = {
    "pause": N_("Pause trackings"),
    "resume": N_("Resume trackings"),
    "delete": N_("Delete trackings"),
    "set_tier": N_("Move to another tier"),
}
_DOING = {
    "pause": N_("Pausing…"),
    "resume": N_("Resuming…"),
    "delete": N_("Deleting…"),
    "set_tier": N_("Moving…"),
}


async def _entries_of(records: Sequence[TrackingRecord]) -> list[PortfolioEntry]:
    """The portfolio's entries for the service's records, built off the event loop (thousands
    take about a second)."""
    return await asyncio.to_thread(lambda: [entry_of(r.to_json_dict()) for r in records])


class PortfolioScreen(TableScreen[PortfolioEntry]):
    """The trackings of this API key, as one portfolio."""

    TITLE_TEXT = N_("Portfolio")
    HELP_TEXT = N_(
        "Every tracking of this key: its status, key, tier, court, how often it runs and its "
        "labels. The list opens from the cache, then refreshes from the service. Filter by "
        "text, status and tier. {mark} marks a row, {mark_all} marks every row shown; pause, "
        "resume, move to a tier or delete the marked rows (or the row under the cursor), each "
        "after a question that says how many change and the runs a month before and after. "
        "{import} imports a CSV or .xlsx portfolio, checking every row first; {open} opens a "
        "tracking."
    )
    HELP_KEYS: ClassVar[Mapping[str, str]] = {
        "mark": "trackings.mark",
        "mark_all": "trackings.mark_all",
        "import": "trackings.import",
        "open": "trackings.open",
    }
    CSS_PATH = "trackings.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("i", "import_file", _("Import"), id="trackings.import"),
        Binding("p", "pause", _("Pause"), id="trackings.pause"),
        Binding("u", "resume", _("Resume"), id="trackings.resume"),
        Binding("t", "set_tier", _("Tier"), id="trackings.tier"),
        Binding("d,delete", "delete", _("Delete"), id="trackings.delete"),
        # Listed by the help screen and the palette; out of the Footer to fit 80 columns.
        Binding("space", "mark", _("Mark"), id="trackings.mark", show=False),
        Binding("n", "new", _("New"), id="trackings.new", show=False),
        Binding("a", "mark_all", _("Mark all shown"), id="trackings.mark_all", show=False),
        Binding("f", "mark_file", _("Mark a file's keys"), id="trackings.mark_file", show=False),
        Binding("enter", "open", _("Open"), id="trackings.open", show=False),
        Binding("e", "edit", _("Edit"), id="trackings.edit", show=False),
        Binding("r", "refresh", _("Refresh"), id="trackings.refresh", show=False),
        Binding("slash", "filter", _("Filter"), id="trackings.filter", show=False),
        Binding("s", "status_filter", _("Status"), id="trackings.status", show=False),
        Binding("escape", "focus_list", _("List"), id="trackings.focus_list", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[PortfolioEntry] = []
        self.deleted: list[PortfolioEntry] = []
        self.marked: set[str] = set()
        self.loaded_from_service = False
        self.wide = False
        self.movement_watch = MovementWatch()
        self._last_fresh: list[PortfolioEntry] | None = None
        """The service's list as last taken in (an unchanged one is not redrawn)."""
        self._listening: MovementWatch | None = None
        self._filter_chosen = False

    # --- layout -------------------------------------------------------------------------

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="pf-filters"):
            yield Input(placeholder=self._filter_hint(), id="pf-filter", compact=True)
            yield Select[str](
                self._status_options(), value=LIVE, allow_blank=False, id="pf-status", compact=True
            )
            yield Select[str]([], prompt=_("Every tier"), id="pf-tier", compact=True)
        self.wide = self.app.size.width >= 110
        yield self._new_table()
        yield Static("", id="pf-empty", classes="empty-state")
        yield Static("", id="pf-summary")

    def _new_table(self) -> PagedTable[PortfolioEntry]:
        return PagedTable[PortfolioEntry](
            portfolio_columns(self.app.size.width),
            self._row,
            lambda entry: entry.tracking_id,
            page_size=PAGE_SIZE,
            id="pf-table",
        )

    async def on_resize(self) -> None:
        """When the wide column set starts or stops fitting, swap the table for the other."""
        wide = self.app.size.width >= 110
        if wide == self.wide or not self.is_mounted:
            return
        self.wide = wide
        old = self.table
        had_focus = old.has_focus
        table = self._new_table()
        await old.remove()
        await self.mount(table, before="#pf-empty")
        self._apply_filters()
        if had_focus:
            table.focus()

    def _filter_hint(self) -> str:
        return _("Filter ({filter}) · {mark} marks a row").format(
            filter=self.host.binding_key("trackings.filter"),
            mark=self.host.binding_key("trackings.mark"),
        )

    @staticmethod
    def _status_options() -> list[tuple[str, str]]:
        return [(_("All but deleted"), LIVE), (_("All"), ALL)] + [
            (status_word(status.value), status.value) for status in TrackingStatus
        ]

    def on_language_changed(self, message: LanguageChanged) -> None:
        """D148: the same screen, its words redone (the filters keep what was chosen)."""
        super().on_language_changed(message)
        self.query_one("#pf-filter", Input).placeholder = self._filter_hint()
        status = self.query_one("#pf-status", Select)
        chosen = status.value
        with status.prevent(Select.Changed):
            status.set_options(self._status_options())
            status.value = chosen
        tier = self.query_one("#pf-tier", Select)
        tier.prompt = _("Every tier")
        context = self.host.services
        if context is not None:
            self._fill_tiers(context)
        self._show_state(loading=not self.loaded_from_service)

    def on_mount(self) -> None:
        super().on_mount()
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)
        self._show_state(loading=True)

    def on_unmount(self) -> None:
        # A screen removed must not leave the app's watch calling it: its widgets are gone
        # (issue 19: "No nodes match '#trk-status'").
        if self._listening is not None and self.replace_records in self._listening.listeners:
            self._listening.listeners.remove(self.replace_records)
        self._listening = None

    def on_services_ready(self, context: ServiceContext) -> None:
        self._fill_tiers(context)
        self.load()
        shared = getattr(self.app, "movement_watch", None)
        if isinstance(shared, MovementWatch):
            # The app polls for the whole session: follow its refreshes, do not poll twice.
            self.movement_watch = shared
            shared.listeners.append(self.replace_records)
            self._listening = shared
        else:
            self.set_interval(POLL_SECONDS, self.poll, name="trackings-poll")

    def _fill_tiers(self, context: ServiceContext) -> None:
        try:
            names = list(context.portfolio.tiers.tiers)
        except PortfolioConfigError as exc:  # the configuration names no usable tier
            self.notify(str(exc), severity="error", timeout=10)
            names = []
        tier = self.query_one("#pf-tier", Select)
        chosen = tier.value
        with tier.prevent(Select.Changed):
            tier.set_options([(tier_word(name), name) for name in names] + [(_("No tier"), "")])
            if chosen is not Select.BLANK and chosen in [*names, ""]:
                tier.value = chosen

    def _theme_changed(self, *_args: object) -> None:
        self._apply_filters()

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Import a portfolio"),
            _("Check a CSV or .xlsx file of keys and track every valid one"),
            self.action_import_file,
            binding_id="trackings.import",
        )
        yield PaletteCommand(
            _("Register a tracking"),
            _("Monitor a lawsuit or a document"),
            self.action_new,
            binding_id="trackings.new",
        )
        yield PaletteCommand(
            _("Mark every tracking shown"),
            _("Or clear the marks, when every one is marked"),
            self.action_mark_all,
            binding_id="trackings.mark_all",
        )
        yield PaletteCommand(
            _("Mark the trackings of a file's keys"),
            _("A CSV, .xlsx or text file of keys, as for an import"),
            self.action_mark_file,
            binding_id="trackings.mark_file",
        )
        yield PaletteCommand(
            _("Move to another tier"),
            _("The marked trackings, or the one under the cursor"),
            self.action_set_tier,
            binding_id="trackings.tier",
        )
        yield PaletteCommand(
            _("Refresh the portfolio"),
            _("Read the list from the service"),
            self.action_refresh,
            binding_id="trackings.refresh",
        )

    # --- rows ---------------------------------------------------------------------------

    def _row(self, entry: PortfolioEntry) -> Sequence[str | Text]:
        columns = portfolio_columns(self.app.size.width)
        cells: list[str | Text] = list(row_cells(entry, columns, entry.tracking_id in self.marked))
        for index, (key, _label, _width) in enumerate(columns):
            if key == "status":
                variable = STATUS_VARIABLES.get(entry.status, "foreground")
                cells[index] = Text(str(cells[index]), style=theme_style(self.app, variable))
            elif key == "mark" and entry.tracking_id in self.marked:
                cells[index] = Text("✓", style=theme_style(self.app, "text-accent", bold=True))
        return cells

    def visible_entries(self) -> list[PortfolioEntry]:
        status = self.query_one("#pf-status", Select).value
        tier = self.query_one("#pf-tier", Select).value
        words = self.query_one("#pf-filter", Input).value.casefold().split()
        pool = self.entries
        if status in (ALL, TrackingStatus.DELETED.value):
            pool = self.entries + self.deleted
        shown = []
        for entry in pool:
            if status not in (LIVE, ALL) and entry.status != status:
                continue
            if isinstance(tier, str) and (entry.tier or "") != tier:
                continue
            if entry_matches(entry, words):
                shown.append(entry)
        return shown

    def _apply_filters(self) -> None:
        if not self.is_attached:
            return
        self.table.set_items(self.visible_entries())
        self._show_state(loading=False)

    def _show_state(self, *, loading: bool) -> None:
        empty = self.query_one("#pf-empty", Static)
        table = self.table
        shown = len(table.items)
        if (loading or not self.loaded_from_service) and not self.entries:
            empty.update(_("Loading the portfolio…"))
        elif not self.entries and not self.deleted:
            empty.update(
                _(
                    "No trackings yet.\nPress {import_key} to import a portfolio file, or "
                    "{new_key} to monitor one lawsuit or document."
                ).format(
                    import_key=self.host.binding_key("trackings.import"),
                    new_key=self.host.binding_key("trackings.new"),
                )
            )
        elif not shown:
            empty.update(_("No tracking matches the filters."))
        table.display = shown > 0
        empty.display = shown == 0
        if shown and not table.has_focus and self._keys_to_list():
            # The list was hidden (empty, loading) when the screen took the focus: the keys
            # went to the filter. They belong to the list once it has rows.
            table.focus()
        self._update_summary()

    def _keys_to_list(self) -> bool:
        """Whether the list should have the keys: nothing has them, or the filter has them
        without the user having gone there."""
        focused = self.focused
        if focused is None:
            return True
        return focused.id == "pf-filter" and not self._filter_chosen

    def _update_summary(self) -> None:
        if not self.is_attached:
            return
        context = self.host.services
        parts = [
            ngettext("{n} tracking", "{n} trackings", len(self.entries)).format(
                n=format_int(len(self.entries))
            )
        ]
        if context is not None:
            status = context.portfolio.status(self.entries)
            parts.append(_("{runs} runs a month").format(runs=runs_text(status.total_runs)))
        if self.marked:
            parts.append(
                ngettext("{n} marked", "{n} marked", len(self.marked)).format(
                    n=format_int(len(self.marked))
                )
            )
        position = self.table.position_text()
        if position:
            parts.append(position)
        if not self.loaded_from_service and self.entries:
            parts.append(_("from the cache"))
        self.query_one("#pf-summary", Static).update(" · ".join(parts))

    def selected(self) -> PortfolioEntry | None:
        if not self.table.display:
            return None
        return self.table.selected_item()

    def targets(self) -> list[PortfolioEntry]:
        """The marked trackings (those still live), else the one under the cursor."""
        if self.marked:
            return [e for e in self.entries if e.tracking_id in self.marked]
        entry = self.selected()
        return [entry] if entry is not None and entry.status != "deleted" else []

    # --- loading and live updates -----------------------------------------------------------

    def _replace(self, fresh: Iterable[PortfolioEntry], *, whole: bool = False) -> None:
        """Put newer entries in place (new ones first); ``whole``: the service's full list."""
        if whole:
            known = {e.tracking_id for e in fresh}
            gone = [e for e in self.entries if e.tracking_id not in known]
            self.entries = list(fresh)
            self.deleted = [e for e in self.deleted if e.tracking_id not in known] + [
                e for e in gone if e.status == "deleted"
            ]
        else:
            index = {e.tracking_id: n for n, e in enumerate(self.entries)}
            added: list[PortfolioEntry] = []
            for entry in fresh:
                n = index.get(entry.tracking_id)
                if entry.status == "deleted":
                    if n is not None:
                        self.entries[n] = entry
                    continue
                if n is None:
                    added.append(entry)
                else:
                    self.entries[n] = entry
            self.entries[:0] = added
            moved = [e for e in self.entries if e.status == "deleted"]
            if moved:
                self.entries = [e for e in self.entries if e.status != "deleted"]
                self.deleted = moved + self.deleted
        live = {e.tracking_id for e in self.entries}
        self.marked &= live
        self._apply_filters()

    def replace_records(self, records: Iterable[TrackingRecord]) -> None:
        """The movement watch's fresh records (the service's whole list, every minute)."""
        if not self.is_attached:
            return
        self._take_fresh(list(records))

    @work(exclusive=True, group="trackings.fresh", exit_on_error=False)
    async def _take_fresh(self, records: list[TrackingRecord]) -> None:
        # The list is redrawn only when the service's list changed since the last look.
        fresh = await _entries_of(records)
        if fresh == self._last_fresh:
            return
        self._last_fresh = fresh
        self._replace(fresh, whole=True)

    def replace_record(self, record: TrackingRecord) -> None:
        self._replace([entry_of(record.to_json_dict())])

    def on_cache_changed(self, message: object) -> None:
        """A webhook delivery (or the writer process) stored something: read the cache."""
        summary = getattr(message, "summary", None)
        if summary is None or getattr(summary, "reference_type", None) == "tracking":
            self._reload_cache()

    @work(exclusive=True, group="trackings.reload", exit_on_error=False)
    async def _reload_cache(self) -> None:
        context = await self.services()
        self._replace(await context.portfolio.entries())

    @work(exclusive=True, group="trackings.load", exit_on_error=False)
    async def load(self) -> None:
        """The cache at once (an import just stored its trackings there), then the service."""
        context = await self.services()
        if not self.entries:
            self._show_state(loading=True)
        cached = await context.portfolio.entries(include_deleted=True)
        if cached:
            self.entries = [e for e in cached if e.status != "deleted"]
            self.deleted = [e for e in cached if e.status == "deleted"]
            self._apply_filters()
        records = await context.trackings.refresh()
        self.loaded_from_service = True
        fresh = await _entries_of(records)
        self._last_fresh = fresh
        self._replace(fresh, whole=True)

    @work(exclusive=True, group="trackings.poll", exit_on_error=False)
    async def poll(self) -> None:
        """Refresh, and announce the new movements of the trackings that ran."""
        context = await self.services()
        fresh = await self.movement_watch.check(context, self.app)
        self.replace_records(fresh)

    def show_params(self, tracking_id: str | None = None, **_params: Any) -> None:
        """``app.goto("trackings", tracking_id=...)``: open that tracking's detail."""
        if tracking_id:
            self._open_detail(tracking_id)

    # --- filters and marks ----------------------------------------------------------------

    @on(Input.Changed, "#pf-filter")
    def _filter_changed(self) -> None:
        self._filter_chosen = True
        self._apply_filters()

    @on(Input.Submitted, "#pf-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_focus_list()

    @on(Select.Changed, "#pf-status")
    @on(Select.Changed, "#pf-tier")
    def _select_changed(self) -> None:
        self._apply_filters()

    @on(PagedTable.RowSelected, "#pf-table")
    def _row_selected(self, event: PagedTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    @on(PagedTable.PageChanged)
    def _page_changed(self) -> None:
        self._update_summary()

    def action_focus_list(self) -> None:
        self.table.focus()

    def action_filter(self) -> None:
        self._filter_chosen = True
        self.query_one("#pf-filter", Input).focus()

    def action_status_filter(self) -> None:
        select = self.query_one("#pf-status", Select)
        select.focus()
        select.action_show_overlay()

    def action_refresh(self) -> None:
        self.load()

    def action_mark(self) -> None:
        entry = self.selected()
        if entry is None or entry.status == "deleted":
            return
        if entry.tracking_id in self.marked:
            self.marked.discard(entry.tracking_id)
        else:
            self.marked.add(entry.tracking_id)
        self.table.update_item(entry)
        self.table.action_cursor_down()
        self._update_summary()

    def action_mark_all(self) -> None:
        shown = {e.tracking_id for e in self.visible_entries() if e.status != "deleted"}
        if shown and shown <= self.marked:
            self.marked -= shown
        else:
            self.marked |= shown
        self._apply_filters()

    def action_mark_file(self) -> None:
        from lawsuit_tui.ui.trackings.keys_file_prompt import KeysFilePrompt

        def chosen(path: Path | None) -> None:
            if path is not None:
                self._mark_keys_of(path)

        self.app.push_screen(KeysFilePrompt(), chosen)

    @work(exclusive=True, group="trackings.mark_file", exit_on_error=False)
    async def _mark_keys_of(self, path: Path) -> None:
        context = await self.services()
        try:
            check = await context.portfolio_importer().read(path)
        except (PortfolioFileError, PortfolioConfigError) as exc:
            self.notify(str(exc), severity="error", timeout=8)
            return
        keys = {row.identity for row in check.valid if row.identity is not None}
        found = {e.tracking_id for e in self.entries if e.identity in keys}
        self.marked |= found
        self._apply_filters()
        missing = len(keys) - len({e.identity for e in self.entries if e.identity in keys})
        message = ngettext(
            "{n} tracking marked from {file}", "{n} trackings marked from {file}", len(found)
        ).format(n=format_int(len(found)), file=path.name)
        if missing:
            message += "; " + ngettext(
                "{n} key of the file is not tracked",
                "{n} keys of the file are not tracked",
                missing,
            ).format(n=format_int(missing))
        self.notify(message, timeout=6)

    # --- one tracking -----------------------------------------------------------------------

    def action_open(self) -> None:
        entry = self.selected()
        if entry is None:
            self.notify(_("Select a tracking first."), timeout=3)
            return
        self._open_detail(entry.tracking_id)

    @work(group="trackings.open", exit_on_error=False)
    async def _open_detail(self, tracking_id: str) -> None:
        from lawsuit_tui.ui.trackings.tracking_detail import TrackingDetailScreen

        record = await self._record(tracking_id)
        if record is not None:
            self.app.push_screen(TrackingDetailScreen(record, self.replace_record))

    async def _record(self, tracking_id: str) -> TrackingRecord | None:
        """The tracking's record: the cache's copy, else the service's."""
        context = await self.services()
        record = context.trackings.cached(tracking_id)
        if record is None:
            record = await context.trackings.get(tracking_id)
        return record

    def action_new(self) -> None:
        from lawsuit_tui.ui.trackings.tracking_form import TrackingFormScreen

        def done(record: TrackingRecord | None) -> None:
            if record is not None:
                self.replace_record(record)
                self.notify(_("Tracking registered."), timeout=4)

        self.app.push_screen(TrackingFormScreen(), done)

    def action_edit(self) -> None:
        entry = self.selected()
        if entry is not None and entry.status != "deleted":
            self._edit(entry.tracking_id)

    @work(group="trackings.open", exit_on_error=False)
    async def _edit(self, tracking_id: str) -> None:
        from lawsuit_tui.ui.trackings.tracking_form import TrackingFormScreen

        record = await self._record(tracking_id)
        if record is None:
            return

        def done(updated: TrackingRecord | None) -> None:
            if updated is not None:
                self.replace_record(updated)
                self.notify(_("Tracking saved."), timeout=4)

        self.app.push_screen(TrackingFormScreen(record), done)

    # --- bulk changes ---------------------------------------------------------------------

    def action_pause(self) -> None:
        self._ask("pause")

    def action_resume(self) -> None:
        self._ask("resume")

    def action_delete(self) -> None:
        self._ask("delete")

    def action_set_tier(self) -> None:
        from lawsuit_tui.ui.dialogs.tier_picker import TierPickerScreen

        targets = self.targets()
        context = self.host.services
        if not targets or context is None:
            self._nothing_to_change()
            return
        tiers = context.portfolio.tiers.tiers
        current = targets[0].tier if len({e.tier for e in targets}) == 1 else None

        def chosen(tier: str | None) -> None:
            if tier is not None:
                self._ask("set_tier", tier)

        title = ngettext("Move {n} tracking to", "Move {n} trackings to", len(targets)).format(
            n=format_int(len(targets))
        )
        self.app.push_screen(TierPickerScreen(title, dict(tiers), current), chosen)

    def _nothing_to_change(self) -> None:
        self.notify(
            _("Mark trackings first ({key}), or put the cursor on one.").format(
                key=self.host.binding_key("trackings.mark")
            ),
            timeout=4,
        )

    def _ask(self, operation: str, tier: str | None = None) -> None:
        """Describe the change to the targets, and make it once the user says yes."""
        targets = self.targets()
        context = self.host.services
        if not targets or context is None:
            self._nothing_to_change()
            return
        plan = context.portfolio.plan(operation, targets, tier)
        if not plan.affected:
            self.notify(
                _("Nothing to change: {what}").format(what=describe_change(plan)), timeout=5
            )
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._apply(plan)

        self.app.push_screen(
            ConfirmScreen(
                _(_TITLES[operation]),
                describe_change(plan) + ".",
                yes=_("Go ahead"),
                destructive=operation == "delete",
            ),
            answered,
        )

    def _apply(self, plan: ChangePlan) -> None:
        async def work(report: Report) -> Any:
            context = await self.services()
            doing = _(_DOING[plan.operation])
            return await context.portfolio.apply(
                plan, lambda done, total: report(done, total, doing)
            )

        def finished(outcome: Any) -> None:
            self._after_change(plan, outcome)

        self.app.push_screen(WorkProgressScreen(_(_TITLES[plan.operation]), work), finished)

    def _after_change(self, plan: ChangePlan, outcome: Any) -> None:
        if outcome is None:
            self.notify(_("Stopped: what was done so far stays done."), timeout=5)
        else:
            failed = len(outcome.failed)
            message = _("Changed {done} of {n}").format(
                done=format_int(len(outcome.done)), n=format_int(len(plan.affected))
            )
            if failed:
                first = outcome.failed[0][1]
                message += "; " + ngettext(
                    "{n} refused: {why}", "{n} refused, the first: {why}", failed
                ).format(n=format_int(failed), why=first)
            if outcome.partial:
                message += "; " + _(
                    "{n} without their step terms or fixed time (the service refused them)"
                ).format(n=format_int(len(outcome.partial)))
            self.notify(message, severity="warning" if failed else "information", timeout=6)
            self.marked.clear()
        self.load()

    # --- import ---------------------------------------------------------------------------

    def action_import_file(self) -> None:
        from lawsuit_tui.ui.trackings.portfolio_import import PortfolioImportScreen

        def closed(changed: bool) -> None:
            if changed:
                self.load()

        self.app.push_screen(PortfolioImportScreen(closed))

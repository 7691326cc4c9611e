"""Trackings: what is being monitored, in colour by status, with its operations.

The list shows the cache at once and then the service's list (paged in the table). Filters
by status and by text apply to what is held. From a row: open the detail (Enter), register
(n), pause (p), resume (r), delete (d, confirmed), edit (e). An operation the service does not
offer (404/405 on a route the spec does not show) is reported as not available and the screen
stays usable.

New movements: a :class:`MovementWatch` (the app's ``movement_watch`` when it has one, else
the screen's own, polled every ``POLL_SECONDS`` while the screen exists) refreshes the list;
a tracking whose run produced new responses raises a notice (``app.announce``) that
``app.follow_notice`` follows to its detail.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Input, Select, Static

from lawsuit_tui.domain.enums import TrackingStatus
from lawsuit_tui.domain.formatting import format_int
from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.i18n import N_, _, ngettext, pgettext
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand
from lawsuit_tui.ui.trackings.movement_watch import POLL_SECONDS, MovementWatch
from lawsuit_tui.ui.trackings.operations import ask_to_delete, run_operation
from lawsuit_tui.ui.trackings.tracking_text import (
    STATUS_VARIABLES,
    last_update,
    matches_text,
    recurrence_text,
    search_label,
)
from lawsuit_tui.ui.widgets.paged_table import PagedTable
from lawsuit_tui.ui.widgets.theme_text import status_text

if TYPE_CHECKING:
    from lawsuit_tui.services.context import ServiceContext

__all__ = ["ACTIVE_FILTER", "POLL_SECONDS", "TrackingsScreen"]

# The status filter's default: everything but deleted trackings.
ACTIVE_FILTER = "active"
ALL_FILTER = "all"
PAGE_SIZE = 100
# The search column takes what the others leave; the wide column set (items column, full
# dates and recurrence) is used only when this much is left for it.
SEARCH_LEAST = 29
Column = tuple[str, str, int | None]


def steps_header() -> str:
    """The header of the steps count: its own context, so that pt-BR can abbreviate it
    ("Steps" elsewhere is a title with room for the whole word)."""
    return pgettext("trackings column", "Steps")


def table_columns(*, wide: bool) -> list[Column]:
    """The list's columns; each fixed one at least as wide as its header, in any language."""
    if wide:
        least: list[Column] = [
            ("status", _("Status"), 9),
            ("search", _("Search"), None),
            ("recurrence", _("Recurrence"), 25),
            ("items", _("Items"), 5),
            ("steps", steps_header(), 5),
            ("updated", _("Last update"), 16),
        ]
    else:
        least = [
            ("status", _("Status"), 9),
            ("search", _("Search"), None),
            ("recurrence", _("Every"), 11),
            ("steps", steps_header(), 5),
            ("updated", _("Updated"), 10),
        ]
    return [
        (key, label, None if width is None else max(width, cell_len(label)))
        for key, label, width in least
    ]


def search_room(columns: Sequence[Column], width: int) -> int:
    """What ``width`` terminal columns leave for the search column (PagedTable's rule: one
    cell of padding each side of every column, and room for the vertical scrollbar)."""
    fixed = sum(size for _key, _label, size in columns if size is not None)
    return width - fixed - 2 * len(columns) - 2


def wide_fits(width: int) -> bool:
    """True when the wide column set fits ``width`` with its search column whole."""
    return search_room(table_columns(wide=True), width) >= SEARCH_LEAST


class TrackingsScreen(FramedScreen):
    """The trackings of this API key."""

    TITLE_TEXT = N_("Trackings")
    HELP_TEXT = N_(
        "Lawsuits and documents the service monitors for you. Each runs every few days (or at "
        "a fixed time) and reports new steps or newly found lawsuits as movements. The list "
        "opens from the cache and then refreshes from the service. Filter by status and by "
        "text; open a tracking with Enter to see every field and its movements, newest first. "
        "New movements raise a notice: press the key it names to go there."
    )
    CSS_PATH = "trackings.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", _("New"), id="trackings.new"),
        Binding("enter", "open", _("Open"), id="trackings.open", show=False),
        Binding("p", "pause", _("Pause"), id="trackings.pause"),
        Binding("r", "resume", _("Resume"), id="trackings.resume"),
        Binding("d,delete", "delete", _("Delete"), id="trackings.delete"),
        Binding("e", "edit", _("Edit"), id="trackings.edit"),
        # Shown elsewhere (the filter's placeholder names its key, the palette refreshes)
        # and listed by the help screen: kept out of the Footer so that it fits 80 columns.
        Binding("slash", "filter", _("Filter"), id="trackings.filter", show=False),
        Binding("s", "status_filter", _("Status"), id="trackings.status", show=False),
        Binding("ctrl+r", "refresh", _("Refresh"), id="trackings.refresh", show=False),
        Binding("escape", "focus_list", _("List"), id="trackings.focus_list", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.records: list[TrackingRecord] = []
        self.loaded_from_service = False
        self.narrow = False
        self.movement_watch = MovementWatch()

    # --- layout -------------------------------------------------------------------------

    def compose_body(self) -> ComposeResult:
        options = [(_("All but deleted"), ACTIVE_FILTER), (_("All"), ALL_FILTER)] + [
            (status.value, status.value) for status in TrackingStatus
        ]
        with Horizontal(id="trk-filters"):
            yield Input(
                placeholder=_("Filter by key, tag, e-mail (/)"),
                id="trk-filter",
                compact=True,
            )
            yield Select[str](
                options, value=ACTIVE_FILTER, allow_blank=False, id="trk-status", compact=True
            )
        self.narrow = not wide_fits(self.app.size.width)
        yield self._new_table()
        yield Static("", id="trk-empty", classes="empty-state")
        yield Static("", id="trk-summary")

    def _new_table(self) -> PagedTable[TrackingRecord]:
        columns = table_columns(wide=not self.narrow)
        return PagedTable[TrackingRecord](
            columns,
            self._row,
            lambda record: record.tracking_id,
            page_size=PAGE_SIZE,
            id="trk-table",
        )

    async def on_resize(self) -> None:
        """When the wide column set starts or stops fitting, swap the table for the other."""
        narrow = not wide_fits(self.app.size.width)
        if narrow == self.narrow or not self.is_mounted:
            return
        self.narrow = narrow
        old = self.table
        had_focus = old.has_focus
        table = self._new_table()
        await old.remove()
        await self.mount(table, before="#trk-empty")
        self._apply_filters()
        if had_focus:
            table.focus()

    def on_mount(self) -> None:
        super().on_mount()
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)
        self._show_state(loading=True)
        self.query_one("#trk-table", PagedTable).focus()

    def on_services_ready(self, context: ServiceContext) -> None:
        self.load()
        shared = getattr(self.app, "movement_watch", None)
        if isinstance(shared, MovementWatch):
            # the app polls for the whole session: follow its refreshes, do not poll twice
            self.movement_watch = shared
            shared.listeners.append(self.replace_records)
        else:
            self.set_interval(POLL_SECONDS, self.poll, name="trackings-poll")

    def _theme_changed(self, *_args: object) -> None:
        self._apply_filters()

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Register a tracking"),
            _("Monitor a lawsuit or a document"),
            self.action_new,
            binding_id="trackings.new",
        )
        yield PaletteCommand(
            _("Refresh trackings"),
            _("Read the list from the service"),
            self.action_refresh,
            binding_id="trackings.refresh",
        )

    # --- rows ---------------------------------------------------------------------------

    def _row(self, record: TrackingRecord) -> Sequence[str | Text]:
        status = status_text(self.app, record.status, STATUS_VARIABLES)
        steps = Text(format_int(record.tracked_items_steps_count), justify="right")
        if self.narrow:
            return (
                status,
                Text(search_label(record)),
                Text(recurrence_text(record, short=True)),
                steps,
                Text(last_update(record, date_only=True)),
            )
        return (
            status,
            Text(search_label(record)),
            Text(recurrence_text(record)),
            Text(format_int(record.tracked_items_count), justify="right"),
            steps,
            Text(last_update(record)),
        )

    @property
    def table(self) -> PagedTable[TrackingRecord]:
        return self.query_one("#trk-table", PagedTable)

    def visible_records(self) -> list[TrackingRecord]:
        status = self.query_one("#trk-status", Select).value
        text = self.query_one("#trk-filter", Input).value
        shown = []
        for record in self.records:
            value = str(record.status or "")
            if status == ACTIVE_FILTER and value == TrackingStatus.DELETED:
                continue
            if status not in (ACTIVE_FILTER, ALL_FILTER) and value != status:
                continue
            if matches_text(record, text):
                shown.append(record)
        return shown

    def _apply_filters(self) -> None:
        shown = self.visible_records()
        self.table.set_items(shown)
        self._show_state(loading=False)

    def _show_state(self, *, loading: bool) -> None:
        empty = self.query_one("#trk-empty", Static)
        table = self.table
        shown = len(table.items)
        if loading and not self.records:
            empty.update(_("Loading trackings…"))
        elif not self.records:
            key = self.host.binding_key("trackings.new")
            empty.update(
                _("No trackings yet.\nPress {key} to monitor a lawsuit or a document.").format(
                    key=key
                )
            )
        elif not shown:
            empty.update(_("No tracking matches the filters."))
        table.display = shown > 0
        empty.display = shown == 0
        self._update_summary()

    def _update_summary(self) -> None:
        by_status: dict[str, int] = {}
        for record in self.records:
            by_status[str(record.status)] = by_status.get(str(record.status), 0) + 1
        total = len(self.records) - by_status.get(TrackingStatus.DELETED.value, 0)
        parts = [ngettext("{n} tracking", "{n} trackings", total).format(n=format_int(total))]
        for status in (TrackingStatus.PAUSED, TrackingStatus.SUSPENDED):
            if by_status.get(status.value):
                parts.append(f"{format_int(by_status[status.value])} {status.value}")
        position = self.table.position_text()
        if position:
            parts.append(position)
        if not self.loaded_from_service and self.records:
            parts.append(_("from the cache"))
        self.query_one("#trk-summary", Static).update(" · ".join(parts))

    def selected(self) -> TrackingRecord | None:
        if not self.table.display:
            return None
        return self.table.selected_item()

    def replace_record(self, record: TrackingRecord) -> None:
        self.replace_records([record])

    def replace_records(self, records: Iterable[TrackingRecord]) -> None:
        """Put the service's newer records in place (new ones first), then redraw once."""
        position = {known.tracking_id: index for index, known in enumerate(self.records)}
        added: list[TrackingRecord] = []
        for record in records:
            index = position.get(record.tracking_id)
            if index is None:
                added.append(record)
            else:
                self.records[index] = record
        self.records[:0] = added
        self._apply_filters()

    def on_cache_changed(self, message: object) -> None:
        """A webhook delivery (or the writer process) stored something: read the cache."""
        summary = getattr(message, "summary", None)
        if summary is None or getattr(summary, "reference_type", None) == "tracking":
            self._reload_cache()

    @work(exclusive=True, group="trackings.reload", exit_on_error=False)
    async def _reload_cache(self) -> None:
        context = await self.services()
        self.replace_records(context.trackings.cached_list())

    # --- loading ------------------------------------------------------------------------

    @work(exclusive=True, group="trackings.load", exit_on_error=False)
    async def load(self) -> None:
        context = await self.services()
        cached = list(context.trackings.cached_list())
        if cached and not self.loaded_from_service:
            self.records = cached
            self._apply_filters()
        fresh = await context.trackings.refresh()
        # the service's list leaves deleted trackings out; the cache keeps them
        by_id = {record.tracking_id: record for record in fresh}
        kept_deleted = [
            record
            for record in context.trackings.cached_list()
            if record.tracking_id not in by_id and record.status == TrackingStatus.DELETED
        ]
        self.records = list(fresh) + kept_deleted
        self.loaded_from_service = True
        self._apply_filters()

    @work(exclusive=True, group="trackings.poll", exit_on_error=False)
    async def poll(self) -> None:
        """Refresh, and announce the new movements of the trackings that ran."""
        context = await self.services()
        fresh = await self.movement_watch.check(context, self.app)
        self.replace_records(fresh)

    def show_params(self, tracking_id: str | None = None, **_params: Any) -> None:
        """``app.goto("trackings", tracking_id=...)``: open that tracking's detail."""
        if not tracking_id:
            return
        record = next((r for r in self.records if r.tracking_id == tracking_id), None)
        if record is not None:
            self._open_detail(record)

    # --- actions ------------------------------------------------------------------------

    @on(Input.Changed, "#trk-filter")
    def _filter_changed(self) -> None:
        self._apply_filters()

    @on(Input.Submitted, "#trk-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_focus_list()

    @on(Select.Changed, "#trk-status")
    def _status_changed(self) -> None:
        self._apply_filters()

    @on(PagedTable.RowSelected, "#trk-table")
    def _row_selected(self, event: PagedTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    @on(PagedTable.PageChanged)
    def _page_changed(self) -> None:
        self._update_summary()

    def action_focus_list(self) -> None:
        self.table.focus()

    def action_filter(self) -> None:
        self.query_one("#trk-filter", Input).focus()

    def action_status_filter(self) -> None:
        select = self.query_one("#trk-status", Select)
        select.focus()
        select.action_show_overlay()

    def action_refresh(self) -> None:
        self.load()

    def action_open(self) -> None:
        record = self.selected()
        if record is None:
            self.notify(_("Select a tracking first."), timeout=3)
            return
        self._open_detail(record)

    def _open_detail(self, record: TrackingRecord) -> None:
        from lawsuit_tui.ui.trackings.tracking_detail import TrackingDetailScreen

        self.app.push_screen(TrackingDetailScreen(record, self.replace_record))

    def action_new(self) -> None:
        from lawsuit_tui.ui.trackings.tracking_form import TrackingFormScreen

        def done(record: TrackingRecord | None) -> None:
            if record is not None:
                self.replace_record(record)
                self.notify(
                    _("Tracking registered: {search}").format(search=search_label(record)),
                    timeout=4,
                )

        self.app.push_screen(TrackingFormScreen(), done)

    def action_edit(self) -> None:
        record = self.selected()
        if record is None:
            return
        self.edit(record)

    def edit(self, record: TrackingRecord) -> None:
        from lawsuit_tui.ui.trackings.tracking_form import TrackingFormScreen

        def done(updated: TrackingRecord | None) -> None:
            if updated is not None:
                self.replace_record(updated)
                self.notify(
                    _("Tracking saved: {search}").format(search=search_label(updated)),
                    timeout=4,
                )

        self.app.push_screen(TrackingFormScreen(record), done)

    def action_pause(self) -> None:
        record = self.selected()
        if record is not None:
            self.operate("pause", record)

    def action_resume(self) -> None:
        record = self.selected()
        if record is not None:
            self.operate("resume", record)

    def action_delete(self) -> None:
        record = self.selected()
        if record is None:
            return
        self.confirm_delete(record)

    def confirm_delete(self, record: TrackingRecord) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                self.operate("delete", record)

        ask_to_delete(self, record, answered)

    @work(group="trackings.operate", exit_on_error=False)
    async def operate(self, operation: str, record: TrackingRecord) -> TrackingRecord | None:
        updated = await run_operation(self, operation, record)
        if updated is not None:
            self.replace_record(updated)
        return updated

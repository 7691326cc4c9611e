"""One tracking: every field of its record and its movements, newest first.

The movements are the inbox's, filtered to this tracking (``context.inbox``, one place for
them): Enter opens the lawsuit tree at the steps the movement brought (and marks it read, as
the inbox does); ``i`` goes to the inbox filtered to this tracking.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, ClassVar

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from lawsuit_tui.domain.formatting import format_datetime, format_int
from lawsuit_tui.domain.inbox import InboxFilter, Movement
from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.i18n import N_, _, ngettext
from lawsuit_tui.ui.errors import is_not_available
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand
from lawsuit_tui.ui.trackings.operations import ask_to_delete, run_operation
from lawsuit_tui.ui.trackings.tracking_text import (
    STATUS_VARIABLES,
    recurrence_text,
    search_label,
)
from lawsuit_tui.ui.widgets.theme_text import status_text, theme_style

if TYPE_CHECKING:
    from lawsuit_tui.services.context import ServiceContext

__all__ = ["TrackingDetailScreen"]

MOVEMENTS_SHOWN = 200
"""The newest movements listed here; the inbox (``i``) has them all."""


def _yes_no(value: bool | None) -> str:
    if value is None:
        return ""
    return _("yes") if value else _("no")


class TrackingDetailScreen(FramedScreen):
    """The detail of one tracking (pushed over the trackings list)."""

    TITLE_TEXT = N_("Tracking")
    HELP_TEXT = N_(
        "Every field of the tracking and the movements it produced, newest first. Enter on a "
        "movement opens the lawsuit at its new steps; i shows them in the inbox. Pause, "
        "resume, edit or delete the tracking from here too."
    )
    CSS_PATH = "trackings.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", _("Back"), id="trackings.detail.back"),
        Binding(
            "enter", "open_movement", _("Open lawsuit"), id="trackings.detail.open", show=False
        ),
        Binding("i", "inbox", _("Inbox"), id="trackings.detail.inbox", show=False),
        Binding("p", "pause", _("Pause"), id="trackings.detail.pause"),
        Binding("r", "resume", _("Resume"), id="trackings.detail.resume"),
        Binding("e", "edit", _("Edit"), id="trackings.detail.edit"),
        Binding("d,delete", "delete", _("Delete"), id="trackings.detail.delete"),
        # Listed by the help screen; out of the Footer so that pt-BR fits 80 columns.
        Binding("ctrl+r", "refresh", _("Refresh"), id="trackings.detail.refresh", show=False),
    ]

    def __init__(
        self,
        record: TrackingRecord,
        on_change: Callable[[TrackingRecord], None] | None = None,
    ) -> None:
        super().__init__()
        self.record = record
        self._on_change = on_change
        self.movements: list[Movement] = []
        self.loaded = False

    def screen_title(self) -> str:
        return _("Tracking {search}").format(search=search_label(self.record))

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="td-fields-box"):
            yield Static(id="td-fields")
        yield Static("", id="td-movements-title")
        table: DataTable[str | Text] = DataTable(
            id="td-movements", cursor_type="row", zebra_stripes=True
        )
        yield table
        yield Static("", id="td-empty", classes="empty-state")

    def on_mount(self) -> None:
        super().on_mount()
        table = self.query_one("#td-movements", DataTable)
        table.add_column(_("Date"), key="date", width=16)
        table.add_column(_("Lawsuit"), key="lawsuit", width=25)
        table.add_column(_("Inst."), key="instance", width=5)
        table.add_column(_("New steps"), key="new", width=9)
        table.add_column(_("Type"), key="type")
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)
        self._show_fields()
        self._show_movements(loading=True)
        table.focus()

    def on_services_ready(self, context: ServiceContext) -> None:
        self.load()

    def _theme_changed(self, *_args: object) -> None:
        self._show_fields()
        self._show_movements(loading=not self.loaded)

    def palette_commands(self) -> Iterable[PaletteCommand]:
        search = search_label(self.record)
        yield PaletteCommand(
            _("Movements in the inbox"),
            search,
            self.action_inbox,
            binding_id="trackings.detail.inbox",
        )
        yield PaletteCommand(
            _("Pause tracking"), search, self.action_pause, binding_id="trackings.detail.pause"
        )
        yield PaletteCommand(
            _("Resume tracking"), search, self.action_resume, binding_id="trackings.detail.resume"
        )
        yield PaletteCommand(
            _("Edit tracking"), search, self.action_edit, binding_id="trackings.detail.edit"
        )
        yield PaletteCommand(
            _("Delete tracking"), search, self.action_delete, binding_id="trackings.detail.delete"
        )

    # --- the record ---------------------------------------------------------------------

    def field_rows(self) -> list[tuple[str, Text | str]]:
        record = self.record
        search = record.search
        terms = record.notification_filters.step_terms if record.notification_filters else None
        rows: list[tuple[str, Text | str]] = [
            (_("Status"), status_text(self.app, record.status, STATUS_VARIABLES)),
            (_("Search"), search_label(record)),
            (
                _("Search type and key"),
                f"{search.search_type} {search.search_key}" if search else "",
            ),
            (_("Response type"), str(search.response_type or "") if search else ""),
            (_("Recurrence"), recurrence_text(record)),
            (_("Fixed time"), _yes_no(record.fixed_time)),
            (_("With attachments"), _yes_no(record.with_attachments)),
            (_("Notification e-mails"), ", ".join(record.notification_emails or [])),
            (_("Step terms"), ", ".join(terms or [])),
            (
                _("Tags"),
                ", ".join(f"{key}={value}" for key, value in (record.tags or {}).items()),
            ),
            (_("Callback URL"), record.callback_url or ""),
            (_("Tracked items"), format_int(record.tracked_items_count)),
            (_("Steps of tracked items"), format_int(record.tracked_items_steps_count)),
            (_("Plan"), str(record.plan_config_type or "")),
            (_("Created"), format_datetime(record.created_at)),
            (_("Run started"), format_datetime(record.updating_at)),
            (_("Updated"), format_datetime(record.updated_at)),
            (_("Paused"), format_datetime(record.paused_at)),
            (_("Deleted"), format_datetime(record.deleted_at)),
            (_("Tracking id"), record.tracking_id),
            (_("Latest run (request)"), record.request_id or ""),
            (_("User / company"), " / ".join(v for v in (record.user_id, record.company_id) if v)),
        ]
        for key, value in sorted(record.extra_fields.items()):
            text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            rows.append((key, text))
        return rows

    def _show_fields(self) -> None:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style=theme_style(self.app, "text-muted"), no_wrap=True)
        grid.add_column(overflow="fold")
        for label, value in self.field_rows():
            if value == "" or value is None:
                continue
            grid.add_row(label, value if isinstance(value, Text) else Text(value))
        self.query_one("#td-fields", Static).update(grid)
        self.set_screen_title(self.screen_title())

    def set_record(self, record: TrackingRecord) -> None:
        self.record = record
        self._show_fields()
        if self._on_change is not None:
            self._on_change(record)

    # --- movements ----------------------------------------------------------------------

    def _show_movements(self, *, loading: bool = False) -> None:
        table = self.query_one("#td-movements", DataTable)
        empty = self.query_one("#td-empty", Static)
        title = self.query_one("#td-movements-title", Static)
        table.clear()
        new_style = theme_style(self.app, "text-accent", bold=True)
        for movement in self.movements:
            new = (
                Text(_("{n} new").format(n=format_int(len(movement.steps))), style=new_style)
                if movement.steps
                else Text("")
            )
            what = movement.error_code or ", ".join(movement.step_types)
            table.add_row(
                format_datetime(movement.received_at),
                Text(movement.code),
                Text(str(movement.instance or "")),
                new,
                Text(what, style="bold" if movement.unread else ""),
                key=movement.movement_id,
            )
        count = len(self.movements)
        key = self.host.binding_key("trackings.detail.inbox")
        title.update(
            _("Movements: loading…")
            if loading
            else ngettext(
                "Movements: {n}, newest first · {key} inbox",
                "Movements: {n}, newest first · {key} inbox",
                count,
            ).format(n=format_int(count), key=key)
        )
        empty.update(
            _("Loading movements…")
            if loading
            else _("No movements yet: a run that finds news adds one here.")
        )
        table.display = count > 0
        empty.display = count == 0

    @work(exclusive=True, group="trackings.detail.load", exit_on_error=False)
    async def load(self) -> None:
        context = await self.services()
        try:
            record = await context.trackings.get(self.record.tracking_id)
        except Exception as exc:
            if not is_not_available(exc):
                raise
            record = self.record  # a service without GET /tracking/{id}: keep the list's copy
        else:
            self.set_record(record)
        await context.inbox.poll()  # what the runs found since the app's last look
        chosen = InboxFilter(tracking_id=record.tracking_id)
        ids = context.inbox.select(chosen)[:MOVEMENTS_SHOWN]
        self.movements = await asyncio.to_thread(context.inbox.movements, ids)
        self.loaded = True
        self._show_movements()

    def selected_movement(self) -> Movement | None:
        table = self.query_one("#td-movements", DataTable)
        if not self.movements or not table.display:
            return None
        index = table.cursor_row
        return self.movements[index] if 0 <= index < len(self.movements) else None

    @on(DataTable.RowSelected, "#td-movements")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open_movement()

    def action_open_movement(self) -> None:
        movement = self.selected_movement()
        if movement is not None:
            self.host.open_movement(movement)

    def action_inbox(self) -> None:
        self.host.goto("inbox", tracking_id=self.record.tracking_id)

    # --- operations ---------------------------------------------------------------------

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_refresh(self) -> None:
        self.load()

    def action_pause(self) -> None:
        self.operate("pause")

    def action_resume(self) -> None:
        self.operate("resume")

    def action_delete(self) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                self.operate("delete")

        ask_to_delete(self, self.record, answered)

    def action_edit(self) -> None:
        from lawsuit_tui.ui.trackings.tracking_form import TrackingFormScreen

        def done(updated: TrackingRecord | None) -> None:
            if updated is not None:
                self.set_record(updated)
                self.notify(
                    _("Tracking saved: {search}").format(search=search_label(updated)),
                    timeout=4,
                )

        self.app.push_screen(TrackingFormScreen(self.record), done)

    @work(group="trackings.detail.operate", exit_on_error=False)
    async def operate(self, operation: str) -> None:
        updated = await run_operation(self, operation, self.record)
        if updated is not None:
            self.set_record(updated)

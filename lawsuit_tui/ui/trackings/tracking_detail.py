"""One tracking: every field of its record and its movements, newest first.

The movements are the inbox's, filtered to this tracking (``context.inbox``, one place for
them): Enter opens the lawsuit tree at the steps the movement brought (and marks it read, as
the inbox does); ``i`` goes to the inbox filtered to this tracking.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable, Mapping
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
from lawsuit_tui.domain.tiers import LABELS_TAG, TIER_TAG, labels_of, tier_of
from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.domain.vocabulary import (
    PLAN_CONFIG_WORDS,
    RESPONSE_TYPE_WORDS,
    SEARCH_TYPE_WORDS,
    TRACKING_STATUS_WORDS,
    word,
)
from lawsuit_tui.i18n import N_, _, ngettext
from lawsuit_tui.services.portfolio import tier_word
from lawsuit_tui.ui.errors import explain_application_error, is_not_available
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand
from lawsuit_tui.ui.messages import LanguageChanged
from lawsuit_tui.ui.trackings.operations import ask_to_delete, run_operation
from lawsuit_tui.ui.trackings.tracking_text import (
    STATUS_VARIABLES,
    recurrence_text,
    search_label,
)
from lawsuit_tui.ui.widgets.table_columns import room_left, set_column_width
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
        "Every field of the tracking and the movements it produced, newest first. {open} on a "
        "movement opens the lawsuit at its new steps; {inbox} shows them in the inbox. Pause, "
        "resume, edit or delete the tracking from here too."
    )
    HELP_KEYS: ClassVar[Mapping[str, str]] = {
        "open": "trackings.detail.open",
        "inbox": "trackings.detail.inbox",
    }
    CSS_PATH = "trackings.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", _("Back"), id="trackings.detail.back"),
        Binding(
            "enter", "open_movement", _("Open lawsuit"), id="trackings.detail.open", show=False
        ),
        Binding("i", "inbox", _("Inbox"), id="trackings.detail.inbox", show=False),
        Binding("p", "pause", _("Pause"), id="trackings.detail.pause"),
        Binding("u", "resume", _("Resume"), id="trackings.detail.resume"),
        Binding("e", "edit", _("Edit"), id="trackings.detail.edit"),
        Binding("d,delete", "delete", _("Delete"), id="trackings.detail.delete"),
        # Listed by the help screen; out of the Footer so that pt-BR fits 80 columns. ``r``
        # refreshes on every screen of the app (issue 19: keys mean one thing app-wide).
        Binding("r", "refresh", _("Refresh"), id="trackings.detail.refresh", show=False),
        Binding("l", "items", _("Lawsuits followed"), id="trackings.detail.items", show=False),
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
        # The highlighted movement read whole: the table's columns cut a long one at 80.
        yield Static("", id="td-note", markup=False)

    def on_mount(self) -> None:
        super().on_mount()
        table = self.query_one("#td-movements", DataTable)
        table.add_column(_("Date"), key="date", width=16)
        table.add_column(_("Lawsuit"), key="lawsuit", width=25)
        table.add_column(_("Inst."), key="instance", width=5)
        table.add_column(_("New steps"), key="new", width=9)
        table.add_column(_("Type"), key="type", width=self._type_width())
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)
        self._show_fields()
        self._show_movements(loading=True)
        table.focus()

    def on_services_ready(self, context: ServiceContext) -> None:
        self.load()

    def on_descendant_focus(self) -> None:
        self._show_focus()

    def on_descendant_blur(self) -> None:
        self._show_focus()

    def _show_focus(self) -> None:
        """Which pane has the keys: the title of the movements lights up with them (the
        panes' own borders say it too, trackings.tcss)."""
        if not self.is_attached:
            return
        table = self.query_one("#td-movements", DataTable)
        self.query_one("#td-movements-title", Static).set_class(table.has_focus, "-focused")

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
        yield PaletteCommand(
            _("Lawsuits followed"),
            _("Every lawsuit instance this tracking follows"),
            self.action_items,
            binding_id="trackings.detail.items",
        )

    # --- the record ---------------------------------------------------------------------

    def field_rows(self) -> list[tuple[str, Text | str]]:
        record = self.record
        search = record.search
        terms = record.notification_filters.step_terms if record.notification_filters else None
        status = Text(
            word(TRACKING_STATUS_WORDS, record.status),
            style=status_text(self.app, record.status, STATUS_VARIABLES).style,
        )
        tags = dict(record.tags or {})
        tier = tier_of(tags)
        labels = labels_of(tags)
        for name in (TIER_TAG, LABELS_TAG):
            tags.pop(name, None)
        rows: list[tuple[str, Text | str]] = [
            (_("Status"), status),
            (_("Search"), search_label(record)),
            (_("Tier"), tier_word(tier) if tier else ""),
            (_("Labels"), ", ".join(labels)),
            (
                _("Search type and key"),
                f"{word(SEARCH_TYPE_WORDS, search.search_type)} {search.search_key}"
                if search
                else "",
            ),
            (_("Response type"), word(RESPONSE_TYPE_WORDS, search.response_type) if search else ""),
            (_("Recurrence"), recurrence_text(record)),
            (_("Fixed time"), _yes_no(record.fixed_time)),
            (_("With attachments"), _yes_no(record.with_attachments)),
            (_("Notification e-mails"), ", ".join(record.notification_emails or [])),
            (_("Step terms"), ", ".join(terms or [])),
            (_("Tags"), ", ".join(f"{key}={value}" for key, value in tags.items())),
            (_("Callback URL"), record.callback_url or ""),
            (_("Tracked items"), format_int(record.tracked_items_count)),
            (_("Steps of tracked items"), format_int(record.tracked_items_steps_count)),
            (_("Plan"), word(PLAN_CONFIG_WORDS, record.plan_config_type)),
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

    def on_language_changed(self, message: LanguageChanged) -> None:
        """D148: the same screen, its fields and movements in the new words (the row kept)."""
        super().on_language_changed(message)
        self._show_fields()
        table = self.query_one("#td-movements", DataTable)
        row = table.cursor_row
        self._show_movements(loading=not self.loaded)
        if 0 <= row < table.row_count:
            table.move_cursor(row=row)

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
        error_style = theme_style(self.app, "text-error")
        for movement in self.movements:
            new = (
                Text(_("{n} new").format(n=format_int(len(movement.steps))), style=new_style)
                if movement.steps
                else Text("")
            )
            if movement.error_code:
                # A run that could not read the court: what happened, in words.
                meaning = explain_application_error(movement.error_code).meaning
                what = Text(f"{movement.error_code}: {meaning}", style=error_style)
            else:
                what = Text(", ".join(movement.step_types), style="bold" if movement.unread else "")
            table.add_row(
                format_datetime(movement.received_at),
                Text(movement.code or self._tracked_code() or "—"),
                Text(str(movement.instance or "")),
                new,
                what,
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
        self._show_note()

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

    def _type_width(self) -> int:
        """What the fixed columns leave for the type."""
        return room_left(self.app.size.width, (16, 25, 5, 9), least=10)

    def on_resize(self) -> None:
        if self.is_mounted:
            set_column_width(self.query_one("#td-movements", DataTable), "type", self._type_width())

    @on(DataTable.RowHighlighted, "#td-movements")
    def _movement_highlighted(self) -> None:
        self._show_note()

    def _show_note(self) -> None:
        note = self.query_one("#td-note", Static)
        movement = self.selected_movement()
        if movement is None:
            note.update("")
            return
        if movement.error_code:
            explanation = explain_application_error(movement.error_code)
            parts = [f"{explanation.code}: {explanation.meaning}", explanation.action]
            note.update(" ".join(part for part in parts if part))
            return
        key = self.host.binding_key("trackings.detail.open")
        count = len(movement.steps)
        note.update(
            ngettext(
                "{n} new step in {code} (instance {instance}) · {key} opens the lawsuit",
                "{n} new steps in {code} (instance {instance}) · {key} opens the lawsuit",
                count,
            ).format(
                n=format_int(count),
                code=movement.code or self._tracked_code() or "—",
                instance=movement.instance or 1,
                key=key,
            )
        )

    def _tracked_code(self) -> str | None:
        """The CNJ number the tracking follows (None for a document tracking)."""
        search = self.record.search
        if search is not None and search.search_type == "lawsuit_cnj":
            return search.search_key
        return None

    def action_open_movement(self) -> None:
        movement = self.selected_movement()
        if movement is not None:
            self.host.open_movement(movement)

    def action_inbox(self) -> None:
        self.host.goto("inbox", tracking_id=self.record.tracking_id)

    # --- operations ---------------------------------------------------------------------

    def action_items(self) -> None:
        from lawsuit_tui.ui.trackings.tracked_items import TrackedItemsScreen

        title = _("Followed by {search}").format(search=search_label(self.record))
        self.app.push_screen(TrackedItemsScreen(title, self.record.tracking_id))

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

"""The inbox (F7): every movement of every tracking, newest first, triaged by keyboard.

A search line, then what the filter keeps (a virtual list: 100,000 movements cost only the
lines on screen), then the highlighted movement's new steps. ``/`` searches as you type (every
word, accents and case ignored), ``f`` filters by period, tier, court, step type and term,
``u`` shows the unread only; Space selects, ``a`` selects all shown, ``r``/``R`` mark read or
unread; Enter opens the lawsuit at the new steps (and marks the movement read); ``e``
exports CSV or JSON. ``app.goto("inbox", tracking_id=...)`` shows one tracking's movements.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Input, Static

from lawsuit_tui.domain.formatting import display_zone, format_int
from lawsuit_tui.domain.inbox import InboxFilter, Movement, day_start
from lawsuit_tui.i18n import N_, _, ngettext
from lawsuit_tui.ui.dialogs.answered import if_answered
from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand
from lawsuit_tui.ui.inbox.dialogs import (
    ExportChoice,
    FilterChoice,
    InboxExportDialog,
    InboxFilterDialog,
    Period,
    period_label,
)
from lawsuit_tui.ui.inbox.inbox_text import (
    count_words,
    detail_text,
    filter_words,
    search_label,
)
from lawsuit_tui.ui.inbox.movement_list import MovementList
from lawsuit_tui.ui.messages import CacheChanged, InboxChanged
from lawsuit_tui.ui.widgets.theme_text import theme_style

if TYPE_CHECKING:
    from datetime import datetime

    from lawsuit_tui.services.context import ServiceContext

__all__ = ["CONFIRM_FROM", "InboxScreen"]

CONFIRM_FROM = 50
"""Marking more movements than this at once asks first."""


class InboxScreen(FramedScreen):
    """The inbox destination (F7)."""

    TITLE_TEXT = N_("Inbox")
    HELP_TEXT = N_(
        "Every movement of every tracking, newest first: from the webhook receiver and from "
        "the service, checked every minute. {search} searches every word in the number, "
        "parties, court and steps; {filters} filters by period, tier, court, step type and "
        "term; {unread} shows the unread only; {clear} clears. {select} selects, {all} selects "
        "all shown; {read} marks read, {unmark} unread. {open} opens the lawsuit at the new "
        "steps and marks the movement read. {export} exports CSV for a spreadsheet, or JSON."
    )
    HELP_KEYS: ClassVar[Mapping[str, str]] = {
        "search": "inbox.search",
        "filters": "inbox.filters",
        "unread": "inbox.unread",
        "clear": "inbox.clear",
        "select": "inbox.list.select",
        "all": "inbox.select_all",
        "read": "inbox.mark_read",
        "unmark": "inbox.mark_unread",
        "open": "inbox.list.open",
        "export": "inbox.export",
    }
    CSS_PATH = "inbox.tcss"
    AUTO_FOCUS = "#inbox-list"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "search", _("Search"), id="inbox.search"),
        Binding("f", "filters", _("Filters"), id="inbox.filters"),
        Binding("u", "toggle_unread", _("Unread"), id="inbox.unread"),
        Binding("r", "mark_read", _("Read"), id="inbox.mark_read"),
        Binding("R", "mark_unread", _("Mark unread"), id="inbox.mark_unread", show=False),
        Binding("a", "select_all", _("Select all"), id="inbox.select_all", show=False),
        Binding("e", "export", _("Export"), id="inbox.export"),
        Binding("x", "clear_filters", _("Clear filters"), id="inbox.clear", show=False),
        Binding("ctrl+r", "check", _("Check now"), id="inbox.check", show=False),
        Binding("escape", "leave_search", _("List"), id="inbox.list", show=False),
        # The sandbox only: a portfolio to triage, and its next day.
        Binding("P", "demo_portfolio", _("Demo portfolio"), id="inbox.demo", show=False),
        Binding("N", "next_day", _("Next day"), id="inbox.next_day", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.query_filter = InboxFilter()
        self.period: Period = ""
        self.tracking_label = ""
        self.total = 0
        self.unread = 0
        self.loaded = False
        self._version = -1
        self._detail_shown: tuple[object, ...] | None = None

    # --- layout --------------------------------------------------------------------------

    def compose_body(self) -> ComposeResult:
        yield Input(
            placeholder=_("Search: number, party, court, step text (/)"),
            id="inbox-search",
            compact=True,
        )
        yield Static("", id="inbox-summary")
        yield MovementList(self._read, id="inbox-list")
        yield Static("", id="inbox-empty", classes="empty-state")
        with VerticalScroll(id="inbox-detail-box"):
            yield Static("", id="inbox-detail")

    @property
    def movement_list(self) -> MovementList:
        return self.query_one("#inbox-list", MovementList)

    def on_mount(self) -> None:
        super().on_mount()
        self._show_empty(loading=True)

    def on_services_ready(self, context: ServiceContext) -> None:
        self.load()

    async def _read(self, ids: Sequence[str]) -> list[Movement]:
        context = await self.services()
        chosen = list(ids)
        return await asyncio.to_thread(context.inbox.movements, chosen)

    # --- loading -------------------------------------------------------------------------

    def effective_filter(self, now: datetime) -> InboxFilter:
        """The filter with the period turned into a start (days begin where the user is)."""
        if not self.period:
            return self.query_filter
        zone = display_zone()
        today = day_start(now.astimezone(zone).date(), zone)
        starts = {
            "today": today,
            "yesterday": today - timedelta(days=1),
            "7d": now - timedelta(days=7),
            "30d": now - timedelta(days=30),
        }
        return self.query_filter.but(since=starts.get(self.period))

    @work(exclusive=True, group="inbox.load", exit_on_error=False)
    async def load(self, keep: str | None = None, *, top: bool = False) -> None:
        context = await self.services()
        inbox = context.inbox
        chosen = self.effective_filter(inbox.now())
        version = inbox.version

        def read() -> tuple[list[str], int, int]:
            return inbox.select(chosen), inbox.count(), inbox.unread_count()

        ids, self.total, self.unread = await asyncio.to_thread(read)
        self._version = version
        self.loaded = True
        self.movement_list.set_ids(ids, keep=keep, top=top)
        self._show_summary()
        self._show_empty()

    def _show_summary(self) -> None:
        listed = self.movement_list
        line = count_words(len(listed.ids), self.total, self.unread, len(listed.selection))
        shown = filter_words(self.query_filter, tracking=self.tracking_label)
        if self.period:
            shown = " · ".join(p for p in (period_label(self.period), shown) if p)
        if shown:
            key = self.host.binding_key("inbox.clear")
            line += "  ·  " + _("Showing: {filter} ({key} clears)").format(filter=shown, key=key)
        # One line of fixed height: no layout to redo (a keystroke of the search redraws it).
        self.query_one("#inbox-summary", Static).update(line, layout=False)

    def _show_empty(self, *, loading: bool = False) -> None:
        empty = self.query_one("#inbox-empty", Static)
        listed = self.movement_list
        nothing = loading or not listed.ids
        if loading:
            empty.update(_("Reading the inbox…"))
        elif self.total == 0:
            text = _(
                "No movements yet. A tracking's run that finds new steps puts one here; "
                "the inbox asks the service every minute ({key} asks now)."
            ).format(key=self.host.binding_key("inbox.check"))
            if self._in_sandbox():
                # A new user's first look: give them a morning to triage.
                text += "\n\n" + _(
                    "Sandbox: {demo} tracks a demo portfolio of 10,000 lawsuits that move "
                    "day by day; then {next} moves the sandbox to the next morning."
                ).format(
                    demo=self.host.binding_key("inbox.demo"),
                    next=self.host.binding_key("inbox.next_day"),
                )
            empty.update(text)
        else:
            empty.update(
                _("Nothing matches the filter. {key} clears it.").format(
                    key=self.host.binding_key("inbox.clear")
                )
            )
        empty.display = nothing
        listed.display = not nothing
        self.query_one("#inbox-detail-box").display = not nothing
        if not nothing:
            self._show_detail(listed.current_id)

    def _show_detail(self, movement_id: str | None) -> None:
        movement = self.movement_list.movement(movement_id)
        if movement is None and movement_id is not None:
            return  # its block is being read: the list says when it is there
        shown = (movement_id, movement.unread if movement else None, self.app.theme)
        if shown == self._detail_shown:
            return  # the same movement as it was: no layout to redo
        self._detail_shown = shown
        text = detail_text(
            movement,
            muted=theme_style(self.app, "text-muted"),
            accent=theme_style(self.app, "text-accent", bold=True),
        )
        self.query_one("#inbox-detail", Static).update(text)
        self.query_one("#inbox-detail-box", VerticalScroll).scroll_home(animate=False)

    def on_inbox_changed(self, message: InboxChanged) -> None:
        self._reload_if_changed()

    def on_cache_changed(self, message: CacheChanged) -> None:
        self._reload_if_changed()

    def _reload_if_changed(self) -> None:
        """New movements (or marks): at the top of the list, the cursor stays at the top, on
        the newest; further down, on the movement it was on (as a mail client does)."""
        context = self.host.services
        if context is not None and self.loaded and context.inbox.version != self._version:
            listed = self.movement_list
            self.load(listed.current_id if listed.cursor > 0 else None, top=listed.cursor == 0)

    def show_params(self, tracking_id: str | None = None, **_params: Any) -> None:
        """``app.goto("inbox", tracking_id=...)``: that tracking's movements only."""
        self.query_filter = InboxFilter(tracking_id=tracking_id)
        self.period = ""
        self.tracking_label = ""
        self.query_one("#inbox-search", Input).value = ""
        if tracking_id:
            self._name_tracking(tracking_id)
        self.load()
        self.movement_list.focus()

    @work(exclusive=True, group="inbox.tracking", exit_on_error=False)
    async def _name_tracking(self, tracking_id: str) -> None:
        context = await self.services()
        ids = await asyncio.to_thread(context.inbox.select, InboxFilter(tracking_id=tracking_id))
        found = await asyncio.to_thread(context.inbox.movements, ids[:1])
        label = search_label(found[0]) if found else ""
        self.tracking_label = label or _("tracking {id}").format(id=tracking_id[:8])
        self._show_summary()

    # --- the list ------------------------------------------------------------------------

    @on(MovementList.Highlighted)
    def _highlighted(self, event: MovementList.Highlighted) -> None:
        self._show_detail(event.movement_id)

    @on(MovementList.SelectionChanged)
    def _selection_changed(self) -> None:
        self._show_summary()

    @on(MovementList.Chosen)
    def _chosen(self, event: MovementList.Chosen) -> None:
        self.open_movement(event.movement_id)

    @work(group="inbox.open", exit_on_error=False)
    async def open_movement(self, movement_id: str) -> None:
        context = await self.services()
        movement = self.movement_list.movement(movement_id) or await asyncio.to_thread(
            context.inbox.get, movement_id
        )
        if movement is not None:
            self.host.open_movement(movement)

    # --- search and filters --------------------------------------------------------------

    def action_search(self) -> None:
        self.query_one("#inbox-search", Input).focus()

    @on(Input.Changed, "#inbox-search")
    def _search_changed(self, event: Input.Changed) -> None:
        self.query_filter = self.query_filter.but(text=event.value)
        self.load(self.movement_list.current_id)

    @on(Input.Submitted, "#inbox-search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.movement_list.focus()

    def action_leave_search(self) -> None:
        self.movement_list.focus()

    def action_toggle_unread(self) -> None:
        self.query_filter = self.query_filter.but(unread=not self.query_filter.unread)
        self.load(self.movement_list.current_id)

    def action_clear_filters(self) -> None:
        self.query_filter = InboxFilter()
        self.period = ""
        self.tracking_label = ""
        self.query_one("#inbox-search", Input).value = ""
        self.load(self.movement_list.current_id)

    def action_filters(self) -> None:
        self._open_filters()

    @work(exclusive=True, group="inbox.facets", exit_on_error=False)
    async def _open_filters(self) -> None:
        context = await self.services()
        facets = await asyncio.to_thread(context.inbox.facets)
        self.app.push_screen(
            InboxFilterDialog(self.query_filter, self.period, facets),
            if_answered(self._filter_chosen),
        )

    def _filter_chosen(self, choice: FilterChoice) -> None:
        self.query_filter = self.query_filter.but(
            tier=choice.tier,
            court=choice.court,
            step_type=choice.step_type,
            term=choice.term,
            unread=choice.unread,
        )
        self.period = choice.period
        self.load(self.movement_list.current_id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("demo_portfolio", "next_day") and not self._in_sandbox():
            return False
        typing = isinstance(self.focused, Input)
        keys = ("filters", "toggle_unread", "mark_read", "mark_unread", "select_all", "export")
        return not (typing and action in (*keys, "clear_filters", "demo_portfolio", "next_day"))

    def _in_sandbox(self) -> bool:
        context = self.host.services
        return context is not None and context.mode == "sandbox"

    # --- marks ---------------------------------------------------------------------------

    def _chosen_ids(self) -> list[str]:
        """The selection, else the highlighted movement."""
        listed = self.movement_list
        if listed.selection:
            return [i for i in listed.ids if i in listed.selection]
        current = listed.current_id
        return [current] if current is not None else []

    def action_select_all(self) -> None:
        self.movement_list.select_all()

    def action_mark_read(self) -> None:
        self._ask_and_mark(read=True)

    def action_mark_unread(self) -> None:
        self._ask_and_mark(read=False)

    def _ask_and_mark(self, *, read: bool) -> None:
        ids = self._chosen_ids()
        if not ids:
            return
        if len(ids) <= CONFIRM_FROM:
            self._mark_worker(ids, read)
            return
        question = (
            ngettext("Mark {n} movement as read?", "Mark {n} movements as read?", len(ids))
            if read
            else ngettext("Mark {n} movement as unread?", "Mark {n} movements as unread?", len(ids))
        ).format(n=format_int(len(ids)))

        def answered(yes: bool | None) -> None:
            if yes:
                self._mark_worker(ids, read)

        title = _("Mark read") if read else _("Mark unread")
        self.app.push_screen(ConfirmScreen(title, question), answered)

    @work(group="inbox.mark", exit_on_error=False)
    async def _mark_worker(self, ids: list[str], read: bool) -> None:
        changed = await self._mark(ids, read=read)
        self.movement_list.selection.clear()
        if len(ids) > 1:
            self.notify(
                (
                    ngettext("{n} movement marked read.", "{n} movements marked read.", changed)
                    if read
                    else ngettext(
                        "{n} movement marked unread.", "{n} movements marked unread.", changed
                    )
                ).format(n=format_int(changed)),
                timeout=4,
            )
        elif read and self.movement_list.current_id in ids:
            self.movement_list.action_cursor_down()  # on to the next, as a mail client does

    async def _mark(self, ids: list[str], *, read: bool) -> int:
        context = await self.services()
        changed = await context.inbox.mark(ids, read=read)
        self.movement_list.forget(ids)
        self.unread = context.inbox.unread_count()
        self._show_summary()
        self.host.inbox_changed()
        return changed

    # --- export, check -------------------------------------------------------------------

    def action_export(self) -> None:
        self._open_export()

    @work(exclusive=True, group="inbox.export", exit_on_error=False)
    async def _open_export(self) -> None:
        context = await self.services()
        today = context.inbox.today(display_zone())
        today_ids = await asyncio.to_thread(context.inbox.select, today)
        listed = self.movement_list
        counts = {
            "shown": len(listed.ids),
            "today": len(today_ids),
            "selected": len(listed.selection),
        }
        chosen_ids = {
            "shown": list(listed.ids),
            "today": today_ids,
            "selected": [i for i in listed.ids if i in listed.selection],
        }

        def chosen(choice: ExportChoice | None) -> None:
            if choice is not None:
                self._export(chosen_ids.get(choice.scope, []), choice)

        self.app.push_screen(InboxExportDialog(counts, self.host.settings.download_dir), chosen)

    @work(exclusive=True, group="inbox.export.write", exit_on_error=False)
    async def _export(self, ids: list[str], choice: ExportChoice) -> None:
        context = await self.services()
        self.notify(_("Exporting {n} movements…").format(n=format_int(len(ids))), timeout=2)
        path = await context.inbox.export(
            ids, file_format=choice.file_format, folder=choice.folder, zone=display_zone()
        )
        self.notify(_("Saved {path}").format(path=path))

    def action_check(self) -> None:
        self._check()

    @work(exclusive=True, group="inbox.check", exit_on_error=False)
    async def _check(self) -> None:
        context = await self.services()
        self.notify(_("Asking the service for new movements…"), timeout=2)
        outcome = await context.inbox.poll()
        self.notify(
            ngettext("{n} new movement.", "{n} new movements.", len(outcome.new)).format(
                n=format_int(len(outcome.new))
            ),
            timeout=4,
        )
        self.load(self.movement_list.current_id)

    # --- the sandbox's demo -------------------------------------------------------------

    def action_demo_portfolio(self) -> None:
        self._demo_portfolio()

    @work(exclusive=True, group="inbox.demo", exit_on_error=False)
    async def _demo_portfolio(self) -> None:
        context = await self.services()
        self.notify(_("Tracking the sandbox's demo portfolio (10,000 lawsuits)…"), timeout=4)
        report = await context.track_demo_portfolio()
        created = int((report or {}).get("created") or 0)
        key = self.host.binding_key("inbox.next_day")
        self.notify(
            ngettext(
                "{n} tracking registered: hot, warm and cold. {key} moves the sandbox a day on.",
                "{n} trackings registered: hot, warm and cold. {key} moves the sandbox a day on.",
                created,
            ).format(n=format_int(created), key=key),
            timeout=10,
        )

    def action_next_day(self) -> None:
        self._next_day()

    @work(exclusive=True, group="inbox.demo", exit_on_error=False)
    async def _next_day(self) -> None:
        context = await self.services()
        self.notify(_("The sandbox moves a day on…"), timeout=3)
        await context.advance_sandbox_clock(86_400)
        await context.advance_sandbox_clock(10)  # the runs that fell due finish
        outcome = await context.inbox.poll()
        self.notify(
            ngettext("{n} new movement.", "{n} new movements.", len(outcome.new)).format(
                n=format_int(len(outcome.new))
            ),
            timeout=6,
        )
        self.load(self.movement_list.current_id)

    def palette_commands(self) -> Iterable[PaletteCommand]:
        if self._in_sandbox():
            yield PaletteCommand(
                _("Sandbox: track the demo portfolio"),
                _("10,000 lawsuits that move, in three tiers"),
                self.action_demo_portfolio,
                "inbox.demo",
            )
            yield PaletteCommand(
                _("Sandbox: next day"),
                _("Move the sandbox's clock a day on and check"),
                self.action_next_day,
                "inbox.next_day",
            )
        yield PaletteCommand(
            _("Search the inbox"), _("Every word, anywhere"), self.action_search, "inbox.search"
        )
        yield PaletteCommand(
            _("Filter the inbox"),
            _("Period, tier, court, step type, term"),
            self.action_filters,
            "inbox.filters",
        )
        yield PaletteCommand(
            _("Unread only"), _("Show or hide the read"), self.action_toggle_unread, "inbox.unread"
        )
        yield PaletteCommand(
            _("Clear the inbox filters"),
            _("Show everything"),
            self.action_clear_filters,
            "inbox.clear",
        )
        yield PaletteCommand(
            _("Mark read"),
            _("The selected, or the highlighted"),
            self.action_mark_read,
            "inbox.mark_read",
        )
        yield PaletteCommand(
            _("Mark unread"),
            _("The selected, or the highlighted"),
            self.action_mark_unread,
            "inbox.mark_unread",
        )
        yield PaletteCommand(
            _("Select all shown"),
            _("Then mark or export them"),
            self.action_select_all,
            "inbox.select_all",
        )
        yield PaletteCommand(
            _("Export movements"), _("CSV or JSON"), self.action_export, "inbox.export"
        )
        yield PaletteCommand(
            _("Check for movements now"), _("Ask the service"), self.action_check, "inbox.check"
        )

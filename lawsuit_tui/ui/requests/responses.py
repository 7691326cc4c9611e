"""The responses of one request, live while it is followed.

A provisional response (the service's stored copy, ``cached``) is marked as such; when the
definitive one arrives it is marked *replaced* and the definitive row says what changed (new
steps, parties, attachments). Application errors are explained in plain words, with the way
to the vault when a credential is the fix. The list is paged, so thousands stay fast.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import Group
from rich.markdown import Markdown
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from lawsuit_tui.domain.formatting import (
    format_datetime,
    format_document,
    format_int,
    format_money,
)
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.responses import AiSummary
from lawsuit_tui.domain.vocabulary import RESPONSE_TYPE_WORDS, word
from lawsuit_tui.i18n import N_, _, ngettext
from lawsuit_tui.services.request_responses import (
    Change,
    ResponseLedger,
    ResponseRow,
    confirm_unreplaced,
    subject_code,
    vault_system,
)
from lawsuit_tui.services.warrants import as_execution
from lawsuit_tui.ui.errors import explain_application_error
from lawsuit_tui.ui.framed_screen import PaletteCommand
from lawsuit_tui.ui.keys import words_of_key
from lawsuit_tui.ui.requests.request_list import confirm_cancel, search_text, status_text
from lawsuit_tui.ui.table_screen import TableScreen
from lawsuit_tui.ui.widgets.criminal_text import (
    criminal_mark,
    entity_summary,
    execution_summary,
    warrant_summary,
)
from lawsuit_tui.ui.widgets.lawsuit_summaries import (
    lawsuit_class,
    lawsuit_court,
    lawsuit_parties,
    news_words,
)
from lawsuit_tui.ui.widgets.paged_table import LazyItems, PagedTable

if TYPE_CHECKING:
    from lawsuit_tui.domain.requests import RequestRecord
    from lawsuit_tui.domain.responses import ResponseRecord
    from lawsuit_tui.services.context import ServiceContext
    from lawsuit_tui.services.court_failures import CourtFailure
    from lawsuit_tui.ui.messages import CacheChanged, LanguageChanged, RequestFollowEvent


def entity_data(response: ResponseRecord) -> dict[str, Any] | None:
    """The registration data an ``entity`` response carries (a dict, or a model of it)."""
    if str(response.response_type or "") != "entity":
        return None
    data = response.response_data
    if isinstance(data, dict):
        return data
    dump = getattr(data, "to_json_dict", None)
    return dump() if callable(dump) else None


def about(response: ResponseRecord) -> str:
    data = response.response_data
    error = response.application_error
    if error is not None:
        return str(error.code or "")
    warrant = response.warrant
    if warrant is not None:
        return " · ".join(p for p in (warrant.code, warrant.tribunal_acronym) if p)
    entity = entity_data(response)
    if entity is not None:
        document = format_document(str(entity.get("main_document") or ""))
        return " · ".join(p for p in (str(entity.get("name") or ""), document) if p)
    if isinstance(data, Lawsuit):
        # The court and instance first: a narrow column cuts the end, and two responses of
        # one CNJ differ by their instance (issue 19).
        return f"{lawsuit_court(data)} · {data.code}"
    if isinstance(data, dict):
        for field in ("code", "name", "main_document"):
            if data.get(field):
                return str(data[field])
    return ""


def news_text(change: Change | None) -> str:
    if change is None or change.first_version or change.ignored:
        return ""
    news = news_words(
        len(change.new_step_ids), len(change.new_attachment_ids), len(change.new_party_names)
    )
    if not news and change.replaced_provisional:
        return _("no change")
    return news


def kind_text(row: ResponseRow) -> Text:
    if row.response.application_error is not None:
        return Text("✕ " + _("error"), style="bold")
    if row.response.ai_summary is not None:
        # Short enough for the column; the detail says "AI summary of ...".
        return Text("✎ " + _("summary"), style="italic")
    mark = criminal_mark(row.response)  # a warrant or an execution says what it means
    if mark is not None:
        return mark
    if row.provisional and row.replaced_by:
        return Text("↺ " + _("replaced"), style="dim strike")
    if row.provisional and row.confirmed:
        return Text("● " + _("current"), style="")
    if row.provisional:
        return Text("◌ " + _("provisional"), style="italic")
    return Text("● " + _("definitive"), style="bold")


def response_row(row: ResponseRow) -> Sequence[str | Text]:
    news = news_text(row.change)
    kind = str(row.response.response_type or "")
    subject = about(row.response)
    if row.response.ai_summary is not None:
        subject = row.summarises or ""  # D80: the lawsuit it summarises
    elif kind not in ("lawsuit", "application_error", "warrant", "execution"):
        label = word(RESPONSE_TYPE_WORDS, kind)
        subject = f"{label}: {subject}" if subject else label
    return (
        format_int(row.number),
        kind_text(row),
        subject,
        Text(news, style="bold reverse") if news and news != _("no change") else news,
        format_datetime(row.response.created_at),
    )


def row_key(row: ResponseRow) -> str:
    return row.key


class ResponsesScreen(TableScreen[ResponseRow]):
    TITLE_TEXT = N_("Responses")
    HELP_TEXT = N_(
        "The responses of one request, in the order they arrived. A provisional response is "
        "the service's stored copy; the definitive one from the court replaces it and says "
        "what changed. {open} opens a lawsuit; errors say what happened and what to do."
    )
    HELP_KEYS: ClassVar[Mapping[str, str]] = {"open": "enter"}
    CSS_PATH = "responses.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", _("Back"), id="responses.back"),
        Binding("k", "vault", _("Vault"), id="responses.vault"),
        Binding("r", "refresh", _("Refresh"), id="responses.refresh"),
        Binding("x", "cancel", _("Cancel/delete"), id="responses.cancel"),
    ]

    def __init__(self, request_id: str, *, response_id: str | None = None) -> None:
        super().__init__()
        self.request_id = request_id
        # A response opened by its id (D90): selected once the list is read.
        self.wanted_response = response_id
        self.followed_request = request_id
        self.record: RequestRecord | None = None
        # Read from the cache a page at a time (validating only the page shown); the
        # responses that arrive while the screen is open are appended.
        self.rows: LazyItems[ResponseRow] = LazyItems(0, self._fetch_rows)
        self.ledger = ResponseLedger(request_id)
        self.completed = False

    def screen_title(self) -> str:
        return _("Request {id}").format(id=self.request_id[:8])

    def compose_body(self) -> ComposeResult:
        yield Static(_("Loading the request…"), id="request-summary")
        yield PagedTable(
            [
                ("n", "#", 3),
                # "◌ provisional" whole; a CNJ number (25) whole in About at 80 columns, which
                # the news header leaves when it has at most 11 cells (it is never cut)
                ("kind", _("Kind"), 13),
                ("about", _("About"), -3),
                ("news", _("What's new"), None),
                ("received", _("Received"), 16),
            ],
            response_row,
            row_key,
            id="responses",
            page_size=200,
        )
        with VerticalScroll(id="response-detail"):
            yield Static("", id="detail")

    def on_services_ready(self, context: ServiceContext) -> None:
        self._load_cached()

    @work(exclusive=True, group="responses.cached", exit_on_error=False)
    async def _load_cached(self) -> None:
        context = await self.services()
        await self._read_cache(context)
        self._show()
        if self.wanted_response is not None:
            index = await asyncio.to_thread(
                context.requests.cached_position, self.request_id, self.wanted_response
            )
            if index is not None:
                self.table.show_index(index)
        self._start(context)

    async def _read_cache(self, context: ServiceContext) -> None:
        """The request's record and the first page of its cached responses."""
        record, total, last = await asyncio.to_thread(
            context.requests.cached_overview, self.request_id
        )
        if record is not None:
            self.record = record
        self.ledger.restart(last)
        # D92: the courts the request could not reach, whatever page their errors are on.
        errors = await asyncio.to_thread(context.requests.cached_errors, self.request_id)
        self.ledger.note_failures(errors)
        self.rows = LazyItems(total, self._fetch_rows, block=self.table.page_size)
        await self.rows.load(0, self.table.page_size)

    async def _fetch_rows(self, offset: int, limit: int) -> list[ResponseRow]:
        """One page of rows from the cache, with what the stored versions say about them
        (read in one thread hop, each lawsuit's state once, without validating it)."""
        context = await self.services()
        page, states = await asyncio.to_thread(
            context.requests.cached_responses_with_states, self.request_id, offset, limit
        )
        return self.ledger.page_rows(page, states, offset, completed=self.completed)

    def _confirm_unreplaced(self) -> None:
        """Once the request is over, a provisional copy nobody replaced is the current one."""
        if self.record is None or str(self.record.status) != "completed":
            return
        for row in confirm_unreplaced(self.rows.loaded(), self.ledger.failures):
            self.table.update_item(row)

    def _start(self, context: ServiceContext) -> None:
        status = str(self.record.status) if self.record is not None else ""
        if status in ("completed", "cancelled"):
            self.completed = True
            self._confirm_unreplaced()
            expected = self.record.responses_count if self.record is not None else None
            if expected is None or expected > len(self.rows):
                self._refresh()
        else:
            self.host.follow_request(self.request_id)
        self._show()

    # --- rows ----------------------------------------------------------------------------

    def _add_responses(
        self, responses: Iterable[ResponseRecord], changes: Mapping[str, Change] | None = None
    ) -> None:
        for response in responses:
            change = changes.get(response.response_id) if changes and response.response_id else None
            row = self.ledger.admit(response, len(self.rows) + 1, change)
            if row is not None:
                self.rows.append(row)

    def _show(self) -> None:
        self.table.set_items(self.rows)
        self._show_summary()
        self._show_detail()

    def _show_summary(self) -> None:
        record = self.record
        summary = self.query_one("#request-summary", Static)
        if record is None:
            summary.update(_("Request {id}").format(id=self.request_id))
            return
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append_text(status_text(record.status))
        line.append("  " + search_text(record), "bold")
        if record.search and record.search.response_type:
            line.append(f" → {word(RESPONSE_TYPE_WORDS, record.search.response_type)}")
        line.append("\n" + _("created {when}").format(when=format_datetime(record.created_at)))
        if record.completed_at:
            line.append(
                "  " + _("completed {when}").format(when=format_datetime(record.completed_at))
            )
        count = max(record.responses_count or 0, len(self.rows))
        line.append(
            "   " + ngettext("{n} response", "{n} responses", count).format(n=format_int(count))
        )
        if record.cost:
            line.append("   " + format_money(record.cost), "dim")
        if self.host.is_following(self.request_id):
            line.append("   " + _("following…"), "italic")
        position = self.table.position_text()
        if position:
            line.append("   " + position, "dim")
        summary.update(line)

    @on(DataTable.RowHighlighted, "#responses")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    @on(PagedTable.PageChanged, "#responses")
    def _paged(self, event: PagedTable.PageChanged) -> None:
        self._show_summary()

    def _selected(self) -> ResponseRow | None:
        return self.table.selected_item()

    def _show_detail(self) -> None:
        detail = self.query_one("#detail", Static)
        row = self._selected()
        if row is None:
            if self.completed:
                detail.update(_("This request brought no response."))
            else:
                detail.update(_("Waiting for the first response…"))
            return
        detail.update(
            detail_renderable(
                row,
                self.host.binding_key("responses.vault"),
                words_of_key(self.app, "enter"),
                request=self.record,
            )
        )
        self.refresh_bindings()

    # --- live ----------------------------------------------------------------------------

    def on_request_follow_event(self, message: RequestFollowEvent) -> None:
        if message.request_id != self.request_id:
            return
        from lawsuit_tui.services.results import Completed, ResponseArrived, StatusChanged

        event = message.event
        if isinstance(event, ResponseArrived):
            changes = {}
            if event.change is not None and event.response.response_id:
                changes[event.response.response_id] = event.change
            before = len(self.rows)
            self._add_responses([event.response], changes)
            replaced: list[ResponseRow] = []
            if len(self.rows) > before:
                new_key = self.rows[-1].key
                self.ledger.replaced(event.replaces, new_key)
                replaced = [row for row in self.rows.loaded() if row.replaced_by == new_key]
                if self.table.page == self.table.page_count - 1 or not self.table.items:
                    self.table.set_items(self.rows)
                for row in replaced:
                    self.table.update_item(row)
            if self.record is not None:
                self.record = self.record.model_copy(
                    update={
                        "responses_count": max(self.record.responses_count or 0, len(self.rows))
                    }
                )
        elif isinstance(event, StatusChanged | Completed):
            self.record = event.record
            if isinstance(event, Completed):
                self.completed = True
                self._confirm_unreplaced()
        self._show_summary()
        self._show_detail()

    def on_language_changed(self, message: LanguageChanged) -> None:
        super().on_language_changed(message)
        self._show_summary()
        self._show_detail()

    def on_cache_changed(self, message: CacheChanged) -> None:
        """A webhook delivery (or the writer process) stored something: read the cache."""
        if message.request_id in (None, self.request_id):
            self._reload_cache()

    @work(exclusive=True, group="responses.reload", exit_on_error=False)
    async def _reload_cache(self) -> None:
        context = await self.services()
        before = len(self.rows)
        await self._read_cache(context)
        if self.record is not None and str(self.record.status) in ("completed", "cancelled"):
            self.completed = True
            self._confirm_unreplaced()
        if len(self.rows) != before:
            self._show()
        else:
            self._show_summary()

    # --- actions -------------------------------------------------------------------------

    @on(DataTable.RowSelected, "#responses")
    def _open(self, event: DataTable.RowSelected) -> None:
        event.stop()
        row = self._selected()
        if row is None:
            return
        data = row.response.response_data
        warrant = row.response.warrant
        entity = entity_data(row.response)
        if warrant is not None:
            from lawsuit_tui.ui.requests.cards import WarrantCardScreen

            self.app.push_screen(WarrantCardScreen(warrant))
        elif entity is not None:
            from lawsuit_tui.ui.requests.cards import EntityCardScreen

            self.app.push_screen(EntityCardScreen(entity))
        elif isinstance(data, Lawsuit):
            self.host.open_lawsuit(data.code, data.instance)
        elif isinstance(data, AiSummary):
            from lawsuit_tui.ui.dialogs.text_view import TextViewScreen

            title = _("AI summary of {code}").format(code=row.summarises or row.key[:8])
            self.app.push_screen(TextViewScreen(title, plain_summary(data.text)))
        elif row.response.application_error is not None:
            explanation = explain_application_error(row.response.application_error.code)
            if explanation.needs_credential:
                self.action_vault()

    def action_vault(self) -> None:
        row = self._selected()
        error = row.response.application_error if row is not None else None
        if row is None or error is None:
            return
        customer_key = None
        search = self.record.search if self.record is not None else None
        if search is not None and search.search_params and search.search_params.credential:
            customer_key = search.search_params.credential.customer_key
        customer_key = customer_key or self.host.settings.default_customer_key
        system = vault_system(row.response)
        if system is not None:
            self.host.open_vault(system, customer_key)
            return
        code = subject_code(row.response) or (search.search_key if search else None)
        if code:
            self.host.open_vault_for(code, None, customer_key)
        else:
            self.host.open_vault(None, customer_key)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "vault":
            row = self._selected()
            error = row.response.application_error if row is not None else None
            return error is not None and explain_application_error(error.code).needs_credential
        if action == "cancel":
            return self.record is not None and not self.record.deleted_at
        return True

    def action_refresh(self) -> None:
        self._refresh()

    @work(exclusive=True, group="responses.refresh", exit_on_error=False)
    async def _refresh(self) -> None:
        context = await self.services()
        self.table.loading = not self.rows
        try:
            await context.requests.refresh_responses(self.request_id)
            record = await context.requests.get(self.request_id)
            await self._read_cache(context)
            self.record = record
        finally:
            self.table.loading = False
        if self.completed:
            self._confirm_unreplaced()
        self._show()

    def action_cancel(self) -> None:
        if self.record is not None:
            confirm_cancel(self, self.record)

    def request_changed(self, record: RequestRecord) -> None:
        self.record = record
        self._show_summary()

    def action_back(self) -> None:
        self.dismiss()

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Refresh responses"),
            _("Read them again"),
            self.action_refresh,
            binding_id="responses.refresh",
        )
        yield PaletteCommand(
            _("Cancel or delete request"),
            _("With confirmation"),
            self.action_cancel,
            binding_id="responses.cancel",
        )


def unreachable_text(failure: CourtFailure) -> str:
    """Why a stored copy stays provisional: its court was not reached (D92)."""
    court = failure.court or _("The court")
    if failure.code == "RATE_LIMIT_TRIBUNAL":
        text = _(
            "{court} limited collection and will be asked again in its next cycle: this "
            "stored copy may be out of date."
        )
    else:
        text = _("{court} could not be reached: this stored copy may be out of date.")
    return text.format(court=court)


def detail_renderable(
    row: ResponseRow,
    vault_key: str,
    open_key: str,
    *,
    request: RequestRecord | None = None,
) -> Any:
    response = row.response
    warrant = response.warrant
    if warrant is not None:
        return warrant_summary(warrant, open_key)
    execution = as_execution(response, request)
    if execution is not None:
        return execution_summary(execution, open_key)
    entity = entity_data(response)
    if entity is not None:
        return entity_summary(entity, open_key)
    error = response.application_error
    if error is not None:
        explanation = explain_application_error(error.code)
        parts: list[Text] = [
            Text.assemble((f"{explanation.code or '?'}  ", "bold"), explanation.meaning),
        ]
        if explanation.needs_credential:
            parts.append(
                Text(
                    _("Press {key} to open the vault for this court system.").format(key=vault_key),
                    style="bold",
                )
            )
        parts.append(Text.assemble((_("What to do: "), "bold"), explanation.action))
        details = error.details if error.details is not None else error.message
        if details:
            parts.append(Text(_("Service: {details}").format(details=details), style="dim"))
        return Text("\n").join(parts)
    data = response.response_data
    if isinstance(data, AiSummary):
        title = _("AI summary of {code}").format(code=row.summarises or _("a lawsuit"))
        return Group(
            Text(title, style="bold"),
            Markdown(plain_summary(data.text)),
            Text(_("{key} opens the whole summary.").format(key=open_key), style="dim"),
        )
    if isinstance(data, Lawsuit):
        head = Text.assemble(
            (data.code, "bold"), f"  {lawsuit_court(data)}  ", (lawsuit_class(data), "italic")
        )
        lines = [head, Text(lawsuit_parties(data))]
        if not row.provisional:
            lines.append(Text(_("Definitive: the court's own answer."), style="bold"))
        elif row.unreachable:
            # D92: never "current" when the court was not reached.
            lines.append(Text(unreachable_text(row.unreachable), style="bold"))
        elif row.confirmed:
            lines.append(Text(_("The court had nothing newer: this stored copy is current.")))
        elif row.replaced_by:
            lines.append(Text(_("Replaced by the court's definitive answer."), style="dim"))
        elif row.provisional:
            lines.append(
                Text(
                    _("Provisional: the service's stored copy; the court's answer follows."),
                    style="italic",
                )
            )
        news = news_text(row.change)
        if news:
            lines.append(
                Text(_("Since the previous version: {news}").format(news=news), style="bold")
            )
        lines.append(Text(_("{key} opens the lawsuit.").format(key=open_key), style="dim"))
        return Text("\n").join(lines)
    if isinstance(data, dict):
        import json

        return Text(json.dumps(data, ensure_ascii=False, indent=1)[:2000])
    return Text(str(data or ""))


_TAG = re.compile(r"<[^>]+>")


def plain_summary(markdown: str) -> str:
    """The summary's markdown without the HTML the service mixes into it (``<strong
    className=...>``, ``<ul><li>``): its words, as markdown a terminal can show."""
    text = re.sub(r"<li>\s*", "- ", markdown)
    text = _TAG.sub("", text)
    lines = [line.strip() for line in text.splitlines()]
    kept: list[str] = []
    for line in lines:
        if line or (kept and kept[-1]):
            kept.append(line)
    return "\n".join(kept).strip()

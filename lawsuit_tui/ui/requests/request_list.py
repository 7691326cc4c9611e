"""Requests: the list (cache at once, then the service page by page), live while followed."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

import orjson
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from lawsuit_tui.domain.formatting import (
    format_date,
    format_datetime,
    format_document,
    format_int,
)
from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.domain.vocabulary import REQUEST_STATUS_WORDS, RESPONSE_TYPE_WORDS, word
from lawsuit_tui.i18n import N_, _, ngettext
from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand
from lawsuit_tui.ui.table_screen import TableScreen
from lawsuit_tui.ui.widgets.paged_table import LazyItems, PagedTable

if TYPE_CHECKING:
    from lawsuit_tui.services.context import ServiceContext
    from lawsuit_tui.services.requests import RequestHistory
    from lawsuit_tui.services.results import CancelOutcome
    from lawsuit_tui.ui.messages import CacheChanged, LanguageChanged, RequestFollowEvent

STATUS_STYLE = {
    "pending": "italic",
    "started": "bold",
    "cancelling": "italic",
    "cancelled": "dim strike",
    "completed": "",
}


def status_text(status: object) -> Text:
    value = str(status or "?")
    style = STATUS_STYLE.get(value, "")
    marker = {"pending": "○ ", "started": "◐ ", "completed": "● ", "cancelled": "✕ "}.get(
        value, "  "
    )
    return Text(marker + word(REQUEST_STATUS_WORDS, value), style=style)


def search_text(record: RequestRecord) -> str:
    search = record.search
    if search is None:
        return "?"
    kind = str(search.search_type or "")
    key = search.search_key or ""
    shown = format_document(key, kind if kind != "lawsuit_id" else None) if key else ""
    if kind == "oab" and shown.upper().startswith("OAB"):
        return shown  # its display already says OAB/SP
    label = {"lawsuit_cnj": "CNJ", "lawsuit_id": "ID"}.get(kind, kind.upper())
    return f"{label} {shown}".strip()


def request_row(record: RequestRecord, *, date_only: bool = False) -> Sequence[str | Text]:
    origin = "" if str(record.origin or "api") == "api" else f" ({record.origin})"
    return (
        status_text(record.status),
        search_text(record) + origin,
        word(RESPONSE_TYPE_WORDS, record.search.response_type) if record.search else "",
        format_date(record.created_at) if date_only else format_datetime(record.created_at),
        format_int(record.responses_count or 0),
    )


NARROW_BELOW = 100
"""Narrower terminals show the creation date without the time: a CNJ number fits whole."""


def _count_text(shown: int, total: int) -> str:
    if shown >= total:
        return ngettext("{n} request", "{n} requests", shown).format(n=format_int(shown))
    return _("{shown} of {total} requests").format(shown=format_int(shown), total=format_int(total))


def request_key(record: RequestRecord) -> str:
    return record.request_id


class RequestsScreen(TableScreen[RequestRecord]):
    """Every request this API key made, newest first."""

    TITLE_TEXT = N_("Requests")
    HELP_TEXT = N_(
        "Requests ask the courts for fresh data; their responses arrive over seconds or "
        "minutes. The list shows the local cache at once and is then refreshed from the "
        "service, newest first; followed requests update live. {open} opens a request's "
        "responses; a response whose id you have (from a webhook log, a colleague) opens with "
        "{by_id} or from the command palette."
    )
    HELP_KEYS: ClassVar[Mapping[str, str]] = {"open": "enter", "by_id": "requests.open_response"}
    CSS_PATH = "requests.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", _("New request"), id="requests.new"),
        Binding("r", "refresh", _("Refresh"), id="requests.refresh"),
        Binding("x", "cancel", _("Cancel/delete"), id="requests.cancel"),
        Binding("m", "more", _("More"), id="requests.more", show=False),
        Binding(
            "t", "transfer_files", _("Transfer files"), id="requests.transfer_files", show=False
        ),
        # Off the footer (full at 80 columns): in the help (F1) and the command palette.
        Binding("i", "open_response", _("Response by id"), id="requests.open_response", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        # The cache's requests, newest first, read a page at a time (the service's pages are
        # kept in the cache, then read back); with a read-only cache, the service's records
        # it could not keep follow them.
        self.records: LazyItems[RequestRecord] = LazyItems(0, self._fetch_records)
        self._unstored: dict[str, RequestRecord] = {}
        # The service's list, walked newest first a page at a time (D63, D88).
        self.history: RequestHistory | None = None
        self.all_count: int | None = None
        self.loaded_from_service = False

    def compose_body(self) -> ComposeResult:
        yield Static(_("Loading the requests…"), id="requests-title")
        narrow = self.app.size.width < NARROW_BELOW
        yield PagedTable(
            [
                ("status", _("Status"), 11),
                ("search", _("Search"), None),
                ("type", _("Type"), 9),
                ("created", _("Created"), 10 if narrow else 16),
                ("responses", _("Resp."), 5),
            ],
            partial(request_row, date_only=narrow),
            request_key,
            id="requests",
        )

    def on_services_ready(self, context: ServiceContext) -> None:
        self._load_cached()

    @work(exclusive=True, group="requests.cached", exit_on_error=False)
    async def _load_cached(self) -> None:
        await self._show_cache(await self.services())
        self.action_refresh()

    # --- loading -------------------------------------------------------------------------

    def action_refresh(self) -> None:
        self._load_page(fresh=True)

    def action_more(self) -> None:
        if self.history is not None and not self.history.exhausted:
            self._load_page(fresh=False)

    @property
    def more_to_read(self) -> bool:
        return self.history is not None and not self.history.exhausted

    @work(exclusive=True, group="requests.load", exit_on_error=False)
    async def _load_page(self, *, fresh: bool) -> None:
        context = await self.services()
        self.query_one("#requests-title", Static).update(_("Refreshing from the service…"))
        if fresh or self.history is None:
            if self.history is not None:
                await self.history.aclose()
            self.history = context.requests.history()
        history = self.history
        try:
            page = await history.next_page()
        finally:
            self._show()
        self.all_count = history.total
        if not context.cache.writable:
            self._unstored.update((r.request_id, r) for r in page)
        await self._show_cache(context)
        self.loaded_from_service = True

    async def _show_cache(self, context: ServiceContext) -> None:
        """Read how many requests the cache holds and the first page of them, and show them."""
        total = await asyncio.to_thread(lambda: context.requests.cached_list_page(0, 0)[1])
        records: LazyItems[RequestRecord] = LazyItems(
            total, self._fetch_records, block=self.table.page_size
        )
        await records.load(0, self.table.page_size)
        for record in sorted(
            self._unstored.values(),
            key=lambda r: (str(r.created_at or ""), r.request_id),
            reverse=True,
        ):
            records.append(record)
        self.records = records
        self._show()

    async def _fetch_records(self, offset: int, limit: int) -> list[RequestRecord]:
        context = await self.services()
        page, _total = await asyncio.to_thread(context.requests.cached_list_page, offset, limit)
        return page

    def _find(self, request_id: str) -> int | None:
        return self.records.find(lambda r: r.request_id == request_id)

    def _put(self, record: RequestRecord) -> bool:
        """Show a changed record in place; False when it is not among those read."""
        index = self._find(record.request_id)
        if index is None:
            return False
        self.records.replace(index, record)
        return True

    def _show(self) -> None:
        self.table.set_items(self.records)
        title = self.query_one("#requests-title", Static)
        if not self.records:
            key = self.host.binding_key("requests.new")
            title.update(_("No requests yet. Press {key} to create one.").format(key=key))
            return
        text = self._count_line()
        if self.more_to_read:
            key = self.host.binding_key("requests.more")
            text += " · " + _("{key} loads more").format(key=key)
        title.update(text)

    @on(PagedTable.PageChanged, "#requests")
    def _page_changed(self, event: PagedTable.PageChanged) -> None:
        if self.records:
            self._show_title_only()

    def _show_title_only(self) -> None:
        # The count and the page, without touching the table (called while paging).
        self.query_one("#requests-title", Static).update(self._count_line())

    def _count_line(self) -> str:
        """How many requests are listed (of how many) and where the table's page is."""
        total = max(self.all_count or 0, len(self.records))
        text = _count_text(len(self.records), total)
        position = self.table.position_text()
        return f"{text} · {position}" if position else text

    # --- live updates --------------------------------------------------------------------

    def on_request_follow_event(self, message: RequestFollowEvent) -> None:
        record = getattr(message.event, "record", None)
        if record is None:
            # A response arrived: count it on the record we show.
            index = self._find(message.request_id)
            if index is None:
                return
            shown = self.records[index]
            record = shown.model_copy(update={"responses_count": (shown.responses_count or 0) + 1})
        if record.request_id in self._unstored:
            self._unstored[record.request_id] = record
        if self._put(record):
            self.table.update_item(record)
        else:
            self._reload_cache()

    def on_language_changed(self, message: LanguageChanged) -> None:
        super().on_language_changed(message)
        if self.loaded_from_service or self.records:
            self._show()

    def on_cache_changed(self, message: CacheChanged) -> None:
        """A webhook delivery (or the writer process) stored something: read the cache."""
        self._reload_cache()

    @work(exclusive=True, group="requests.reload", exit_on_error=False)
    async def _reload_cache(self) -> None:
        await self._show_cache(await self.services())

    # --- acting on a request -------------------------------------------------------------

    @on(DataTable.RowSelected, "#requests")
    def _open(self, event: DataTable.RowSelected) -> None:
        event.stop()
        record = self.table.selected_item()
        if record is not None:
            self.host.open_request(record.request_id)

    def show_params(self, request_id: str | None = None, **_ignored: Any) -> None:
        """``app.goto("requests", request_id=...)`` opens that request's responses."""
        if request_id:
            self.host.open_request(request_id)

    def action_new(self) -> None:
        from lawsuit_tui.ui.requests.request_form import RequestFormScreen

        self.app.push_screen(RequestFormScreen())

    def request_changed(self, record: RequestRecord) -> None:
        # A deleted request stays on the list, shown as it now is, until the list is read
        # again (the cache keeps deleted records too).
        if record.request_id in self._unstored:
            self._unstored[record.request_id] = record
        if self._put(record):
            self.table.update_item(record)
        self._show()

    def action_cancel(self) -> None:
        record = self.table.selected_item()
        if record is not None:
            confirm_cancel(self, record)

    def action_transfer_files(self) -> None:
        self.host.open_transfer_files()

    def action_open_response(self) -> None:
        """Ask for a response's id (pasted from a webhook log, an e-mail...) and open it
        among the responses of its request (D90)."""
        from lawsuit_tui.ui.dialogs.text_prompt import TextPrompt

        prompt = TextPrompt(
            _("Open a response by its id"),
            _(
                "Paste the id of a response, as the service gave it. It is read from the "
                "service and opens among the responses of its request."
            ),
            placeholder="00000000-0000-0000-0000-000000000000",
            check=response_id_problem,
        )

        def given(response_id: str | None) -> None:
            if response_id:
                self._open_response(response_id)

        self.app.push_screen(prompt, given)

    @work(exclusive=True, group="requests.open_response", exit_on_error=False)
    async def _open_response(self, response_id: str) -> None:
        from lawsuit_tui.services.errors import NotFound

        context = await self.services()
        try:
            response = await context.requests.response(response_id)
        except NotFound as error:
            self.notify(
                _(
                    "The service has no response {id} ({code}): check the id; a response "
                    "opens only with the API key that made its request."
                ).format(id=response_id, code=error.code or error.status),
                severity="warning",
                timeout=10,
            )
            return
        if response.request_id:
            self.host.open_request(response.request_id, response_id=response_id)
            return
        from lawsuit_tui.ui.dialogs.text_view import TextViewScreen

        body = orjson.dumps(response.to_json_dict(), option=orjson.OPT_INDENT_2).decode()
        self.app.push_screen(TextViewScreen(_("Response {id}").format(id=response_id[:8]), body))

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Transfer files"),
            _("Files the provider prepared for your company"),
            self.action_transfer_files,
            binding_id="requests.transfer_files",
        )
        yield PaletteCommand(
            _("New request"),
            _("Ask the courts for fresh data"),
            self.action_new,
            binding_id="requests.new",
        )
        yield PaletteCommand(
            _("Refresh requests"),
            _("Read the list again"),
            self.action_refresh,
            binding_id="requests.refresh",
        )
        yield PaletteCommand(
            _("Open a response by its id"),
            _("Paste the id the service gave"),
            self.action_open_response,
            binding_id="requests.open_response",
        )
        if self.table.selected_item() is not None:
            yield PaletteCommand(
                _("Cancel or delete request"),
                _("With confirmation"),
                self.action_cancel,
                binding_id="requests.cancel",
            )


def response_id_problem(text: str) -> str | None:
    """Why ``text`` cannot be a response id (one word, as the service gives ids), or None."""
    if any(c.isspace() for c in text) or len(text) > 200:
        return _("A response id is one word, as the service gave it (a UUID).")
    return None


def confirm_cancel(screen: FramedScreen, record: RequestRecord) -> None:
    """Ask, then cancel a running request or delete a finished one (D62)."""
    finished = str(record.status) in ("completed", "cancelled")
    if finished:
        title = _("Delete request")
        question = _(
            "Delete the request for {search}? It leaves the list; its responses stay readable."
        ).format(search=search_text(record))
        yes = _("Delete")
    else:
        title = _("Cancel request")
        question = _(
            "Cancel the request for {search}? No more responses will arrive. A query the "
            "court has already started may not be cancellable: the service will say."
        ).format(search=search_text(record))
        yes = _("Cancel request")

    def answered(yes_: bool | None) -> None:
        if yes_:
            screen.run_worker(
                _cancel(screen, record),
                group="requests.cancel",
                exclusive=True,
                exit_on_error=False,
            )

    screen.app.push_screen(
        ConfirmScreen(title, question, yes=yes, no=_("Keep"), destructive=True), answered
    )


def cancel_outcome_text(outcome: CancelOutcome, search: str) -> str:
    """What a cancel-or-delete did, in words (D62)."""
    record = outcome.record
    status = word(REQUEST_STATUS_WORDS, record.status) if record is not None else ""
    texts = {
        "cancelling": _("Request for {search} cancelled: no more responses will arrive."),
        "cancelled": _("Request for {search} cancelled: no more responses will arrive."),
        "deleted": _(
            "Request for {search} deleted: it leaves the list; its responses stay readable."
        ),
        "refused": _(
            "The service did not cancel the request for {search}: a query the court has "
            "already started cannot be cancelled and runs to its end."
        ),
        "still_running": _(
            "The service took the cancellation, but the request for {search} is still "
            "{status}: a query the court has already started may run to its end."
        ),
    }
    text = texts.get(outcome.outcome, _("The request for {search} is {status}; nothing changed."))
    return text.format(search=search, status=status)


async def _cancel(screen: FramedScreen, shown: RequestRecord) -> None:
    context = await screen.services()
    outcome = await context.requests.cancel(shown.request_id)
    warn = outcome.outcome in ("refused", "still_running")
    screen.notify(
        cancel_outcome_text(outcome, search_text(outcome.record or shown)),
        severity="warning" if warn else "information",
        timeout=12 if warn else 6,
    )
    refresh = getattr(screen, "request_changed", None)
    if refresh is not None and outcome.record is not None:
        refresh(outcome.record)

"""The lawsuit: its essentials in a header, then the tree; pushed over any destination."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input, Static, Tree

from lawsuit_tui.domain.formatting import format_date, format_datetime, format_money
from lawsuit_tui.domain.identifiers import InvalidSearchKey, parse_cnj, parse_search_key
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.i18n import N_, _
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand
from lawsuit_tui.ui.keys import named_keys
from lawsuit_tui.ui.lawsuit.fresh_answer import FreshAnswer
from lawsuit_tui.ui.lawsuit.tree import (
    AttachmentItem,
    LawsuitTree,
    NodeData,
    PartyItem,
    RelatedItem,
    StepItem,
)
from lawsuit_tui.ui.widgets.download_bar import DownloadBar
from lawsuit_tui.ui.widgets.lawsuit_summaries import lawsuit_class, lawsuit_court

if TYPE_CHECKING:
    from textual.timer import Timer

    from lawsuit_tui.domain.lawsuit import Attachment, Lawsuit
    from lawsuit_tui.services.context import ServiceContext
    from lawsuit_tui.services.results import LawsuitView, ResponseArrived
    from lawsuit_tui.ui.messages import LanguageChanged, RequestFollowEvent


def _view_from(
    lawsuits: list[Lawsuit], instance: int | None, fetched_at: datetime
) -> LawsuitView | None:
    from lawsuit_tui.services.results import LawsuitView

    for lawsuit in lawsuits:
        if instance is None or lawsuit.instance == instance:
            return LawsuitView(lawsuit=lawsuit, provisional=True, stored_at=fetched_at)
    return None


def header_table(lawsuit: Lawsuit) -> Table:
    """The essentials, two label/value pairs a line."""
    subjects = ", ".join(s.name for s in lawsuit.subjects or [] if s.name)
    status = " / ".join(part for part in (lawsuit.status, lawsuit.phase) if part)
    county = " / ".join(part for part in (lawsuit.county, lawsuit.state) if part)
    # "Segredo de justiça: sim (nível 2)" / "não": how a lawyer asks it ("Sigilo público"
    # was a contradiction in terms).
    secrecy = (
        Text(_("yes (level {n})").format(n=lawsuit.secrecy_level), style="bold")
        if lawsuit.is_secret
        else Text(_("no"))
    )
    pairs: list[tuple[str, str | Text]] = [
        (_("Court"), lawsuit_court(lawsuit)),
        (_("Class"), lawsuit_class(lawsuit)),
        (_("Judge"), lawsuit.judge or ""),
        (district_label(lawsuit.code), county),
        (_("Amount in dispute"), format_money(lawsuit.amount)),
        (_("Status"), status),
        (_("Distributed"), format_date(lawsuit.distribution_date)),
        (_("Under secrecy"), secrecy),
        (_("Subjects"), subjects),
    ]
    table = Table.grid(padding=(0, 1), expand=True)
    table.add_column(style="dim", no_wrap=True)
    table.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    table.add_column(style="dim", no_wrap=True)
    table.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    shown = [(label, value) for label, value in pairs if value]
    for left, right in zip(shown[0::2], [*shown[1::2], ("", "")], strict=False):
        table.add_row(left[0], left[1], right[0], right[1])
    return table


def district_label(code: str) -> str:
    """What the court's territorial unit is called in its branch of justice: a federal
    court's "Seção judiciária", a labour court's locality, a state court's "Comarca"."""
    try:
        segment = parse_cnj(code).segment
    except InvalidSearchKey:
        segment = 8
    if segment == 4:
        return _("Judicial section")
    if segment == 5:
        return _("Locality")
    return _("Judicial district")


class LawsuitTreeScreen(FramedScreen):
    """One lawsuit (code, instance), from the cache first; fresh data on request."""

    TITLE_TEXT = N_("Lawsuit")
    HELP_TEXT = N_(
        "{toggle} expands a branch; {open} opens what the line names: a step's whole text, an "
        "attachment's text, a related lawsuit. Steps are newest first, those new since the "
        "previous version are marked NEW; {filter} filters them by text."
    )
    HELP_KEYS: ClassVar[Mapping[str, str]] = {
        "toggle": "lawsuit.toggle",
        "open": "enter",
        "filter": "lawsuit.filter",
    }
    CSS_PATH = "lawsuit.tcss"
    AUTO_FOCUS = "#tree"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", _("Back"), id="lawsuit.back"),
        Binding("slash", "filter", _("Filter steps"), id="lawsuit.filter"),
        Binding("r", "fresh", _("Fresh data"), id="lawsuit.fresh"),
        Binding("c", "copy", _("Copy CNJ"), id="lawsuit.copy", show=False),
        Binding("e", "export", _("Export JSON"), id="lawsuit.export", show=False),
        Binding("d", "download", _("Download"), id="lawsuit.download"),
        Binding("v", "view", _("View text"), id="lawsuit.view", show=False),
        Binding("s", "stored_copy", _("Stored copy"), id="lawsuit.stored_copy", show=False),
        Binding("i", "dossier", _("Dossier"), id="lawsuit.dossier"),
    ]

    def __init__(
        self,
        code: str,
        instance: int | None = None,
        *,
        lawsuit: Lawsuit | None = None,
        stored_copy_at: datetime | None = None,
        new_steps: Sequence[str] | None = None,
    ) -> None:
        super().__init__()
        self.code = code
        self.instance = instance
        self._given = lawsuit
        self.stored_copy_at = stored_copy_at
        """Set when ``lawsuit`` is the service's stored copy (D101), fetched then."""
        self.movement_steps: tuple[str, ...] = tuple(new_steps or ())
        """The steps an inbox movement brought: marked new, and the cursor put on the newest
        when the lawsuit first shows."""
        self._reveal = bool(self.movement_steps)
        """The lookup's validated lawsuit: shown without reading the cache's copy again."""
        self.view: LawsuitView | None = None
        self.followed_request: str | None = None
        self.checked_at: datetime | str | None = None
        """When the last fresh request ended (an instant, formatted when shown)."""
        self._filter_timer: Timer | None = None
        self.fresh: FreshAnswer | None = None
        """What the court's answer to the fresh request of this screen brought."""

    def screen_title(self) -> str:
        suffix = f" · {self.instance}º" if self.instance else ""
        if self.stored_copy_at is not None:
            suffix += " · " + _("stored copy")
        return _("Lawsuit {code}").format(code=self.code) + suffix

    def compose_body(self) -> ComposeResult:
        yield Static(_("Loading {code}…").format(code=self.code), id="lawsuit-header")
        yield Static("", id="lawsuit-banner")
        yield Input(placeholder=self._filter_placeholder(), id="filter")
        yield LawsuitTree(id="tree")
        yield DownloadBar(id="download")

    def _filter_placeholder(self) -> str:
        return _("Filter steps: type, then {done} · {clear} clears").format(
            **named_keys(self.app, {"done": "enter", "clear": "lawsuit.back"})
        )

    def on_language_changed(self, message: LanguageChanged) -> None:
        """The header, the banner and the tree again in the new language (D148), the
        reader's place in the tree kept."""
        super().on_language_changed(message)
        self.query_one("#filter", Input).placeholder = self._filter_placeholder()
        if self.view is not None:
            self.show_view(self.view)

    def on_mount(self) -> None:
        super().on_mount()
        tree = self.query_one(LawsuitTree)
        tree.loading = True
        tree.focus()

    def on_services_ready(self, context: ServiceContext) -> None:
        self._load()

    # --- loading -------------------------------------------------------------------------

    @work(exclusive=True, group="lawsuit.load", exit_on_error=False)
    async def _load(self) -> None:
        tree = self.query_one(LawsuitTree)
        context = await self.services()
        try:
            # A big lawsuit takes most of a second to validate: never on the event loop, and
            # not at all when the lookup already holds it.
            given, self._given = self._given, None
            view: LawsuitView | None
            if given is not None and self.stored_copy_at is not None:
                view = _view_from([given], None, self.stored_copy_at)
            elif given is not None:
                view = await asyncio.to_thread(context.lawsuits.view_of, given)
            else:
                view = await asyncio.to_thread(context.lawsuits.cached, self.code, self.instance)
            if view is None:
                # Not kept yet (a related lawsuit): the free cached lookup brings it.
                try:
                    key = parse_search_key(self.code, allow_wrong_check_digits=True)
                except InvalidSearchKey as error:
                    raise LookupError(str(error)) from None
                result = await context.lookup.lookup(key)
                view = await asyncio.to_thread(context.lawsuits.cached, self.code, self.instance)
                if view is None:
                    # A read-only cache keeps nothing: show what the lookup brought.
                    view = _view_from(result.lawsuits, self.instance, result.fetched_at)
        finally:
            tree.loading = False
        if view is None:
            self.query_one("#lawsuit-header", Static).update(
                _("The service holds no data for {code}. Press {key} to ask the court.").format(
                    code=self.code, key=self.host.binding_key("lawsuit.fresh")
                )
            )
            return
        self.show_view(view)

    def show_view(self, view: LawsuitView) -> None:
        self.view = view
        lawsuit = view.lawsuit
        if self.instance is None and lawsuit.instance:
            self.instance = lawsuit.instance
            self.set_screen_title(self.screen_title())
        self.query_one("#lawsuit-header", Static).update(header_table(lawsuit))
        self._show_banner()
        tree = self.query_one(LawsuitTree)
        new_steps = self.movement_steps or view.new_step_ids
        tree.show(lawsuit, new_steps, view.new_attachment_ids)
        if self._reveal:
            self._reveal = False
            self.run_worker(
                tree.reveal_steps(self.movement_steps),
                group="lawsuit.reveal",
                exclusive=True,
                exit_on_error=False,
            )

    def _show_banner(self) -> None:
        """Where this copy comes from: provisional, being asked, or what the court's answer
        changed (never a line that vanishes with nothing in its place)."""
        view = self.view
        banner = self.query_one("#lawsuit-banner", Static)
        text = ""
        if self.followed_request:
            text = _("Asking the court for fresh data…")
        elif self.fresh is not None:
            # Formatted here: a language switch may move the zone (D146).
            text = self.fresh.text(format_datetime(self.checked_at))
        elif self.stored_copy_at is not None and view is not None:
            # D101: the datalake's copy, opened on purpose.
            text = _("Stored copy at the service · updated {when} · {key} asks the court").format(
                when=format_datetime(view.lawsuit.updated_at or view.stored_at),
                key=self.host.binding_key("lawsuit.fresh"),
            )
        elif view is not None and view.provisional:
            text = _("Provisional copy of {when} · {key} asks the court for fresh data").format(
                when=format_datetime(view.lawsuit.updated_at or view.stored_at),
                key=self.host.binding_key("lawsuit.fresh"),
            )
        banner.display = bool(text)
        banner.update(text)
        provisional = view is not None and view.provisional and self.fresh is None
        banner.set_class(provisional and not self.followed_request, "-provisional")

    # --- fresh data ----------------------------------------------------------------------

    def action_fresh(self) -> None:
        self._fresh()

    @work(exclusive=True, group="lawsuit.fresh", exit_on_error=False)
    async def _fresh(self) -> None:
        context = await self.services()
        if not await self.host.paid_call_allowed(
            _("Ask the court for fresh data of {code}").format(code=self.code)
        ):
            return
        records = await context.lawsuits.refresh(self.code)
        if not records:
            return
        self.followed_request = records[0].request_id
        self.fresh = FreshAnswer()
        self._show_banner()
        self.host.follow_request(self.followed_request)

    def on_request_follow_event(self, message: RequestFollowEvent) -> None:
        if message.request_id != self.followed_request:
            return
        from lawsuit_tui.services.results import Completed, ResponseArrived

        event = message.event
        if isinstance(event, ResponseArrived):
            self._arrived(event)
        elif isinstance(event, Completed):
            self.followed_request = None
            self.checked_at = event.record.completed_at or event.record.updated_at
            self._reload(completed=True)

    def _arrived(self, event: ResponseArrived) -> None:
        """A response of the request asked from here: an error is kept for the end; a copy of
        this lawsuit is shown at once, from the cache, or as it came when the cache keeps
        nothing (read-only)."""
        from lawsuit_tui.services.results import LawsuitView

        response = event.response
        answer = self.fresh if self.fresh is not None else FreshAnswer()
        self.fresh = answer
        if response.application_error is not None:
            answer.errors.append(str(response.application_error.code or ""))
            return
        lawsuit = response.response_data
        if not isinstance(lawsuit, Lawsuit) or lawsuit.code != self.code:
            return
        if self.instance is not None and lawsuit.instance not in (None, self.instance):
            return
        change = event.change
        if change is None and self.view is not None:
            context = self.host.services
            if context is not None:
                change = context.lawsuits.changes_between(self.view.lawsuit, lawsuit)
        answer.add(event.provisional, change)
        if self.host.services is not None and not self.host.services.cache.writable:
            self.show_view(
                LawsuitView(
                    lawsuit=lawsuit,
                    provisional=event.provisional,
                    stored_at=datetime.now(UTC),
                    new_step_ids=set(change.new_step_ids) if change else set(),
                    new_attachment_ids=set(change.new_attachment_ids) if change else set(),
                )
            )
            return
        self._reload(completed=False)

    @work(exclusive=True, group="lawsuit.reload", exit_on_error=False)
    async def _reload(self, *, completed: bool) -> None:
        context = await self.services()
        view = await asyncio.to_thread(context.lawsuits.cached, self.code, self.instance)
        if view is not None:
            self.show_view(view)
        else:
            self._show_banner()  # a read-only cache keeps nothing: the screen shows what came
        if not completed or self.fresh is None:
            return
        if self.fresh.errors:
            from lawsuit_tui.ui.errors import explain_application_error

            explanation = explain_application_error(self.fresh.errors[-1])
            self.notify(
                f"{explanation.code}: {explanation.meaning}\n{explanation.action}",
                title=_("The court did not answer"),
                severity="warning",
                timeout=12,
            )
        else:
            self.notify(_("Fresh data of {code} arrived.").format(code=self.code))

    # --- the stored copy (D101) ------------------------------------------------------------

    def action_stored_copy(self) -> None:
        self._stored_copy()

    @work(exclusive=True, group="lawsuit.stored_copy", exit_on_error=False)
    async def _stored_copy(self) -> None:
        context = await self.services()
        kept = await context.datalake.lawsuit_copy(self.code, self.instance)
        if kept.value is None:
            self.notify(
                _("The service holds no stored copy of {code}.").format(code=self.code),
                severity="warning",
            )
            return
        copy = kept.value
        self.app.push_screen(
            LawsuitTreeScreen(
                self.code, copy.instance, lawsuit=copy, stored_copy_at=kept.fetched_at
            )
        )

    # --- acting on a node ----------------------------------------------------------------

    @on(Tree.NodeSelected, "#tree")
    def _selected(self, event: Tree.NodeSelected[NodeData]) -> None:
        event.stop()
        data = event.node.data
        if isinstance(data, RelatedItem):
            if data.related.code:
                self.host.open_lawsuit(data.related.code, data.related.instance)
        elif isinstance(data, StepItem):
            self._show_step(data)
        elif isinstance(data, AttachmentItem):
            self._view_attachment(data.attachment)
        else:
            event.node.toggle()

    def _show_step(self, item: StepItem) -> None:
        from lawsuit_tui.ui.dialogs.text_view import TextViewScreen

        step = item.step
        title = " · ".join(
            part for part in (format_date(step.step_date), step.step_type or "") if part
        )
        self.app.push_screen(TextViewScreen(title or _("Step"), step.content or _("(no text)")))

    def action_view(self) -> None:
        data = self.query_one(LawsuitTree).cursor_data()
        if isinstance(data, AttachmentItem):
            self._view_attachment(data.attachment)
        elif isinstance(data, StepItem):
            self._show_step(data)

    def _view_attachment(self, attachment: Attachment) -> None:
        self._attachment_text(attachment)

    @work(exclusive=True, group="lawsuit.attachment", exit_on_error=False)
    async def _attachment_text(self, attachment: Attachment) -> None:
        from lawsuit_tui.ui.dialogs.text_view import TextViewScreen

        if not attachment.attachment_id:
            return
        context = await self.services()
        self.notify(_("Opening the attachment…"), timeout=2)
        text = await context.lawsuits.attachment_text(
            self.code, self.instance, attachment.attachment_id
        )
        self.app.push_screen(
            TextViewScreen(attachment.attachment_name or attachment.attachment_id, text)
        )

    def action_download(self) -> None:
        data = self.query_one(LawsuitTree).cursor_data()
        if not isinstance(data, AttachmentItem) or not data.attachment.attachment_id:
            self.notify(_("Move to an attachment first (expand Attachments or a step)."))
            return
        attachment = data.attachment
        from lawsuit_tui.ui.dialogs.folder_prompt import ask_folder

        ask_folder(
            self.app,
            _("Download {name}").format(
                name=attachment.attachment_name or attachment.attachment_id
            ),
            partial(self._download, attachment),
        )

    @work(exclusive=True, group="lawsuit.download", exit_on_error=False)
    async def _download(self, attachment: Attachment, folder: Path) -> None:
        assert attachment.attachment_id is not None
        context = await self.services()
        bar = self.query_one(DownloadBar)
        bar.start(attachment.attachment_name or attachment.attachment_id)
        try:
            path = await context.lawsuits.download_attachment(
                self.code, self.instance, attachment.attachment_id, folder, progress=bar.progress
            )
        finally:
            bar.finish()
        self.notify(_("Saved {path}").format(path=path), timeout=8)

    # --- filter, copy, export ------------------------------------------------------------

    def action_filter(self) -> None:
        field = self.query_one("#filter", Input)
        field.display = True
        field.value = self.query_one(LawsuitTree).step_filter
        field.focus()

    FILTER_PAUSE: ClassVar[float] = 0.3
    """Seconds of no typing before the steps are filtered: each character echoes at once
    (issue 19: 8 characters took 1.14 s when each one filtered 10,000 steps)."""

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self._filter_timer = self.set_timer(self.FILTER_PAUSE, self._apply_filter)

    def _apply_filter(self) -> None:
        self._filter_timer = None
        tree = self.query_one(LawsuitTree)
        text = self.query_one("#filter", Input).value
        if text.strip() != tree.step_filter:
            tree.filter_steps(text)

    @on(Input.Submitted, "#filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        event.stop()
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self._apply_filter()  # Enter filters at once, without waiting for the pause
        field = self.query_one("#filter", Input)
        if not event.value.strip():
            field.display = False
        self.query_one(LawsuitTree).focus()

    def action_back(self) -> None:
        field = self.query_one("#filter", Input)
        if field.has_focus or field.display:
            field.value = ""
            field.display = False
            self.query_one(LawsuitTree).filter_steps("")
            self.query_one(LawsuitTree).focus()
            return
        self.dismiss()

    def action_copy(self) -> None:
        self.host.copy_text(self.code, _("the CNJ number"))

    def action_export(self) -> None:
        from lawsuit_tui.ui.dialogs.export_lawsuit import export_lawsuit

        export_lawsuit(self.app, self.code, self.instance)

    def _party_document(self) -> str | None:
        data = self.query_one(LawsuitTree).cursor_data()
        return data.document if isinstance(data, PartyItem) else None

    def action_dossier(self) -> None:
        """The dossier of the party under the cursor (its CPF or CNPJ)."""
        document = self._party_document()
        if document is not None:
            self.host.open_dossier(document)

    @on(Tree.NodeHighlighted)
    def _cursor_moved(self) -> None:
        self.refresh_bindings()  # the dossier key follows the party under the cursor

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        typing = isinstance(self.focused, Input)
        if action == "dossier":
            return not typing and self._party_document() is not None
        if action == "stored_copy" and self.stored_copy_at is not None:
            return False  # already the stored copy
        return not (
            typing
            and action in ("filter", "fresh", "copy", "export", "download", "view", "stored_copy")
        )

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Filter steps"),
            _("Show only steps with a text"),
            self.action_filter,
            binding_id="lawsuit.filter",
        )
        yield PaletteCommand(
            _("Fresh data"), _("Ask the court again"), self.action_fresh, binding_id="lawsuit.fresh"
        )
        yield PaletteCommand(_("Copy CNJ"), self.code, self.action_copy, binding_id="lawsuit.copy")
        yield PaletteCommand(
            _("Export JSON"),
            _("Save the lawsuit as JSON"),
            self.action_export,
            binding_id="lawsuit.export",
        )
        if self.stored_copy_at is None:
            yield PaletteCommand(
                _("Stored copy"),
                _("The service's own copy of this lawsuit (datalake), without asking the court"),
                self.action_stored_copy,
                binding_id="lawsuit.stored_copy",
            )
        if self._party_document() is not None:
            yield PaletteCommand(
                _("Dossier"),
                _("The due diligence of the party under the cursor"),
                self.action_dossier,
                binding_id="lawsuit.dossier",
            )
        yield PaletteCommand(
            _("Download attachment"),
            _("Save the attachment under the cursor"),
            self.action_download,
            binding_id="lawsuit.download",
        )

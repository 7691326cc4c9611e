"""Lookup: one field for any CNJ number, CPF, CNPJ or OAB; the lawsuits the service holds."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Input, OptionList, Static
from textual.widgets.option_list import Option

from lawsuit_tui.domain.formatting import format_date, format_int
from lawsuit_tui.domain.identifiers import (
    InvalidSearchKey,
    SearchKey,
    detect_partial,
    parse_search_key,
)
from lawsuit_tui.i18n import N_, _, ngettext
from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.errors import Explanation, credential_problem, explain_application_error
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand
from lawsuit_tui.ui.keys import named_keys
from lawsuit_tui.ui.widgets.lawsuit_summaries import lawsuit_class, lawsuit_court, lawsuit_parties
from lawsuit_tui.ui.widgets.paged_table import PagedTable

if TYPE_CHECKING:
    from lawsuit_tui.domain.lawsuit import Lawsuit
    from lawsuit_tui.services.context import ServiceContext
    from lawsuit_tui.services.results import LookupResult
    from lawsuit_tui.services.search import SearchHit
    from lawsuit_tui.ui.messages import LanguageChanged


class IdentifierInput(Input):
    """A field for CNJ numbers, CPF, CNPJ and OAB, none of which ever holds a "?": there "?"
    is not typed but opens the help, as it does everywhere else (F1 too). Fields where "?" is
    text (names, filters, notes) stay plain Inputs."""

    HELP_KEY: ClassVar[str] = "question_mark"

    def check_consume_key(self, key: str, character: str | None) -> bool:
        # The Footer shows the bindings of the keys a focused field leaves alone.
        return key != self.HELP_KEY and super().check_consume_key(key, character)

    async def _on_key(self, event: events.Key) -> None:
        if event.key == self.HELP_KEY:
            # Skips Input's handler (which would type it); the key still bubbles up to the
            # app's bindings: app.help, unless the user's keymap moved the help elsewhere.
            event.prevent_default()


SEARCH_LIMIT = 50
"""Lawsuits a search of the cache shows (the best ones: they come ranked)."""
_HIT_MARKS = ("\x02", "\x03")  # services/search.py's HIT_START, HIT_END (no import of it here)


def looks_like_words(text: str) -> bool:
    """D197: text that is no identifier and never will be as more is typed: a name, a class,
    a court. Words have a letter and either a space or no digit (an alphanumeric CNPJ being
    typed has digits; an OAB, a state's two letters and digits)."""
    raw = text.strip()
    letters = sum(ch.isalpha() for ch in raw)
    if letters < 2:
        return False
    if " " not in raw and any(ch.isdigit() for ch in raw):
        return False
    compact = raw.replace(" ", "").upper()
    if " " not in raw and len(compact) == 2 and compact.isalpha():
        return False  # a state, the start of an OAB
    return " " in raw or letters >= 3


def _hit_row(hit: SearchHit) -> Sequence[str | Text]:
    start, end = _HIT_MARKS
    snippet = Text()
    for number, part in enumerate(hit.snippet.replace(end, start).split(start)):
        snippet.append(part, "bold reverse" if number % 2 else "")
    # The index's court is "TJSP · Comarca de ...": the acronym in the column, the rest below.
    return (Text(hit.code, style="bold"), hit.court.split(" · ")[0], snippet)


def _hit_key(hit: SearchHit) -> str:
    return f"{hit.code}|{hit.instance or ''}"


@dataclass(frozen=True, slots=True)
class Suggestion:
    text: str
    note: str


def _row(lawsuit: Lawsuit) -> Sequence[str | Text]:
    last = lawsuit.last_step.step_date if lawsuit.last_step else None
    code = Text(lawsuit.code, style="bold")
    if lawsuit.is_secret:
        code.append(" " + _("secret"), "italic")
    return (
        code,
        lawsuit_court(lawsuit),
        lawsuit_class(lawsuit),
        lawsuit_parties(lawsuit),
        format_date(last),
    )


def _key(lawsuit: Lawsuit) -> str:
    return f"{lawsuit.code}|{lawsuit.instance or ''}"


class LookupScreen(FramedScreen):
    """The home screen."""

    TITLE_TEXT = N_("Lookup")
    HELP_TEXT = N_(
        "Type or paste a CNJ number, CPF, CNPJ (alphanumeric too) or OAB (123456/SP) and press "
        "{submit}: the service's stored data answers at once, without cost. From the results, "
        "open a lawsuit, ask the court for fresh data, copy the CNJ number or export the "
        "lawsuit; a CPF's or CNPJ's results open its dossier with {dossier}. Words that are no "
        "identifier (a name, a class, a court) search everything cached, offline."
    )
    HELP_KEYS: ClassVar[Mapping[str, str]] = {
        "submit": "lookup.submit",
        "dossier": "lookup.dossier",
    }
    CSS_PATH = "lookup.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", _("Search"), id="lookup.submit", show=False),
        Binding("escape", "focus_search", _("Search field"), id="lookup.focus_search", show=False),
        Binding("down", "focus_list", _("To the list"), id="lookup.to_list", show=False),
        Binding("r", "fresh", _("Fresh data"), id="lookup.fresh"),
        Binding("c", "copy", _("Copy CNJ"), id="lookup.copy"),
        Binding("e", "export", _("Export"), id="lookup.export"),
        Binding("k", "vault", _("Vault"), id="lookup.vault"),
        Binding("i", "dossier", _("Dossier"), id="lookup.dossier"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._result: LookupResult | None = None
        self._samples: list[Suggestion] = []
        self._samples_answered = False
        """The service answered the samples (the kept ones read before are then replaced)."""
        self._locked: SearchKey | None = None
        """A lawsuit the service would not show for want of a court credential."""
        self._locked_error: BaseException | None = None
        self._locked_code: str | None = None
        self._asked_for: str | None = None
        """What the field held when the running lookup was asked (None: none running)."""
        self._hits: list[SearchHit] | None = None
        """The cache's lawsuits matching the words typed (None: no words searched)."""
        self._words = ""
        self._typing_into_search = False
        """Keys typed elsewhere are going into the field until it has the focus (focusing is
        not at once: the rest of a burst still arrives here)."""

    def compose_body(self) -> ComposeResult:
        with Vertical(id="lookup-form"):
            yield IdentifierInput(
                placeholder=self._placeholder(),
                id="search",
                select_on_focus=False,
            )
            yield Static(detect_partial("").message, id="search-hint")
        yield Static("", id="results-title")
        table: PagedTable[Lawsuit] = PagedTable(
            [
                ("code", _("CNJ number"), 25),
                ("court", _("Court"), 8),
                # The class is short and says what the lawsuit is: it gets its room first.
                ("class", _("Class"), -3),
                ("parties", _("Parties"), -2),
                ("last", _("Last step"), 10),
            ],
            _row,
            _key,
            id="results",
        )
        table.display = False
        yield table
        hits: PagedTable[SearchHit] = PagedTable(
            [
                ("code", _("CNJ number"), 25),
                ("court", _("Court"), 8),
                ("match", _("What matched"), -1),
            ],
            _hit_row,
            _hit_key,
            id="hits",
        )
        hits.display = False
        yield hits
        yield Static("", id="result-detail", markup=False)
        yield OptionList(id="suggestions")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#search", Input).focus()
        self._show_suggestions()
        if self.host.services is None:
            # After the first frame, which never waits for a file (nor its imports).
            self.call_after_refresh(self._load_kept_samples)

    def on_services_ready(self, context: ServiceContext) -> None:
        self._load_suggestions()

    # --- suggestions ---------------------------------------------------------------------

    def _load_kept_samples(self) -> None:
        """The samples the sandbox keeps on disk, shown while the services open (D185: they
        would otherwise wait for the sandbox to start). One small read of a file, done here
        rather than in a thread: a thread would wait for the services' imports to let it run,
        and the samples are wanted now."""
        if self._samples_answered:  # the service answered first: its word stands
            return
        found = self.host.kept_sandbox_samples()
        if found:
            self._samples = list(_sample_suggestions(found))
            self._show_suggestions()

    @work(exclusive=True, group="lookup.suggestions", exit_on_error=False)
    async def _load_suggestions(self) -> None:
        context = await self.services()
        samples: list[Suggestion] = []
        if context.mode == "sandbox":
            found = await context.samples()
            samples = list(_sample_suggestions(found or {}))
        self._samples = samples
        self._samples_answered = True
        self._show_suggestions()

    def _show_suggestions(self) -> None:
        options = self.query_one("#suggestions", OptionList)
        context = self.host.services
        recent = context.lookup.recent()[:8] if context is not None else []
        options.clear_options()
        items: list[Option | None] = []
        if recent:
            items.append(Option(Text(_("Recent searches"), style="bold"), disabled=True))
            items.extend(Option(f"  {text}", id=f"recent:{text}") for text in recent)
        if self._samples:
            items.append(Option(Text(_("Sandbox samples"), style="bold"), disabled=True))
            items.extend(
                Option(
                    Text.assemble(f"  {item.text}  ", (item.note, "dim")),
                    id=f"sample:{item.text}",
                )
                for item in self._samples
            )
        if items:
            options.add_options(items)
        options.display = bool(items) and self._result is None

    @on(OptionList.OptionSelected, "#suggestions")
    def _suggestion_chosen(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        _kind, _sep, text = option_id.partition(":")
        search = self.query_one("#search", Input)
        search.value = text
        search.cursor_position = len(text)
        self.action_submit()

    # --- typing and submitting -----------------------------------------------------------

    @on(Input.Changed, "#search")
    def _typed(self, event: Input.Changed) -> None:
        if self._asked_for is not None and event.value != self._asked_for:
            # A new search is being typed: the answer to the old one must not land on it (it
            # took the focus to its table, and the rest of the typing with it: issue 19's
            # "typed search lost").
            self._asked_for = None
            self.workers.cancel_group(self, "lookup.search")
            self.query_one("#results", PagedTable).loading = False
            if self._result is None:
                self.query_one("#results-title", Static).update("")
        if not event.value.strip() and (
            self._result is not None or self._locked is not None or self._hits is not None
        ):
            # A cleared field starts over: recent searches and samples come back.
            self._hide_hits()
            self._result = None
            self._locked = None
            self._locked_error = None
            self._locked_code = None
            self.query_one("#results", PagedTable).display = False
            self.query_one("#results-title", Static).update("")
            self._show_detail()
            self._show_suggestions()
        self._hint(event.value)

    @on(Input.Submitted, "#search")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        text = self.query_one("#search", Input).value
        try:
            key = parse_search_key(text)
        except InvalidSearchKey as error:
            if error.candidate is not None:
                self._confirm_wrong_digits(error, error.candidate)
            elif looks_like_words(text):
                self._search_cache(text.strip())
            else:
                self.query_one("#search-hint", Static).update(str(error))
                self.query_one("#search-hint", Static).add_class("-error")
            return
        self.run_lookup(key)

    def _confirm_wrong_digits(self, error: InvalidSearchKey, candidate: SearchKey) -> None:
        question = _(
            "{problem}\n\nThe service's own examples have numbers like this. "
            "Search for {key} as typed?"
        ).format(problem=str(error), key=candidate.display)
        context = self.host.services
        if context is not None and context.mode == "sandbox":
            # D52: the sandbox checks the digits; the real service's examples suggest it may not.
            question += "\n\n" + _("The sandbox checks the digits: it will refuse this number.")

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_lookup(candidate)

        self.app.push_screen(
            ConfirmScreen(_("Wrong check digits"), question, yes=_("Search anyway")), answered
        )

    def run_lookup(self, key: SearchKey) -> None:
        self._asked_for = self.query_one("#search", Input).value
        self._hide_hits()
        self._lookup(key)

    # --- words: the full-text search of the cache (D197) ------------------------------------

    @work(exclusive=True, group="lookup.search", exit_on_error=False)
    async def _search_cache(self, text: str) -> None:
        context = await self.services()
        self._asked_for = self.query_one("#search", Input).value
        self._words = text
        try:
            found = await context.search.search(text, limit=SEARCH_LIMIT)
        finally:
            self._asked_for = None
        self._result = None
        self._hits = found
        self.query_one("#results", PagedTable).display = False
        self.query_one("#suggestions", OptionList).display = False
        hits: PagedTable[SearchHit] = self.query_one("#hits", PagedTable)
        hits.set_items(found, keep_position=False)
        hits.display = bool(found)
        self._show_hits_title()
        if found and self.focused is self.query_one("#search", Input):
            hits.focus()
        self._show_detail()
        self.refresh_bindings()

    def _show_hits_title(self) -> None:
        found = self._hits
        if found is None:
            return
        title = self.query_one("#results-title", Static)
        if found:
            title.update(
                ngettext(
                    "{n} cached lawsuit matches “{words}” (offline, best first)",
                    "{n} cached lawsuits match “{words}” (offline, best first)",
                    len(found),
                ).format(n=format_int(len(found)), words=self._words)
            )
        else:
            title.update(
                _(
                    "Nothing in the cache matches “{words}”. The search reads only what was "
                    "looked up or asked before; type a CPF, CNPJ, CNJ number or OAB to ask "
                    "the service."
                ).format(words=self._words)
            )

    def _hide_hits(self) -> None:
        self._hits = None
        self.query_one("#hits", PagedTable).display = False

    @on(DataTable.RowSelected, "#hits")
    def _open_hit(self, event: DataTable.RowSelected) -> None:
        event.stop()
        hit = self._selected_hit()
        if hit is not None:
            self.host.open_lawsuit(hit.code, hit.instance)

    @on(DataTable.RowHighlighted, "#hits")
    def _hit_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    def _selected_hit(self) -> SearchHit | None:
        hits: PagedTable[SearchHit] = self.query_one("#hits", PagedTable)
        return hits.selected_item() if hits.display else None

    @work(exclusive=True, group="lookup.search", exit_on_error=False)
    async def _lookup(self, key: SearchKey) -> None:
        title = self.query_one("#results-title", Static)
        title.update(_("Looking up {key}…").format(key=key.display))
        context = await self.services()
        # Reading the cache validates every lawsuit: off the event loop, so keys stay live.
        cached = await asyncio.to_thread(context.lookup.cached, key)
        if cached is not None:
            self._show_result(cached)
        table = self.query_one("#results", PagedTable)
        table.loading = cached is None
        self._locked = None
        try:
            result = await context.lookup.lookup(key)
        except Exception as error:
            if credential_problem(error) is not None:
                self._show_locked(key, error=error)
                return
            if cached is None:
                title.update(_("The lookup of {key} failed.").format(key=key.display))
            raise
        finally:
            table.loading = False
            self._asked_for = None
        if result.barred_by_secrecy:  # D102: the datalake answers a secret lawsuit stripped
            self._show_locked(key, code="SECRECY_RESTRICTED")
            return
        self._show_result(result)
        self._show_suggestions()

    def _show_locked(
        self, key: SearchKey, *, error: BaseException | None = None, code: str | None = None
    ) -> None:
        """A lawsuit no credential opens yet: what it means, and the key to the vault (the
        error or the application code kept, so a language switch says it again)."""
        self._locked = key
        self._locked_error = error
        self._locked_code = code
        self.query_one("#results-title", Static).update(self._locked_text())
        self.query_one("#suggestions", OptionList).display = False
        self.query_one("#results", PagedTable).display = False
        self._show_detail()
        self.set_focus(None)  # so that the key reaches the screen, not the field
        self.refresh_bindings()

    def _locked_explanation(self) -> Explanation | None:
        if self._locked_error is not None:
            return credential_problem(self._locked_error)
        return explain_application_error(self._locked_code) if self._locked_code else None

    def _locked_text(self) -> str:
        key, explanation = self._locked, self._locked_explanation()
        if key is None or explanation is None:
            return ""
        return f"{key.display}: {explanation.meaning}\n{explanation.action}\n\n" + _(
            "Press {key} to open the vault for this court, {search} to search again."
        ).format(
            key=self.host.binding_key("lookup.vault"),
            search=self.host.binding_key("lookup.focus_search"),
        )

    def on_language_changed(self, message: LanguageChanged) -> None:
        """Every text of the screen again, from what it shows (D148): nothing is searched
        again, the field keeps what was typed, the list its place."""
        super().on_language_changed(message)
        search = self.query_one("#search", Input)
        search.placeholder = self._placeholder()
        self._hint(search.value)
        if self._locked is not None:
            self.query_one("#results-title", Static).update(self._locked_text())
        elif self._result is not None:
            self._show_title(self._result)
        elif self._hits is not None:
            self._show_hits_title()
        self._show_suggestions()

    def _placeholder(self) -> str:
        return _("CNJ number, CPF, CNPJ or OAB — then {key}").format(
            key=self.host.binding_key("lookup.submit")
        )

    def _hint(self, text: str) -> None:
        hint = self.query_one("#search-hint", Static)
        if looks_like_words(text):
            hint.update(
                _("Words: {key} searches everything cached for them (offline)").format(
                    key=self.host.binding_key("lookup.submit")
                )
            )
            hint.set_class(False, "-error")
            hint.set_class(True, "-ok")
            return
        info = detect_partial(text)
        hint.update(info.message)
        hint.set_class(info.error is not None, "-error")
        hint.set_class(info.key is not None, "-ok")

    def _show_result(self, result: LookupResult) -> None:
        self._hide_hits()
        self._result = result
        table: PagedTable[Lawsuit] = self.query_one("#results", PagedTable)
        count = len(result.lawsuits)
        self._show_title(result)
        table.set_items(result.lawsuits)
        table.display = count > 0
        self._show_detail()
        self.query_one("#suggestions", OptionList).display = False
        if self.focused is self.query_one("#search", Input):
            if count:
                table.focus()
            else:
                self.set_focus(None)
        self.refresh_bindings()

    def _show_title(self, result: LookupResult) -> None:
        title = self.query_one("#results-title", Static)
        count = len(result.lawsuits)
        if count == 0:
            # The field would type the key the message names: the focus leaves it (D145).
            title.update(
                _(
                    "No lawsuit held for {key}. Press {fresh} to ask the court (a new "
                    "request), {search} to search again."
                ).format(
                    key=result.key.display,
                    **named_keys(
                        self.app, {"fresh": "lookup.fresh", "search": "lookup.focus_search"}
                    ),
                )
            )
        else:
            source = _("from the local cache") if result.from_cache else _("from the service")
            title.update(
                ngettext(
                    "{count} lawsuit for {key} — {source}",
                    "{count} lawsuits for {key} — {source}",
                    count,
                ).format(count=format_int(count), key=result.key.display, source=source)
            )

    # --- results -------------------------------------------------------------------------

    @on(DataTable.RowHighlighted, "#results")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        """The whole selected row, whatever the columns had room for at this width."""
        detail = self.query_one("#result-detail", Static)
        hit = self._selected_hit()
        if hit is not None:
            detail.display = True
            detail.update(" · ".join(p for p in (hit.court, hit.title) if p))
            return
        lawsuit = self._selected()
        detail.display = lawsuit is not None
        if lawsuit is not None:
            parts = (lawsuit_court(lawsuit), lawsuit_class(lawsuit), lawsuit_parties(lawsuit))
            detail.update(" · ".join(part for part in parts if part))

    @on(DataTable.RowSelected, "#results")
    def _open(self, event: DataTable.RowSelected) -> None:
        event.stop()
        lawsuit = self._selected()
        if lawsuit is not None:
            self.host.open_lawsuit(lawsuit.code, lawsuit.instance, lawsuit=lawsuit)

    def _selected(self) -> Lawsuit | None:
        table: PagedTable[Lawsuit] = self.query_one("#results", PagedTable)
        return table.selected_item() if table.display else None

    def action_focus_list(self) -> None:
        table = self.query_one("#results", PagedTable)
        suggestions = self.query_one("#suggestions", OptionList)
        hits = self.query_one("#hits", PagedTable)
        if hits.display:
            hits.focus()
        elif table.display:
            table.focus()
        elif suggestions.display and suggestions.option_count:
            suggestions.focus()
            if suggestions.highlighted is None:
                suggestions.action_first()

    def action_focus_search(self) -> None:
        self.query_one("#search", Input).focus()
        self.refresh_bindings()

    @on(events.DescendantFocus)
    def _search_took_the_focus(self, event: events.DescendantFocus) -> None:
        if event.widget.id == "search":
            self._typing_into_search = False  # what follows is the field's own typing

    def on_key(self, event: events.Key) -> None:
        """A digit typed on the results or the suggestions starts a new search in the field
        (every search key starts with one), and Ctrl+U clears the field there too: typing
        must never go where nothing takes it (issue 19, the typed search lost)."""
        search = self.query_one("#search", Input)
        if self.focused is search:
            return
        character = event.character or ""
        if self._typing_into_search and event.key == "enter":
            # The burst's Enter searches what it typed (on the results it would open the
            # old search's lawsuit).
            search.post_message(Input.Submitted(search, search.value))
        elif self._typing_into_search and event.is_printable:
            search.insert_text_at_cursor(character)
        elif event.key == "ctrl+u" or character.isdigit():
            search.value = character if event.key != "ctrl+u" else ""
            search.cursor_position = len(search.value)
            self._typing_into_search = True
        else:
            return
        event.stop()
        event.prevent_default()
        search.focus()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "dossier":
            return self._dossier_key() is not None and not isinstance(self.focused, Input)
        if action == "vault":
            return self._locked is not None and not isinstance(self.focused, Input)
        if action in ("fresh", "copy", "export"):
            if action == "fresh" and self._result is not None and not self._result.lawsuits:
                return True
            return self._selected() is not None and not isinstance(self.focused, Input)
        return True

    def _dossier_key(self) -> SearchKey | None:
        """The CPF or CNPJ whose lawsuits are shown (a dossier is of one of those)."""
        result = self._result
        if result is None or result.key.search_type not in ("cpf", "cnpj"):
            return None
        return result.key

    def action_dossier(self) -> None:
        key = self._dossier_key()
        if key is not None:
            self.host.open_dossier(key.key)

    def action_vault(self) -> None:
        if self._locked is not None:
            self.host.open_vault_for(
                self._locked.key, None, self.host.settings.default_customer_key
            )

    def action_copy(self) -> None:
        lawsuit = self._selected()
        if lawsuit is not None:
            self.host.copy_text(lawsuit.code, _("the CNJ number"))

    def action_fresh(self) -> None:
        lawsuit = self._selected()
        if lawsuit is not None:
            self._fresh(lawsuit.code)
        elif self._result is not None:
            self.host.open_request_form(self._result.key)

    @work(exclusive=True, group="lookup.fresh", exit_on_error=False)
    async def _fresh(self, code: str) -> None:
        context = await self.services()
        if not await self.host.paid_call_allowed(
            _("Ask the court for fresh data of {code}").format(code=code)
        ):
            return
        records = await context.lawsuits.refresh(code)
        if records:
            self.notify(
                _("Request created: the court is being asked for {code}.").format(code=code)
            )
            self.host.open_request(records[0].request_id)

    def action_export(self) -> None:
        lawsuit = self._selected()
        if lawsuit is None:
            return
        from lawsuit_tui.ui.dialogs.export_lawsuit import export_lawsuit

        export_lawsuit(self.app, lawsuit.code, lawsuit.instance)

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Search field"),
            _("Type a new search"),
            self.action_focus_search,
            binding_id="lookup.focus_search",
        )
        if self._dossier_key() is not None:
            yield PaletteCommand(
                _("Dossier"),
                _("The due diligence of this CPF or CNPJ"),
                self.action_dossier,
                binding_id="lookup.dossier",
            )
        if self._selected() is not None:
            yield PaletteCommand(
                _("Fresh data"),
                _("Ask the court for this lawsuit again"),
                self.action_fresh,
                binding_id="lookup.fresh",
            )
            yield PaletteCommand(
                _("Copy CNJ"), _("Copy the CNJ number"), self.action_copy, binding_id="lookup.copy"
            )
            yield PaletteCommand(
                _("Export"),
                _("Save the lawsuit as JSON"),
                self.action_export,
                binding_id="lookup.export",
            )


_SAMPLE_NOTES: tuple[tuple[str, str], ...] = (
    ("lawsuit_cnj", N_("a lawsuit")),
    ("two_instance_lawsuit", N_("a lawsuit in two instances")),
    ("big_lawsuit", N_("a lawsuit with thousands of steps")),
    ("secret_lawsuit", N_("a lawsuit under secrecy")),
    ("court_down_lawsuit", N_("a court that is down")),
    ("cpf", N_("a person")),
    ("cnpj", N_("a company")),
    ("alphanumeric_cnpj", N_("an alphanumeric CNPJ")),
    ("oab", N_("a lawyer")),
    ("busy_person", N_("a person with many lawsuits")),
)


def _sample_suggestions(samples: dict[str, object]) -> Iterable[Suggestion]:
    """A few of the sandbox's sample keys, each with what it shows."""
    seen: set[str] = set()
    for name, note in _SAMPLE_NOTES:
        value = samples.get(name)
        if isinstance(value, list):
            value = value[0] if value else None
        if isinstance(value, dict):
            value = value.get("code")
        if not isinstance(value, str) or not value:
            continue
        try:
            text = parse_search_key(value, allow_wrong_check_digits=True).display
        except InvalidSearchKey:
            text = value
        if text not in seen:
            seen.add(text)
            yield Suggestion(text, _(note))

"""The credential vault as a status grid, per customer_key.

One row per court system with its credential status (not exists, active, inactive) in
colour, read exactly as the service lists it (D33): under the default key ``*`` every system
is listed and the ``*`` row is the wildcard credential; under a named key the ``*`` row is
that key's wildcard and only the systems with their own credential under the key follow.

Register or update a credential for the selected system (n or Enter), delete one (d, after a
confirmation); the answer shows one line per system touched. ``show_params(system_name,
customer_key)`` (``app.open_vault``) selects a system under a key, e.g. from a response that
came back SECRECY_RESTRICTED or INVALID_CREDENTIAL.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, Input, Label, Static

from lawsuit_tui.domain.formatting import format_date
from lawsuit_tui.domain.vault import WILDCARD_SYSTEM, SystemStatusRow
from lawsuit_tui.domain.vocabulary import (
    CREDENTIAL_MESSAGE_WORDS,
    CREDENTIAL_STATUS_WORDS,
    word,
)
from lawsuit_tui.i18n import N_, _, ngettext, pgettext
from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.errors import is_not_available
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand
from lawsuit_tui.ui.widgets.theme_text import status_text, theme_style

if TYPE_CHECKING:
    from lawsuit_tui.services.context import ServiceContext

__all__ = ["STATUS_VARIABLES", "VaultScreen", "listing_rule", "result_lines"]

# Theme variables giving each credential status its colour.
STATUS_VARIABLES: dict[str, str] = {
    "active": "text-success",
    "inactive": "text-error",
    "not exists": "foreground-muted",
}


def listing_rule(customer_key: str) -> str:
    """How the service lists the grid for this key (D33), in plain words."""
    if customer_key == WILDCARD_SYSTEM:
        return _(
            "Default key *: every system is listed; the * row is the wildcard, used by "
            "systems without their own credential."
        )
    return _(
        "Key {key}: the * row is its wildcard, then only the systems with their own "
        "credential under {key}."
    ).format(key=customer_key)


def result_lines(results: Iterable[Any]) -> list[str]:
    """One line per system the vault touched, its answer in words (issue 19):
    ``system (key): registered``; a certificate adds its holder and expiry."""
    lines = []
    for result in results:
        name = getattr(result, "system_name", None) or ""
        key = getattr(result, "customer_key", None) or ""
        message = word(CREDENTIAL_MESSAGE_WORDS, getattr(result, "message", None) or "")
        line = f"{name} ({key}): {message}"
        holder = getattr(result, "subject_cn", None)
        if holder:
            expiry = format_date(getattr(result, "not_after", None))
            line += " · " + _("{holder}, valid until {date}").format(holder=holder, date=expiry)
        lines.append(line)
    return lines


class VaultScreen(FramedScreen):
    """Credential status by court system, for one customer_key at a time."""

    TITLE_TEXT = N_("Vault")
    HELP_TEXT = N_(
        "Court credentials unlock secret lawsuits. Type a customer key to see the grid as the "
        "service lists it for that key; * is the default key. Pick a system and press "
        "{register} (or {register_selected}) to register or update its login: the password is "
        "sent once and never stored or shown. A credential is a username and password (with "
        "the court's two-factor secret if it asks for a code) or an A1 certificate, given as "
        "the path of its .pfx file. Registering one system also registers its sibling systems "
        "of the same court. {delete} deletes the selected credential after a confirmation."
    )
    HELP_KEYS: ClassVar[Mapping[str, str]] = {
        "register": "vault.register",
        "register_selected": "vault.register_selected",
        "delete": "vault.delete",
    }
    CSS_PATH = "vault.tcss"

    # The Footer must fit 80 columns in both languages, next to F1 and the palette's ^p:
    # one-word descriptions, and the refresh (also in the palette) only in the help screen.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "register", _("Register"), id="vault.register"),
        Binding("enter", "register", _("Register"), id="vault.register_selected", show=False),
        Binding("d,delete", "delete", _("Delete"), id="vault.delete"),
        Binding("k", "focus_key", _("Customer key"), id="vault.key"),
        Binding("slash", "find", _("Find"), id="vault.find", tooltip=_("Find system")),
        Binding("ctrl+r", "refresh", _("Refresh"), id="vault.refresh", show=False),
        Binding("escape", "focus_grid", _("Grid"), id="vault.focus_grid", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.customer_key = WILDCARD_SYSTEM
        self.rows: list[SystemStatusRow] = []
        self.loaded_from_service = False
        self.last_results: list[str] = []
        # every system name the service knows (from the default-key listing)
        self.system_names: list[str] = []
        self._pending_system: str | None = None
        self._grid_names: list[str] = []
        self._grid_cells: dict[str, tuple[str, str]] = {}

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="vault-keybar"):
            yield Label(_("Customer key"), id="vault-key-label")
            yield Input(WILDCARD_SYSTEM, id="vault-key", placeholder="*", compact=True)
            yield Input(placeholder=_("Find a system (/)"), id="vault-find", compact=True)
        yield Static(listing_rule(WILDCARD_SYSTEM), id="vault-rule", markup=False)
        grid: DataTable[str | Text] = DataTable(id="vault-grid", cursor_type="row")
        yield grid
        yield Static("", id="vault-empty", classes="empty-state")
        yield Static("", id="vault-result", markup=False)

    def on_mount(self) -> None:
        super().on_mount()
        grid = self.query_one("#vault-grid", DataTable)
        # fixed widths: the status column must stay on screen at 80 columns
        system_width = max(24, min(60, self.app.size.width - 42))
        grid.add_column(_("Court system"), key="system", width=system_width)
        grid.add_column(pgettext("customer", "Key"), key="key", width=12)
        grid.add_column(_("Status"), key="status", width=16)
        # The table measures new rows later (on idle): the cursor's row is brought into view
        # again once their size is known, or a scroll asked too early would do nothing.
        self.watch(grid, "virtual_size", self._grid_measured, init=False)
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)
        self.query_one("#vault-result", Static).display = False
        self._show_rows(loading=True)
        self._apply_params()

    def on_services_ready(self, context: ServiceContext) -> None:
        self.load(self.customer_key, select=self._pending_system)

    def _theme_changed(self, *_args: object) -> None:
        self._grid_names = []  # colours change: redraw every row
        self._show_rows(select=self.selected_system())

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Register a credential"),
            _("Login for a court system"),
            self.action_register,
            binding_id="vault.register",
        )
        yield PaletteCommand(
            _("Refresh the vault grid"),
            _("Read the statuses again"),
            self.action_refresh,
            binding_id="vault.refresh",
        )

    # --- the grid -----------------------------------------------------------------------

    @property
    def grid(self) -> DataTable[str | Text]:
        return self.query_one("#vault-grid", DataTable)

    def visible_rows(self) -> list[SystemStatusRow]:
        text = self.query_one("#vault-find", Input).value.casefold().split()
        return [
            row
            for row in self.rows
            if row.is_wildcard or all(word in (row.name or "").casefold() for word in text)
        ]

    def _cells(self, row: SystemStatusRow) -> tuple[Text, Text, Text]:
        key = row.customer_key or ""
        return (
            self._system_cell(row),
            Text(key if key else _("(none)"), style="" if key else "italic"),
            status_text(self.app, row.credential_status, STATUS_VARIABLES, CREDENTIAL_STATUS_WORDS),
        )

    def _system_cell(self, row: SystemStatusRow) -> Text:
        if not row.is_wildcard:
            return Text(row.name or "")
        cell = Text("* ", style=theme_style(self.app, "text-primary", bold=True))
        if self.customer_key == WILDCARD_SYSTEM:
            cell.append(_("wildcard: systems without their own"))
        else:
            cell.append(_("wildcard of key {key}").format(key=self.customer_key))
        return cell

    def _show_rows(self, *, loading: bool = False, select: str | None = None) -> None:
        grid = self.grid
        shown = self.visible_rows()
        names = [row.name or "" for row in shown]
        cells = {
            row.name or "": (row.customer_key or "", str(row.credential_status)) for row in shown
        }
        if names == self._grid_names and len(set(names)) == len(names):
            # same systems in the same order: change only the cells that changed
            for row in shown:
                name = row.name or ""
                if self._grid_cells.get(name) != cells[name]:
                    for column, value in zip(
                        ("system", "key", "status"), self._cells(row), strict=True
                    ):
                        grid.update_cell(name, column, value)
        else:
            grid.clear()
            for row in shown:
                grid.add_row(*self._cells(row), key=row.name or "")
        self._grid_names = names
        self._grid_cells = cells
        if select:
            for index, row in enumerate(shown):
                if row.name == select:
                    grid.move_cursor(row=index, animate=False)
                    # the result panel may shrink the grid: keep the row in view after layout
                    self.call_after_refresh(self._cursor_into_view)
                    break
        empty = self.query_one("#vault-empty", Static)
        if loading and not self.rows:
            empty.update(_("Loading the vault…"))
        else:
            empty.update(_("No court system matches."))
        grid.display = bool(shown)
        empty.display = not shown
        self.query_one("#vault-rule", Static).update(self._rule_text())

    def _grid_measured(self) -> None:
        self._cursor_into_view()

    def _cursor_into_view(self) -> None:
        grid = self.grid
        if grid.row_count:
            grid.move_cursor(row=grid.cursor_row, animate=False, scroll=True)

    def _rule_text(self) -> str:
        own = [row for row in self.rows if not row.is_wildcard]
        active = sum(1 for row in self.rows if row.credential_status == "active")
        rule = listing_rule(self.customer_key)
        if self.customer_key != WILDCARD_SYSTEM:
            counts = ngettext(
                "{n} system with its own credential",
                "{n} systems with their own credential",
                len(own),
            ).format(n=len(own))
        else:
            counts = ngettext("{n} active credential", "{n} active credentials", active).format(
                n=active
            )
        if not self.loaded_from_service and self.rows:
            counts += " · " + _("from the cache")
        return f"{rule} {counts}."

    def selected_row(self) -> SystemStatusRow | None:
        grid = self.grid
        if not grid.display or grid.row_count == 0:
            return None
        shown = self.visible_rows()
        index = grid.cursor_row
        return shown[index] if 0 <= index < len(shown) else None

    def selected_system(self) -> str | None:
        if not self.is_mounted or not self.rows:
            return None
        row = self.selected_row()
        return row.name if row else None

    def show_results(self, title: str, lines: Sequence[str], *, hint: bool = False) -> None:
        """The panel under the grid: the vault's answer (one line per system), or a hint."""
        if not hint:
            self.last_results = list(lines)
        result = self.query_one("#vault-result", Static)
        result.update("\n".join([title, *lines]))
        result.display = bool(lines)

    # --- loading ------------------------------------------------------------------------

    @work(exclusive=True, group="vault.load", exit_on_error=False)
    async def load(self, customer_key: str, select: str | None = None) -> None:
        context = await self.services()
        if select is None and customer_key == self.customer_key:
            select = self.selected_system()
        self.customer_key = customer_key
        cached = context.vault.cached_status(customer_key)
        if cached is not None:
            self.rows = list(cached)
            self.loaded_from_service = False
            self._show_rows(select=select)
        else:
            self.rows = []
            self._show_rows(loading=True)
        rows = await context.vault.status(customer_key)
        if self.customer_key != customer_key:
            return  # the user typed another key meanwhile
        self.rows = list(rows)
        self.loaded_from_service = True
        if customer_key == WILDCARD_SYSTEM:
            self.system_names = [row.name for row in rows if row.name]
        elif not self.system_names:
            everything = context.vault.cached_status(WILDCARD_SYSTEM)
            if everything is None:
                everything = await context.vault.status(WILDCARD_SYSTEM)
            self.system_names = [row.name for row in everything if row.name]
        self._show_rows(select=select)

    def show_params(
        self, system_name: str | None = None, customer_key: str | None = None, **_params: Any
    ) -> None:
        """Select ``system_name`` under ``customer_key`` (from ``app.open_vault``)."""
        self.customer_key = (customer_key or "").strip() or WILDCARD_SYSTEM
        self._pending_system = system_name
        if self.is_mounted:
            self._apply_params()
            if self.host.services is not None:
                self.load(self.customer_key, select=system_name)
        # else: on_mount shows them and on_services_ready loads that key

    def _apply_params(self) -> None:
        self.query_one("#vault-key", Input).value = self.customer_key
        self.query_one("#vault-find", Input).value = ""
        system = self._pending_system
        if system:
            register_key = self.host.binding_key("vault.register")
            self.show_results(
                _("Court system {system} under key {key}:").format(
                    system=system, key=self.customer_key
                ),
                [_("press {key} to register or update its credential.").format(key=register_key)],
                hint=True,
            )
        self.grid.focus()

    # --- actions ------------------------------------------------------------------------

    @on(Input.Submitted, "#vault-key")
    def _key_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        key = event.value.strip() or WILDCARD_SYSTEM
        self._pending_system = None
        self.load(key)
        self.grid.focus()

    @on(Input.Changed, "#vault-find")
    def _find_changed(self) -> None:
        self._show_rows(select=self.selected_system())

    @on(Input.Submitted, "#vault-find")
    def _find_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        # land on the first system found, not on the * row that is always listed
        if event.value.strip():
            first = next((row for row in self.visible_rows() if not row.is_wildcard), None)
            if first is not None and first.name:
                self._show_rows(select=first.name)
        self.grid.focus()

    @on(DataTable.RowSelected, "#vault-grid")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_register()

    def action_focus_key(self) -> None:
        self.query_one("#vault-key", Input).focus()

    def action_find(self) -> None:
        self.query_one("#vault-find", Input).focus()

    def action_focus_grid(self) -> None:
        self.grid.focus()

    def action_refresh(self) -> None:
        self.load(self.customer_key)

    def action_register(self) -> None:
        from lawsuit_tui.ui.vault.credential_form import CredentialFormScreen

        row = self.selected_row()
        system = self._pending_system or (row.name if row else None)
        self._pending_system = None
        names = self.system_names or [row.name for row in self.rows if row.name]
        key = self.customer_key
        context = self.host.services
        status = next(
            (str(r.credential_status) for r in self.rows if system and r.name == system), None
        )
        current = context.vault.registered(system, key) if context and system else None
        demo = context.vault.demo_certificate() if context and context.mode == "sandbox" else None

        def done(results: list[Any] | None) -> None:
            if results is None:
                return
            lines = result_lines(results)
            self.show_results(
                ngettext(
                    "Registered: {n} system touched", "Registered: {n} systems touched", len(lines)
                ).format(n=len(lines)),
                lines,
            )
            self.load(self.customer_key, select=system)

        self.app.push_screen(
            CredentialFormScreen(
                names,
                system_name=system,
                customer_key=key,
                status=status,
                current=current,
                demo_certificate=str(demo) if demo else None,
            ),
            done,
        )

    def action_delete(self) -> None:
        row = self.selected_row()
        if row is None or not row.name:
            return
        key = self.customer_key
        if row.credential_status in (None, "not exists"):
            self.notify(
                _("{system} has no credential under key {key}.").format(system=row.name, key=key),
                timeout=4,
            )
            return
        name = row.name

        def answered(yes: bool | None) -> None:
            if yes:
                self.delete(name, key)

        self.app.push_screen(
            ConfirmScreen(
                _("Delete credential"),
                _(
                    "Delete the credential of {system} under key {key}? Requests for its secret "
                    "lawsuits will need another credential."
                ).format(system=name, key=key),
                yes=_("Delete"),
                destructive=True,
            ),
            answered,
        )

    @work(group="vault.delete", exit_on_error=False)
    async def delete(self, system_name: str, customer_key: str) -> None:
        context = await self.services()
        try:
            results = await context.vault.delete(system_name, customer_key)
        except Exception as exc:
            if is_not_available(exc):
                self.notify(
                    _("Deleting a credential is not available on this service."),
                    severity="warning",
                )
                return
            self.host.report_error(exc, title=_("Credential not deleted"))
            return
        lines = result_lines(results) or [
            _("{system} ({key}): deleted").format(system=system_name, key=customer_key)
        ]
        self.show_results(_("Deleted:"), lines)
        self.load(customer_key, select=system_name)

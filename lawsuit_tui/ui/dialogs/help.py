"""The help screen: the keys of the screen the user was on, and what it is for."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from lawsuit_tui.i18n import _
from lawsuit_tui.ui.host import host_of


def binding_rows(screen: Screen[Any]) -> list[tuple[str, str, str]]:
    """(where, key, description) of every described binding active on ``screen``."""
    app = screen.app
    rows: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str]] = set()
    for active in screen.active_bindings.values():
        binding = active.binding
        if not binding.description or binding.system or not binding.id:
            continue
        where = _("Everywhere") if active.node is app else _("This screen")
        key = app.get_key_display(binding)
        if (key, binding.description) in seen:
            continue
        seen.add((key, binding.description))
        rows.append((where, key, binding.description))
    rows.sort(key=lambda row: (row[0] == _("Everywhere"), row[1]))
    return rows


def copy_note(app: App[Any]) -> str:
    """How copying works here, and what to do in tmux when nothing arrives."""
    return _(
        "Copying goes through the terminal (OSC 52), over SSH too. In tmux, add "
        '"set -g set-clipboard on" to ~/.tmux.conf: its default drops it. When nothing '
        "arrives, {key} shows the last copied text to copy by hand."
    ).format(key=host_of(app).binding_key("app.show_copied"))


class HelpScreen(ModalScreen[None]):
    """Lists the keys of the screen below it; Escape, ? or F1 closes it."""

    CSS_PATH = "dialogs.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", _("Close"), id="help.close"),
        Binding("question_mark,f1,q", "dismiss", _("Close"), id="help.close_alt", show=False),
    ]

    def __init__(self, screen: Screen[Any]) -> None:
        super().__init__()
        self._rows = binding_rows(screen)
        text_of = getattr(screen, "help_text", None)
        self._intro = text_of() if callable(text_of) else ""
        title = getattr(screen, "screen_title", None)
        self._title = title() if callable(title) else ""

    def compose(self) -> ComposeResult:
        table = Table(box=None, expand=True, show_header=True, header_style="bold", pad_edge=False)
        table.add_column(_("Key"), no_wrap=True, style="bold")
        table.add_column(_("Does"), ratio=1)
        last_where = ""
        for where, key, description in self._rows:
            if where != last_where:
                table.add_row(Text(where, style="italic"), "")
                last_where = where
            table.add_row(f"  {key}", description)
        with VerticalScroll(id="help-box") as box:
            box.border_title = _("Keys: {screen}").format(screen=self._title or "lawsuit-tui")
            box.border_subtitle = _("{key} closes").format(
                key=host_of(self.app).binding_key("help.close")
            )
            if self._intro:
                yield Static(self._intro, id="help-intro")
            yield Static(table, id="help-keys")
            yield Static(copy_note(self.app), id="help-copy")

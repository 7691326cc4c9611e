"""Stands in for a destination whose screen module is not there yet."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.widgets import Static

from lawsuit_tui.i18n import _
from lawsuit_tui.ui.screens.base import LawsuitScreen

if TYPE_CHECKING:
    from lawsuit_tui.ui.navigation import Destination


class ComingSoonScreen(LawsuitScreen):
    def __init__(self, destination: Destination) -> None:
        super().__init__()
        self.destination = destination

    def screen_title(self) -> str:
        return self.destination.label

    def compose_body(self) -> ComposeResult:
        yield Static(
            _("{title} is coming soon.\n\n{help}").format(
                title=self.destination.label, help=self.destination.description
            ),
            classes="empty-state",
        )

"""Where the user can go: one entry per top-level destination of the app.

Each destination is an App *mode* (its own screen stack, kept while the user visits the
others), reachable by one key (``app.goto.<id>``, overridable through the config keymap) and
from the command palette. Screen classes are named by ``"module:Class"`` and imported only the
first time the destination is visited, so the first frame never pays for them. A destination
whose module or class cannot be loaded is a bug, and fails loudly (the import's own error).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lawsuit_tui.i18n import N_, _

if TYPE_CHECKING:
    from textual.screen import Screen


@dataclass(frozen=True, slots=True)
class Destination:
    """A top-level place of the app."""

    id: str
    key: str
    """The default key of the binding ``app.goto.<id>``."""
    title: str
    """Marked with N_; translate at use with :attr:`label`."""
    screen: str
    """``"package.module:ClassName"``, imported lazily."""
    help: str = ""

    @property
    def binding_id(self) -> str:
        return f"app.goto.{self.id}"

    @property
    def label(self) -> str:
        return _(self.title)

    @property
    def description(self) -> str:
        return _(self.help) if self.help else ""

    def load(self) -> type[Screen[None]]:
        """The screen class (imported on first use). An import that fails raises, as does a
        module without the class: a renamed module must never turn into an empty screen."""
        module_name, _sep, class_name = self.screen.partition(":")
        module = importlib.import_module(module_name)
        screen_class: type[Screen[None]] | None = getattr(module, class_name, None)
        if screen_class is None:
            raise ImportError(
                f"destination {self.id!r}: {module_name} has no {class_name}", name=module_name
            )
        return screen_class


DESTINATIONS: tuple[Destination, ...] = (
    Destination(
        "lookup",
        "f2",
        N_("Lookup"),
        "lawsuit_tui.ui.lookup.screen:LookupScreen",
        N_("Find lawsuits by CNJ number, CPF, CNPJ or OAB"),
    ),
    Destination(
        "requests",
        "f3",
        N_("Requests"),
        "lawsuit_tui.ui.requests.request_list:RequestsScreen",
        N_("Asynchronous requests and their responses"),
    ),
    Destination(
        # The id stays "trackings" (keymaps and notices name it); what it is, the portfolio.
        "trackings",
        "f4",
        N_("Portfolio"),
        "lawsuit_tui.ui.trackings.portfolio_screen:PortfolioScreen",
        N_("Every tracking by tier, label, status and court; import, bulk changes"),
    ),
    Destination(
        "vault",
        "f5",
        N_("Vault"),
        "lawsuit_tui.ui.vault.screen:VaultScreen",
        N_("Court credentials that unlock secret lawsuits"),
    ),
    Destination(
        "count",
        "f6",
        N_("Count"),
        "lawsuit_tui.ui.count.screen:CountScreen",
        N_("Count lawsuits matching a filter, for prospecting"),
    ),
    Destination(
        "inbox",
        "f7",
        N_("Inbox"),
        "lawsuit_tui.ui.inbox.screen:InboxScreen",
        N_("New movements of every tracking, newest first"),
    ),
    Destination(
        "webhooks",
        "f8",
        N_("Webhooks"),
        "lawsuit_tui.ui.webhooks.screen:ReceiverScreen",
        N_("The receiver of the service's callbacks: its URL, start and stop, what arrived"),
    ),
    Destination(
        "dossier",
        "f9",
        N_("Dossiers"),
        "lawsuit_tui.ui.dossier.list_screen:DossierListScreen",
        N_("Due diligence of a CPF or CNPJ: gate, counts, lawsuits, warrants, a decision"),
    ),
)

HOME = "lookup"


def destination(destination_id: str) -> Destination:
    """The destination with this id (KeyError if there is none)."""
    for item in DESTINATIONS:
        if item.id == destination_id:
            return item
    raise KeyError(destination_id)

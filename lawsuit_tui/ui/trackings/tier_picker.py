"""Choosing a tier: each with how often it runs and what one tracking of it costs a month."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from lawsuit_tui.domain.formatting import format_time_of_day
from lawsuit_tui.domain.tiers import Tier
from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.services.portfolio import runs_text, tier_word
from lawsuit_tui.ui.keys import named_keys

__all__ = ["TierPickerScreen", "tier_line"]


def tier_line(tier: Tier) -> str:
    """``warm: every 7 days · 4 runs a month each · sentença, execução``."""
    every = ngettext("every day", "every {n} days", tier.recurrence).format(n=tier.recurrence)
    if tier.hour is not None:
        every += " " + _("at {clock}").format(clock=format_time_of_day(tier.hour, tier.minute))
    runs = round(tier.runs_per_month)
    parts = [
        every,
        ngettext("{runs} run a month each", "{runs} runs a month each", runs).format(
            runs=runs_text(tier.runs_per_month)
        ),
    ]
    if tier.step_terms:
        parts.append(", ".join(tier.step_terms))
    return f"{tier_word(tier.name)}: " + " · ".join(parts)


class TierPickerScreen(ModalScreen[str | None]):
    """Pick one of ``tiers``; dismissed with its name, or None."""

    CSS_PATH = "trackings.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Cancel"), id="trackings.tier_picker.cancel"),
    ]

    def __init__(self, title: str, tiers: dict[str, Tier], current: str | None = None) -> None:
        super().__init__()
        self._title = title
        self._tiers = tiers
        self._current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="tp-box") as box:
            box.border_title = self._title
            yield Static(
                _("{choose} chooses; {back} goes back.").format(
                    **named_keys(
                        self.app, {"choose": "enter", "back": "trackings.tier_picker.cancel"}
                    )
                ),
                classes="dialog-text",
            )
            yield OptionList(
                *(Option(tier_line(tier), id=name) for name, tier in self._tiers.items()),
                id="tp-options",
            )

    def on_mount(self) -> None:
        options = self.query_one("#tp-options", OptionList)
        names = list(self._tiers)
        if self._current in names:
            options.highlighted = names.index(self._current)
        options.focus()

    @on(OptionList.OptionSelected, "#tp-options")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)

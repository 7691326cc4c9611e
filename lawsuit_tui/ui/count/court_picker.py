"""Courts picked from the Miner's list (``GET /tribunals``, D72), several at once.

Typing in the box narrows the list (by acronym, id or words of the court's name, accents and
case aside); Space or Enter on the list picks or drops a court. Enter in the box picks what
was typed: acronyms (``TJSP, TRF3``), Miner ids (``10``), or what the hint shows
(``TJSP 10``), several separated by commas; a word that names exactly one court picks it.
None picked means every court.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, SelectionList, Static
from textual.widgets.selection_list import Selection

from lawsuit_tui.domain.folding import fold
from lawsuit_tui.domain.miner import Tribunal
from lawsuit_tui.i18n import _, ngettext

__all__ = ["CourtPicker", "match_courts", "resolve_courts"]


def _plain(text: str) -> str:
    return fold(text).replace("-", "")


def _matches(court: Tribunal, token: str) -> bool:
    wanted = _plain(token).strip()
    if not wanted:
        return True
    if wanted.isdigit():
        return str(court.tribunal_id) == wanted
    if _plain(court.name).startswith(wanted.replace(" ", "")):
        return True
    name = _plain(court.full_name)
    return all(word in name for word in wanted.split())


def match_courts(courts: Sequence[Tribunal], text: str) -> list[Tribunal]:
    """The courts the typed text shows: every court for nothing typed; else those matching
    any of its comma-separated parts."""
    tokens = [t for t in text.split(",") if t.strip()]
    if not tokens:
        return list(courts)
    return [c for c in courts if any(_matches(c, t) for t in tokens)]


def resolve_courts(courts: Sequence[Tribunal], text: str) -> tuple[list[int], list[str]]:
    """The ids of the courts the typed parts name, and the parts that name none (or several).

    A part names a court by its acronym or its Miner id, as a word anywhere in it (``TJSP``,
    ``10``, ``TJSP 10``), else by being the only court its words match."""
    by_acronym = {_plain(c.name): c.tribunal_id for c in courts}
    by_id = {str(c.tribunal_id): c.tribunal_id for c in courts}
    found: list[int] = []
    unknown: list[str] = []
    for part in (t.strip() for t in text.split(",")):
        if not part:
            continue
        exact = [
            by_acronym.get(_plain(word)) or by_id.get(word)
            for word in part.replace("·", " ").split()
        ]
        picked = next((value for value in exact if value is not None), None)
        if picked is None:
            only = [c.tribunal_id for c in courts if _matches(c, part)]
            picked = only[0] if len(only) == 1 else None
        if picked is None:
            unknown.append(part)
        elif picked not in found:
            found.append(picked)
    return found, unknown


class CourtPicker(Vertical):
    """The courts of a Miner filter; ``chosen`` are Miner ids, in the order picked."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "to_list", _("To the courts"), id="count.courts.to_list", show=False),
    ]

    class Changed(Message):
        """The courts picked changed."""

        def __init__(self, picker: CourtPicker) -> None:
            super().__init__()
            self.picker = picker

        @property
        def control(self) -> CourtPicker:
            return self.picker

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.courts: list[Tribunal] = []
        self.chosen: list[int] = []
        self._filling = False

    def compose(self) -> ComposeResult:
        yield Input(
            placeholder=_("TJSP, TRF3, São Paulo…"), compact=True, id="cn-courts", classes="picker"
        )
        yield SelectionList[int](id="cn-court-list", compact=True)
        yield Static("", classes="picker-problem", markup=False)
        yield Static("", classes="picker-chosen", markup=False)

    def on_mount(self) -> None:
        self._show_chosen()

    # --- the list --------------------------------------------------------------------------

    def set_courts(self, courts: Iterable[Tribunal]) -> None:
        """The Miner's courts (in its order: by acronym)."""
        self.courts = list(courts)
        self._refill()
        self._show_chosen()

    def _refill(self) -> None:
        found = match_courts(self.courts, self.query_one("#cn-courts", Input).value)
        # the courts picked first: what the filter holds is in sight without scrolling
        shown = sorted(found, key=lambda court: court.tribunal_id not in self.chosen)
        listing = self.query_one("#cn-court-list", SelectionList)
        self._filling = True
        try:
            listing.clear_options()
            listing.add_options(
                [
                    Selection(
                        f"{court.name:<6} {court.full_name}".rstrip(),
                        court.tribunal_id,
                        court.tribunal_id in self.chosen,
                    )
                    for court in shown
                ]
            )
        finally:
            self._filling = False
        if listing.option_count:
            listing.highlighted = 0

    def action_to_list(self) -> None:
        """Down from the box goes to the list, on its first court."""
        self.query_one("#cn-court-list", SelectionList).focus()

    @on(Input.Changed, "#cn-courts")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self._problem(None)
        self._refill()

    @on(Input.Submitted, "#cn-courts")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.pick_typed()

    def pick_typed(self, *, show: bool = True) -> str | None:
        """Pick the courts typed in the box. Answers what is wrong (a part naming no single
        court, the list not arrived), also shown under the box when ``show``; None when all
        is picked."""
        box = self.query_one("#cn-courts", Input)
        if not box.value.strip():
            return None
        if not self.courts:
            waiting = _("The Miner's list of courts has not arrived yet.")
            if show:
                self._problem(waiting)
            return waiting
        found, unknown = resolve_courts(self.courts, box.value)
        for tribunal_id in found:
            if tribunal_id not in self.chosen:
                self.chosen.append(tribunal_id)
        problem: str | None = None
        if unknown:
            box.value = ", ".join(unknown)
            problem = _("No single court matches: {parts}. Pick it from the list.").format(
                parts=", ".join(unknown)
            )
        else:
            box.value = ""
        self._problem(problem if show else None)
        self._refill()
        self._changed()
        return problem

    @on(SelectionList.SelectionToggled, "#cn-court-list")
    def _toggled(self, event: SelectionList.SelectionToggled[int]) -> None:
        event.stop()
        if self._filling:
            return
        value = event.selection.value
        if value in self.chosen:
            self.chosen.remove(value)
        else:
            self.chosen.append(value)
        # the list keeps its order while the person picks in it (no jump under the cursor)
        self._changed()

    # --- what is picked --------------------------------------------------------------------

    def set_chosen(self, ids: Iterable[int]) -> None:
        self.chosen = list(dict.fromkeys(ids))
        self.query_one("#cn-courts", Input).value = ""
        self._refill()
        self._changed()

    def acronyms(self, ids: Iterable[int] | None = None) -> list[str]:
        """The acronyms of ``ids`` (the chosen by default); an unknown id as its number."""
        names = {court.tribunal_id: court.name for court in self.courts}
        return [names.get(i, str(i)) for i in (self.chosen if ids is None else ids)]

    def _changed(self) -> None:
        self._show_chosen()
        self.post_message(self.Changed(self))

    def _show_chosen(self) -> None:
        chosen = self.query_one(".picker-chosen", Static)
        if not self.chosen:
            chosen.update(_("None picked: every court."))
            return
        chosen.update(
            ngettext("{n} court: {names}", "{n} courts: {names}", len(self.chosen)).format(
                n=len(self.chosen), names=", ".join(self.acronyms())
            )
        )

    def _problem(self, message: str | None) -> None:
        problem = self.query_one(".picker-problem", Static)
        problem.update(message or "")
        problem.set_class(bool(message), "-shown")

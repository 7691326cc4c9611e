"""Count screen: the form follows the type of credit, courts from the Miner's list, rules
before sending (in R$), rejected then accepted, the history, and a find request bought from
a count, followed to completed and its lawsuits opened and exported (D72, issue 19)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select, SelectionList

from lawsuit_tui.domain.bodies import CountBody
from lawsuit_tui.domain.count import CountRequestResult
from lawsuit_tui.domain.miner import Tribunal
from lawsuit_tui.ui.count.count_text import filter_summary
from lawsuit_tui.ui.count.court_picker import CourtPicker, match_courts, resolve_courts
from lawsuit_tui.ui.count.find_dialog import FindDialog
from lawsuit_tui.ui.count.find_lawsuits import FindLawsuitsScreen
from lawsuit_tui.ui.count.screen import AMOUNT_RANGE, CountScreen, _construct
from lawsuit_tui.ui.lawsuit.screen import LawsuitTreeScreen
from tests.support.ui_harness import (
    ContextClockHarness,
    open_destination,
    screen_on_top,
    settle,
    wait_for,
)

COURTS = [
    Tribunal(tribunal_id=10, name="TJSP"),
    Tribunal(tribunal_id=1, name="TRF3"),
    Tribunal(tribunal_id=150610, name="TRT2"),
    Tribunal(tribunal_id=510428, name="TRT15"),
    Tribunal(tribunal_id=18, name="TJRJ"),
]


def result_of(screen: CountScreen) -> CountRequestResult | None:
    return screen.result


async def open_count(pilot: Pilot[Any]) -> CountScreen:
    """The count screen once its court picker has the Miner's courts."""
    return await open_destination(
        pilot, "count", CountScreen, lambda screen: any(p.courts for p in screen.query(CourtPicker))
    )


async def test_count_rejected_then_accepted_and_history() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(120, 40)) as pilot:
        screen = await open_count(pilot)
        assert screen.query_one("#box-budget-years").display
        assert not screen.query_one("#box-tags-row").display
        screen.query_one("#cn-kind", Select).value = "sentence-execution"
        await pilot.pause()
        assert not screen.query_one("#box-budget-years").display
        assert screen.query_one("#box-tags-row").display
        screen.query_one("#cn-kind", Select).value = "judgement-bond"
        await pilot.pause()

        # issue 19: what the hint showed ("TJSP 10") is accepted, and so is a bare acronym
        box = screen.query_one("#cn-courts", Input)
        box.value = "TJSP 10, trf3, XYZ"
        screen.query_one(CourtPicker).pick_typed()
        await pilot.pause()
        picker = screen.query_one(CourtPicker)
        assert picker.chosen == [10, 1]
        assert box.value == "XYZ"  # what named no court stays, told under the box
        screen.query_one("#cn-amount-mode", Select).value = AMOUNT_RANGE
        await pilot.pause()
        screen.query_one("#cn-min", Input).value = "500.000,00"
        screen.query_one("#cn-max", Input).value = "100.000"
        await pilot.press("f10")
        await pilot.pause()
        assert screen.sent is None
        assert any("XYZ" in problem for problem in screen.problems), screen.problems
        box.value = ""
        await pilot.press("f10")
        await pilot.pause()
        # issue 19: in R$, never "amount_min (500000)"
        assert "The minimum, R$ 500.000,00, is above the maximum, R$ 100.000,00" in (
            screen.problems
        )
        assert screen.sent is None

        # sent as is (a key that works in the fields, not F9): the service's errors in full
        await pilot.press("ctrl+g")
        await settle(pilot)
        assert screen.result is None
        assert any("amount_min" in line for line in screen.service_errors)
        shown = str(screen.query_one("#count-result").render())
        assert all(line in shown for line in screen.service_errors)

        # fixed: accepted, the filter echoed in words, kept in the history
        screen.query_one("#cn-max", Input).value = "5.000.000,00"
        screen.query_one("#cn-budget-years", Input).value = "2024, 2025"
        screen.query_one("#cn-nature-alimentary", Checkbox).value = True
        await pilot.press("f10")
        await settle(pilot)
        result = result_of(screen)
        assert result is not None and result.total_lawsuits is not None
        assert result.status == "completed"
        assert result.filter is not None and result.filter.tribunals == [10, 1]
        assert screen.history and screen.history[0]["request_id"] == result.request_id
        shown = str(screen.query_one("#count-result").render())
        assert "precatório" in shown and "TJSP, TRF3" in shown
        assert "pending" not in shown

        # a history entry goes back into the form
        screen.action_clear()
        await pilot.pause()
        assert picker.chosen == []
        await pilot.press("ctrl+t")
        await pilot.press("enter")
        await pilot.pause()
        assert picker.chosen == [10, 1]
        assert screen.query_one("#cn-nature-alimentary", Checkbox).value


async def test_courts_are_picked_from_the_list() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        screen = await open_count(pilot)
        picker = screen.query_one(CourtPicker)
        assert len(picker.courts) == 62  # the Miner's documented courts
        box = screen.query_one("#cn-courts", Input)
        box.focus()
        await pilot.press(*"sao paulo")
        await pilot.pause()
        listing = screen.query_one("#cn-court-list", SelectionList)
        shown = [listing.get_option_at_index(i).value for i in range(listing.option_count)]
        assert 10 in shown and 18 not in shown  # TJSP, not TJRJ
        await pilot.press("down")  # from the box to the list, on its first court
        assert listing.has_focus
        await pilot.press("space")
        await pilot.pause()
        assert picker.chosen == [shown[0]]


async def test_buy_a_count_follow_it_open_and_export_its_lawsuits(tmp_path: Path) -> None:
    from lawsuit_tui.config import load_settings

    sandbox = ContextClockHarness(load_settings().model_copy(update={"download_dir": tmp_path}))
    async with sandbox.app.run_test(size=(120, 40)) as pilot:
        screen = await open_count(pilot)
        await pilot.press("ctrl+f")  # nothing counted yet: said, nothing bought
        await pilot.pause()
        assert not isinstance(pilot.app.screen, FindDialog)
        screen.query_one("#cn-courts", Input).value = "TJSP"
        await pilot.press("f10")
        await settle(pilot)
        result = result_of(screen)
        assert result is not None and (result.total_lawsuits or 0) > 5
        await pilot.press("ctrl+f")
        dialog = await screen_on_top(pilot, FindDialog)
        assert dialog.query_one("#fd-cap", Input).value == str(result.total_lawsuits)
        assert "debits" in str(dialog.query_one("#fd-cost").render())
        dialog.query_one("#fd-cap", Input).value = "5"
        await pilot.press("f10")
        # followed to completed (the sandbox's clock moves while the app waits), then opened
        await wait_for(lambda: isinstance(pilot.app.screen, FindLawsuitsScreen), pilot.pause)
        assert screen.find_state is not None and screen.find_state.status == "completed"
        shown = str(screen.query_one("#count-find").render())
        assert "completed, 5 of 5 lawsuits" in shown and "credits debited" in shown
        found = pilot.app.screen
        assert isinstance(found, FindLawsuitsScreen)
        await wait_for(lambda: not found.reading, pilot.pause)
        assert len(found.lawsuits) == 5 and found.total == 5
        assert all(item.tribunal_id == 10 for item in found.lawsuits)
        assert "5 lawsuits" in str(found.query_one("#fl-summary").render())

        await pilot.press("e")
        await pilot.pause()
        await pilot.press("enter")  # the folder prompt: the download folder
        await wait_for(lambda: any(tmp_path.glob("miner-find-*.csv")), pilot.pause)
        rows, mode = _read_export(tmp_path)
        assert len(rows) == 5 and rows[0]["code"] == found.lawsuits[0].code
        assert mode == 0o600

        found.table.focus()
        await pilot.press("enter")
        await wait_for(lambda: isinstance(pilot.app.screen, LawsuitTreeScreen), pilot.pause)

        # the history keeps the find; Enter on it opens its lawsuits again
        assert screen.history[0]["type"] == "find"
        assert screen.history[0]["cost"] > 0


def _read_export(folder: Path) -> tuple[list[dict[str, str]], int]:
    [written] = folder.glob("miner-find-*.csv")
    with written.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle)), written.stat().st_mode & 0o777


def test_court_matching() -> None:
    assert [c.name for c in match_courts(COURTS, "trt")] == ["TRT2", "TRT15"]
    assert [c.name for c in match_courts(COURTS, "tjsp, 18")] == ["TJSP", "TJRJ"]
    assert resolve_courts(COURTS, "TJSP 10, trf3, 150610") == ([10, 1, 150610], [])
    assert resolve_courts(COURTS, "TRT, nope") == ([], ["TRT", "nope"])


def test_summary_in_words() -> None:
    text = filter_summary(
        {
            "kind": "judgement-bond",
            "tribunals": [10, 999],
            "amount_min": 1000,
            "amount_max": 2500.5,
            "natures": ["alimentary"],
        },
        {10: "TJSP"},
    )
    assert text == (
        "court-ordered debt (precatório) · TJSP, 999 · R$ 1.000,00–R$ 2.500,50 · "
        "maintenance (alimentar)"
    )
    assert filter_summary({"kind": "sentence-execution", "amount_tier": "100k-250k"}) == (
        "enforcement of judgment · R$ 100 to 250 thousand"
    )


def test_construct_keeps_what_the_rules_would_refuse() -> None:
    data = {"kind": "sentence-execution", "amount_min": 10, "amount_max": 1, "natures": ["common"]}
    assert CountBody.problems(data)
    body = _construct(data)
    assert body.to_wire() == data

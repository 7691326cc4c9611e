"""Count screen: the form follows the kind, rules before sending, rejected then accepted."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select

from lawsuit_tui.domain.bodies import CountBody
from lawsuit_tui.domain.count import CountRequestResult
from lawsuit_tui.ui.count.count_text import court_acronym, filter_summary
from lawsuit_tui.ui.count.screen import AMOUNT_RANGE, CountScreen, _construct
from tests.support.ui_harness import ContextClockHarness, settle, wait_for


def result_of(screen: CountScreen) -> CountRequestResult | None:
    return screen.result


async def open_count(pilot: Pilot[Any]) -> CountScreen:
    app: Any = pilot.app
    app.goto("count")
    await wait_for(lambda: isinstance(app.screen, CountScreen), pilot.pause)
    screen = app.screen
    assert isinstance(screen, CountScreen)
    await settle(pilot)
    return screen


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

        screen.query_one("#cn-tribunals", Input).value = "826, 999"
        screen.query_one("#cn-amount-mode", Select).value = AMOUNT_RANGE
        await pilot.pause()
        screen.query_one("#cn-min", Input).value = "50.000,00"
        screen.query_one("#cn-max", Input).value = "1.000"
        await pilot.press("f10")
        await pilot.pause()
        # checked before sending: the unknown court is named, nothing was sent
        assert any("999" in problem for problem in screen.problems)
        assert screen.sent is None
        screen.query_one("#cn-tribunals", Input).value = "826"
        await pilot.press("f10")
        await pilot.pause()
        assert any("amount_min" in problem for problem in screen.problems)
        assert screen.sent is None

        # sent as is: the service's {errors: [...]} is shown in full
        await pilot.press("f9")
        await settle(pilot)
        assert screen.result is None
        assert screen.service_errors
        assert any("amount_min" in line for line in screen.service_errors)
        shown = str(screen.query_one("#count-result").render())
        assert all(line in shown for line in screen.service_errors)

        # fixed: accepted, the filter echoed, kept in the history
        screen.query_one("#cn-max", Input).value = "5.000.000,00"
        screen.query_one("#cn-budget-years", Input).value = "2024, 2025"
        screen.query_one("#cn-nature-alimentary", Checkbox).value = True
        await pilot.press("f10")
        await settle(pilot)
        result = result_of(screen)  # (mypy narrowed screen.result to None above)
        assert result is not None and result.total_lawsuits is not None
        assert isinstance(result.request_id, int)
        assert result.filter is not None and result.filter.tribunals == [826]
        assert result.filter.amount_min == 50000 and result.filter.amount_max == 5000000
        assert screen.history and screen.history[0]["request_id"] == result.request_id
        assert "826 TJSP" in str(screen.query_one("#count-result").render())

        # a history entry goes back into the form
        screen.action_clear()
        await pilot.pause()
        screen.query_one("#count-history").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert screen.query_one("#cn-tribunals", Input).value == "826"
        assert screen.query_one("#cn-nature-alimentary", Checkbox).value


def test_tribunal_numbers_and_summary() -> None:
    assert court_acronym(826) == "TJSP"
    assert court_acronym(403) == "TRF3"
    assert court_acronym(999) is None
    text = filter_summary(
        {"kind": "judgement-bond", "tribunals": [826], "amount_min": 1000, "amount_max": 2500.5}
    )
    assert text == "judgement-bond · 826 TJSP · R$ 1.000,00–R$ 2.500,50"


def test_construct_keeps_what_the_rules_would_refuse() -> None:
    data = {"kind": "sentence-execution", "amount_min": 10, "amount_max": 1, "natures": ["common"]}
    assert CountBody.problems(data)
    body = _construct(data)
    assert body.to_wire() == data

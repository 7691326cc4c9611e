"""Snapshots of every part-1 screen and its main states, at 80x24 and 120x40.

The app runs on the real in-process sandbox with a frozen clock (see harness.py), so the data
and every time on screen are the same on each run. Layout is what these check; behaviour is
in test_flows.py.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.widgets import Input

from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.ui.screens.lawsuit import LawsuitTreeScreen
from lawsuit_tui.ui.screens.request_form import RequestFormScreen
from lawsuit_tui.ui.screens.requests import RequestsScreen
from lawsuit_tui.ui.screens.responses import ResponsesScreen
from lawsuit_tui.ui.widgets.lawsuit_tree import LawsuitTree

from .harness import Harness, ready, samples, settle, wait_for

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
DAY = 86_400.0

Steps = Callable[[Any, Harness], Awaitable[None]]


def snap(snap_compare: Any, size: tuple[int, int], steps: Steps, *, hold: bool = False) -> bool:
    harness = Harness()
    harness.hold_open = hold

    async def run_before(pilot: Any) -> None:
        if not hold:
            await ready(pilot)
        await steps(pilot, harness)
        if not hold:
            await settle(pilot)

    result: bool = snap_compare(harness.app, terminal_size=size, run_before=run_before)
    return result


async def _lookup(pilot: Any, text: str) -> None:
    pilot.app.screen.query_one("#search", Input).value = text
    await pilot.press("enter")
    await settle(pilot)


async def _open_lawsuit(pilot: Any, code: str) -> LawsuitTreeScreen:
    await _lookup(pilot, code)
    await pilot.press("enter")
    await wait_for(lambda: isinstance(pilot.app.screen, LawsuitTreeScreen), pilot.pause)
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, LawsuitTreeScreen)
    return screen


async def _request(pilot: Any, harness: Harness, key: str) -> ResponsesScreen:
    context = await pilot.app.context()
    records = await context.requests.create(
        CreateRequestBody(search=SearchBody(search_type="lawsuit_cnj", search_key=key))
    )
    pilot.app.open_request(records[0].request_id)
    await wait_for(lambda: isinstance(pilot.app.screen, ResponsesScreen), pilot.pause)
    screen = pilot.app.screen
    assert isinstance(screen, ResponsesScreen)
    await wait_for(lambda: screen.completed, pilot.pause)
    await settle(pilot)
    return screen


@pytest.mark.parametrize("size", SIZES)
def test_lookup_loading(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await pilot.pause()  # the first frame, while the service is still opening

    assert snap(snap_compare, size, steps, hold=True)


@pytest.mark.parametrize("size", SIZES)
def test_lookup_empty_with_samples(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        return None

    assert snap(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_lookup_wrong_check_digits(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        digits = "".join(ch for ch in samples()["lawsuit_cnj"][0] if ch.isdigit())
        wrong = digits[:7] + ("00" if digits[7:9] != "00" else "11") + digits[9:]
        pilot.app.screen.query_one("#search", Input).value = wrong
        await pilot.pause()

    assert snap(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_lookup_results(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await _lookup(pilot, samples()["cpf"][0])

    assert snap(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_lookup_error_secret_lawsuit(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await _lookup(pilot, samples()["secret_lawsuit"]["code"])

    assert snap(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_lawsuit_tree_expanded(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        screen = await _open_lawsuit(pilot, samples()["two_instance_lawsuit"])
        tree = screen.query_one(LawsuitTree)
        for node in tree.root.children[:2]:  # parties and steps
            node.expand()
        await settle(pilot)
        tree.root.children[0].children[0].expand()  # the active side's parties
        await settle(pilot)

    assert snap(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_lawsuit_steps_filtered(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await _open_lawsuit(pilot, samples()["big_lawsuit"])
        await pilot.press("slash")
        pilot.app.screen.query_one("#filter", Input).value = "sentença"
        await settle(pilot)

    assert snap(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_requests_list(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await _request(pilot, harness, samples()["lawsuit_cnj"][1])
        await pilot.press("escape")
        await pilot.press("f3")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestsScreen), pilot.pause)

    assert snap(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_request_form_with_errors(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        pilot.app.push_screen(RequestFormScreen())
        await wait_for(lambda: isinstance(pilot.app.screen, RequestFormScreen), pilot.pause)
        await settle(pilot)
        form = pilot.app.screen
        form.query_one("#rf-search_key", Input).value = "123.456.789-00"
        form.query_one("#rf-cache_ttl_in_days", Input).value = "400"
        await pilot.press("f10")

    assert snap(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_responses_provisional_replaced_by_definitive(
    snap_compare: Any, size: tuple[int, int]
) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await harness.advance(30 * DAY)
        screen = await _request(pilot, harness, samples()["moving_lawsuit"])
        screen.table.move_cursor(row=len(screen.rows) - 1)

    assert snap(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_responses_application_error_explained(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await _request(pilot, harness, samples()["secret_lawsuit"]["code"])

    assert snap(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_help_screen(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await _open_lawsuit(pilot, samples()["lawsuit_cnj"][0])
        await pilot.press("question_mark")

    assert snap(snap_compare, size, steps)


class _ListeningReceiver:
    """Stands for a running embedded receiver: a fixed port keeps the picture stable."""

    running = True
    host = "127.0.0.1"
    url = "http://127.0.0.1:8080/0123456789abcdef"

    async def stop(self) -> None:
        self.running = False


@pytest.mark.parametrize("size", SIZES)
def test_receiver_running_in_the_status_line(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await pilot.press("f3")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestsScreen), pilot.pause)
        await settle(pilot)
        pilot.app.receiver = _ListeningReceiver()
        pilot.app._deliveries = 3
        pilot.app._refresh_status()

    assert snap(snap_compare, size, steps)

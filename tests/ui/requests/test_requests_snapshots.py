"""Snapshots of the requests list, the request form and the responses of a request, at 80x24
and 120x40 (real sandbox, frozen clock). Behaviour is in test_request_flows.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input

from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.ui.requests.request_form import RequestFormScreen
from lawsuit_tui.ui.requests.request_list import RequestsScreen
from lawsuit_tui.ui.requests.responses import ResponsesScreen
from tests.support.ui_harness import (
    SIZES,
    Harness,
    responses_completed,
    samples,
    settle,
    snap,
    wait_for,
)

DAY = 86_400.0


async def _request(pilot: Any, harness: Harness, key: str) -> ResponsesScreen:
    context = await pilot.app.context()
    records = await context.requests.create(
        CreateRequestBody(search=SearchBody(search_type="lawsuit_cnj", search_key=key))
    )
    pilot.app.open_request(records[0].request_id)
    screen: ResponsesScreen = await responses_completed(pilot)
    return screen


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

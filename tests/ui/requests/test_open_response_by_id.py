"""Open a response by its id from the requests screen (D90): a prompt takes a pasted id, the
response is read from the service and opens among the responses of its request."""

from __future__ import annotations

from typing import Any

import pytest

from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.ui.dialogs.text_prompt import TextPrompt
from lawsuit_tui.ui.language import interface_language
from lawsuit_tui.ui.requests.request_list import RequestsScreen
from lawsuit_tui.ui.requests.responses import ResponsesScreen
from tests.support.ui_harness import (
    SIZES,
    Harness,
    open_requests,
    ready,
    samples,
    screen_on_top,
    settle,
    snap,
    wait_for,
)


async def finished_request(pilot: Any, harness: Harness) -> list[str]:
    """A completed request with several responses; their ids, oldest first."""
    context = await pilot.app.context()
    [record] = await context.requests.create(
        CreateRequestBody(
            search=SearchBody(search_type="lawsuit_cnj", search_key=samples()["moving_lawsuit"])
        )
    )
    await harness.advance(30 * 86_400.0)
    held = harness.sandbox.state.sandbox.responses["sandbox"]
    return [r.response_id for r in held if r.request_id == record.request_id]


async def open_prompt(pilot: Any) -> TextPrompt:
    await open_requests(pilot)
    await pilot.press("i")
    prompt = await screen_on_top(pilot, TextPrompt)
    return prompt


async def test_a_pasted_id_opens_its_response_among_its_requests() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        ids = await finished_request(pilot, harness)
        assert len(ids) >= 2
        await open_prompt(pilot)
        await pilot.press(*ids[-1], "enter")
        screen = await screen_on_top(pilot, ResponsesScreen)
        await wait_for(lambda: screen.table.selected_key() == ids[-1], pilot.pause)
        # The cache now holds it: the service's answer was kept.
        context = await pilot.app.context()
        assert context.requests.cached_response(ids[-1]) is not None


async def test_an_unknown_id_says_so_and_stays() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await open_prompt(pilot)
        await pilot.press(*"00000000-0000-0000-0000-000000000000", "enter")
        await wait_for(
            lambda: any("RESPONSE_NOT_FOUND" in str(n.message) for n in pilot.app._notifications),
            pilot.pause,
        )
        assert isinstance(pilot.app.screen, RequestsScreen)


async def test_an_id_with_spaces_is_refused_in_the_prompt() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        prompt = await open_prompt(pilot)
        await pilot.press(*"two words", "enter")
        await settle(pilot)
        assert pilot.app.screen is prompt
        assert "one word" in str(prompt.query_one("#prompt-problem").content)
        await pilot.press("escape")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestsScreen), pilot.pause)


@pytest.mark.parametrize("size", SIZES)
def test_the_prompt(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await open_prompt(pilot)
        await pilot.press(*"not an id")
        await pilot.press("enter")

    assert snap(snap_compare, size, steps)


def test_the_prompt_in_portuguese(snap_compare: Any) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await open_prompt(pilot)

    with interface_language("pt-BR"):
        assert snap(snap_compare, (80, 24), steps)

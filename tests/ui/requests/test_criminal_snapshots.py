"""The look of warrant, execution and registration answers at 80x24 and 120x40, in English
and in Portuguese (where the words are the point)."""

from __future__ import annotations

from typing import Any

import pytest

from lawsuit_tui.domain.bodies import CreateRequestBody
from lawsuit_tui.ui.requests.cards import EntityCardScreen, WarrantCardScreen
from lawsuit_tui.ui.requests.responses import ResponsesScreen
from tests.support.samples import ENTITY_EXAMPLE as ENTITY
from tests.support.ui_harness import (
    SIZES,
    Harness,
    responses_completed,
    samples,
    snap,
    snap_in_language,
    wait_for,
)


async def answers(pilot: Any, search_type: str, key: str, response: str) -> ResponsesScreen:
    context = await pilot.app.context()
    body = {"search": {"search_type": search_type, "search_key": key, "response_type": response}}
    [record] = await context.requests.create(CreateRequestBody.model_validate(body))
    pilot.app.open_request(record.request_id)
    screen: ResponsesScreen = await responses_completed(pilot)
    return screen


def snap_in_portuguese(snap_compare: Any, size: tuple[int, int], steps: Any) -> bool:
    return snap_in_language(snap_compare, size, steps, "pt-BR")


@pytest.mark.parametrize("size", SIZES)
def test_warrants_in_the_responses(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await answers(pilot, "cpf", samples()["busy_person"], "warrant")

    assert snap(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_warrant_card_in_portuguese(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await answers(pilot, "rji", samples()["warrant_rji"], "warrant")
        await pilot.press("enter")
        await wait_for(lambda: isinstance(pilot.app.screen, WarrantCardScreen), pilot.pause)

    assert snap_in_portuguese(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_execution_in_portuguese(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await answers(pilot, "lawsuit_cnj", samples()["penal_execution"], "execution")

    assert snap_in_portuguese(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_registration_data_in_portuguese(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        pilot.app.push_screen(EntityCardScreen(ENTITY))
        await wait_for(lambda: isinstance(pilot.app.screen, EntityCardScreen), pilot.pause)

    assert snap_in_portuguese(snap_compare, size, steps)

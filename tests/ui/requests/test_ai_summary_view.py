"""The AI summary (D80) in the responses of a request: a row of its own naming the lawsuit it
summarises, its text beside the list, the whole of it on Enter."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Group
from rich.text import Text

from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.ui.dialogs.text_view import TextViewScreen
from lawsuit_tui.ui.language import interface_language
from lawsuit_tui.ui.requests.responses import ResponsesScreen, detail_renderable, plain_summary
from tests.support.ui_harness import (
    SIZES,
    Harness,
    open_new_request,
    ready,
    samples,
    settle,
    snap,
    wait_for,
)


async def summarised(pilot: Any, harness: Harness) -> ResponsesScreen:
    body = CreateRequestBody(
        search=SearchBody(search_type="lawsuit_cnj", search_key=samples()["moving_lawsuit"]),
        judit_ia=["summary"],
    )
    screen = await open_new_request(pilot, harness, body, advance=30 * 86_400.0)
    await wait_for(lambda: len(screen.rows) >= 4, pilot.pause)
    screen.table.move_cursor(row=len(screen.rows) - 1)  # the court's lawsuit's summary
    await settle(pilot)
    return screen


async def test_a_summary_row_names_its_lawsuit_and_opens_whole() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await summarised(pilot, harness)
        row = screen.table.selected_item()
        assert row is not None and row.response.ai_summary is not None
        assert row.summarises == samples()["moving_lawsuit"]
        shown = detail_renderable(row, "k", "Enter")
        assert isinstance(shown, Group)
        head = shown.renderables[0]
        assert isinstance(head, Text) and head.plain.startswith("AI summary of ")
        hint = shown.renderables[-1]
        assert isinstance(hint, Text) and hint.plain == "Enter opens the whole summary."
        await pilot.press("enter")
        await wait_for(lambda: isinstance(pilot.app.screen, TextViewScreen), pilot.pause)


def test_the_services_html_is_left_out() -> None:
    markdown = (
        '## Resumo\n\nO processo <strong className="text-primary">0000000-00</strong> trata.'
        '\n\n## Partes\n\n<ul>\n  <li>\n    <p>\n      <strong className="x">Usuário 1</strong>'
        "\n    </p>\n  </li>\n</ul>"
    )
    text = plain_summary(markdown)
    assert "<" not in text and "className" not in text
    assert "O processo 0000000-00 trata." in text and "Usuário 1" in text


@pytest.mark.parametrize("size", SIZES)
def test_the_summary_beside_the_list(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await summarised(pilot, harness)

    assert snap(snap_compare, size, steps)


def test_the_summary_in_portuguese(snap_compare: Any) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await summarised(pilot, harness)

    with interface_language("pt-BR"):
        assert snap(snap_compare, (80, 24), steps)

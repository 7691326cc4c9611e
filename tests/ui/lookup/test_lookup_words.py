"""Words typed in the lookup search the cache (D197): what counts as words, and the look of
the results with the matched words marked."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input

from lawsuit_tui.services.search import HIT_END, HIT_START
from lawsuit_tui.ui.lookup import screen as lookup_screen
from lawsuit_tui.ui.lookup.screen import looks_like_words
from tests.support.ui_harness import SIZES, Harness, look_up, samples, settle, snap


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("maria da silva", True),
        ("Brandão", True),
        ("TJSP", True),
        ("execução fiscal", True),
        ("123.456", False),  # a CPF being typed
        ("QXF3B5Y1", False),  # an alphanumeric CNPJ being typed
        ("SP", False),  # the start of an OAB
        ("123456/SP", False),
        ("a", False),
    ],
)
def test_what_counts_as_words(text: str, words: bool) -> None:
    assert looks_like_words(text) is words


def test_the_marks_of_a_match_are_the_index_s() -> None:
    # The lookup screen may not import the services (the first frame): it copies them.
    assert lookup_screen._HIT_MARKS == (HIT_START, HIT_END)


@pytest.mark.parametrize("size", SIZES)
def test_words_found_in_the_cache(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await look_up(pilot, samples()["busy_person"])
        context = await pilot.app.context()
        context.search.wait_idle()
        search = pilot.app.screen.query_one("#search", Input)
        search.focus()
        search.value = "busca apreensao"
        await pilot.press("enter")
        await settle(pilot)

    assert snap(snap_compare, size, steps)

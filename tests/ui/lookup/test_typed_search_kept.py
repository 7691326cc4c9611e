"""A search typed while an older one is still answering is never lost (issue 19, item 16).

Seen twice by hand (Escape, Ctrl+U, type, Enter left an empty box): the older lookup's answer
arrived while the new text was being typed, took the focus to its table, and the rest of the
typing and the Enter went there. Reproduced here by holding the older answer until the new
text is typed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from textual.screen import Screen
from textual.widgets import DataTable, Input, Static

from lawsuit_tui.domain.identifiers import parse_search_key
from lawsuit_tui.ui.lookup.screen import LookupScreen
from tests.support.key_burst import burst
from tests.support.ui_harness import Harness, ready, samples, settle, type_text, wait_for


async def test_an_old_answer_does_not_take_the_new_search() -> None:
    harness = Harness()
    first, second = samples()["cpf"][0], samples()["cnpj"][0]
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        context = await harness.app.context()
        gate = asyncio.Event()
        lookup = context.lookup.lookup
        held: list[str] = []

        async def slow_court(key: Any) -> Any:
            if key.key == parse_search_key(first).key:
                held.append(key.key)
                await gate.wait()  # the court is slow for the first search only
            return await lookup(key)

        context.lookup.lookup = slow_court  # type: ignore[method-assign]
        screen = pilot.app.screen
        assert isinstance(screen, LookupScreen)
        search = screen.query_one("#search", Input)
        await type_text(pilot, first)
        await pilot.press("enter")
        await wait_for(lambda: held, pilot.pause)
        await pilot.press("escape", "ctrl+u")
        await type_text(pilot, second[:6])
        gate.set()  # the old answer arrives in the middle of the typing
        await pilot.pause(0.05)
        await type_text(pilot, second[6:])
        await pilot.press("enter")
        await settle(pilot)
        assert pilot.app.screen is screen  # the Enter did not open the old answer's lawsuit
        assert search.value == second
        title = str(screen.query_one("#results-title", Static).content)
        assert parse_search_key(second).display in title


async def on_the_results(pilot: Any, key: str) -> tuple[Screen[Any], Input]:
    """``key`` looked up from the lookup screen, the focus then on its results: the screen
    and its search field."""
    await ready(pilot)
    screen = pilot.app.screen
    search = screen.query_one("#search", Input)
    await type_text(pilot, key)
    await pilot.press("enter")
    await settle(pilot)
    assert pilot.app.focused is not search  # on the results
    return screen, search


async def test_typing_on_the_results_starts_a_new_search_in_the_field() -> None:
    harness = Harness()
    first, second = samples()["cpf"][0], samples()["cnpj"][0]
    async with harness.app.run_test(size=(80, 24)) as pilot:
        screen, search = await on_the_results(pilot, first)
        await pilot.press("ctrl+u")  # clears the field from the results
        assert search.value == "" and pilot.app.focused is search
        await pilot.press("tab")
        await type_text(pilot, second)  # from the list again: the digits go to the field
        assert search.value == second
        await pilot.press("enter")
        await settle(pilot)
        title = str(screen.query_one("#results-title", Static).content)
        assert parse_search_key(second).display in title


async def test_ctrl_u_and_a_new_search_typed_at_once_keep_the_new_search() -> None:
    """The other way the box was left empty: Ctrl+U and the new key in one burst (fast typing,
    a paste). Textual ran the field's Ctrl+U after the characters behind it, wiping them;
    the field's own keys now run in the order typed (ui/widgets/typed_order.py)."""
    harness = Harness()
    first, second = samples()["cpf"][0], samples()["cnpj"][0]
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        search = pilot.app.screen.query_one("#search", Input)
        await type_text(pilot, first)
        keys = ["ctrl+u", *second]
        burst(pilot.app, keys)
        for _ in range(len(keys) + 2):
            await pilot.pause()
        assert search.value == second


async def test_a_new_search_typed_at_once_on_the_results_is_searched_whole() -> None:
    """On the results, Escape, Ctrl+U, a new CNPJ and Enter in one burst: the field takes
    the focus only after the burst, so its keys still arrive at the results. Each digit used
    to start the field again (it ended as the last digit, "0") and the Enter opened the old
    search's lawsuit."""
    harness = Harness()
    first, second = samples()["cpf"][0], samples()["cnpj"][0]
    async with harness.app.run_test(size=(80, 24)) as pilot:
        screen, search = await on_the_results(pilot, first)
        typed = parse_search_key(second).display
        burst(pilot.app, ["escape", "ctrl+u", *typed, "enter"])
        await settle(pilot)
        assert pilot.app.screen is screen  # the Enter did not open the old answer's lawsuit
        assert search.value == typed
        title = str(screen.query_one("#results-title", Static).content)
        assert parse_search_key(second).display in title
        # Back on the results, their own keys work again (r asks the court, not the field).
        screen.query_one(DataTable).focus()
        await pilot.pause()
        assert pilot.app.focused is not search
        await pilot.press("r")
        assert search.value == typed

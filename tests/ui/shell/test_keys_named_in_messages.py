"""A message that names a key names one that works where the focus is, in the user's keymap.

The catalogue scan (tests/test_i18n.py, "no message names a key by hand") keeps literal keys
out of messages; these flows prove that the key a message names does what it says there.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Static

from lawsuit_tui.config import load_settings
from lawsuit_tui.ui.dialogs.help import HelpScreen
from lawsuit_tui.ui.language import interface_language
from lawsuit_tui.ui.lawsuit.screen import LawsuitTreeScreen
from lawsuit_tui.ui.lookup.screen import LookupScreen
from lawsuit_tui.ui.requests.request_form import RequestFormScreen
from tests.support.ui_harness import Harness, look_up, open_from_lookup, ready, samples, wait_for

UNKNOWN_CPF = "111.444.777-35"
"""A valid CPF the sandbox's world does not hold (the test checks it)."""


def _title(pilot: Any) -> str:
    return str(pilot.app.screen.query_one("#results-title", Static).content)


async def test_nothing_held_names_a_key_that_asks_the_court_from_where_the_focus_is() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await look_up(pilot, UNKNOWN_CPF)
        title = _title(pilot)
        assert "No lawsuit held" in title
        assert "Press r to ask the court" in title and "Esc to search again" in title
        # The field would type an "r": the focus has left it, so the key reaches the screen.
        assert not isinstance(pilot.app.focused, Input)
        await pilot.press("r")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestFormScreen), pilot.pause)
        form = pilot.app.screen
        assert form.query_one("#rf-search_key", Input).value == UNKNOWN_CPF
        await pilot.press("escape")  # the form's cancel
        await wait_for(lambda: isinstance(pilot.app.screen, LookupScreen), pilot.pause)
        # Esc, as the message says, goes back to the field to search again.
        await pilot.press("escape")
        assert isinstance(pilot.app.focused, Input)


async def test_the_named_key_follows_the_users_keymap(isolated_config: Any) -> None:
    isolated_config.parent.mkdir(parents=True, exist_ok=True)
    isolated_config.write_text(
        '[keymap]\n"lookup.fresh" = "ctrl+g"\n"lawsuit.fresh" = "ctrl+g"\n', encoding="utf-8"
    )
    harness = Harness(settings=load_settings())
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await look_up(pilot, UNKNOWN_CPF)
        assert "Press ^g to ask the court" in _title(pilot)
        await pilot.press("r")  # no longer the key: nothing happens
        await pilot.pause()
        assert isinstance(pilot.app.screen, LookupScreen)
        await pilot.press("ctrl+g")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestFormScreen), pilot.pause)


async def test_the_provisional_banner_names_the_keymaps_key(isolated_config: Any) -> None:
    isolated_config.parent.mkdir(parents=True, exist_ok=True)
    isolated_config.write_text('[keymap]\n"lawsuit.fresh" = "ctrl+g"\n', encoding="utf-8")
    harness = Harness(settings=load_settings())
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await open_from_lookup(pilot, samples()["lawsuit_cnj"][0])
        assert isinstance(screen, LawsuitTreeScreen)
        banner = str(screen.query_one("#lawsuit-banner", Static).content)
        assert "^g asks the court" in banner


async def test_help_names_keys_in_words_of_the_readers_language() -> None:
    with interface_language("pt-BR"):
        harness = Harness()
        async with harness.app.run_test(size=(120, 40)) as pilot:
            await ready(pilot)
            await open_from_lookup(pilot, samples()["lawsuit_cnj"][0])
            await pilot.press("f1")
            await wait_for(lambda: isinstance(pilot.app.screen, HelpScreen), pilot.pause)
            help_screen = pilot.app.screen
            intro = str(help_screen.query_one("#help-intro", Static).content)
            assert intro.startswith("Espaço abre um ramo; Enter abre")
            keys = [key for _where, key, _what in help_screen._rows]
            assert "Espaço" in keys and "space" not in keys
            assert "Esc" in keys

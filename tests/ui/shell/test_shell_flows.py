"""Pilot flows of the shell: the user's keymap, the notice at the end of a followed request."""

from __future__ import annotations

from typing import Any

from lawsuit_tui.config import load_settings
from lawsuit_tui.ui.lookup.screen import LookupScreen
from lawsuit_tui.ui.requests.request_list import RequestsScreen
from lawsuit_tui.ui.requests.responses import ResponsesScreen
from tests.support.ui_harness import (
    Harness,
    open_from_lookup,
    ready,
    samples,
    settle,
    wait_for,
)


async def settle_screen(pilot: Any) -> None:
    await pilot.pause()
    await pilot.pause(0.06)


def test_a_key_is_named_while_no_screen_is_on_show() -> None:
    # A screen's timer (the receiver's state, every second) may ask while a mode is switched
    # or the app closes, with no screen on the stack: that once raised ScreenStackError.
    from lawsuit_tui.ui.webhooks.screen import ReceiverScreen

    app = Harness().app
    assert not app.screen_stack
    assert ReceiverScreen.BINDINGS  # loaded: its binding is found in its class
    assert app.binding_key("webhooks.toggle") == "s"


async def test_keymap_override(isolated_config: Any) -> None:
    isolated_config.parent.mkdir(parents=True, exist_ok=True)
    isolated_config.write_text('[keymap]\n"app.goto.requests" = "f9"\n', encoding="utf-8")
    harness = Harness(load_settings())
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("f3")  # no longer bound
        await settle(pilot)
        assert isinstance(pilot.app.screen, LookupScreen)
        await pilot.press("f9")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestsScreen), pilot.pause)
        assert harness.app.binding_key("app.goto.requests") == "f9"


async def test_the_end_of_a_followed_request_is_a_notice_to_follow() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        screen = await open_from_lookup(pilot, samples()["lawsuit_cnj"][0])
        harness.clock_gate.clear()  # the court takes its time
        await pilot.press("r")  # fresh data, followed while we go elsewhere
        await wait_for(lambda: screen.followed_request is not None, pilot.pause)
        request_id = screen.followed_request
        await pilot.press("f3")
        await settle_screen(pilot)
        harness.clock_gate.set()
        await wait_for(lambda: harness.app._notice_target is not None, pilot.pause)
        await pilot.press("ctrl+o")
        await wait_for(
            lambda: (
                isinstance(pilot.app.screen, ResponsesScreen)
                and pilot.app.screen.request_id == request_id
            ),
            pilot.pause,
        )

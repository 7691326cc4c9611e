"""The receiver's screen (F8): start and stop, its URL copied, deliveries and problems; and the
copy fallback when the terminal's clipboard never receives the text (issue 19, item 13)."""

from __future__ import annotations

from typing import Any

import httpx
from rich.console import Console
from textual.widgets import Static, TextArea

from lawsuit_tui.ui.dialogs.text_view import TextViewScreen
from lawsuit_tui.ui.webhooks.screen import ReceiverScreen
from tests.support.ui_harness import Harness, ready, wait_for
from tests.support.webhook_data import receiver_settings


def _state(app: Any) -> str:
    console = Console(width=120, record=True)
    console.print(app.screen.query_one("#receiver-state", Static).content)
    return console.export_text()


async def test_the_receiver_screen_starts_copies_counts_and_lists_problems(
    isolated_config: Any,
) -> None:
    harness = Harness(receiver_settings())
    async with harness.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        await ready(pilot)
        await pilot.press("f8")
        await wait_for(lambda: isinstance(app.screen, ReceiverScreen), pilot.pause)
        assert "stopped" in _state(app)
        await pilot.press("s")
        await wait_for(lambda: app.receiver is not None and app.receiver.running, pilot.pause)
        app.screen.show_state()
        assert "receiving" in _state(app)
        url = app.receiver.url
        token = url.rsplit("/", 1)[1]
        assert token not in _state(app)  # the secret stays masked on screen
        async with httpx.AsyncClient() as client:
            answer = await client.post(url, content=b"not json")
            assert answer.status_code == 400
        app.screen.show_state()
        assert "400" in _state(app)

        app.clear_notifications()
        await pilot.press("c")
        await pilot.pause()
        notice = " ".join(n.message for n in app._notifications)
        assert "^y shows it to copy by hand" in notice
        await pilot.press("ctrl+y")
        await wait_for(lambda: isinstance(app.screen, TextViewScreen), pilot.pause)
        area = app.screen.query_one(TextArea)
        assert area.selected_text == url  # selected for the terminal's own copy
        await pilot.press("escape")
        await pilot.press("s")
        await wait_for(lambda: not app.receiver.running, pilot.pause)

"""Webhooks inside the TUI: the embedded receiver, what it stores, and a standalone receiver's
deliveries appearing in the views.
"""

from __future__ import annotations

from typing import Any

import httpx
from rich.console import Console
from textual.widgets import Static

from lawsuit_tui.config import read_config_file
from lawsuit_tui.ui.requests.responses import ResponsesScreen
from lawsuit_tui.ui.webhooks.screen import ReceiverScreen
from lawsuit_tui.ui.widgets.chrome import StatusLine, render_status
from tests.support.ui_harness import Harness, open_requests, ready, wait_for
from tests.support.webhook_data import (
    lawsuit,
    receiver_settings,
    request_completed,
    response_created,
)


def _response(callback_id: str, response_id: str) -> dict[str, Any]:
    """A lawsuit (no steps) answering the request req-wh-1, delivered as ``callback_id``."""
    return response_created(
        "req-wh-1",
        cached=False,
        response_id=response_id,
        callback_id=callback_id,
        data=lawsuit(steps=0),
        origin=None,
    )


def _status_text(app: Any) -> str:
    return str(app.screen.query_one(StatusLine).render())


async def test_the_receiver_starts_takes_deliveries_and_stops_with_one_key(
    isolated_config: Any,
) -> None:
    harness = Harness(receiver_settings())
    async with harness.app.run_test(size=(120, 40)) as pilot:
        app: Any = pilot.app
        await ready(pilot)
        requests_screen = await open_requests(pilot)

        await pilot.press("f8")  # the receiver's screen
        await wait_for(lambda: isinstance(app.screen, ReceiverScreen), pilot.pause)
        await pilot.press("s")  # webhooks.toggle
        await wait_for(lambda: app.receiver is not None and app.receiver.running, pilot.pause)
        await pilot.press("f3")
        await pilot.pause()
        url = app.receiver.url
        token = url.rsplit("/", 1)[1]
        assert read_config_file(isolated_config)["webhooks"]["path_token"] == token
        notices = [n.message for n in app._notifications]
        assert any(url in message for message in notices), "a generated token is shown once"
        assert "webhooks on :" in _status_text(app)

        async with httpx.AsyncClient() as client:
            answer = await client.post(
                url, json=request_completed("req-wh-1", callback_id="cb-1", responses_count=1)
            )
            assert answer.status_code == 200
            answer = await client.post(url, json=_response("cb-2", "resp-wh-1"))
            assert answer.status_code == 200
        await wait_for(
            lambda: any(r.request_id == "req-wh-1" for r in requests_screen.records), pilot.pause
        )
        assert app._notice_target == ("requests", {"request_id": "req-wh-1"})
        assert "(2)" in _status_text(app)

        await pilot.press("ctrl+o")  # the notice takes the user to the request
        await wait_for(lambda: isinstance(app.screen, ResponsesScreen), pilot.pause)
        responses = app.screen
        await wait_for(lambda: len(responses.rows) == 1, pilot.pause)

        # a delivery for the request on screen: shown live, no notice to follow
        app._notice_target = None
        async with httpx.AsyncClient() as client:
            answer = await client.post(url, json=_response("cb-3", "resp-wh-2"))
            assert answer.status_code == 200
            again = await client.post(url, json=_response("cb-3", "resp-wh-2"))
            assert again.status_code == 200  # a redelivery changes nothing
        await wait_for(lambda: len(responses.rows) == 2, pilot.pause)
        assert app._notice_target is None

        await pilot.press("f8")
        await wait_for(lambda: isinstance(app.screen, ReceiverScreen), pilot.pause)
        console = Console(width=120, record=True)
        console.print(app.screen.query_one("#receiver-state", Static).content)
        state = console.export_text()
        assert "receiving" in state and "Stored" in state
        await pilot.press("s")
        await wait_for(lambda: not app.receiver.running, pilot.pause)
        await pilot.pause()
        assert "webhooks on" not in _status_text(app)


async def test_a_receiver_that_cannot_run_says_why() -> None:
    harness = Harness(receiver_settings())
    async with harness.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        await ready(pilot)
        context = await app.context()
        context.store.read_only = True  # another process holds the cache
        try:
            app.toggle_receiver()
            await wait_for(lambda: not app.receiver_switch.busy, pilot.pause)
        finally:
            context.store.read_only = False
        assert app.receiver is None or not app.receiver.running
        notices = [n.message for n in app._notifications]
        assert any("read-only" in message for message in notices)


def test_the_status_line_makes_room_for_the_receiver() -> None:
    from lawsuit_tui.ui.widgets.chrome import StatusSnapshot

    snapshot = StatusSnapshot(
        phase="ready",
        mode="sandbox",
        rate_remaining=100,
        rate_limit=100,
        receiver="127.0.0.1:8080",
        deliveries=3,
    )
    wide = render_status(snapshot)
    assert "webhooks on :8080 (3)" in wide.plain
    assert render_status(snapshot, 78).cell_len <= 78


async def test_what_a_standalone_receiver_stores_appears_in_the_views() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        await ready(pilot)
        screen = await open_requests(pilot)
        context = await app.context()
        # The other process's write, as the cache sees it after Store.refresh().
        stored = request_completed("req-standalone-1", responses_count=1)["payload"]
        context.store.upsert_requests([stored])
        refreshes: list[bool] = [True]
        context.store.refresh = lambda: refreshes.pop() if refreshes else False
        app._follow_writer(context)
        await wait_for(
            lambda: any(r.request_id == "req-standalone-1" for r in screen.records), pilot.pause
        )

"""Webhooks inside the TUI, the app's movement watch, safe confirmations, the theme picker."""

from __future__ import annotations

from typing import Any

import httpx
from textual.command import CommandPalette
from textual.widgets import Button

from lawsuit_tui.config import load_settings, read_config_file
from lawsuit_tui.domain.bodies import TrackingCreateBody
from lawsuit_tui.ui.screens.confirm import ConfirmScreen
from lawsuit_tui.ui.screens.requests import RequestsScreen
from lawsuit_tui.ui.screens.responses import ResponsesScreen
from lawsuit_tui.ui.widgets.chrome import StatusLine, render_status
from lawsuit_tui.ui.widgets.part2.movement_watch import MovementWatch

from .harness import Harness, ready, settle, wait_for
from .part2_fakes import Part2Sandbox, samples

DAY = 86_400.0
CODE = "1234567-89.2024.8.26.0100"


def _completed(request_id: str, callback_id: str) -> dict[str, Any]:
    return {
        "user_id": "user-1",
        "callback_id": callback_id,
        "event_type": "request_completed",
        "reference_type": "request",
        "reference_id": request_id,
        "payload": {
            "request_id": request_id,
            "search": {"search_type": "lawsuit_cnj", "search_key": CODE},
            "origin": "api",
            "status": "completed",
            "created_at": "2026-11-20T12:00:00.000Z",
            "updated_at": "2026-11-20T12:00:02.000Z",
            "completed_at": "2026-11-20T12:00:02.000Z",
            "responses_count": 1,
        },
    }


def _response(request_id: str, callback_id: str, response_id: str) -> dict[str, Any]:
    return {
        "user_id": "user-1",
        "callback_id": callback_id,
        "event_type": "response_created",
        "reference_type": "request",
        "reference_id": request_id,
        "payload": {
            "request_id": request_id,
            "response_id": response_id,
            "response_type": "lawsuit",
            "response_data": {"code": CODE, "instance": 1, "name": "Autor x Réu", "steps": []},
            "created_at": "2026-11-20T12:00:01.000Z",
            "request_created_at": "2026-11-20T12:00:00.000Z",
            "tags": {"cached_response": False},
        },
    }


def _receiver_settings() -> Any:
    settings = load_settings()
    webhooks = settings.webhooks.model_copy(update={"port": 0})
    return settings.model_copy(update={"webhooks": webhooks})


def _status_text(app: Any) -> str:
    return str(app.screen.query_one(StatusLine).render())


async def test_the_receiver_starts_takes_deliveries_and_stops_with_one_key(
    isolated_config: Any,
) -> None:
    harness = Harness(_receiver_settings())
    async with harness.app.run_test(size=(120, 40)) as pilot:
        app: Any = pilot.app
        await ready(pilot)
        await pilot.press("f3")
        await wait_for(lambda: isinstance(app.screen, RequestsScreen), pilot.pause)
        requests_screen = app.screen
        await settle(pilot)

        await pilot.press("f8")  # app.receiver
        await wait_for(lambda: app.receiver is not None and app.receiver.running, pilot.pause)
        await pilot.pause()
        url = app.receiver.url
        token = url.rsplit("/", 1)[1]
        assert read_config_file(isolated_config)["webhooks"]["path_token"] == token
        notices = [n.message for n in app._notifications]
        assert any(url in message for message in notices), "a generated token is shown once"
        assert "webhooks on :" in _status_text(app)

        async with httpx.AsyncClient() as client:
            answer = await client.post(url, json=_completed("req-wh-1", "cb-1"))
            assert answer.status_code == 200
            answer = await client.post(url, json=_response("req-wh-1", "cb-2", "resp-wh-1"))
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
            answer = await client.post(url, json=_response("req-wh-1", "cb-3", "resp-wh-2"))
            assert answer.status_code == 200
            again = await client.post(url, json=_response("req-wh-1", "cb-3", "resp-wh-2"))
            assert again.status_code == 200  # a redelivery changes nothing
        await wait_for(lambda: len(responses.rows) == 2, pilot.pause)
        assert app._notice_target is None

        await pilot.press("f8")
        await wait_for(lambda: not app.receiver.running, pilot.pause)
        await pilot.pause()
        assert "webhooks on" not in _status_text(app)


async def test_a_receiver_that_cannot_run_says_why() -> None:
    harness = Harness(_receiver_settings())
    async with harness.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        await ready(pilot)
        context = await app.context()
        context.store.read_only = True  # another process holds the cache
        try:
            app.toggle_receiver()
            await wait_for(lambda: not app._receiver_busy, pilot.pause)
        finally:
            context.store.read_only = False
        assert app.receiver is None or not app.receiver.running
        notices = [n.message for n in app._notifications]
        assert any("read-only" in message for message in notices)


def test_the_status_line_makes_room_for_the_receiver() -> None:
    from lawsuit_tui.ui.app import StatusSnapshot

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


async def test_the_app_watches_movements_before_the_trackings_screen_is_seen() -> None:
    sandbox = Part2Sandbox()
    moving = samples()["moving_lawsuit"]
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        await wait_for(lambda: app.services is not None, pilot.pause)
        watch = app.movement_watch
        assert isinstance(watch, MovementWatch) and watch.started
        context = await app.context()
        body = TrackingCreateBody.model_validate(
            {"search": {"search_type": "lawsuit_cnj", "search_key": moving}}
        )
        record = await context.trackings.create(body)
        await watch.check(context, app)  # the app's first look: remembered, no notice
        assert app._notice_target is None
        await sandbox.advance(2 * DAY)
        await sandbox.advance(10)
        await watch.check(context, app)  # what the app's timer runs
        target: Any = app._notice_target
        assert target == ("trackings", {"tracking_id": record.tracking_id})
        assert app.current_mode == "lookup"  # the trackings screen was never opened
        assert "trackings" not in app._screen_stacks or not app._screen_stacks["trackings"]


async def test_destructive_questions_start_on_no() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        answers: list[bool | None] = []
        pilot.app.push_screen(
            ConfirmScreen("Delete", "Delete it?", destructive=True), answers.append
        )
        await settle(pilot)
        focused = pilot.app.focused
        assert isinstance(focused, Button) and focused.id == "no"
        await pilot.press("enter")
        await settle(pilot)
        assert answers == [False]
        pilot.app.push_screen(ConfirmScreen("Search", "Search anyway?"), answers.append)
        await settle(pilot)
        focused = pilot.app.focused
        assert isinstance(focused, Button) and focused.id == "yes"


async def test_the_theme_picker_previews_without_saving_and_saves_the_choice(
    isolated_config: Any,
) -> None:
    harness = Harness()
    harness.app._remember = True
    async with harness.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        await ready(pilot)
        start = app.theme
        app.action_change_theme()
        await wait_for(lambda: isinstance(app.screen, CommandPalette), pilot.pause)
        await pilot.press("down")
        await pilot.press("down")
        await pilot.pause()
        assert app.theme != start  # previewed
        await app.workers.wait_for_complete()
        assert not isolated_config.exists() or "theme" not in read_config_file(isolated_config)
        await pilot.press("escape")
        await wait_for(lambda: not isinstance(app.screen, CommandPalette), pilot.pause)
        assert app.theme == start  # escaped: back to the theme in force

        app.action_change_theme()
        await wait_for(lambda: isinstance(app.screen, CommandPalette), pilot.pause)
        await pilot.press(*"nord")
        await pilot.pause(0.3)
        await pilot.press("down", "enter")
        await wait_for(lambda: app.theme == "nord", pilot.pause)
        await app.workers.wait_for_complete()
        assert read_config_file(isolated_config)["theme"] == "nord"


async def test_what_a_standalone_receiver_stores_appears_in_the_views() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        await ready(pilot)
        await pilot.press("f3")
        await wait_for(lambda: isinstance(app.screen, RequestsScreen), pilot.pause)
        screen = app.screen
        await settle(pilot)
        context = await app.context()
        # The other process's write, as the cache sees it after Store.refresh().
        stored = _completed("req-standalone-1", "cb-s1")["payload"]
        context.store.upsert_requests([stored])
        refreshes: list[bool] = [True]
        context.store.refresh = lambda: refreshes.pop() if refreshes else False
        app._follow_writer(context)
        await wait_for(
            lambda: any(r.request_id == "req-standalone-1" for r in screen.records), pilot.pause
        )

"""Trackings screen: Pilot flows against the sandbox (frozen clock)."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Checkbox, Input

from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.services.errors import OperationNotAvailable
from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.inbox.screen import InboxScreen
from lawsuit_tui.ui.trackings.movement_watch import MovementWatch
from lawsuit_tui.ui.trackings.tracking_detail import TrackingDetailScreen
from lawsuit_tui.ui.trackings.tracking_form import TrackingFormScreen
from lawsuit_tui.ui.widgets.form import FieldBox
from tests.support.ui_harness import (
    ContextClockHarness,
    moving_lawsuit_tracked,
    only_movement,
    open_trackings,
    samples,
    screen_on_top,
    settle,
    trackings_run,
    wait_for,
)


async def register(pilot: Pilot[Any], key: str, **fields: str) -> TrackingFormScreen:
    await pilot.press("n")
    form = await screen_on_top(pilot, TrackingFormScreen)
    form.query_one("#tf-search-key", Input).value = key
    for name, value in fields.items():
        form.query_one(f"#tf-{name}", Input).value = value
    await pilot.pause()
    return form


async def test_register_pause_resume_delete_and_movements() -> None:
    sandbox = ContextClockHarness()
    moving = samples()["moving_lawsuit"]
    async with sandbox.app.run_test(size=(120, 40)) as pilot:
        screen = await open_trackings(pilot)
        assert screen.entries == []
        form = await register(pilot, moving, emails="ana@example.com.br")
        await pilot.press("f10")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)
        assert len(screen.entries) == 1
        entry = screen.entries[0]
        assert entry.status == "created"
        assert entry.search_key == moving
        assert form.sent_body is not None
        assert form.sent_body["notification_emails"] == ["ana@example.com.br"]

        # pause, then resume (u: r refreshes, as everywhere), each confirmed
        screen.table.focus()
        await pilot.press("p")
        await wait_for(lambda: isinstance(pilot.app.screen, ConfirmScreen), pilot.pause)
        await pilot.press("y")
        await wait_for(lambda: screen.entries[0].status == "paused", pilot.pause)
        await pilot.press("r")
        await settle(pilot)
        assert screen.entries[0].status == "paused"  # r refreshed, nothing resumed
        await pilot.press("u")
        await wait_for(lambda: isinstance(pilot.app.screen, ConfirmScreen), pilot.pause)
        await pilot.press("y")
        await wait_for(lambda: screen.entries[0].status != "paused", pilot.pause)

        # the clock moves two days: the run finds new steps; the detail lists the movement
        await trackings_run(sandbox)
        screen.poll()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.entries[0].status == "updated"
        await pilot.press("enter")
        detail = await screen_on_top(pilot, TrackingDetailScreen)
        await wait_for(lambda: detail.loaded, pilot.pause)
        assert detail.movements, "a run over new steps gives a movement"
        newest = detail.movements[0]
        assert newest.code == moving
        assert newest.steps and newest.unread
        # Enter opens the lawsuit tree at the movement's new steps, and marks it read
        await pilot.press("enter")
        await wait_for(
            lambda: type(pilot.app.screen).__module__ == "lawsuit_tui.ui.lawsuit.screen",
            pilot.pause,
        )
        await pilot.app.workers.wait_for_complete()
        await pilot.press("escape")
        await wait_for(lambda: pilot.app.screen is detail, pilot.pause)
        await pilot.press("escape")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)

        # delete, confirmed
        await pilot.press("d")
        await wait_for(lambda: isinstance(pilot.app.screen, ConfirmScreen), pilot.pause)
        await pilot.press("y")
        await wait_for(lambda: screen.entries == [] and len(screen.deleted) == 1, pilot.pause)
        assert screen.table.items == []  # deleted trackings are filtered out by default


async def test_form_validates_before_sending_and_explains_409() -> None:
    sandbox = ContextClockHarness()
    moving = samples()["moving_lawsuit"]
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        screen = await open_trackings(pilot)
        form = await register(
            pilot,
            "1234",
            recurrence="91",  # D66: 1..90
            emails="ana@example, bob@example.com",
            tags="client",
        )
        form.query_one("#tf-fixed-time", Checkbox).value = True
        await pilot.pause()
        form.query_one("#tf-hour", Input).value = "25"
        await pilot.press("f10")
        await pilot.pause()
        errors = {box.field: box.error for box in form.query(FieldBox) if box.error}
        assert set(errors) >= {"search-key", "recurrence", "hour", "minute", "tags"}
        assert "91" in errors["recurrence"]
        assert form.sent_body is None
        # fix the fields; e-mails are the body's rule
        form.query_one("#tf-search-key", Input).value = moving
        form.query_one("#tf-recurrence", Input).value = "7"
        form.query_one("#tf-hour", Input).value = "8"
        form.query_one("#tf-minute", Input).value = "30"
        form.query_one("#tf-tags", Input).value = "client=ACME"
        await pilot.press("f10")
        await pilot.pause()
        errors = {box.field: box.error for box in form.query(FieldBox) if box.error}
        assert list(errors) == ["emails"]
        assert "ana@example" in errors["emails"]
        form.query_one("#tf-emails", Input).value = "bob@example.com"
        await pilot.press("f10")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)
        context = await pilot.app.context()
        record: TrackingRecord = await context.trackings.get(screen.entries[0].tracking_id)
        # 08:30 typed in Brasília is 11:30 in the service's UTC (D146)
        assert record.fixed_time and record.hour_range == 11 and record.execution_minute == 30
        assert record.recurrence == 7 and record.tags == {"client": "ACME"}

        # the same key again: 409, explained in the form, which stays open
        form = await register(pilot, moving)
        await pilot.press("f10")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert pilot.app.screen is form
        errors = {box.field: box.error for box in form.query(FieldBox) if box.error}
        assert "Already tracked" in errors["search-key"]


async def test_new_movements_raise_a_notice_followed_with_one_key() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        context, record = await moving_lawsuit_tracked(sandbox, pilot)
        screen = await open_trackings(pilot)
        app.goto("lookup")  # the user is elsewhere when the movement arrives
        await pilot.pause()
        await trackings_run(sandbox)
        screen.poll()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app._notice_target == ("inbox", {})
        await pilot.press("ctrl+o")  # app.follow_notice
        inbox = await screen_on_top(pilot, InboxScreen)
        await wait_for(lambda: inbox.loaded, pilot.pause)
        [movement_id] = inbox.movement_list.ids
        movement = context.inbox.get(movement_id)
        assert movement is not None and movement.tracking_id == record.tracking_id


async def test_the_numbers_of_a_schedule_take_only_as_many_digits_as_they_can_hold() -> None:
    # A CNJ pasted into the recurrence once read "not 839697420195050003": days are 1..90.
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        await open_trackings(pilot)
        form = await register(pilot, "")
        form.query_one("#tf-fixed-time", Checkbox).value = True
        await pilot.pause()
        for field, typed in (
            ("recurrence", "839697420195050003"),
            ("hour", "235"),
            ("minute", "591"),
        ):
            box = form.query_one(f"#tf-{field}", Input)
            box.value = ""
            box.focus()
            await pilot.press(*typed)
            assert box.value == typed[:2], field


async def test_edit_and_an_operation_the_service_lacks() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        context, record = await moving_lawsuit_tracked(sandbox, pilot)
        screen = await open_trackings(pilot)
        assert len(screen.table.columns) == 7  # 80 columns: no name, no date
        await pilot.resize_terminal(120, 40)
        await wait_for(lambda: len(screen.table.columns) == 9, pilot.pause)
        assert screen.table.items == screen.entries
        screen.table.focus()

        # edit: only what changed is sent
        await pilot.press("e")
        form = await screen_on_top(pilot, TrackingFormScreen)
        assert form.query_one("#tf-search-key", Input).disabled
        form.query_one("#tf-recurrence", Input).value = "5"
        form.query_one("#tf-step-terms", Input).value = "sentença, acordo"
        await pilot.press("f10")
        await wait_for(lambda: app.screen is screen, pilot.pause)
        assert form.sent_body == {
            "recurrence": 5,
            "notification_filters": {"step_terms": ["sentença", "acordo"]},
        }
        assert screen.entries[0].recurrence == 5

        # a service without the pause route: said plainly, the screen stays usable
        async def no_pause(tracking_id: str) -> Any:
            raise OperationNotAvailable(405, message="METHOD_NOT_ALLOWED")

        context.trackings.pause = no_pause
        await pilot.press("p")
        await wait_for(lambda: isinstance(app.screen, ConfirmScreen), pilot.pause)
        await pilot.press("y")
        await wait_for(lambda: app.screen is screen, pilot.pause)
        await app.workers.wait_for_complete()
        await pilot.pause()
        notices = [n.message for n in app._notifications]
        assert any("not available on this service" in message for message in notices)
        assert screen.entries[0].status == "created"
        assert screen.entries[0].tracking_id == record.tracking_id
        await pilot.press("u")  # still usable: an active tracking has nothing to resume
        await app.workers.wait_for_complete()
        assert app.screen is screen


async def test_an_app_owned_watch_announces_without_the_screen() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        context, record = await moving_lawsuit_tracked(sandbox, pilot)
        watch = MovementWatch()
        assert await watch.check(context, app)  # nothing ran yet: nothing announced
        assert app._notice_target is None
        await trackings_run(sandbox)
        await watch.check(context, app)
        assert app._notice_target == ("inbox", {})
        assert only_movement(context).tracking_id == record.tracking_id

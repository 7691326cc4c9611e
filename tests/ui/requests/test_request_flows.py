"""Pilot flows of requests: the form, following a request to its end, its responses, cancelling
(real in-process sandbox, frozen clock, virtual waits).
"""

from __future__ import annotations

from textual.widgets import Input, Static

from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.requests.request_form import RequestFormScreen
from lawsuit_tui.ui.requests.request_list import RequestsScreen
from lawsuit_tui.ui.requests.responses import ResponsesScreen
from tests.support.ui_harness import (
    Harness,
    open_requests,
    ready,
    samples,
    settle,
    type_text,
    wait_for,
)

DAY = 86_400.0


async def test_create_a_request_and_see_the_cached_then_the_definitive_response() -> None:
    harness = Harness()
    moving = samples()["moving_lawsuit"]
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await harness.advance(30 * DAY)  # the court moves on; the stored copy stays behind
        await open_requests(pilot)
        await pilot.press("n")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestFormScreen), pilot.pause)
        pilot.app.screen.query_one("#rf-search_key", Input).value = moving
        await pilot.press("f10")
        await wait_for(lambda: isinstance(pilot.app.screen, ResponsesScreen), pilot.pause)
        screen = pilot.app.screen
        assert isinstance(screen, ResponsesScreen)
        await wait_for(lambda: screen.completed, pilot.pause)
        await settle(pilot)
        provisional = [row for row in screen.rows if row.provisional]
        definitive = [row for row in screen.rows if not row.provisional]
        assert provisional and definitive
        assert provisional[0].number < definitive[0].number  # cached first
        assert provisional[0].replaced_by == definitive[0].key
        assert definitive[0].change is not None and definitive[0].change.new_step_ids
        # The list screen shows the request as completed, with its responses counted.
        await pilot.press("escape")
        await settle(pilot)
        requests = pilot.app.screen
        assert isinstance(requests, RequestsScreen)
        record = next(r for r in requests.records if r.request_id == screen.request_id)
        assert str(record.status) == "completed"
        assert (record.responses_count or 0) >= 2
        # The lawsuit now opens on the definitive version, its new steps marked.
        context = await harness.app.context()
        view = context.lawsuits.cached(moving, None)
        assert view is not None and not view.provisional and view.new_step_ids


async def test_a_form_field_says_what_is_wrong_before_sending() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await open_requests(pilot)
        await pilot.press("n")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestFormScreen), pilot.pause)
        form = pilot.app.screen
        assert isinstance(form, RequestFormScreen)
        await type_text(pilot, "123")  # typed: the field checks itself as one types
        form.query_one("#rf-cache_ttl_in_days", Input).value = "999"
        await pilot.press("f10")
        await pilot.pause()
        assert form.sent_body is None  # nothing was sent
        assert form.query_one("#box-search_key").has_class("-invalid")
        assert form.query_one("#box-cache_ttl_in_days").has_class("-invalid")


async def test_secrecy_restricted_explains_and_offers_the_vault() -> None:
    harness = Harness()
    secret = samples()["secret_lawsuit"]
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        context = await harness.app.context()
        from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody

        records = await context.requests.create(
            CreateRequestBody(
                search=SearchBody(search_type="lawsuit_cnj", search_key=secret["code"])
            )
        )
        harness.app.open_request(records[0].request_id)
        await wait_for(lambda: isinstance(pilot.app.screen, ResponsesScreen), pilot.pause)
        screen = pilot.app.screen
        assert isinstance(screen, ResponsesScreen)
        await wait_for(lambda: screen.completed, pilot.pause)
        await settle(pilot)
        errors = [r for r in screen.rows if r.response.application_error is not None]
        assert errors and str(errors[0].response.application_error.code) == "SECRECY_RESTRICTED"  # type: ignore[union-attr]
        screen.table.move_cursor(row=errors[0].number - 1)
        await pilot.pause()
        detail = str(screen.query_one("#detail", Static).content)
        assert "secrecy" in detail.lower() and "vault" in detail.lower()
        await pilot.press("k")
        await wait_for(lambda: pilot.app.current_mode == "vault", pilot.pause)


async def test_cancel_a_running_request_after_confirming() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        harness.clock_gate.clear()  # the request stays running while we look at it
        context = await harness.app.context()
        from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody

        records = await context.requests.create(
            CreateRequestBody(
                search=SearchBody(search_type="lawsuit_cnj", search_key=samples()["big_lawsuit"])
            )
        )
        harness.app.open_request(records[0].request_id)
        await wait_for(lambda: isinstance(pilot.app.screen, ResponsesScreen), pilot.pause)
        screen = pilot.app.screen
        assert isinstance(screen, ResponsesScreen)
        await wait_for(lambda: screen.record is not None, pilot.pause)
        await pilot.press("x")
        await wait_for(lambda: isinstance(pilot.app.screen, ConfirmScreen), pilot.pause)
        await pilot.press("y")
        await wait_for(
            lambda: (
                screen.record is not None
                and str(screen.record.status) in ("cancelling", "cancelled")
            ),
            pilot.pause,
        )
        # D62: the service's answer is {success, time}; the screen says what it did, in words.
        await wait_for(
            lambda: any("no more responses" in n.message for n in pilot.app._notifications),
            pilot.pause,
        )
        harness.clock_gate.set()


async def test_service_validation_errors_are_shown_beside_their_fields() -> None:
    from lawsuit_tui.api.errors import BadRequest
    from lawsuit_tui.domain.errors import ValidationItem

    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        harness.app.push_screen(RequestFormScreen())
        await wait_for(lambda: isinstance(pilot.app.screen, RequestFormScreen), pilot.pause)
        await settle(pilot)
        form = pilot.app.screen
        assert isinstance(form, RequestFormScreen)
        error = BadRequest(
            items=[
                ValidationItem(field="search.cache_ttl_in_days", rule="max", message="too big"),
                ValidationItem(field="search.search_params.filter.side", message="bad side"),
                ValidationItem(field="something_else", message="unknown field"),
            ]
        )
        form._show_service_errors(error)
        await pilot.pause()
        assert form.query_one("#box-cache_ttl_in_days").has_class("-invalid")
        assert form.query_one("#box-side").has_class("-invalid")
        assert "unknown field" in str(form.query_one("#form-error", Static).content)

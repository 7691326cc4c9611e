"""Every form's fields keep their height, whichever forms were opened before, at 80x24.

There is one ``FieldBox`` (``ui/widgets/form.py``). When the request form and the tracking form
each had a class of that name, Textual's CSS type selectors made each one's ``DEFAULT_CSS``
style the other: after the request form had been opened, every field of the tracking,
credential and count forms grew from 2 rows to 3 (the request form's blank row under each
field), and the tracking form from 18 rows of fields to 25.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from lawsuit_tui.ui.count.screen import CountScreen
from lawsuit_tui.ui.requests.request_form import RequestFormScreen
from lawsuit_tui.ui.trackings.tracking_form import TrackingFormScreen
from lawsuit_tui.ui.vault.credential_form import CredentialFormScreen
from lawsuit_tui.ui.widgets.form import FieldBox
from tests.support.ui_harness import ContextClockHarness, settle, wait_for

SIZE = (80, 24)
SYSTEMS = ["*", "ESAJ - TJSP - 1º grau"]


def _push(make: Callable[[], Any]) -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def show(pilot: Pilot[Any]) -> None:
        pilot.app.push_screen(make())

    return show


async def _count(pilot: Pilot[Any]) -> None:
    app: Any = pilot.app
    app.goto("count")


# form -> (how to show it, a field of it, the container of its fields, the field's rows)
FORMS: dict[str, tuple[Callable[[Pilot[Any]], Awaitable[None]], str, str, int]] = {
    # label and input, and the blank row the request form leaves under each field
    "request": (_push(RequestFormScreen), "#box-search_key", "#form", 3),
    # label and input; the modal forms space their fields with a margin
    "tracking": (_push(TrackingFormScreen), "#box-search-key", "#form-body", 2),
    "credential": (
        _push(lambda: CredentialFormScreen(SYSTEMS, system_name="*")),
        "#box-username",
        "#form-body",
        2,
    ),
    "count": (_count, "#box-budget-years", "#count-form", 2),
}


async def _measure(pilot: Pilot[Any], form: str) -> tuple[int, int, int]:
    """(rows of the field, rows of all the form's fields, how many fields) of ``form``."""
    app: Any = pilot.app
    show, field, container, _rows = FORMS[form]
    await show(pilot)
    await wait_for(lambda: bool(app.screen.query(field)), pilot.pause)
    await settle(pilot)
    screen = app.screen
    box = screen.query_one(field, FieldBox)
    measured = (
        box.outer_size.height,
        screen.query_one(container).virtual_size.height,
        len(screen.query(FieldBox)),
    )
    if isinstance(screen, CountScreen):
        app.goto("lookup")
    else:
        app.pop_screen()
    await settle(pilot)
    return measured


async def _measure_in_turn(forms: list[str]) -> dict[str, tuple[int, int, int]]:
    sandbox = ContextClockHarness()
    found: dict[str, tuple[int, int, int]] = {}
    async with sandbox.app.run_test(size=SIZE) as pilot:
        await wait_for(lambda: sandbox.app.services is not None, pilot.pause)
        await settle(pilot)
        for form in forms:
            found[form] = await _measure(pilot, form)
    return found


@pytest.mark.parametrize("form", list(FORMS))
async def test_each_form_shows_its_fields_at_their_height(form: str) -> None:
    alone = await _measure_in_turn([form])
    rows, _all_rows, fields = alone[form]
    assert rows == FORMS[form][3]
    assert fields > 1


async def test_opening_one_form_does_not_change_another() -> None:
    forms = list(FORMS)
    alone = {form: (await _measure_in_turn([form]))[form] for form in forms}
    after_each_other = await _measure_in_turn(forms)
    in_reverse = await _measure_in_turn(list(reversed(forms)))
    assert after_each_other == alone
    assert in_reverse == alone
    assert {form: rows for form, (rows, _all, _n) in alone.items()} == {
        "request": 3,
        "tracking": 2,
        "credential": 2,
        "count": 2,
    }

"""The inbox in the states its snapshot tests and the README show, on the in-process sandbox.

``a_morning`` tracks a dozen lawsuits of the sandbox's world that keep moving (three tiers,
some with step terms), moves the sandbox's clock one day on and lets the inbox poll: the
movements a morning would bring. Each scenario is ``scenario(harness, pilot)``, as in
``scripts/screenshot_scenarios.py``.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from lawsuit_tui.sandbox.world.systems import DOWN_COURTS, RATE_LIMITED_COURTS
from lawsuit_tui.ui.inbox.dialogs import InboxExportDialog, InboxFilterDialog
from lawsuit_tui.ui.inbox.screen import InboxScreen
from tests.support.ui_harness import (
    ContextClockHarness,
    open_destination,
    screen_on_top,
    services_open,
    settle,
    shared_world,
    track,
)

DAY = 86_400.0
TIERS = ("hot", "warm", "cold")
TERMS: dict[str, list[str]] = {"hot": [], "warm": ["conclusos", "decisão", "intimação"], "cold": []}


def moving_lawsuits(count: int) -> list[str]:
    """CNJ numbers of public, first-instance lawsuits of the world that keep moving (at
    least every other day), in a working court: the same ones on every run."""
    found: list[str] = []
    for record in shared_world().records():
        instance = record.instances[-1]
        if (
            len(record.instances) == 1
            and 0 < instance.period_hours <= 36
            and record.secrecy == 0
            and record.court.acronym not in DOWN_COURTS | RATE_LIMITED_COURTS
        ):
            found.append(record.code)
        if len(found) == count:
            break
    return found


async def a_morning(sandbox: ContextClockHarness, pilot: Pilot[Any], count: int = 12) -> Any:
    """Trackings of ``count`` moving lawsuits, a day later, polled: the inbox's context."""
    context = await services_open(pilot)
    for number, code in enumerate(moving_lawsuits(count)):
        tier = TIERS[number % len(TIERS)]
        filters = {"notification_filters": {"step_terms": TERMS[tier]}} if TERMS[tier] else {}
        await track(sandbox, code, recurrence=1, tags={"tier": tier}, **filters)
    await sandbox.advance(DAY + 60)
    await sandbox.advance(10)
    await context.inbox.poll()
    return context


async def open_inbox(pilot: Pilot[Any]) -> InboxScreen:
    return await open_destination(pilot, "inbox", InboxScreen, lambda screen: screen.loaded)


async def finish(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    pilot.app.clear_notifications()
    await pilot.pause()


async def inbox_empty(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    await services_open(pilot)
    await open_inbox(pilot)
    await finish(pilot)


async def inbox_morning(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    await a_morning(sandbox, pilot)
    await open_inbox(pilot)
    await pilot.press("down", "space", "down", "space", "down")
    await finish(pilot)


async def inbox_searched(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    await a_morning(sandbox, pilot)
    screen = await open_inbox(pilot)
    await pilot.press("slash")
    screen.query_one("#inbox-search", Input).value = "conclusos"
    await settle(pilot)
    await pilot.press("enter")
    await finish(pilot)


async def inbox_filters(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    await a_morning(sandbox, pilot)
    await open_inbox(pilot)
    await pilot.press("f")
    await screen_on_top(pilot, InboxFilterDialog)
    await finish(pilot)


async def inbox_export(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    await a_morning(sandbox, pilot)
    await open_inbox(pilot)
    await pilot.press("e")
    dialog = await screen_on_top(pilot, InboxExportDialog)
    dialog.query_one("#ie-folder", Input).value = "~/exports"
    await finish(pilot)

"""The UI tests' harness: the app on the real in-process sandbox, a frozen clock, virtual waits.

The sandbox clock moves only when something waits: the services' ``sleep`` advances it by the
time asked and runs what fell due, so following a request goes through its whole life
(pending, started, cached response, court response, completed) in milliseconds of real time,
the same way on every run. Times on screen come from that clock, so snapshots are stable.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, TypeVar

import httpx
import pytest
from textual.screen import Screen
from textual.widgets import Input

from lawsuit_tui.api.client import BaseUrls
from lawsuit_tui.config import Settings, load_settings
from lawsuit_tui.domain.bodies import TrackingCreateBody
from lawsuit_tui.domain.inbox import InboxFilter, Movement
from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.sandbox.app import create_app, drain
from lawsuit_tui.sandbox.clock import SandboxClock
from lawsuit_tui.services.context import SANDBOX_ROOT, ServiceContext
from lawsuit_tui.ui.app import LawsuitApp
from lawsuit_tui.ui.lawsuit.screen import LawsuitTreeScreen
from lawsuit_tui.ui.lookup.screen import LookupScreen
from lawsuit_tui.ui.requests.request_list import RequestsScreen
from lawsuit_tui.ui.requests.responses import ResponsesScreen
from lawsuit_tui.ui.trackings.portfolio_screen import PortfolioScreen
from lawsuit_tui.ui.widgets.paged_table import PagedTable
from tests.support.samples import samples, shared_world
from tests.support.waiting import wait_for

__all__ = [
    "SIZES",
    "ContextClockHarness",
    "Harness",
    "ScreenT",
    "Steps",
    "lawsuit_data",
    "look_up",
    "moving_lawsuit_tracked",
    "only_movement",
    "open_destination",
    "open_from_lookup",
    "open_new_request",
    "open_requests",
    "open_trackings",
    "ready",
    "related_sample",
    "responses_completed",
    "run_dossier",
    "samples",
    "scenario_cases",
    "screen_on_top",
    "services_open",
    "settle",
    "shared_world",
    "snap",
    "snap_in_language",
    "snap_scenario",
    "track",
    "trackings_run",
    "type_text",
    "wait_for",
]


class Harness:
    """One sandbox over the shared world, its context and the app built over them."""

    def __init__(self, settings: Settings | None = None, **app_options: Any) -> None:
        self.clock = SandboxClock.frozen()
        self.sandbox = create_app(clock=self.clock, world=shared_world())
        self.settings = settings or load_settings()
        self.context: ServiceContext | None = None
        self.opened = asyncio.Event()
        self.hold_open = False
        """When True, opening the context waits until ``release()`` (the loading state)."""
        self._release = asyncio.Event()
        self.clock_gate = asyncio.Event()
        """Cleared, it stops time: every wait of the services waits for it to be set."""
        self.clock_gate.set()
        self.app = LawsuitApp(
            self.settings,
            context_factory=self._open,
            remember_preferences=False,
            **app_options,
        )

    async def _virtual_sleep(self, seconds: float) -> None:
        await self.clock_gate.wait()
        self.clock.advance(max(seconds, 0.0))
        await drain(self.sandbox)

    def _now(self) -> datetime:
        return self.clock.now()

    async def _open(self) -> ServiceContext:
        if self.hold_open:
            await self._release.wait()
        self.context = await ServiceContext.open(
            self.settings,
            read_only=self.app.read_only,
            transport=httpx.ASGITransport(app=self.sandbox),
            base_urls=BaseUrls.from_root(SANDBOX_ROOT),
            sleep=self._virtual_sleep,
            now=self._now,
        )
        self.opened.set()
        return self.context

    def release(self) -> None:
        self._release.set()

    async def advance(self, seconds: float) -> None:
        await self._virtual_sleep(seconds)


class ContextClockHarness(Harness):
    """The harness, with the clock advanced the way the app would: through the context."""

    async def advance(self, seconds: float) -> None:
        context = await self.app.context()
        await context.advance_sandbox_clock(seconds)
        await self._virtual_sleep(0)  # run what fell due and wait for the tasks it started


def lawsuit_data(code: str, steps: int) -> dict[str, Any]:
    """A small lawsuit as the service sends it: ``steps`` steps, first instance."""
    return {
        "code": code,
        "instance": 1,
        "steps": [{"step_id": f"s{n}", "content": f"step {n}"} for n in range(steps)],
    }


async def settle(pilot: Any) -> None:
    """Let every worker finish and the screen redraw (Textual 8 delays screen switches)."""
    await _workers_done(pilot)
    await pilot.pause()
    await pilot.pause(0.06)
    await _workers_done(pilot)
    await pilot.pause()


async def _workers_done(pilot: Any) -> None:
    """Wait for every worker; one cancelled meanwhile is done too (an exclusive worker is
    cancelled when a newer one of its group starts: the inbox reloading after a poll)."""
    from textual.worker import WorkerCancelled

    while True:
        try:
            await pilot.app.workers.wait_for_complete()
            return
        except WorkerCancelled:
            continue  # wait for those still running, and the newer one


async def ready(pilot: Any) -> None:
    """Wait until the app has opened its service context and the first screen loaded."""
    await wait_for(lambda: pilot.app.services is not None, pilot.pause)
    await settle(pilot)


async def services_open(pilot: Any) -> ServiceContext:
    """Wait until the app has opened its service context (and no more: ``ready`` also lets
    the first screen load); that context."""
    await wait_for(lambda: pilot.app.services is not None, pilot.pause)
    context: ServiceContext = await pilot.app.context()
    return context


async def type_text(pilot: Any, text: str) -> None:
    """Type into the focused widget, character by character, as a person would."""
    await pilot.press(*text)


def related_sample() -> tuple[str, str]:
    """A public lawsuit of a working court with a related lawsuit: (code, related code)."""
    from lawsuit_tui.sandbox.world.systems import DOWN_COURTS, RATE_LIMITED_COURTS

    for record in shared_world().records():
        related = getattr(record, "related", None)
        if (
            related
            and record.secrecy == 0
            and record.court.acronym not in DOWN_COURTS | RATE_LIMITED_COURTS
            and all(i.stored_at is not None for i in record.instances)
            and len(record.instances) == 1
        ):
            return record.code, related[0][0]
    raise LookupError("no lawsuit with a related one in the sandbox world")


async def responses_completed(pilot: Any) -> ResponsesScreen:
    """Wait for the responses screen of a request just opened and for the request's end."""
    await wait_for(lambda: isinstance(pilot.app.screen, ResponsesScreen), pilot.pause)
    screen = pilot.app.screen
    assert isinstance(screen, ResponsesScreen)
    await wait_for(lambda: screen.completed, pilot.pause)
    await settle(pilot)
    return screen


async def open_new_request(
    pilot: Any, harness: Harness, body: Any, *, advance: float = 0.0
) -> ResponsesScreen:
    """Create a request (``body``, a CreateRequestBody) through the app's services, let the
    sandbox run ``advance`` seconds, and open its responses once they are all in."""
    context = await pilot.app.context()
    [record] = await context.requests.create(body)
    if advance:
        await harness.advance(advance)
    pilot.app.open_request(record.request_id)
    return await responses_completed(pilot)


ScreenT = TypeVar("ScreenT", bound=Screen[Any])


async def screen_on_top(pilot: Any, screen_type: type[ScreenT]) -> ScreenT:
    """Wait until the app's screen on top is a ``screen_type`` (one a key or a call just
    opened); that screen."""
    await wait_for(lambda: isinstance(pilot.app.screen, screen_type), pilot.pause)
    screen = pilot.app.screen
    assert isinstance(screen, screen_type)
    return screen


async def open_destination(
    pilot: Any, destination: str, screen_type: type[ScreenT], loaded: Callable[[ScreenT], bool]
) -> ScreenT:
    """Go to ``destination`` (a place of ``ui/navigation.py``), wait until its screen is
    ``loaded`` and let it settle."""
    pilot.app.goto(destination)
    screen = await screen_on_top(pilot, screen_type)
    await wait_for(lambda: loaded(screen), pilot.pause)
    await settle(pilot)
    return screen


async def open_trackings(pilot: Any) -> PortfolioScreen:
    """Go to the trackings screen and wait until it has loaded from the service."""
    return await open_destination(
        pilot, "trackings", PortfolioScreen, lambda screen: screen.loaded_from_service
    )


async def open_requests(pilot: Any) -> RequestsScreen:
    """Go to the requests screen (F3) and let it settle."""
    await pilot.press("f3")
    await wait_for(lambda: isinstance(pilot.app.screen, RequestsScreen), pilot.pause)
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, RequestsScreen)
    return screen


async def track(harness: Harness, key: str, **extra: Any) -> TrackingRecord:
    """Register a tracking of ``key``, a CNJ code (it has dots) or else a CPF, with ``extra``
    fields of the body (recurrence, tags...), through the app's services: the screens learn
    of it when they next load."""
    search_type = "lawsuit_cnj" if "." in key else "cpf"
    body = TrackingCreateBody.model_validate(
        {"search": {"search_type": search_type, "search_key": key}, **extra}
    )
    context = await harness.app.context()
    return await context.trackings.create(body)


async def moving_lawsuit_tracked(
    harness: Harness, pilot: Any
) -> tuple[ServiceContext, TrackingRecord]:
    """Once the app's services are open, a tracking of the samples' moving lawsuit (whose
    movement a run finds two days on: ``trackings_run``); the context and the tracking."""
    context = await services_open(pilot)
    return context, await track(harness, samples()["moving_lawsuit"])


async def trackings_run(harness: Harness) -> None:
    """Two days on the sandbox's clock, then the ten seconds in which the request of a
    tracking's run completes (D15): the moving lawsuit of the samples has moved, and a daily
    tracking of it has found the movement."""
    await harness.advance(2 * 86_400.0)
    await harness.advance(10)


def only_movement(context: ServiceContext) -> Movement:
    """The one movement of the inbox (the test fails when there are none or several)."""
    [movement_id] = context.inbox.select(InboxFilter())
    movement = context.inbox.get(movement_id)
    assert movement is not None
    return movement


# --- snapshots of a screen at both sizes ------------------------------------------------------

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
"""Every snapshot of a screen is taken at 80x24 and at 120x40."""

Steps = Callable[[Any, Harness], Awaitable[None]]
"""What a snapshot test does to the app before the picture (``steps(pilot, harness)``)."""


def snap(snap_compare: Any, size: tuple[int, int], steps: Steps, *, hold: bool = False) -> bool:
    """The snapshot of a fresh harness's app after ``steps``; ``hold`` takes it while the
    service context is still opening (the loading state)."""
    harness = Harness()
    harness.hold_open = hold

    async def run_before(pilot: Any) -> None:
        if not hold:
            await ready(pilot)
        await steps(pilot, harness)
        if not hold:
            await settle(pilot)

    result: bool = snap_compare(harness.app, terminal_size=size, run_before=run_before)
    return result


ScenarioSteps = Callable[[ContextClockHarness, Any], Awaitable[None]]
"""A scenario of ``scripts/screenshot_scenarios.py``: ``scenario(harness, pilot)``."""


def scenario_cases(*scenarios: ScenarioSteps) -> list[Any]:
    """Each scenario at 80x24 and at 120x40, as parameters named ``<scenario>-<size>``."""
    return [
        pytest.param(scenario, size.values[0], id=f"{scenario.__name__}-{size.id}")
        for scenario in scenarios
        for size in SIZES
    ]


def snap_scenario(snap_compare: Any, scenario: ScenarioSteps, size: tuple[int, int]) -> bool:
    """The snapshot of a fresh context-clock harness's app after ``scenario``."""
    harness = ContextClockHarness()

    async def run_before(pilot: Any) -> None:
        await scenario(harness, pilot)

    result: bool = snap_compare(harness.app, terminal_size=size, run_before=run_before)
    return result


async def look_up(pilot: Any, text: str) -> None:
    """Search for ``text`` from the lookup screen and wait for the answer."""
    pilot.app.screen.query_one("#search", Input).value = text
    await pilot.press("enter")
    await settle(pilot)


async def open_from_lookup(pilot: Any, text: str, *, type_it: bool = False) -> LawsuitTreeScreen:
    """Look ``text`` up (typed key by key with ``type_it``) and open the first lawsuit found."""
    app = pilot.app
    if type_it:
        await type_text(pilot, text)
    else:
        app.screen.query_one("#search", Input).value = text
    await pilot.press("enter")
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, LookupScreen)
    table = screen.query_one("#results", PagedTable)
    assert table.display and table.row_count >= 1
    await pilot.press("enter")
    await wait_for(lambda: isinstance(app.screen, LawsuitTreeScreen), pilot.pause)
    await settle(pilot)
    lawsuit_screen = app.screen
    assert isinstance(lawsuit_screen, LawsuitTreeScreen)
    return lawsuit_screen


# --- dossiers (F9) ---------------------------------------------------------------------------


async def run_dossier(pilot: Any, document: str, *, confirm: bool = True) -> Any:
    """Open the dossier of ``document`` and, when a paid run is asked about, answer
    ``confirm``; returns the DossierScreen once it has loaded (and its run ended)."""
    from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
    from lawsuit_tui.ui.dossier.screen import DossierScreen

    app = pilot.app
    app.open_dossier(document)
    await wait_for(lambda: any(isinstance(s, DossierScreen) for s in app.screen_stack), pilot.pause)
    screen = next(s for s in reversed(app.screen_stack) if isinstance(s, DossierScreen))
    await wait_for(lambda: screen.loaded, pilot.pause)
    await settle(pilot)
    if isinstance(app.screen, ConfirmScreen):
        await pilot.press("y" if confirm else "n")
        await settle(pilot)
    await wait_for(lambda: not screen.running, pilot.pause)
    await settle(pilot)
    return screen


def snap_in_language(snap_compare: Any, size: tuple[int, int], steps: Steps, language: str) -> bool:
    """The snapshot of a fresh harness's app after ``steps``, in ``language`` (notices
    cleared: they come and go with time)."""
    from lawsuit_tui.ui.language import interface_language

    with interface_language(language):
        harness = Harness()

        async def run_before(pilot: Any) -> None:
            await ready(pilot)
            await steps(pilot, harness)
            await settle(pilot)
            pilot.app.clear_notifications()
            await pilot.pause()

        result: bool = snap_compare(harness.app, terminal_size=size, run_before=run_before)
    return result

"""Benchmark of a dossier reopened from the cache (issue 17: "renders every section in under
1 s once its data is cached").

The sandbox's "person with many lawsuits" (sample ``busy_person``: 195 lawsuits, warrants, an
execution, registration data with partners) is run once into a temporary cache, then:

- **assembled**: ``DossierService.kept`` puts the dossier together from the cache alone
  (datalake answers, the listing's lawsuits validated, the requests' responses), median of
  ``--runs``; the baseline in the same run is the lookup's own cached read of the same
  listing (``LookupService.cached``), quoted as a ratio;
- **opened**: a headless app (120x40) opens the dossier screen on that cache: from the push of
  the screen to every section built (identity, the four charts, the lawsuits table, warrants,
  decision) and the overview drawn, median of ``--runs`` fresh screens after a warm-up,
  target < 1 s;
- **sections**: then each other section shown in turn (keys 2 to 6, each drawn), median.

Options: --runs=N (default 5).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from lawsuit_tui.api.client import BaseUrls
from lawsuit_tui.config import Settings
from lawsuit_tui.sandbox.app import create_app, drain
from lawsuit_tui.sandbox.clock import SandboxClock
from lawsuit_tui.sandbox.world import World
from lawsuit_tui.services.context import SANDBOX_ROOT, ServiceContext

TARGET_SECONDS = 1.0


async def _context(cache_dir: Path, sandbox: Any, clock: SandboxClock) -> ServiceContext:
    async def sleep(seconds: float) -> None:
        clock.advance(seconds)
        await drain(sandbox)

    return await ServiceContext.open(
        Settings(cache_dir=cache_dir),
        transport=httpx.ASGITransport(app=sandbox),
        base_urls=BaseUrls.from_root(SANDBOX_ROOT),
        sleep=sleep,
        now=clock.now,
    )


async def _prepare(cache_dir: Path) -> tuple[str, Any, SandboxClock]:
    clock = SandboxClock.frozen()
    world = World.shared(7)
    sandbox = create_app(clock=clock, world=world)
    document = str(world.samples()["busy_person"])
    context = await _context(cache_dir, sandbox, clock)
    try:
        plan = await asyncio.to_thread(context.dossiers.plan, context.lookup.parse(document))
        dossier = await context.dossiers.run(plan)
        await context.dossiers.remember_name(dossier)
    finally:
        await context.aclose()
    return document, sandbox, clock


async def _assembled(
    cache_dir: Path, sandbox: Any, clock: SandboxClock, document: str, runs: int
) -> tuple[list[float], list[float]]:
    context = await _context(cache_dir, sandbox, clock)
    key = context.lookup.parse(document)
    ours, base = [], []
    try:
        for _ in range(runs):
            started = time.perf_counter()
            dossier = await asyncio.to_thread(context.dossiers.kept, key)
            ours.append(time.perf_counter() - started)
            assert dossier is not None and dossier.lawsuits
            started = time.perf_counter()
            await asyncio.to_thread(context.lookup.cached, key)
            base.append(time.perf_counter() - started)
    finally:
        await context.aclose()
    return ours, base


async def _rendered(
    cache_dir: Path, sandbox: Any, clock: SandboxClock, document: str, runs: int
) -> tuple[list[float], list[float]]:
    """For each run: from the push of the screen to every section built and the overview
    drawn; then from there until each of the other sections has been shown in turn."""
    from lawsuit_tui.ui.app import LawsuitApp
    from lawsuit_tui.ui.dossier.screen import TABS, DossierScreen

    async def factory() -> ServiceContext:
        return await _context(cache_dir, sandbox, clock)

    app = LawsuitApp(
        Settings(cache_dir=cache_dir), context_factory=factory, remember_preferences=False
    )
    # The tabs' underline slides for 0.3 s: drawing, not waiting, is what is measured.
    app.animation_level = "none"
    opened: list[float] = []
    shown: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        while app.services is None:
            await pilot.pause(0.01)
        await app.workers.wait_for_complete()
        for _ in range(runs + 1):  # the first run warms the imports (plot library, CSS)
            started = time.perf_counter()
            app.open_dossier(document)
            # Polled every millisecond: an event set by the screen would be a hook in the app
            # for a benchmark's sake.
            while not (  # noqa: ASYNC110
                isinstance(app.screen, DossierScreen) and app.screen.dossier is not None
            ):
                await asyncio.sleep(0.001)
            screen = app.screen
            await pilot.pause()
            first = time.perf_counter()
            for number in range(2, len(TABS) + 1):
                await pilot.press(str(number))
                await pilot.pause()
            await screen.workers.wait_for_complete()
            done = time.perf_counter()
            opened.append(first - started)
            shown.append(done - first)
            await pilot.press("escape")
            await pilot.pause(0.05)
    return opened[1:], shown[1:]


def main(argv: list[str]) -> int:
    runs = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--runs=")), 5)
    with tempfile.TemporaryDirectory(prefix="bench-dossier-") as tmp:
        cache_dir = Path(tmp)
        document, sandbox, clock = asyncio.run(_prepare(cache_dir))
        ours, base = asyncio.run(_assembled(cache_dir, sandbox, clock, document, runs))
        opened, switched = asyncio.run(_rendered(cache_dir, sandbox, clock, document, runs))
    assembled = statistics.median(ours)
    lookup = statistics.median(base)
    print(
        f"dossier assembled from the cache: {assembled * 1000:.0f} ms median of {runs} "
        f"(the lookup's cached read of the same listing: {lookup * 1000:.0f} ms, "
        f"ratio {assembled / lookup:.2f})"
    )
    first = statistics.median(opened)
    met = first < TARGET_SECONDS
    print(
        f"dossier opened, every section built, the overview drawn: {first * 1000:.0f} ms "
        f"median of {runs} (min {min(opened) * 1000:.0f}, max {max(opened) * 1000:.0f}; "
        f"target < {TARGET_SECONDS * 1000:.0f} ms) {'met' if met else 'MISSED'}"
    )
    rest = statistics.median(switched)
    print(
        f"the five other sections shown in turn (keys 2-6, each drawn): {rest * 1000:.0f} ms "
        f"median of {runs}, {rest * 200:.0f} ms a section"
    )
    return 0 if met else 1

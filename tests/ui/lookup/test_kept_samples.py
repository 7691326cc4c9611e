"""The sandbox's samples on the lookup screen before the services open (issue 19.15, D185)."""

from __future__ import annotations

from textual.widgets import OptionList

from lawsuit_tui.sandbox.app import create_app, sandbox_state
from lawsuit_tui.sandbox.clock import SandboxClock
from lawsuit_tui.sandbox.records import KeptSamples
from lawsuit_tui.sandbox.world.samples import SAMPLES_VERSION
from lawsuit_tui.services.paths import state_path_for
from lawsuit_tui.ui.lookup.screen import LookupScreen
from tests.support.samples import shared_world
from tests.support.ui_harness import Harness, samples, wait_for


async def _keep_samples(harness: Harness) -> None:
    """A sandbox kept where the app's sandbox keeps it, its samples kept with it."""
    settings = harness.settings
    kept = create_app(
        clock=SandboxClock.frozen(),
        world=shared_world(),
        state_path=state_path_for(settings.cache_dir, settings.sandbox.seed),
    )
    state = sandbox_state(kept)
    async with state.transaction():
        state.samples = KeptSamples(SAMPLES_VERSION, samples())
    await state.aclose()


def _shown(screen: LookupScreen) -> list[str]:
    options = screen.query_one("#suggestions", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_the_kept_samples_show_while_the_services_open() -> None:
    harness = Harness()
    harness.hold_open = True  # the services never open during this test
    await _keep_samples(harness)
    async with harness.app.run_test(size=(80, 24)) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, LookupScreen)
        await wait_for(lambda: "Sandbox samples" in _shown(screen), pilot.pause)
        assert harness.app.services is None
        shown = "\n".join(_shown(screen))
        assert samples()["busy_person"][:3] in shown
        harness.release()


async def test_without_kept_samples_the_screen_waits_for_the_service() -> None:
    harness = Harness()
    harness.hold_open = True
    async with harness.app.run_test(size=(80, 24)) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, LookupScreen)
        await pilot.pause()  # the first frame and what follows it: the file was looked at
        await pilot.pause()
        assert "Sandbox samples" not in _shown(screen)
        harness.release()
        await wait_for(lambda: "Sandbox samples" in _shown(screen), pilot.pause)

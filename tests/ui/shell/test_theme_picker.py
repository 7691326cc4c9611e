"""The theme picker previews a theme without saving it, and saves the one chosen."""

from __future__ import annotations

from typing import Any

from textual.command import CommandPalette

from lawsuit_tui.config import read_config_file
from tests.support.ui_harness import Harness, ready, wait_for


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

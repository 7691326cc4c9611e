"""The shell: first frame imports, navigation, help, palette, themes, keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.binding import Binding
from textual.command import CommandPalette

from lawsuit_tui.config import load_settings, read_config_file
from lawsuit_tui.ui.app import LawsuitApp
from lawsuit_tui.ui.dialogs.help import HelpScreen, binding_rows
from lawsuit_tui.ui.lookup.screen import LookupScreen
from lawsuit_tui.ui.navigation import DESTINATIONS, Destination
from lawsuit_tui.ui.requests.request_list import RequestsScreen
from tests.support.python_child import probe_report
from tests.support.ui_harness import Harness, open_requests, ready, settle, wait_for

FORBIDDEN_KEYS = {"ctrl+a", "ctrl+b", "ctrl+s", "ctrl+enter", "ctrl+z", "ctrl+backslash"}

FIRST_FRAME_PROBE = """
import json, sys
from lawsuit_tui.config import load_settings
from lawsuit_tui.ui.app import LawsuitApp
app = LawsuitApp(load_settings())
print(json.dumps(sorted(m for m, v in sys.modules.items() if v is not None)))  # None: blocked
"""


def test_building_the_app_loads_no_service_sandbox_or_http_module() -> None:
    # The first frame must not wait for them: they are imported by the worker that opens
    # the service context, after the first frame.
    modules = probe_report(FIRST_FRAME_PROBE)
    heavy = (
        "lawsuit_tui.services",
        "lawsuit_tui.sandbox",
        "lawsuit_tui.store",
        "httpx",
        "fastapi",
        "starlette",
        "tinydb",
        # The dossier's charts: imported when the first chart is drawn (ui/dossier/charts.py).
        "textual_plotext",
        "plotext",
    )
    loaded = [m for m in modules if any(m == h or m.startswith(h + ".") for h in heavy)]
    assert loaded == []


def _all_bindings() -> list[Binding]:
    """Every binding of every class in lawsuit_tui.ui (screens, dialogs, widgets)."""
    import importlib
    import inspect
    import pkgutil

    import lawsuit_tui.ui as ui_package

    found: list[Binding] = []
    for module_info in pkgutil.walk_packages(ui_package.__path__, "lawsuit_tui.ui."):
        module = importlib.import_module(module_info.name)
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            for binding in cls.__dict__.get("BINDINGS", []):
                assert isinstance(binding, Binding), (cls, binding)
                found.append(binding)
    ids = {binding.id for binding in found}
    assert {"trackings.new", "vault.register", "count.submit", "webhooks.toggle"} <= ids
    return found


def test_every_binding_has_an_id_documented_and_avoids_taken_keys() -> None:
    from pathlib import Path

    docs = (Path(__file__).parents[3] / "docs" / "keys.md").read_text(encoding="utf-8")
    for binding in _all_bindings():
        assert binding.id, binding
        assert f"`{binding.id}`" in docs, binding.id
        keys = {key.strip() for key in binding.key.split(",")}
        assert not keys & FORBIDDEN_KEYS, binding


def test_every_destination_has_a_key_and_a_screen_path() -> None:
    keys = [d.key for d in DESTINATIONS]
    assert len(set(keys)) == len(keys)
    assert {d.id for d in DESTINATIONS} >= {"lookup", "requests", "trackings", "vault", "count"}


def test_a_destination_whose_module_is_missing_fails_loudly() -> None:
    missing = Destination("nowhere", "f12", "Nowhere", "lawsuit_tui.ui.nowhere.screen:Nope")
    with pytest.raises(ModuleNotFoundError, match=r"lawsuit_tui\.ui\.nowhere"):
        missing.load()


def test_a_destination_whose_class_is_missing_fails_loudly() -> None:
    renamed = Destination("lookup", "f2", "Lookup", "lawsuit_tui.ui.lookup.screen:OldLookup")
    with pytest.raises(ImportError, match="OldLookup"):
        renamed.load()


async def test_visiting_a_destination_that_cannot_be_imported_fails_loudly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A renamed or broken module is an error the user and the tests see, not a stub."""
    import lawsuit_tui.ui.app as app_module
    import lawsuit_tui.ui.navigation as navigation

    broken = Destination("broken", "f12", "Broken", "lawsuit_tui.ui.no_such_feature:Screen")
    destinations = (*DESTINATIONS, broken)
    monkeypatch.setattr(navigation, "DESTINATIONS", destinations)
    monkeypatch.setattr(app_module, "DESTINATIONS", destinations)
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        with pytest.raises(ModuleNotFoundError, match="no_such_feature"):
            pilot.app.goto("broken")


async def test_opens_on_lookup_with_the_search_field_focused_and_loads_after() -> None:
    harness = Harness()
    harness.hold_open = True
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(pilot.app.screen, LookupScreen)
        assert pilot.app.focused is not None and pilot.app.focused.id == "search"
        assert harness.app.services is None
        assert harness.app.status_snapshot.phase == "starting"
        harness.release()
        await ready(pilot)
        assert harness.app.status_snapshot.phase == "ready"
        assert harness.app.status_snapshot.mode == "sandbox"


async def test_every_destination_is_one_key_away_and_in_the_palette() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        for destination in DESTINATIONS:
            await pilot.press(destination.key)
            await settle(pilot)
            assert harness.app.current_mode == destination.id
            assert isinstance(pilot.app.screen, destination.load())
        await pilot.press("f2")
        await settle(pilot)
        await pilot.press("ctrl+p")
        await wait_for(lambda: isinstance(pilot.app.screen, CommandPalette), pilot.pause)
        await pilot.press(*"requests")
        await settle(pilot)
        await pilot.press("enter")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestsScreen), pilot.pause)


async def test_help_lists_the_keys_of_the_current_screen() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await open_requests(pilot)
        rows = binding_rows(pilot.app.screen)
        descriptions = {description for _where, _key, description in rows}
        assert "New request" in descriptions and "Help" in descriptions
        await pilot.press("f1")
        await wait_for(lambda: isinstance(pilot.app.screen, HelpScreen), pilot.pause)
        await pilot.press("escape")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestsScreen), pilot.pause)


@pytest.mark.parametrize("theme", ["nord", "gruvbox"])
async def test_theme_is_applied_and_remembered(theme: str, isolated_config: Any) -> None:
    harness = Harness()
    harness.app._remember = True
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        harness.app.choose_theme(theme)  # what picking it in the theme picker does
        await wait_for(lambda: isolated_config.exists(), pilot.pause)
        await settle(pilot)
    assert read_config_file(isolated_config)["theme"] == theme
    again = LawsuitApp(load_settings(), remember_preferences=False)
    assert again.theme == theme


def _write_config(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


async def test_a_broken_config_ends_the_app_with_code_2(isolated_config: Path) -> None:
    """Started from Preferences (as the CLI does), the app validates the config after its
    first frame and, like every other command, exits 2 naming the problem."""
    from lawsuit_tui.preferences import read_preferences
    from lawsuit_tui.ui.app import LawsuitApp

    _write_config(isolated_config, '[rate_limit]\ncalls = "many"\n')
    app = LawsuitApp(read_preferences(), remember_preferences=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert app.return_code == 2

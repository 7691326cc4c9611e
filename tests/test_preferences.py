"""The first-frame preferences: read without pydantic, never raising, same precedence."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lawsuit_tui.config import load_settings
from lawsuit_tui.preferences import read_preferences


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_environment_wins_over_the_file(isolated_config: Path) -> None:
    _write(isolated_config, 'theme = "nord"\nlanguage = "pt-BR"\n[keymap]\n"app.help" = "f12"\n')
    env = {"LAWSUIT_TUI_CONFIG": str(isolated_config), "LAWSUIT_TUI_THEME": "gruvbox"}
    prefs = read_preferences(env)
    assert (prefs.theme, prefs.language, prefs.keymap) == ("gruvbox", "pt-BR", {"app.help": "f12"})
    assert prefs.mode == "sandbox"


def test_agrees_with_the_validated_settings(
    isolated_config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(isolated_config, 'theme = "dracula"\napi_key = "k-123456789"\n')
    monkeypatch.setenv("LAWSUIT_TUI_LANGUAGE", "pt-BR")
    prefs, settings = read_preferences(), load_settings()
    assert (prefs.theme, prefs.language, prefs.mode) == (
        settings.theme,
        settings.language,
        settings.mode,
    )


def test_where_the_sandbox_keeps_its_samples_agrees_with_the_settings(
    isolated_config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # D185: the lookup screen reads the sandbox's kept samples before the settings load.
    _write(isolated_config, f'cache_dir = "{tmp_path / "c"}"\n[sandbox]\nseed = 11\n')
    prefs, settings = read_preferences(), load_settings()
    assert (prefs.cache_root(), prefs.sandbox_seed) == (settings.cache_dir, 11)
    monkeypatch.setenv("LAWSUIT_TUI_SANDBOX__SEED", "12")
    monkeypatch.setenv("LAWSUIT_TUI_CACHE_DIR", str(tmp_path / "d"))
    prefs, settings = read_preferences(), load_settings()
    assert (prefs.cache_root(), prefs.sandbox_seed) == (settings.cache_dir, settings.sandbox.seed)
    assert prefs.sandbox_seed == 12


def test_a_broken_file_gives_defaults_not_an_error(isolated_config: Path) -> None:
    _write(isolated_config, "theme = [unclosed\n")
    prefs = read_preferences({"LAWSUIT_TUI_CONFIG": str(isolated_config)})
    assert prefs.theme == "textual-dark" and not prefs.has_api_key


def test_reading_them_imports_no_pydantic() -> None:
    code = (
        "import sys; from lawsuit_tui.preferences import read_preferences; read_preferences();"
        "import lawsuit_tui.ui.app, lawsuit_tui.ui.lookup.screen;"
        "print(sorted(m for m in ('pydantic', 'httpx', 'tinydb') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"

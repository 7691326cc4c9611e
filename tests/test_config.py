from __future__ import annotations

import stat
import tomllib
from pathlib import Path

import pytest
from pydantic import SecretStr

from lawsuit_tui import cli
from lawsuit_tui.config import (
    ConfigError,
    Settings,
    config_path,
    config_sources,
    load_settings,
    masked,
    save_preferences,
)

PRODUCTION_HOSTS = {
    "requests_url": "https://requests.prod.judit.io",
    "lawsuits_url": "https://lawsuits.production.judit.io",
    "tracking_url": "https://tracking.prod.judit.io",
    "vault_url": "https://crawler.prod.judit.io",
    "miner_url": "https://miner.production.judit.io",
}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_fixture_isolates_from_developer_config(isolated_config: Path) -> None:
    assert config_path() == isolated_config
    assert not isolated_config.exists()
    settings = load_settings()
    assert settings.config_file == isolated_config
    assert settings.api_key is None
    assert settings.mode == "sandbox"
    assert settings.language == "en"
    assert settings.cache_dir.name == "cache"


def test_defaults() -> None:
    settings = load_settings()
    assert settings.urls.model_dump() == PRODUCTION_HOSTS
    assert settings.rate_limit.calls == 180
    assert settings.rate_limit.seconds == 60.0
    assert settings.default_customer_key == "*"
    assert settings.theme == "textual-dark"
    assert settings.keymap == {}
    assert settings.webhooks.host == "127.0.0.1"
    assert settings.webhooks.port == 8080
    assert settings.webhooks.allow_from == []
    assert (settings.sandbox.seed, settings.sandbox.speed, settings.sandbox.api_key) == (
        7,
        1.0,
        "sandbox",
    )
    assert settings.timeouts.lookup_read > settings.timeouts.read
    assert settings.retries.max_attempts >= 1


def test_precedence_env_over_file_over_default(
    isolated_config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        isolated_config,
        'theme = "nord"\ndefault_customer_key = "acme"\n[rate_limit]\ncalls = 50\nseconds = 5\n',
    )
    monkeypatch.setenv("LAWSUIT_TUI_THEME", "gruvbox")
    settings = load_settings()
    assert settings.theme == "gruvbox"  # env beats file
    assert settings.default_customer_key == "acme"  # file beats default
    assert settings.rate_limit.calls == 50
    assert settings.timeouts.read == 30.0  # default
    # keyword overrides beat everything
    assert load_settings(theme="dracula").theme == "dracula"

    sources = config_sources(settings)
    assert sources["theme"] == "LAWSUIT_TUI_THEME"
    assert sources["default_customer_key"] == str(isolated_config)
    assert sources["rate_limit.calls"] == str(isolated_config)
    assert sources["timeouts.read"] == "default"
    assert config_sources(load_settings(theme="dracula"))["theme"] == "command line"

    nested = load_settings(rate_limit={"seconds": 1})
    assert (nested.rate_limit.calls, nested.rate_limit.seconds) == (50, 1.0)  # merged
    sources = config_sources(nested)
    assert sources["rate_limit.seconds"] == "command line"
    assert sources["rate_limit.calls"] == str(isolated_config)


def test_nested_env_merges_with_file(
    isolated_config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(isolated_config, "[rate_limit]\nseconds = 3\n[keymap]\nquit = 'ctrl+q'\n")
    monkeypatch.setenv("LAWSUIT_TUI_RATE_LIMIT__CALLS", "30")
    monkeypatch.setenv("LAWSUIT_TUI_KEYMAP__HELP", "f1")
    monkeypatch.setenv("LAWSUIT_TUI_WEBHOOKS__ALLOW_FROM", "10.0.0.0/8, ::1")
    settings = load_settings()
    assert settings.rate_limit.calls == 30
    assert settings.rate_limit.seconds == 3.0
    assert settings.keymap == {"quit": "ctrl+q", "help": "f1"}
    assert settings.webhooks.allow_from == ["10.0.0.0/8", "::1"]
    sources = config_sources(settings)
    assert sources["rate_limit.calls"] == "LAWSUIT_TUI_RATE_LIMIT__CALLS"
    assert sources["rate_limit.seconds"] == str(isolated_config)
    assert "LAWSUIT_TUI_KEYMAP__HELP" in sources["keymap"]
    assert str(isolated_config) in sources["keymap"]


def test_api_key_selects_live_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAWSUIT_TUI_API_KEY", "0123456789abcdef4f2a")
    settings = load_settings()
    assert settings.mode == "live"
    assert "0123456789abcdef4f2a" not in repr(settings)


def test_invalid_toml_names_file_and_position(isolated_config: Path) -> None:
    write(isolated_config, 'theme = "nord"\nrate_limit = \n')
    with pytest.raises(ConfigError) as info:
        load_settings()
    message = str(info.value)
    assert str(isolated_config) in message
    assert "invalid TOML" in message
    assert "line 2" in message


def test_wrong_type_message(isolated_config: Path) -> None:
    write(isolated_config, '[rate_limit]\ncalls = "abc"\n')
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert str(info.value) == f"{isolated_config}: rate_limit.calls: expected an integer, got 'abc'"


def test_wrong_type_from_env_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAWSUIT_TUI_RATE_LIMIT__SECONDS", "soon")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert str(info.value) == (
        "environment variable LAWSUIT_TUI_RATE_LIMIT__SECONDS: "
        "rate_limit.seconds: expected a number, got 'soon'"
    )


def test_unknown_key_and_bad_values_are_reported(
    isolated_config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LAWSUIT_TUI_LANGUAGE")
    write(isolated_config, 'themee = "nord"\nlanguage = "fr"\n[webhooks]\nallow_from = ["x"]\n')
    with pytest.raises(ConfigError) as info:
        load_settings()
    message = str(info.value)
    assert "themee: unknown key" in message
    assert "language: expected 'en', 'pt-BR' or 'auto'" in message
    assert "webhooks.allow_from" in message


def test_wrong_type_of_secret_does_not_echo_it(isolated_config: Path) -> None:
    write(isolated_config, "api_key = 12345678901234567\n")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "api_key: expected a string" in str(info.value)
    assert "12345678901234567" not in str(info.value)


def test_bad_json_in_env_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAWSUIT_TUI_KEYMAP", "{bad")
    with pytest.raises(ConfigError, match="keymap"):
        load_settings()


def test_config_error_exits_2_without_traceback(
    isolated_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(isolated_config, "theme = \n")
    assert cli.main(["config", "show"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert str(isolated_config) in err and "invalid TOML" in err
    # config path still answers, so the user can find the broken file
    assert cli.main(["config", "path"]) == 0
    assert capsys.readouterr().out.strip() == str(isolated_config)


def test_wrong_type_through_main(isolated_config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(isolated_config, '[rate_limit]\ncalls = "abc"\n')
    assert cli.main(["config", "show"]) == 2
    assert "rate_limit.calls: expected an integer, got 'abc'" in capsys.readouterr().err


def test_config_show_masks_secrets_and_names_sources(
    isolated_config: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    api_key = "live-key-0123456789-4f2a"
    bearer = "bearer-token-abcdefghij-9z9z"
    token = "path-token-secret-value-77aa"
    write(isolated_config, f'bearer_token = "{bearer}"\n[webhooks]\npath_token = "{token}"\n')
    monkeypatch.setenv("LAWSUIT_TUI_API_KEY", api_key)
    assert cli.main(["config", "show"]) == 0
    out = capsys.readouterr().out
    for secret in (api_key, bearer, token):
        assert secret not in out
        assert secret[:-4] not in out
    lines = {line.split("=", 1)[0].strip(): line for line in out.splitlines() if "=" in line}
    assert "…4f2a" in lines["api_key"] and "LAWSUIT_TUI_API_KEY" in lines["api_key"]
    assert str(isolated_config) in lines["bearer_token"]
    assert "# default" in lines["theme"]
    assert "https://miner.production.judit.io" in lines["urls.miner_url"]


def test_config_path_command(isolated_config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["config", "path"]) == 0
    assert capsys.readouterr().out.strip() == str(isolated_config)


def test_cli_config_path_mirror_matches_config(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    assert cli._config_file(os.environ) == config_path()
    monkeypatch.delenv("LAWSUIT_TUI_CONFIG")
    assert cli._config_file(os.environ) == config_path()


@pytest.mark.parametrize(
    ("secret", "expected"),
    [
        (None, "(not set)"),
        ("", "(not set)"),
        ("short", "(set, hidden)"),
        ("abcdefgh12", "…12"),
        ("sk-0123456789abcdef4f2a", "…4f2a"),
        (SecretStr("sk-0123456789abcdef4f2a"), "…4f2a"),
    ],
)
def test_masked(secret: SecretStr | str | None, expected: str) -> None:
    assert masked(secret) == expected


def test_save_preferences_keeps_other_keys_and_sets_0600(isolated_config: Path) -> None:
    write(
        isolated_config,
        'theme = "nord"\ndefault_customer_key = "acme"\n[rate_limit]\ncalls = 50\n'
        "[webhooks]\nport = 9000\n",
    )
    isolated_config.chmod(0o644)
    path = save_preferences(
        {
            "theme": "dracula",
            "language": "pt_BR",
            "keymap": {"quit": "ctrl+q"},
            "webhooks.path_token": SecretStr("tok-123"),
        }
    )
    assert path == isolated_config
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data == {
        "theme": "dracula",
        "language": "pt-BR",
        "default_customer_key": "acme",
        "keymap": {"quit": "ctrl+q"},
        "rate_limit": {"calls": 50},
        "webhooks": {"port": 9000, "path_token": "tok-123"},
    }
    assert [p.name for p in path.parent.iterdir()] == ["config.toml"]  # no temp file left
    settings = load_settings()
    assert settings.language == "en"  # env (the fixture's) still beats the file
    assert settings.webhooks.path_token is not None
    assert settings.webhooks.path_token.get_secret_value() == "tok-123"


def test_save_preferences_creates_file_and_removes_with_none(tmp_path: Path) -> None:
    target = tmp_path / "new" / "config.toml"
    save_preferences({"theme": "nord", "language": "en"}, path=target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    save_preferences({"language": None}, path=target)
    assert tomllib.loads(target.read_text(encoding="utf-8")) == {"theme": "nord"}


@pytest.mark.parametrize("key", ["api_key", "bearer_token"])
def test_save_preferences_refuses_secrets(isolated_config: Path, key: str) -> None:
    with pytest.raises(ConfigError, match="never written"):
        save_preferences({key: "sk-0123456789abcdef", "theme": "nord"})
    assert not isolated_config.exists()  # nothing at all was written


def test_save_preferences_refuses_other_keys_and_bad_values(isolated_config: Path) -> None:
    with pytest.raises(ConfigError, match="not a preference"):
        save_preferences({"rate_limit.calls": 5})
    with pytest.raises(ConfigError, match="language"):
        save_preferences({"language": "klingon"})
    with pytest.raises(ConfigError, match="keymap"):
        save_preferences({"keymap": ["ctrl+q"]})
    assert not isolated_config.exists()


def test_save_preferences_never_clobbers_an_invalid_file(isolated_config: Path) -> None:
    write(isolated_config, "theme = \n")
    with pytest.raises(ConfigError, match="invalid TOML"):
        save_preferences({"theme": "nord"})
    assert isolated_config.read_text(encoding="utf-8") == "theme = \n"


def test_direct_settings_construction_reads_same_sources(
    isolated_config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(isolated_config, 'theme = "nord"\n')
    monkeypatch.setenv("LAWSUIT_TUI_SANDBOX__SEED", "11")
    settings = Settings()
    assert settings.theme == "nord"
    assert settings.sandbox.seed == 11

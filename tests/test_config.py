from __future__ import annotations

import os
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
from tests.support.confined import cannot_drop_privileges, lawsuit_tui

# D60: each OAS file's servers entry.
PRODUCTION_HOSTS = {
    "requests_url": "https://requests.production.judit.io",
    "lawsuits_url": "https://lawsuits.production.judit.io",
    "tracking_url": "https://tracking.production.judit.io",
    "vault_url": "https://crawler.prod.judit.io",
    "miner_url": "https://miner.production.judit.io",
}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def refusal(path: Path, text: str) -> str:
    """What loading the settings says of the configuration file ``path`` holding ``text``
    (the test fails unless it is refused)."""
    write(path, text)
    with pytest.raises(ConfigError) as info:
        load_settings()
    return str(info.value)


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
    message = refusal(isolated_config, 'theme = "nord"\nrate_limit = \n')
    assert str(isolated_config) in message
    assert "invalid TOML" in message
    assert "line 2" in message


def test_wrong_type_message(isolated_config: Path) -> None:
    message = refusal(isolated_config, '[rate_limit]\ncalls = "abc"\n')
    assert message == f"{isolated_config}: rate_limit.calls: expected an integer, got 'abc'"


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        pytest.param(
            "LAWSUIT_TUI_RATE_LIMIT__SECONDS",
            "soon",
            "rate_limit.seconds: expected a number, got 'soon'",
            id="wrong-type",
        ),
        pytest.param(
            "LAWSUIT_TUI_TIMEOUTS__CONNECT",
            "Infinity",
            "timeouts.connect: expected a finite number, got 'Infinity'",
            id="non-finite-number",
        ),
        pytest.param(
            "LAWSUIT_TUI_CACHE_DIR",
            "",
            "cache_dir: expected a path, not an empty string",
            id="empty-cache-dir",
        ),
        pytest.param(
            "LAWSUIT_TUI_ZZZ",
            "1",
            "not a setting (lawsuit-tui config show lists every key)",
            id="unknown-without-a-close-name",
        ),
    ],
)
def test_a_bad_environment_variable_is_named_with_what_is_wrong(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, expected: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert str(info.value) == f"environment variable {name}: {expected}"


def test_unknown_key_and_bad_values_are_reported(
    isolated_config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LAWSUIT_TUI_LANGUAGE")
    text = 'themee = "nord"\nlanguage = "fr"\n[webhooks]\nallow_from = ["x"]\n'
    message = refusal(isolated_config, text)
    assert "themee: unknown key" in message
    assert "language: expected 'en', 'pt-BR' or 'auto'" in message
    assert "webhooks.allow_from" in message


def test_wrong_type_of_secret_does_not_echo_it(isolated_config: Path) -> None:
    message = refusal(isolated_config, "api_key = 12345678901234567\n")
    assert "api_key: expected a string" in message
    assert "12345678901234567" not in message


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


# --- bad values: one clear line, exit 2 (issue 18) ------------------------------------------


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    """Run `config show`; assert exit 2 with one line and no traceback; return the line."""
    assert cli.main(["config", "show"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ("[timeouts]\nread = true\n", "timeouts.read: expected a number, got true"),
        ("[rate_limit]\nseconds = false\n", "rate_limit.seconds: expected a number, got false"),
        ("[webhooks]\nport = true\n", "webhooks.port: expected an integer, got true"),
        ("[sandbox]\nseed = true\n", "sandbox.seed: expected an integer, got true"),
        ("[rate_limit]\nshared = 1\n", "rate_limit.shared: expected true or false, got 1"),
    ],
)
def test_booleans_and_numbers_do_not_stand_in_for_each_other(
    isolated_config: Path, capsys: pytest.CaptureFixture[str], toml: str, expected: str
) -> None:
    write(isolated_config, toml)
    assert one_line_error(capsys) == f"lawsuit-tui: {isolated_config}: {expected}"


def test_numbers_from_the_environment_are_still_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAWSUIT_TUI_TIMEOUTS__READ", "2.5")
    monkeypatch.setenv("LAWSUIT_TUI_RATE_LIMIT__SHARED", "false")
    settings = load_settings()
    assert settings.timeouts.read == 2.5
    assert settings.rate_limit.shared is False


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "+inf"])
def test_non_finite_numbers_are_refused(
    isolated_config: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    write(isolated_config, f"[sandbox]\nspeed = {value}\n")
    line = one_line_error(capsys)
    assert line.startswith(f"lawsuit-tui: {isolated_config}: sandbox.speed: ")
    assert "expected a finite number" in line or "must be greater than 0" in line


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ("[rate_limit]\ncalls = 0\n", "rate_limit.calls: must be at least 1, got 0"),
        ("[rate_limit]\ncalls = 1000000\n", "rate_limit.calls: must be at most 100000"),
        ("[rate_limit]\nseconds = 0\n", "rate_limit.seconds: must be greater than 0, got 0"),
        ("[rate_limit]\nseconds = 1e9\n", "rate_limit.seconds: must be at most 86400"),
        ("[timeouts]\nread = -1\n", "timeouts.read: must be greater than 0, got -1"),
        ("[timeouts]\npool = 1e6\n", "timeouts.pool: must be at most 3600"),
        ("[retries]\nmax_attempts = 0\n", "retries.max_attempts: must be at least 1, got 0"),
        ("[retries]\nmax_attempts = 1000\n", "retries.max_attempts: must be at most 100"),
        ("[retries]\nmax_total_seconds = 0\n", "retries.max_total_seconds: must be greater"),
        ("[retries]\nmax_rate_wait_seconds = -5\n", "max_rate_wait_seconds: must be at least 0"),
        ("[sandbox]\nspeed = 1e300\n", "sandbox.speed: must be at most 10000"),
        ("[sandbox]\nseed = 9223372036854775807\n", None),
        ("[webhooks]\nport = 70000\n", "webhooks.port: must be at most 65535, got 70000"),
    ],
)
def test_numeric_settings_are_bounded(
    isolated_config: Path, capsys: pytest.CaptureFixture[str], toml: str, expected: str | None
) -> None:
    write(isolated_config, toml)
    if expected is None:  # the edge itself is accepted
        assert cli.main(["config", "show"]) == 0
        return
    line = one_line_error(capsys)
    assert line.startswith(f"lawsuit-tui: {isolated_config}: ")
    assert expected in line


def test_a_seed_beyond_64_bits_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAWSUIT_TUI_SANDBOX__SEED", "99999999999999999999")
    with pytest.raises(ConfigError, match=r"sandbox\.seed: must be at most 9223372036854775807"):
        load_settings()


@pytest.mark.parametrize(
    "deep",
    [
        "a = " + "[" * 3000 + "]" * 3000 + "\n",
        "a = " + "{b = " * 3000 + "1" + "}" * 3000 + "\n",
    ],
    ids=["arrays", "inline-tables"],
)
def test_toml_nested_thousands_deep_is_a_clear_error(
    isolated_config: Path, capsys: pytest.CaptureFixture[str], deep: str
) -> None:
    write(isolated_config, deep)
    assert one_line_error(capsys) == (
        f"lawsuit-tui: {isolated_config}: invalid TOML: arrays or tables nested too deeply to read"
    )


def test_json_nested_thousands_deep_in_the_environment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LAWSUIT_TUI_KEYMAP", "[" * 3000 + "]" * 3000)
    assert "nested too deeply" in one_line_error(capsys)


@pytest.mark.parametrize(
    ("name", "suggestion"),
    [
        ("LAWSUIT_TUI_THEMEE", "LAWSUIT_TUI_THEME"),
        ("LAWSUIT_TUI_APIKEY", "LAWSUIT_TUI_API_KEY"),
        ("lawsuit_tui_rate_limit__calss", "LAWSUIT_TUI_RATE_LIMIT__CALLS"),
        ("LAWSUIT_TUI_RETRIES_MAX_ATTEMPTS", "LAWSUIT_TUI_RETRIES__MAX_ATTEMPTS"),
        ("LAWSUIT_TUI_CONFG", "LAWSUIT_TUI_CONFIG"),
    ],
)
def test_unknown_environment_variable_is_an_error_with_the_closest_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str, suggestion: str
) -> None:
    monkeypatch.setenv(name, "x")
    assert one_line_error(capsys) == (
        f"lawsuit-tui: environment variable {name}: not a setting; did you mean {suggestion}?"
    )


def test_every_documented_kind_of_variable_is_known(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {
        "LAWSUIT_TUI_THEME": "nord",
        "LAWSUIT_TUI_RATE_LIMIT": '{"calls": 30}',
        "LAWSUIT_TUI_RETRIES__MAX_RATE_WAIT_SECONDS": "120",
        "LAWSUIT_TUI_KEYMAP__APP.QUIT": "ctrl+q",
        "lawsuit_tui_sandbox__seed": "3",
        "OTHER_TOOL_THEMEE": "ignored: not ours",
    }.items():
        monkeypatch.setenv(name, value)
    settings = load_settings()
    assert settings.keymap == {"app.quit": "ctrl+q"}
    assert settings.retries.max_rate_wait_seconds == 120.0
    assert settings.sandbox.seed == 3


@pytest.mark.parametrize("key", ["cache_dir", "download_dir"])
def test_empty_paths_are_refused(
    isolated_config: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    key: str,
) -> None:
    monkeypatch.delenv("LAWSUIT_TUI_CACHE_DIR")  # the fixture's, which beats the file
    write(isolated_config, f'{key} = "  "\n')
    assert one_line_error(capsys) == (
        f"lawsuit-tui: {isolated_config}: {key}: expected a path, not an empty string"
    )


def test_config_path_is_a_directory(
    isolated_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    isolated_config.mkdir(parents=True)
    line = one_line_error(capsys)
    assert line == (
        f"lawsuit-tui: {isolated_config}: is a directory, not a config file; move it away "
        "or point LAWSUIT_TUI_CONFIG at another file"
    )


def test_config_path_under_a_file(
    isolated_config: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = write(isolated_config.parent / "not-a-dir", "")
    target = blocker / "config.toml"
    monkeypatch.setenv("LAWSUIT_TUI_CONFIG", str(target))
    assert one_line_error(capsys) == (
        f"lawsuit-tui: {target}: cannot read the config file (Not a directory); fix the path "
        "or point LAWSUIT_TUI_CONFIG at another file"
    )


def test_config_file_not_utf8(isolated_config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    isolated_config.parent.mkdir(parents=True)
    isolated_config.write_bytes(b'theme = "nord"\n\ndefault_customer_key = "caf\xe9"\n')
    assert one_line_error(capsys) == (
        f"lawsuit-tui: {isolated_config}: the config file is not UTF-8 text (line 3); "
        "save it as UTF-8"
    )


def test_config_path_is_a_pipe(isolated_config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import os

    isolated_config.parent.mkdir(parents=True)
    os.mkfifo(isolated_config)  # reading it would wait for a writer for ever
    assert one_line_error(capsys) == (
        f"lawsuit-tui: {isolated_config}: is not a regular file; "
        "point LAWSUIT_TUI_CONFIG at a config file"
    )


def test_config_file_not_readable(isolated_config: Path) -> None:
    # A child without capabilities: root obeys the file's mode too (tests/support/confined).
    reason = cannot_drop_privileges()
    if reason:
        pytest.skip(reason)
    write(isolated_config, 'theme = "nord"\n').chmod(0)
    result = lawsuit_tui(["config", "show"], dict(os.environ), unprivileged=True)
    assert result.returncode == 2
    assert result.stderr == (
        f"lawsuit-tui: {isolated_config}: permission denied reading the config file; make it "
        "readable by you (chmod 600) or point LAWSUIT_TUI_CONFIG at another file\n"
    )

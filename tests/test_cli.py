from __future__ import annotations

import argparse
import importlib
import sys
import types
from pathlib import Path

import pytest

from lawsuit_tui import __version__, cli
from lawsuit_tui.config import Settings
from tests.support.python_child import python_child


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"lawsuit-tui {__version__}"
    assert __version__ == "0.1.0"


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in cli.COMMANDS:
        # A long name has its help on the next line.
        assert f"    {command} " in out or f"    {command}\n" in out, command


def test_unknown_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--bogus"]) == 2
    err = capsys.readouterr().err
    assert "usage: lawsuit-tui" in err
    assert "--bogus" in err


def test_unknown_subcommand_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["frobnicate"]) == 2
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["sandbox", "serve", "--rate-limit", "30"],
        ["sandbox", "serve", "--rate-limit", "x/3"],
        ["sandbox", "serve", "--rate-limit", "0/3"],
        ["sandbox", "serve", "--port", "70000"],
        ["webhooks", "serve", "--allow-from", "not-a-net"],
        ["count"],
        ["count", "--kind", "other"],
        ["export", "things"],
        ["cache", "prune"],
        ["cache", "prune", "--older-than", "-1"],
        ["config"],
        ["request", "123", "--response-type", "nope"],
        # Issue 18, D138: each of these was sent or started before.
        ["count", "--kind", "judgement-bond", "--tribunal", "10000000000000000000000"],
        ["count", "--kind", "judgement-bond", "--tribunal", "-5"],
        ["count", "--kind", "judgement-bond", "--tribunal", "0"],
        ["count", "--kind", "judgement-bond", "--budget-year", "99999"],
        ["count", "--kind", "judgement-bond", "--tribunal", "TJ SP"],
        ["miner", "find", "--kind", "judgement-bond", "--limit", "9" * 40],
        ["miner", "find", "--kind", "judgement-bond", "--tribunal", "2147483648"],
        ["request", "12345678909", "--customer-key", ""],
        ["request", "12345678909", "--customer-key", "   "],
        ["request", "12345678909", "--cache-ttl-days", "9" * 40],
        ["sandbox", "serve", "--rate-limit", "1/inf"],
        ["sandbox", "serve", "--rate-limit", "1/nan"],
        ["sandbox", "serve", "--rate-limit", "1000000/60"],
        ["sandbox", "serve", "--port", "9" * 40],
        ["sandbox", "serve", "--seed", "9" * 40],
        ["cache", "prune", "--older-than", "9" * 40],
    ],
)
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "usage:" in err
    assert len([line for line in err.splitlines() if "error:" in line]) == 1


def test_a_host_that_is_not_an_address_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["sandbox", "serve", "--host", "not-a-host.invalid", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "not-a-host.invalid" in err


def parse(*argv: str) -> argparse.Namespace:
    return cli.build_parser().parse_args(list(argv))


def test_default_command_is_tui() -> None:
    args = parse()
    assert (args.command, args.sandbox, args.read_only) == ("tui", False, False)
    args = parse("--sandbox", "tui", "--read-only")
    assert (args.command, args.sandbox, args.read_only) == ("tui", True, True)


def test_argument_sets() -> None:
    args = parse(
        "sandbox", "serve", "--api-key", "a", "--api-key", "b:no-miner", "--rate-limit", "30/3"
    )
    assert (args.host, args.port, args.api_keys, args.rate_limit) == (
        "127.0.0.1",
        8765,
        ["a", "b:no-miner"],
        (30, 3.0),
    )
    assert args.seed is None and args.callback_url is None

    args = parse("webhooks", "serve", "--allow-from", "10.0.0.0/8", "--allow-from", "::1")
    assert args.allow_from == ["10.0.0.0/8", "::1"]
    assert args.host is None and args.port is None and args.path_token is None

    args = parse("request", "0000000-00.0000.8.26.0000", "--on-demand", "--cache-ttl-days", "3")
    assert args.on_demand and args.cache_ttl_days == 3 and args.customer_key is None
    assert not args.wait and not args.json and not args.with_attachments

    args = parse("export", "responses", "--format", "csv", "--out", "x.csv")
    assert (args.table, args.format, args.out) == ("responses", "csv", Path("x.csv"))

    command = (
        "count --kind judgement-bond --tribunal TJSP --tribunal 1"
        " --budget-year 2025 --nature alimentary --amount-min 1000"
    )
    args = parse(*command.split())
    assert args.tribunals == ["TJSP", 1] and args.budget_years == [2025]
    assert args.natures == ["alimentary"] and args.tags == [] and args.amount_min == 1000.0
    # D127, D138: the Miner's ids reach seven digits (TRE-SP); acronyms keep their hyphen
    args = parse(
        "miner",
        "find",
        "--kind",
        "judgement-bond",
        "--tribunal",
        "1151652",
        "--tribunal",
        "TRE-SP",
        "--limit",
        "50",
    )
    assert (args.tribunals, args.limit) == ([1151652, "TRE-SP"], 50)

    args = parse("cache", "prune", "--older-than", "30")
    assert (args.cache_command, args.older_than) == ("prune", 30)


def test_a_command_module_that_does_not_exist_fails_loudly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "lawsuit_tui.commands.lookup"
    real_import = importlib.import_module

    def fake_import(module: str) -> types.ModuleType:
        if module == name:
            raise ModuleNotFoundError(f"No module named {module!r}", name=module)
        return real_import(module)

    monkeypatch.setattr(importlib, "import_module", fake_import)
    with pytest.raises(ModuleNotFoundError) as caught:
        cli.main(["lookup", "123"])
    assert caught.value.name == name
    assert "not available" not in capsys.readouterr().err


def test_a_command_module_that_fails_to_import_fails_loudly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # None in sys.modules makes the import fail as a broken module would.
    monkeypatch.setitem(sys.modules, "lawsuit_tui.commands.sync", None)
    with pytest.raises(ImportError, match=r"lawsuit_tui\.commands\.sync"):
        cli.main(["sync"])


def test_every_command_has_its_module() -> None:
    package = Path(cli.__file__).parent / "commands"
    modules = {c: c.replace("-", "_") for c in cli.COMMANDS}  # transfer-files: transfer_files
    assert {c for c, m in modules.items() if not (package / f"{m}.py").is_file()} == set()


def test_dispatch_passes_args_and_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[argparse.Namespace, Settings]] = []
    module = types.ModuleType("lawsuit_tui.commands.sync")

    def run(args: argparse.Namespace, settings: Settings) -> int:
        seen.append((args, settings))
        return 7

    module.run = run  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "lawsuit_tui.commands.sync", module)
    assert cli.main(["sync"]) == 7
    assert seen[0][0].command == "sync"
    assert isinstance(seen[0][1], Settings)


def test_python_dash_m_runs_main(tmp_path: Path) -> None:
    result = python_child("-m", "lawsuit_tui", "--version")
    assert result.returncode == 0
    assert result.stdout.strip() == "lawsuit-tui 0.1.0"


def test_peek_language_reads_env_then_file(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('language = "pt-BR"\n', encoding="utf-8")
    env = {"LAWSUIT_TUI_CONFIG": str(config), "LANG": "en_US.UTF-8"}
    assert cli.peek_language(env) == "pt-BR"
    assert cli.peek_language({**env, "LAWSUIT_TUI_LANGUAGE": "en"}) == "en"
    config.write_text("language = \n", encoding="utf-8")  # broken: fall back to LANG
    assert cli.peek_language(env) == "en"
    assert cli.peek_language({"LAWSUIT_TUI_CONFIG": str(tmp_path / "none"), "LANG": "pt_BR"}) == (
        "pt-BR"
    )


@pytest.mark.parametrize(
    ("text", "value"),
    [("1000", 1000.0), ("1.234,56", 1234.56), ("1234.56", 1234.56), ("R$ 1.000", 1000.0)],
)
def test_amounts_read_as_the_tui_reads_them(text: str, value: float) -> None:
    assert cli.amount_arg(text) == value


@pytest.mark.parametrize("text", ["-1", "inf", "nan", "1e5", "abc", "1" * 400])
def test_amounts_that_are_not_amounts(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        cli.amount_arg(text)

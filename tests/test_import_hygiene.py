"""The layers import downwards only (DESIGN.md), checked on what actually gets imported.

Runtime checks run in a fresh interpreter per package, so nothing this test process already
imported can hide a violation; each module is blamed for the forbidden modules it pulled in
first. Checks that must ignore legitimate indirect imports (ui -> services -> httpx) read the
import statements instead. Packages that are still empty pass trivially and stay checked as
they fill in.
"""

from __future__ import annotations

import json
import pkgutil
import textwrap
from pathlib import Path

import pytest

import lawsuit_tui
from tests.support.import_statements import imports_in, package_modules
from tests.support.python_child import probe_report, python_child

PACKAGE_DIR = Path(lawsuit_tui.__file__).parent
NON_UI = ("domain", "api", "store", "services", "sandbox", "webhooks", "config", "cli")


def modules_of(name: str) -> list[str]:
    """``lawsuit_tui.<name>`` and every module below it, found without importing anything."""
    qualified = f"lawsuit_tui.{name}"
    path = PACKAGE_DIR / name
    if not path.is_dir():
        return [qualified] if path.with_suffix(".py").is_file() else []
    found = [qualified]

    def walk(directory: Path, prefix: str) -> None:
        for info in pkgutil.iter_modules([str(directory)]):
            if info.name == "__main__":
                continue  # running it would start a program
            found.append(f"{prefix}.{info.name}")
            if info.ispkg:
                walk(directory / info.name, f"{prefix}.{info.name}")

    walk(path, qualified)
    return found


PROBE = textwrap.dedent(
    """
    import importlib, json, sys
    modules = json.loads(sys.argv[1])
    report = {}
    for name in modules:
        before = set(sys.modules)
        importlib.import_module(name)
        report[name] = sorted(set(sys.modules) - before)
    print(json.dumps(report))
    """
)


def imported_by(modules: list[str]) -> dict[str, list[str]]:
    """For each module, in order, the modules its import added to a fresh interpreter."""
    report: dict[str, list[str]] = probe_report(
        PROBE, json.dumps(modules), timeout=120, cwd=PACKAGE_DIR.parent
    )
    return report


def is_under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_domain_imports_nothing_of_ours() -> None:
    allowed = ("lawsuit_tui.domain", "lawsuit_tui.i18n")
    offenders = {
        name: bad
        for name, added in imported_by(modules_of("domain")).items()
        if (
            bad := [
                m
                for m in added
                if is_under(m, "lawsuit_tui")
                and m != "lawsuit_tui"
                and not any(is_under(m, ok) for ok in allowed)
            ]
        )
    }
    assert offenders == {}


@pytest.mark.parametrize("package", NON_UI)
def test_non_ui_layers_load_no_textual(package: str) -> None:
    modules = modules_of(package)
    assert modules, f"lawsuit_tui.{package} is missing"
    offenders = {
        name: bad
        for name, added in imported_by(modules).items()
        if (bad := [m for m in added if is_under(m, "textual")])
    }
    assert offenders == {}


def violations(package: str, forbidden: tuple[str, ...]) -> list[str]:
    found = []
    for module, path in package_modules(f"lawsuit_tui.{package}").items():
        for line, target in imports_in(path, module):
            if any(is_under(target, bad) for bad in forbidden):
                found.append(f"{path.relative_to(PACKAGE_DIR.parent)}:{line}: {target}")
    return sorted(set(found))


def test_ui_never_imports_httpx_or_tinydb() -> None:
    assert violations("ui", ("httpx", "tinydb")) == []


def test_sandbox_is_the_other_side_of_the_wire() -> None:
    forbidden = ("lawsuit_tui.api", "lawsuit_tui.services", "lawsuit_tui.ui", "lawsuit_tui.store")
    assert violations("sandbox", forbidden) == []


def test_the_ast_scan_sees_relative_and_from_imports(tmp_path: Path) -> None:
    # Guards the checker itself: a scan that sees nothing would always pass.
    path = tmp_path / "mod.py"
    path.write_text(
        "import httpx\nfrom ..api import client\nfrom lawsuit_tui import services\n"
        "from . import world\n",
        encoding="utf-8",
    )
    found = [target for _, target in imports_in(path, "lawsuit_tui.sandbox.mod")]
    assert "httpx" in found
    assert "lawsuit_tui.api" in found
    assert "lawsuit_tui.services" in found
    assert "lawsuit_tui.sandbox.world" in found


HELP_PROBE = textwrap.dedent(
    """
    import contextlib, io, json, sys
    from lawsuit_tui import cli
    codes = []
    for argv in json.loads(sys.argv[1]):
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            codes.append(cli.main(argv))
    loaded = sorted(m for m, v in sys.modules.items() if v is not None)  # None: blocked
    print(json.dumps({"codes": codes, "modules": loaded}))
    """
)


def test_help_is_light() -> None:
    argvs = [["--help"], ["--version"], ["sandbox", "serve", "--help"], ["count", "--help"]]
    report = probe_report(HELP_PROBE, json.dumps(argvs))
    assert report["codes"] == [0, 0, 0, 0]
    heavy = ("textual", "httpx", "fastapi", "starlette", "pydantic", "pydantic_settings", "tinydb")
    loaded = [m for m in report["modules"] if any(is_under(m, h) for h in heavy)]
    assert loaded == []


def test_python_dash_m_help_lists_commands() -> None:
    result = python_child("-m", "lawsuit_tui", "--help")
    assert result.returncode == 0
    assert "sandbox" in result.stdout and "webhooks" in result.stdout


def test_the_probe_blames_the_importing_module() -> None:
    report = imported_by(["lawsuit_tui.i18n", "email.mime.text"])
    assert "email.mime.text" in report["email.mime.text"]
    assert "email.mime.text" not in report["lawsuit_tui.i18n"]


def test_httpx_never_loads_its_command_line_client() -> None:
    """httpx would import click and pygments for its CLI (6 MiB): lawsuit_tui stops it."""
    report = imported_by(["lawsuit_tui.services.context"])
    added = report["lawsuit_tui.services.context"]
    assert "httpx" in added
    assert not [m for m in added if is_under(m, "click") or is_under(m, "pygments")]


def test_the_plot_library_loads_with_the_first_chart_only() -> None:
    """textual-plotext (and plotext) cost the dossier's screens nothing until a chart is
    drawn: neither the app nor the dossier's modules import them."""
    modules = [
        "lawsuit_tui.ui.app",
        "lawsuit_tui.ui.dossier.list_screen",
        "lawsuit_tui.ui.dossier.screen",
        "lawsuit_tui.ui.dossier.charts",
    ]
    report = imported_by(modules)
    for name in modules:
        assert not [
            m for m in report[name] if is_under(m, "plotext") or is_under(m, "textual_plotext")
        ], name

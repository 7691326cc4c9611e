"""The sandbox's modules import one way, and a route family that cannot be imported stops the
app from being made instead of leaving its routes out."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import lawsuit_tui.sandbox
from lawsuit_tui.sandbox import app as sandbox_app

SANDBOX_DIR = Path(lawsuit_tui.sandbox.__file__).parent
PACKAGE = "lawsuit_tui.sandbox"


def module_name(path: Path) -> str:
    parts = path.relative_to(SANDBOX_DIR.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(SANDBOX_DIR.rglob("*.py"))}


def imported_modules(path: Path, name: str) -> set[str]:
    """Every sandbox module ``path`` imports, wherever the statement is: at the top, in a
    function, under ``TYPE_CHECKING``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                # `from package import module` imports the module, else the name's module.
                target = f"{base}.{alias.name}"
                found.add(target if target in MODULES else base)
    # A module's own packages are imported before it, always: not an edge it chose.
    return {
        target
        for target in found
        if target in MODULES and not (name == target or name.startswith(target + "."))
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of ``graph`` as a path that returns to its start, or [] when there is none."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> list[str]:
        path.append(node)
        on_path.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt in on_path:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in done:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        on_path.discard(node)
        done.add(node)
        return []

    for start in sorted(graph):
        if start not in done:
            cycle = visit(start)
            if cycle:
                return cycle
    return []


def test_the_sandbox_has_no_import_cycle() -> None:
    graph = {name: imported_modules(path, name) for name, path in MODULES.items()}
    assert f"{PACKAGE}.state" in graph[f"{PACKAGE}.request_engine"]  # the scan sees imports
    assert find_cycle(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    # Guards the check itself: a finder that never finds one would always pass.
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) == []


def test_the_scan_sees_function_level_and_type_checking_imports(tmp_path: Path) -> None:
    path = tmp_path / "mod.py"
    path.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from lawsuit_tui.sandbox.state import SandboxState\n"
        "def f():\n    from lawsuit_tui.sandbox import records\n"
        "    from .keys import KeyConfig\n",
        encoding="utf-8",
    )
    found = imported_modules(path, f"{PACKAGE}.mod")
    assert found == {f"{PACKAGE}.state", f"{PACKAGE}.records", f"{PACKAGE}.keys"}


def test_every_route_family_is_mounted() -> None:
    families = {
        path.stem for path in (SANDBOX_DIR / "routes").glob("*.py") if not path.stem.startswith("_")
    }
    assert families == set(sandbox_app.ROUTE_MODULES)


def test_a_route_family_that_does_not_exist_stops_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox_app, "ROUTE_MODULES", (*sandbox_app.ROUTE_MODULES, "warrants"))
    with pytest.raises(ModuleNotFoundError) as caught:
        sandbox_app.create_app()
    assert caught.value.name == f"{PACKAGE}.routes.warrants"


def test_a_route_family_that_fails_to_import_stops_the_app(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # None in sys.modules makes the import fail as a broken module would.
    monkeypatch.setitem(sys.modules, f"{PACKAGE}.routes.vault", None)
    with pytest.raises(ImportError, match=r"routes\.vault"):
        sandbox_app.create_app()

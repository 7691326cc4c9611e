"""The import graph of ``lawsuit_tui.ui``: no circles, the app imported by no one, no layer skipped.

Every import statement counts, wherever it is: at the top of a module, inside a function (a
lazy import), or under ``if TYPE_CHECKING:``. A circle through any of them is a knot a reader
has to untie; screens see the app through ``ui/host.py``'s Protocol, never ``ui/app.py``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from tests.support.import_statements import imports_in, package_modules


def ui_modules() -> dict[str, Path]:
    return package_modules("lawsuit_tui.ui")


def imported_names(path: Path, module: str) -> set[str]:
    """Every module an import statement of the file names."""
    return {target for _line, target in imports_in(path, module)}


def import_graph() -> dict[str, set[str]]:
    """ui module -> the ui modules it imports (packages resolve to their ``__init__``)."""
    modules = ui_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = {t for t in imported_names(path, name) if t in modules and t != name}
        # Importing a.b.c runs a/__init__ and a/b/__init__ too, but those are thin
        # docstring-only packages here (checked below), so they add no edge worth keeping.
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), and self-loops."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def package_of(module: str) -> str:
    """The package a module belongs to: its subpackage of ui (``lawsuit_tui.ui.trackings``),
    or the module itself for the modules directly in ui (app, host, messages, ...)."""
    return ".".join(module.split(".")[:3])


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    packages: dict[str, set[str]] = {}
    for source, targets in graph.items():
        edges = packages.setdefault(package_of(source), set())
        edges.update(package_of(t) for t in targets if package_of(t) != package_of(source))
    return packages


def test_the_graph_sees_lazy_and_type_checking_imports(tmp_path: Path) -> None:
    # Guards the checker: a scan that missed these would pass on a knotted graph.
    path = tmp_path / "probe.py"
    path.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from lawsuit_tui.ui.app import LawsuitApp\n"
        "def f():\n    from ..dialogs import confirm\n    import lawsuit_tui.ui.host\n",
        encoding="utf-8",
    )
    found = imported_names(path, "lawsuit_tui.ui.lookup.probe")
    assert {"lawsuit_tui.ui.app", "lawsuit_tui.ui.dialogs.confirm", "lawsuit_tui.ui.host"} <= found
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_ui_is_in_an_import_circle() -> None:
    graph = import_graph()
    assert len(graph) > 40  # every module of ui was read
    assert cycles(graph) == []


def test_no_circle_between_the_packages_of_ui() -> None:
    packages = package_graph(import_graph())
    assert {"lawsuit_tui.ui.trackings", "lawsuit_tui.ui.widgets"} <= set(packages)
    assert cycles(packages) == []


def test_only_the_entry_points_import_the_app() -> None:
    importers = sorted(
        name for name, targets in import_graph().items() if "lawsuit_tui.ui.app" in targets
    )
    assert importers == []


def test_subpackages_are_thin() -> None:
    """Each ``__init__`` of ui is a docstring: importing a module never runs a package's code."""
    for path in (p for p in ui_modules().values() if p.name == "__init__.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        body: Iterable[ast.stmt] = tree.body
        assert all(
            isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) for node in body
        ), path


def test_ui_reaches_the_service_through_services_only() -> None:
    """ui imports neither the api client nor the store nor httpx (DESIGN.md's layers)."""
    forbidden = ("lawsuit_tui.api", "lawsuit_tui.store", "httpx", "tinydb")
    offenders = {
        name: sorted(t for t in imported_names(path, name) if t.startswith(forbidden))
        for name, path in ui_modules().items()
    }
    assert {name: bad for name, bad in offenders.items() if bad} == {}

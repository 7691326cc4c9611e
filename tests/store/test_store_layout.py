"""The store package's own house rules: the engine knows no table, the facade holds no
logic, no cycles (typing imports included), small modules, few dependencies."""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

import lawsuit_tui.store
from tests.support.import_statements import package_modules

PACKAGE = Path(lawsuit_tui.store.__file__).parent
ALLOWED_OUTSIDE = ("tinydb", "orjson", "platformdirs", "lawsuit_tui.domain", "lawsuit_tui.i18n")


@functools.cache
def _modules() -> dict[str, Path]:
    return package_modules("lawsuit_tui.store")


def _imports(path: Path, module: str) -> set[str]:
    """Every module ``path`` imports, wherever the import sits (TYPE_CHECKING included)."""
    is_package = path.name == "__init__.py"
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            for alias in node.names:
                # ``from package import module`` depends on the module, not on the
                # package's __init__ (which the import system runs first anyway).
                submodule = f"{prefix}.{alias.name}"
                names.add(submodule if submodule in _modules() else prefix)
    return names


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {
        name: {m for m in _imports(path, name) if m in modules and m != name}
        for name, path in modules.items()
    }


def test_the_store_imports_only_what_it_may() -> None:
    for name, path in _modules().items():
        for imported in _imports(path, name):
            top = imported.split(".")[0]
            if top in sys.stdlib_module_names or top == "__future__":
                continue
            allowed = imported.startswith("lawsuit_tui.store") or any(
                imported == a or imported.startswith(a + ".") for a in ALLOWED_OUTSIDE
            )
            assert allowed, f"{name} imports {imported}"


def test_no_import_cycles_inside_the_store() -> None:
    graph = _graph()
    # The package's __init__ re-exports; a module importing a name from it depends on
    # everything it imports, so nothing inside may.
    for name, imported in graph.items():
        assert "lawsuit_tui.store" not in imported or name == "lawsuit_tui.store", name
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = [*trail[trail.index(nxt) :], nxt] if nxt in trail else [node, nxt]
                raise AssertionError(f"import cycle: {' -> '.join(cycle)}")
            if nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])


def test_the_engine_knows_no_table_and_tables_never_the_facade() -> None:
    graph = _graph()
    facade = "lawsuit_tui.store.store"
    for name, imported in graph.items():
        if name.startswith("lawsuit_tui.store.tables"):
            assert facade not in imported, name
        elif name not in (facade, "lawsuit_tui.store") and not name.startswith(
            "lawsuit_tui.store.indexes"
        ):
            # Derived indexes read the tables' helpers; the engine never does.
            tables = sorted(m for m in imported if m.startswith("lawsuit_tui.store.tables"))
            assert not tables, f"engine module {name} imports {tables}"


def test_the_facade_only_delegates() -> None:
    tree = ast.parse((PACKAGE / "store.py").read_text())
    store = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Store")
    for method in store.body:
        if not isinstance(method, ast.FunctionDef):
            continue
        statements = [
            s
            for s in method.body
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        ]
        if method.name == "__init__":  # the engine, then one line per table
            assert all(isinstance(s, ast.Assign) for s in statements)
            continue
        loops = [n for n in ast.walk(method) if isinstance(n, ast.For | ast.While | ast.With)]
        assert not loops and len(statements) <= 4, f"Store.{method.name} holds logic"


def test_no_module_is_long() -> None:
    for name, path in _modules().items():
        lines = len(path.read_text().splitlines())
        assert lines <= 600, f"{name}: {lines} lines"

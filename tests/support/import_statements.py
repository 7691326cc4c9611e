"""The modules of our package and their import statements, read as text (ast), never imported.

Every import statement counts, wherever it stands: at the top of a module, inside a function (a
lazy import) or under ``if TYPE_CHECKING:``. The layer and cycle tests of the ui, the store and
the whole package read them here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import lawsuit_tui

SOURCE_ROOT = Path(lawsuit_tui.__file__).parents[1]
"""The folder that holds ``lawsuit_tui/``: module names count from it."""


def package_modules(package: str) -> dict[str, Path]:
    """Every module of ``package`` (``"lawsuit_tui.ui"``...) by name, with its file; a package
    is named by its ``__init__.py``."""
    found: dict[str, Path] = {}
    for path in sorted(SOURCE_ROOT.joinpath(*package.split(".")).rglob("*.py")):
        parts = path.relative_to(SOURCE_ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports_in(path: Path, module: str) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import statement of the file of ``module``:
    ``from a import b`` names ``a`` and ``a.b`` (b may be a module: ``from lawsuit_tui import
    api`` imports a package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package_parts = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package_parts[: len(package_parts) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            found.extend((node.lineno, f"{target}.{alias.name}") for alias in node.names)
    return found

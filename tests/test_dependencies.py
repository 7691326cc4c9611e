"""pyproject.toml declares what lawsuit_tui/ imports, and nothing it does not.

Import names are mapped to distributions with ``importlib.metadata.packages_distributions()``
(the installed metadata, so ``pydantic_core`` is ``pydantic-core``), every import statement
counted: at the top, in a function, under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import lawsuit_tui

PACKAGE_DIR = Path(lawsuit_tui.__file__).parent
PYPROJECT = PACKAGE_DIR.parent / "pyproject.toml"


def normalize(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def imported_top_levels(paths: list[Path]) -> dict[str, str]:
    """Third-party top-level import names -> the first file importing each."""
    found: dict[str, str] = {}
    for path in paths:
        where = (
            path.name
            if not path.is_relative_to(PACKAGE_DIR)
            else str(path.relative_to(PACKAGE_DIR))
        )
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.partition(".")[0]
                if top in sys.stdlib_module_names or top in ("__future__", "lawsuit_tui"):
                    continue
                found.setdefault(top, where)
    return found


def declared(pyproject: Path = PYPROJECT) -> set[str]:
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    names = set()
    for requirement in project["dependencies"]:
        match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
        assert match, requirement
        names.add(normalize(match.group()))
    return names


def test_every_import_is_declared_and_every_declaration_imported() -> None:
    imports = imported_top_levels(sorted(PACKAGE_DIR.rglob("*.py")))
    distributions = {
        top: {normalize(d) for d in dists} for top, dists in packages_distributions().items()
    }
    unknown = {top: where for top, where in imports.items() if top not in distributions}
    assert unknown == {}, "imported but installed by no distribution"
    wanted = {dist for top in imports for dist in distributions[top]}
    undeclared = sorted(
        f"{top} ({', '.join(sorted(distributions[top]))}) in {where}"
        for top, where in imports.items()
        if not distributions[top] & declared()
    )
    assert undeclared == []
    assert sorted(declared() - wanted) == [], "declared but never imported"


def test_the_scan_sees_every_kind_of_import(tmp_path: Path) -> None:
    path = tmp_path / "mod.py"
    path.write_text(
        "import os, orjson.fragment\nfrom typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from textual.app import App\n"
        "def f():\n    import tenacity\n    from . import sibling\n"
        "from lawsuit_tui.i18n import _\n",
        encoding="utf-8",
    )
    assert set(imported_top_levels([path])) == {"orjson", "textual", "tenacity"}


def test_declared_reads_names_as_pep_503_compares_them(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[project]\ndependencies = ["Pydantic_Core>=2", "tomli.w", "textual==8.2.8"]\n',
        encoding="utf-8",
    )
    assert declared(pyproject) == {"pydantic-core", "tomli-w", "textual"}

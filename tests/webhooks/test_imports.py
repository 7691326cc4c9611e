"""The receiver ingests through services/ (DESIGN.md): no module of lawsuit_tui.webhooks imports
the cache (store/) or the client (api/), in any import statement."""

from __future__ import annotations

import ast
from pathlib import Path

import lawsuit_tui.webhooks

WEBHOOKS_DIR = Path(lawsuit_tui.webhooks.__file__).parent
FORBIDDEN = ("lawsuit_tui.store", "lawsuit_tui.api", "tinydb")


def imports_of(source: str) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append(node.module)
            found.extend(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def is_forbidden(module: str) -> bool:
    return any(module == bad or module.startswith(bad + ".") for bad in FORBIDDEN)


def test_the_receiver_reaches_the_cache_only_through_services() -> None:
    offenders = {
        path.name: bad
        for path in sorted(WEBHOOKS_DIR.glob("*.py"))
        if (bad := [m for m in imports_of(path.read_text(encoding="utf-8")) if is_forbidden(m)])
    }
    assert offenders == {}
    receiver = imports_of((WEBHOOKS_DIR / "receiver.py").read_text(encoding="utf-8"))
    assert "lawsuit_tui.services.webhooks" in receiver


def test_the_scan_sees_a_typing_only_import() -> None:
    source = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from lawsuit_tui import store\n"
    )
    assert [m for m in imports_of(source) if is_forbidden(m)] == ["lawsuit_tui.store"]

"""The command line's plumbing (standard streams, exit codes) lives in commands/, not in the
use cases: services/ neither writes to a terminal nor decides how a process ends."""

from __future__ import annotations

import ast
from pathlib import Path

import lawsuit_tui.services

SERVICES_DIR = Path(lawsuit_tui.services.__file__).parent
STREAMS = {("sys", "stdout"), ("sys", "stderr"), ("sys", "exit")}


def plumbing_in(source: str) -> list[str]:
    """Each print, standard stream, exit or exit-code name a module's code uses."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in ("print", "exit", "quit"):
                found.append(f"{node.lineno}: {node.func.id}()")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if (node.value.id, node.attr) in STREAMS:
                found.append(f"{node.lineno}: {node.value.id}.{node.attr}")
        elif isinstance(node, ast.Name | ast.alias):
            name = node.id if isinstance(node, ast.Name) else node.name
            if name.startswith("EXIT_") or name in ("stdout", "stderr"):
                found.append(f"{node.lineno}: {name}")
    return found


def test_services_write_nothing_to_the_terminal_and_know_no_exit_codes() -> None:
    offenders = {
        str(path.relative_to(SERVICES_DIR)): found
        for path in sorted(SERVICES_DIR.rglob("*.py"))
        if (found := plumbing_in(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}


def test_the_scan_sees_each_kind_of_plumbing() -> None:
    source = (
        "import sys\nfrom sys import stderr\nEXIT_OK = 0\nprint('x')\n"
        "sys.stdout.write('x')\nsys.exit(EXIT_OK)\n"
    )
    found = {line.split(": ")[1] for line in plumbing_in(source)}
    assert found == {"stderr", "EXIT_OK", "print()", "sys.stdout", "sys.exit"}

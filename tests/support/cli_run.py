"""The command line run in this process, and where this test's cache is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lawsuit_tui import cli

__all__ = ["run_cli", "sandbox_cache"]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``lawsuit-tui ARGV``: its exit code, standard output and standard error."""
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def sandbox_cache() -> Path:
    """The cache of this test in sandbox mode (``cache_dir``/sandbox, see the root conftest)."""
    return Path(os.environ["LAWSUIT_TUI_CACHE_DIR"]) / "sandbox"

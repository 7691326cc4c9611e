"""The command line run in this process, and where this test's cache is."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from lawsuit_tui import cli

if TYPE_CHECKING:
    from lawsuit_tui.config import Settings
    from lawsuit_tui.sandbox.state import SandboxState

__all__ = ["change_sandbox", "run_cli", "sandbox_cache"]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``lawsuit-tui ARGV``: its exit code, standard output and standard error."""
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def sandbox_cache() -> Path:
    """The cache of this test in sandbox mode (``cache_dir``/sandbox, see the root conftest)."""
    return Path(os.environ["LAWSUIT_TUI_CACHE_DIR"]) / "sandbox"


def change_sandbox(
    monkeypatch: pytest.MonkeyPatch, change: Callable[[SandboxState, Settings], None]
) -> None:
    """The sandbox of the next commands is built as before, then ``change``d (a court down,
    a key without a feature...)."""
    from lawsuit_tui.services import context

    built = context.build_sandbox

    def build(settings: Settings, **options: Any) -> Any:
        app = built(settings, **options)
        change(app.state.sandbox, settings)
        return app

    monkeypatch.setattr(context, "build_sandbox", build)

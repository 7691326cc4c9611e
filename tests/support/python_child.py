"""A fresh Python interpreter in a child process: what an import or a command does from a
clean start (the test's own process has imported everything long ago)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

__all__ = ["probe_report", "python_child"]


def python_child(
    *args: str, timeout: float = 60, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python ARGS`` (this interpreter) to its end, its output captured as text."""
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        cwd=cwd,
    )


def probe_report(script: str, *args: str, timeout: float = 60, cwd: Path | None = None) -> Any:
    """Run ``script`` (``python -c``) with ``args``; the JSON it printed on its last line.
    Fails with the end of its stderr when it fails."""
    result = python_child("-c", script, *args, timeout=timeout, cwd=cwd)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])

"""The sandbox served on a loopback port, as ``lawsuit-tui sandbox serve --port 0`` runs it.

``served_sandbox()`` starts it in a child process, answers its root URL (the first line it
prints) and the process, and stops it with SIGINT (then a kill) when the block ends.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

__all__ = ["served_sandbox"]


@contextmanager
def served_sandbox(
    *extra: str, env: Mapping[str, str] | None = None
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "lawsuit_tui", "sandbox", "serve", "--port", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    try:
        assert process.stdout is not None
        root = process.stdout.readline().strip()
        assert root.startswith("http://127.0.0.1:"), process.stderr and process.stderr.read()
        yield root, process
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

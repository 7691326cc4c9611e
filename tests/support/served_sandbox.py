"""The sandbox served on a loopback port by its own command (``lawsuit-tui sandbox serve
--port 0``), for tests that talk to it over real HTTP."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["served_sandbox"]


@contextmanager
def served_sandbox(*options: str, speed: float | None = None) -> Iterator[str]:
    """The root URL of a sandbox served in a child process (stopped with SIGINT on exit);
    ``options`` go to ``sandbox serve``, ``speed`` sets its clock's. The test's own
    ``LAWSUIT_TUI_*`` settings are not passed on."""
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("LAWSUIT_TUI_")}
    env["PYTHONUNBUFFERED"] = "1"
    if speed is not None:
        env["LAWSUIT_TUI_SANDBOX__SPEED"] = str(speed)
    process = subprocess.Popen(
        [sys.executable, "-m", "lawsuit_tui", "sandbox", "serve", "--port", "0", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        root = process.stdout.readline().strip()
        assert root.startswith("http://127.0.0.1:"), process.stderr and process.stderr.read()
        yield root
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

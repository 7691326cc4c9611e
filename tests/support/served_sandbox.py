"""The sandbox served on a loopback port by a child process (``sandbox serve --port 0``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["served_sandbox"]


@contextmanager
def served_sandbox(*options: str) -> Iterator[str]:
    """The root URL of a sandbox served with ``options``; stopped (SIGINT) on leaving."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
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
        process.stdout.readline()  # "accepting api-key ..."
        yield root
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            raise

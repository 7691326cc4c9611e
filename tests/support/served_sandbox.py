"""The sandbox served by ``lawsuit-tui sandbox serve`` in a child process, and the environment
of a child ``lawsuit-tui`` that talks to it as to the live service (its state outlives the
clients: they can be killed and started again against the same service)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

__all__ = ["SERVE", "clean_env", "live_env", "served_sandbox"]

SERVE = (sys.executable, "-m", "lawsuit_tui", "sandbox", "serve", "--port", "0")


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without any LAWSUIT_TUI_ setting, unbuffered, plus
    ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("LAWSUIT_TUI_")}
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


def live_env(home: Path, root: str, **extra: str) -> dict[str, str]:
    """A client's environment: its own config, cache and runtime dirs under ``home``, the
    sandbox's key, and the five base URLs under ``root`` (so it runs in live mode)."""
    home.mkdir(parents=True, exist_ok=True)
    runtime = home / "runtime"
    runtime.mkdir(mode=0o700, exist_ok=True)
    env = clean_env(
        XDG_RUNTIME_DIR=str(runtime),
        LAWSUIT_TUI_CONFIG=str(home / "absent.toml"),
        LAWSUIT_TUI_CACHE_DIR=str(home / "cache"),
        LAWSUIT_TUI_API_KEY="sandbox",
    )
    for name in ("requests", "lawsuits", "tracking", "vault", "miner"):
        env[f"LAWSUIT_TUI_URLS__{name.upper()}_URL"] = f"{root}/{name}"
    env.update(extra)
    return env


@contextlib.contextmanager
def served_sandbox(
    *args: str,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    speed: float | None = None,
) -> Iterator[str]:
    """Serve the sandbox on a port the OS picks (``args`` go to ``sandbox serve``, ``speed``
    sets its clock's); yields its root URL once it accepts connections; stops it (SIGINT,
    then a kill) at the end. The test's own ``LAWSUIT_TUI_*`` settings are not passed on."""
    environment = dict(env) if env is not None else clean_env()
    if speed is not None:
        environment["LAWSUIT_TUI_SANDBOX__SPEED"] = str(speed)
    process = subprocess.Popen(
        [*SERVE, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        cwd=cwd,
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

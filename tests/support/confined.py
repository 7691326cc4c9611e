"""Running ``python -m lawsuit_tui`` where the disk is hostile: full, read-only, not ours.

Real processes on real file systems, never a mock: a child in its own mount namespace
(``unshare -m``) gets a tiny full tmpfs or a read-only bind mount over part of its cache,
and a child without capabilities (``setpriv``) obeys file modes even when the tests run as
root. Each helper says why it cannot run here (``None`` when it can), for ``pytest.skip``.
"""

from __future__ import annotations

import functools
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = [
    "cannot_drop_privileges",
    "cannot_mount",
    "lawsuit_tui",
    "shell_quote",
]

ROOT = Path(__file__).resolve().parents[2]


def shell_quote(value: object) -> str:
    return "'" + str(value).replace("'", "'\"'\"'") + "'"


PRIVATE_MOUNTS = ["unshare", "-m", "--propagation", "private"]
"""The start of a command run in its own mount namespace (its mounts go with it)."""
NO_CAPABILITIES = ["setpriv", "--inh-caps=-all", "--bounding-set=-all"]
"""The start of a command run without any capability (file modes hold for root too)."""


def _runs(command: list[str]) -> bool:
    """Whether ``command`` succeeds on this machine (a probe of what it allows)."""
    probe = subprocess.run(command, capture_output=True, check=False, timeout=30)
    return probe.returncode == 0


@functools.cache
def cannot_mount() -> str | None:
    """Why a child cannot get private mounts here (None: it can)."""
    if shutil.which("unshare") is None:
        return "unshare(1) is not installed"
    if not _runs([*PRIVATE_MOUNTS, "sh", "-c", "mount -t tmpfs -o size=4k tmpfs /mnt"]):
        return "this machine does not allow private mount namespaces (unshare -m, mount)"
    return None


@functools.cache
def cannot_drop_privileges() -> str | None:
    """Why a child cannot be made to obey file modes here (None: it can)."""
    if os.geteuid() != 0:
        return None  # an ordinary user obeys them already
    if shutil.which("setpriv") is None:
        return "setpriv(1) is not installed, and root ignores file modes"
    if not _runs([*NO_CAPABILITIES, "true"]):
        return "setpriv cannot drop capabilities here, and root ignores file modes"
    return None


def lawsuit_tui(
    args: Sequence[str],
    env: dict[str, str],
    *,
    mounts: str = "",
    unprivileged: bool = False,
    file_size_limit: int | None = None,
    timeout: float = 120.0,
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m lawsuit_tui ARGS`` to its end.

    ``mounts``: shell commands run first in a private mount namespace (``mount -t tmpfs
    ...``); ``unprivileged``: without any capability (file modes hold for root too);
    ``file_size_limit``: RLIMIT_FSIZE in bytes (writes beyond it fail with EFBIG; Python
    ignores SIGXFSZ)."""
    command = [sys.executable, "-m", "lawsuit_tui", *args]
    if unprivileged and os.geteuid() == 0:
        command = [*NO_CAPABILITIES, "--", *command]
    if mounts:
        script = f'set -e\n{mounts}\nexec "$@"'
        command = [*PRIVATE_MOUNTS, "sh", "-c", script, "sh", *command]
    preexec: Callable[[], None] | None = None
    if file_size_limit is not None:
        limit = file_size_limit

        def preexec() -> None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    full_env = {**env, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        command,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        cwd=ROOT,
        preexec_fn=preexec,
    )

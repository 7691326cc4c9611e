"""Where the embedded sandbox keeps its state, and how its cache is kept matching it (D183).

Without an API key the sandbox runs in each process that needs it (the app, each command),
all over one state kept on disk beside the sandbox's cache:
``<cache_dir>/sandbox-state/seed-<seed>.sqlite3`` (one per seed: a sandbox of another seed is
another world). The two go together (a user who clears the cache directory clears both),
and the cache must hold only what its sandbox holds: it records the generation of the
sandbox it was filled from (``sandbox-generation`` in it), and a cache filled from another
(a sandbox started afresh, another seed, or the sandbox of an older version, which forgot
everything when it closed) is emptied before it is opened, when no other process holds it.

``lawsuit-tui sandbox reset`` removes both, refusing while a process uses either.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from lawsuit_tui.services.paths import SANDBOX_CACHE_SUBDIR, STATE_SUBDIR, state_path_for
from lawsuit_tui.store import CacheLocked, holds_a_cache, wipe

__all__ = [
    "GENERATION_FILE",
    "STATE_SUBDIR",
    "ResetOutcome",
    "SandboxInUse",
    "match_cache",
    "reset_sandbox",
    "sandbox_state_path",
    "state_path_for",
]

GENERATION_FILE = "sandbox-generation"


class _SandboxSettings(Protocol):
    @property
    def seed(self) -> int: ...


class _HasSandbox(Protocol):
    @property
    def cache_dir(self) -> Path: ...

    @property
    def sandbox(self) -> _SandboxSettings: ...


class SandboxInUse(Exception):
    """Another process uses the sandbox or its cache."""

    def __init__(self, what: str, holder: str = "") -> None:
        super().__init__(what)
        self.what = what
        self.holder = holder


@dataclass(frozen=True)
class ResetOutcome:
    state: Path
    cache: Path
    had_state: bool
    had_cache: bool


def sandbox_state_path(settings: _HasSandbox) -> Path:
    """The file of the embedded sandbox's state for ``settings`` (its seed's)."""
    return state_path_for(Path(settings.cache_dir), int(settings.sandbox.seed))


def _sandbox_cache(settings: _HasSandbox) -> Path:
    return Path(settings.cache_dir) / SANDBOX_CACHE_SUBDIR


def match_cache(directory: Path, generation: str) -> bool:
    """Make the sandbox's cache at ``directory`` one of the sandbox ``generation``: emptied
    when it was filled from another one (and no other process holds it). Whether it was."""
    if directory.name != SANDBOX_CACHE_SUBDIR:  # never the cache of live data
        raise ValueError(f"{directory} is not a sandbox's cache")
    marker = directory / GENERATION_FILE
    try:
        kept = marker.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        kept = None
    except (OSError, UnicodeDecodeError):
        kept = ""
    if kept == generation:
        return False
    emptied = False
    if holds_a_cache(directory):
        try:
            emptied = wipe(directory)
        except CacheLocked:
            return False  # another process has it open: leave it (it says which sandbox)
    with contextlib.suppress(OSError):
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        _write_marker(marker, generation)
    return emptied


def _write_marker(marker: Path, generation: str) -> None:
    tmp = marker.with_name(marker.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, generation.encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    tmp.replace(marker)


def reset_sandbox(settings: _HasSandbox) -> ResetOutcome:
    """Remove the embedded sandbox's state and its cache: the next run starts afresh.

    Raises :class:`SandboxInUse` while a process has either open."""
    from lawsuit_tui.sandbox.state_file import StateInUse, remove_state

    state = sandbox_state_path(settings)
    cache = _sandbox_cache(settings)
    # The cache first: emptied while its sandbox stays, it fills again from it; the other
    # way round it would hold what no sandbox has.
    try:
        had_cache = wipe(cache)
    except CacheLocked as exc:
        raise SandboxInUse(str(cache), exc.holder) from exc
    try:
        had_state = remove_state(state)
    except StateInUse as exc:
        raise SandboxInUse(str(state)) from exc
    return ResetOutcome(state, cache, had_state, had_cache)

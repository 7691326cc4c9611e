"""Fixtures of the UI tests: no blinking cursor, so snapshots are stable."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.steady_cursor import hold_cursors_steady


@pytest.fixture(autouse=True)
def no_cursor_blink(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Inputs and text areas keep a steady cursor (a blinking one makes snapshots flaky)."""
    hold_cursors_steady(monkeypatch)
    yield


@pytest.fixture(autouse=True)
def no_fsync(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The cache's durability is tested in tests/store; here fsync only costs seconds of I/O
    wait per test on slow disks, so it is skipped (the files are still written)."""
    import os

    monkeypatch.setattr(os, "fsync", lambda fd: None)
    yield

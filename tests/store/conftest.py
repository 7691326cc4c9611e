"""Fixtures for the cache tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lawsuit_tui.store import Store
from tests.support.clock import FakeClock


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(cache_dir: Path, clock: FakeClock) -> Iterator[Store]:
    s = Store.open(cache_dir, clock=clock)
    yield s
    s.close()

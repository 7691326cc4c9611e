"""Fixtures of the service tests: a context over the sandbox with a temporary cache."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from lawsuit_tui.services.context import ServiceContext
from tests.support.service_rig import Rig


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    r = Rig(tmp_path / "cache")
    try:
        yield r
    finally:
        await r.aclose()


@pytest.fixture
async def ctx(rig: Rig) -> ServiceContext:
    return await rig.open()

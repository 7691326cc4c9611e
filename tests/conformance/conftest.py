"""Fixtures of the conformance tests: the sandbox in process on a frozen clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.service_rig import Rig


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    r = Rig(tmp_path / "cache")
    try:
        yield r
    finally:
        await r.aclose()

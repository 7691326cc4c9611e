"""Fixtures of the service tests: a context over the sandbox with a temporary cache, on the
real clock or on one the test moves."""

from __future__ import annotations

import pytest

from lawsuit_tui.services.context import ServiceContext
from tests.support.clock import FakeClock
from tests.support.service_rig import Rig


@pytest.fixture
async def ctx(rig: Rig) -> ServiceContext:
    return await rig.open()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def dctx(rig: Rig, clock: FakeClock) -> ServiceContext:
    """A context whose time is ``clock`` (the ages of cached answers, the dossier's max age)."""
    return await rig.open(now=clock)

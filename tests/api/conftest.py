"""Fixtures of the client tests: the sandbox in process on a frozen clock, and a virtual clock
for the clients of a mocked service."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.support.client_rig import SandboxRig, open_sandbox
from tests.support.clock import VirtualClock


@pytest.fixture
async def sandbox() -> AsyncIterator[SandboxRig]:
    rig = open_sandbox()
    try:
        yield rig
    finally:
        await rig.aclose()


@pytest.fixture
def clock() -> VirtualClock:
    """Every wait instant, and recorded in ``clock.sleeps``."""
    return VirtualClock()

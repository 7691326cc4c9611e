"""The sandbox in process, on a frozen clock, for the client tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.support.client_rig import SandboxRig, open_sandbox


@pytest.fixture
async def sandbox() -> AsyncIterator[SandboxRig]:
    rig = open_sandbox()
    try:
        yield rig
    finally:
        await rig.aclose()

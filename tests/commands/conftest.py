"""The commands run against the in-process sandbox kept in the test's cache directory, its
clock 50 times real time."""

from __future__ import annotations

from typing import Any

import pytest

from lawsuit_tui.services import context
from tests.support.samples import samples as shared_samples


@pytest.fixture(autouse=True)
def fast_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAWSUIT_TUI_SANDBOX__SPEED", "50")
    original = context.build_sandbox

    def build(settings: Any) -> Any:
        # The sandbox kept in the test's cache directory, as the app keeps it (commands see
        # each other's requests), over the world every test shares (the default builds it
        # again for every command), from the world's own start.
        from lawsuit_tui.sandbox.clock import DEFAULT_START, SandboxClock
        from lawsuit_tui.sandbox.world import World

        return original(
            settings,
            clock=SandboxClock(DEFAULT_START, speed=settings.sandbox.speed),
            world=World.shared(settings.sandbox.seed),
        )

    monkeypatch.setattr(context, "build_sandbox", build)


@pytest.fixture(scope="session")
def samples() -> dict[str, Any]:
    return shared_samples()


@pytest.fixture
def no_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to open the services fails the test: bad input is refused before."""

    async def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("no call may be made for bad input")

    monkeypatch.setattr(context.ServiceContext, "open", refuse)

"""The commands run against the in-process sandbox, its clock 50 times real time."""

from __future__ import annotations

from secrets import token_hex
from typing import Any

import pytest

from lawsuit_tui.services import context
from tests.support.samples import samples as shared_samples


@pytest.fixture(autouse=True)
def fast_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAWSUIT_TUI_SANDBOX__SPEED", "50")
    original = context.build_sandbox

    def build(settings: Any, id_salt: str | None = None) -> Any:
        # One world per test process (the default builds it again for every app).
        from lawsuit_tui.sandbox.app import create_app
        from lawsuit_tui.sandbox.clock import SandboxClock
        from lawsuit_tui.sandbox.world import World

        assert original is not None
        return create_app(
            seed=settings.sandbox.seed,
            api_keys=(settings.sandbox.api_key,),
            clock=SandboxClock(speed=settings.sandbox.speed),
            world=World.shared(settings.sandbox.seed),
            # Each run's ids are its own, as in the app (two runs never share a request id).
            id_salt=id_salt if id_salt is not None else token_hex(8),
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

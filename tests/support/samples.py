"""The sandbox world every test shares (seed 7, the sandbox's default start) and its samples:
the keys the world guarantees (a lawsuit with 10,000 steps, a secret one, a person with many
lawsuits...). Built once per test process; read-only."""

from __future__ import annotations

from functools import cache
from typing import Any

from lawsuit_tui.sandbox.clock import DEFAULT_START
from lawsuit_tui.sandbox.world import World

__all__ = ["samples", "shared_world"]


@cache
def shared_world() -> World:
    return World.shared(7, epoch=DEFAULT_START)


@cache
def samples() -> dict[str, Any]:
    found: dict[str, Any] = dict(shared_world().samples())
    return found

"""The sandbox's samples kept with its state (D185): answered before the world is built, read
by the app straight from the file, made again when the world that made them moved."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from lawsuit_tui.sandbox.app import create_app, sandbox_state
from lawsuit_tui.sandbox.clock import SandboxClock
from lawsuit_tui.sandbox.records import KeptSamples
from lawsuit_tui.sandbox.world import World
from lawsuit_tui.sandbox.world import samples as samples_module
from lawsuit_tui.services.paths import state_path_for
from lawsuit_tui.services.sandbox_samples import kept_samples
from tests.support.sandbox_http import sandbox_http

# What the samples of seed 7 at the default epoch digest to, by SAMPLES_VERSION: a change that
# moves them must raise the version (kept samples of the old one are then made again).
SAMPLES_DIGESTS = {1: "9eee6e9485449c7a"}


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


@pytest.fixture
async def opened(cache_dir: Path) -> AsyncIterator[list[tuple[Any, httpx.AsyncClient]]]:
    apps: list[tuple[Any, httpx.AsyncClient]] = []
    yield apps
    for app, client in apps:
        await client.aclose()
        await sandbox_state(app).aclose()


def open_app(
    apps: list[tuple[Any, httpx.AsyncClient]], cache_dir: Path, world: World | None
) -> tuple[Any, httpx.AsyncClient]:
    app = create_app(
        clock=SandboxClock.frozen(), world=world, state_path=state_path_for(cache_dir, 7)
    )
    client = sandbox_http(app, api_key=None, base_url="http://sb.test")
    apps.append((app, client))
    return app, client


def test_the_samples_version_says_when_the_samples_moved(world: World) -> None:
    digest = hashlib.blake2b(orjson.dumps(world.samples(), option=orjson.OPT_SORT_KEYS))
    found = digest.hexdigest()[:16]
    version = samples_module.SAMPLES_VERSION
    assert SAMPLES_DIGESTS.get(version) == found, (
        f"the samples of seed 7 changed (now {found}): raise SAMPLES_VERSION in "
        "sandbox/world/samples.py and record the new digest here"
    )


async def test_samples_are_kept_and_answered_before_the_world_is_built(
    cache_dir: Path, world: World, opened: list[tuple[Any, httpx.AsyncClient]]
) -> None:
    assert kept_samples(cache_dir, 7) is None  # no sandbox yet
    app, client = open_app(opened, cache_dir, world)
    answer = await client.get("/_sandbox/samples")
    assert answer.status_code == 200
    expected = world.samples()
    assert answer.json() == expected
    kept = sandbox_state(app).samples
    assert kept == KeptSamples(samples_module.SAMPLES_VERSION, expected)
    # The app reads them from the file, without the sandbox.
    assert kept_samples(cache_dir, 7) == expected
    assert kept_samples(cache_dir, 8) is None  # another seed's sandbox: none

    # Another process (its own state over the file, no world given): answered from the file.
    other, other_client = open_app(opened, cache_dir, None)
    again = await other_client.get("/_sandbox/samples")
    assert again.json() == expected
    assert not sandbox_state(other).world_built


async def test_samples_of_another_world_are_made_again(
    cache_dir: Path,
    world: World,
    opened: list[tuple[Any, httpx.AsyncClient]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app, client = open_app(opened, cache_dir, world)
    async with sandbox_state(app).transaction():
        sandbox_state(app).samples = KeptSamples(0, {"cpf": ["00000000000"]})
    assert kept_samples(cache_dir, 7) == {"cpf": ["00000000000"]}
    answer = await client.get("/_sandbox/samples")
    assert answer.json() == world.samples()
    assert kept_samples(cache_dir, 7) == world.samples()


def test_a_file_that_is_no_state_gives_no_samples(cache_dir: Path) -> None:
    path = state_path_for(cache_dir, 7)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a database at all" * 100)
    assert kept_samples(cache_dir, 7) is None

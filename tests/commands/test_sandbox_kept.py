"""The embedded sandbox is one service (D180-D183): the app's context and a command in another
process share it, a restart finds everything, ``sandbox reset`` starts afresh."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from lawsuit_tui.config import load_settings
from lawsuit_tui.sandbox.app import sandbox_state
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.paths import cache_path
from lawsuit_tui.services.sandbox_home import GENERATION_FILE, sandbox_state_path
from tests.support.cli_run import run_cli as _run

CREATED = re.compile(r"created request ([0-9a-f-]{36})")
ROOT = Path(__file__).resolve().parents[2]


async def _command(*argv: str) -> tuple[int, str, str]:
    """``lawsuit-tui ARGV`` in a process of its own, with this test's settings (the real
    sandbox: kept in the test's cache directory)."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "lawsuit_tui",
        *argv,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    out, err = await asyncio.wait_for(child.communicate(), 120)
    assert child.returncode is not None
    return child.returncode, out.decode(), err.decode()


async def test_a_command_beside_the_app_and_a_restart_share_one_sandbox(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))  # where the cache's holder listens
    settings = load_settings()
    app = await ServiceContext.open(settings)  # the app's context (it holds the cache)
    try:
        state = sandbox_state(app.sandbox_app)
        assert state.state_path == sandbox_state_path(settings)
        cnj = state.world.samples()["moving_lawsuit"]
        code, _out, err = await _command("request", cnj)
        assert code == 0, err
        found = CREATED.search(err)
        assert found, err
        request_id = found.group(1)
        # The app's sandbox knows it, and carries it on by itself (its clock 50x real time).

        record = await app.api.get_request(request_id)
        deadline = asyncio.get_running_loop().time() + 30
        while record.status != "completed":
            assert asyncio.get_running_loop().time() < deadline, record.status
            await asyncio.sleep(0.05)
            record = await app.api.get_request(request_id)
        assert record.responses_count and record.responses_count >= 1
        # The command handed its writes to the app, which holds the cache.
        assert app.store.get_request(request_id) is not None
    finally:
        await app.aclose()

    again = await ServiceContext.open(settings)  # a restart
    try:
        kept = await again.api.get_request(request_id)
        assert kept.status == "completed"
        assert again.store.get_request(request_id) is not None
        generation = sandbox_state(again.sandbox_app).generation
        assert (cache_path(settings) / GENERATION_FILE).read_text() == generation
    finally:
        await again.aclose()


def test_reset_starts_afresh_and_refuses_while_in_use(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _out, err = _run(capsys, "request", samples["moving_lawsuit"])
    assert code == 0, err
    first = CREATED.search(err)
    assert first
    settings = load_settings()
    state_file = sandbox_state_path(settings)
    assert state_file.exists()
    # Without a terminal it asks for --yes and removes nothing.
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    code, _out, err = _run(capsys, "sandbox", "reset")
    assert code == 2 and "--yes" in err and state_file.exists()
    # In use (the state is open elsewhere): refused, nothing removed.
    from lawsuit_tui.sandbox.state_file import StateFile

    holder = StateFile(state_file)
    holder.open()
    try:
        code, _out, err = _run(capsys, "sandbox", "reset", "--yes")
        assert code == 1 and "in use" in err and state_file.exists()
    finally:
        holder.close()
    code, out, err = _run(capsys, "sandbox", "reset", "--yes")
    assert code == 0, err
    assert "reset" in out and not state_file.exists()
    assert not cache_path(settings).exists()
    code, _out, err = _run(capsys, "request", samples["moving_lawsuit"])
    assert code == 0, err
    second = CREATED.search(err)
    assert second and second.group(1) != first.group(1)  # a new sandbox: its ids are its own

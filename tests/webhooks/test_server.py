"""The receiver inside the current loop (the TUI's mode) and the standalone command."""

from __future__ import annotations

import argparse
import asyncio
import socket
import stat
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from lawsuit_tui.commands import webhooks as command
from lawsuit_tui.config import load_settings, read_config_file
from lawsuit_tui.services.webhooks import DeliverySummary
from lawsuit_tui.store import Store
from lawsuit_tui.webhooks.server import EmbeddedReceiver, ReceiverUnavailable
from tests.support.waiting import wait_for
from tests.support.webhook_data import TOKEN, Child, child_env, response_created

# --------------------------------------------------------------------- embedded (TUI) mode


async def test_embedded_receiver_generates_a_token_and_stores_deliveries(
    tmp_path: Path, isolated_config: Path
) -> None:
    settings = load_settings()
    seen: list[DeliverySummary] = []
    with Store.open(tmp_path / "cache") as store:
        receiver = EmbeddedReceiver(store, settings, seen.append, port=0)
        url = await receiver.start()
        try:
            running = receiver.running
            assert running
            assert receiver.token_source == "generated"
            token = url.rsplit("/", 1)[1]
            assert len(token) >= 32
            saved = read_config_file(isolated_config)
            assert saved["webhooks"]["path_token"] == token
            mode = (await asyncio.to_thread(isolated_config.stat)).st_mode
            assert stat.S_IMODE(mode) == 0o600
            assert receiver.masked_url is not None and token not in receiver.masked_url
            envelope = response_created(cached=True)
            async with httpx.AsyncClient() as client:
                answer = await client.post(url, json=envelope)
                assert answer.status_code == 200
                health = await client.get(f"{url}/health")
                assert health.status_code == 200 and "deliveries stored: 1" in health.text
        finally:
            await receiver.stop()
        assert not receiver.running
        assert [s.callback_id for s in seen] == [envelope["callback_id"]]
        assert seen[0].provisional is True
        assert store.is_delivered(envelope["callback_id"])
        async with httpx.AsyncClient() as client:
            with pytest.raises(httpx.ConnectError):
                await client.post(url, json=envelope)
        # started again: same token (now from the config), shown masked from now on
        again = await receiver.start()
        try:
            assert again.rsplit("/", 1)[1] == token
            assert receiver.token_source == "config"
        finally:
            await receiver.stop()


async def test_embedded_receiver_uses_the_configured_token_and_allow_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LAWSUIT_TUI_WEBHOOKS__PATH_TOKEN", TOKEN)
    monkeypatch.setenv("LAWSUIT_TUI_WEBHOOKS__ALLOW_FROM", "10.0.0.0/8")
    settings = load_settings()
    with Store.open(tmp_path / "cache") as store:
        receiver = EmbeddedReceiver(store, settings, port=0)
        url = await receiver.start()
        try:
            assert url.endswith(f"/{TOKEN}")
            assert receiver.token_source == "config"
            async with httpx.AsyncClient() as client:
                answer = await client.post(url, json=response_created(cached=False))
            assert answer.status_code == 403  # 127.0.0.1 is not in 10.0.0.0/8
        finally:
            await receiver.stop()


async def test_embedded_receiver_refuses_a_read_only_cache(tmp_path: Path) -> None:
    settings = load_settings()
    with (
        Store.open(tmp_path / "cache") as _writer,
        Store.open(tmp_path / "cache", read_only=True) as reader,
    ):
        receiver = EmbeddedReceiver(reader, settings, port=0, path_token=TOKEN)
        with pytest.raises(ReceiverUnavailable, match="read-only"):
            await receiver.start()
        assert not receiver.running


async def test_embedded_receiver_reports_an_address_in_use(tmp_path: Path) -> None:
    settings = load_settings()
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = taken.getsockname()[1]
        with Store.open(tmp_path / "cache") as store:
            receiver = EmbeddedReceiver(store, settings, port=port, path_token=TOKEN)
            with pytest.raises(ReceiverUnavailable, match=str(port)):
                await receiver.start()
            assert not receiver.running
    finally:
        taken.close()


async def test_stop_finishes_the_delivery_in_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = load_settings()
    entered = threading.Event()
    release = threading.Event()
    with Store.open(tmp_path / "cache") as store:
        real = store.ingest_delivery

        def slow(*args: Any, **kwargs: Any) -> Any:
            entered.set()
            release.wait(10)
            return real(*args, **kwargs)

        monkeypatch.setattr(store, "ingest_delivery", slow)
        receiver = EmbeddedReceiver(store, settings, port=0, path_token=TOKEN)
        url = await receiver.start()
        envelope = response_created(cached=False)
        async with httpx.AsyncClient() as client:
            posting = asyncio.create_task(client.post(url, json=envelope))
            await wait_for(entered.is_set, limit=10, what="the write to start")
            stopping = asyncio.create_task(receiver.stop())
            await asyncio.sleep(0)  # let stop() begin: it must wait for the delivery
            assert not stopping.done()
            release.set()
            answer = await asyncio.wait_for(posting, 10)
            await asyncio.wait_for(stopping, 20)
        assert answer.status_code == 200
        assert store.is_delivered(envelope["callback_id"])


# --------------------------------------------------------------------- the command


def test_command_refuses_a_token_that_is_not_a_path_segment(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = argparse.Namespace(
        webhooks_command="serve", host=None, port=0, path_token="a/b?c", allow_from=[]
    )
    assert command.run(args, load_settings()) == 2
    assert "--path-token" in capsys.readouterr().err


def test_command_serves_generates_a_token_once_and_stops_cleanly(tmp_path: Path) -> None:
    env = child_env(tmp_path)
    child = Child(["webhooks", "serve", "--port", "0"], env)
    try:
        url = child.line()
        note = child.line()
        token = url.rsplit("/", 1)[1]
        assert len(token) >= 32 and "generated" in note
        config = read_config_file(tmp_path / "config.toml")
        assert config["webhooks"]["path_token"] == token
        envelope = response_created(cached=False)
        answer = httpx.post(url, json=envelope, timeout=10)
        assert answer.status_code == 200
        assert httpx.post(url + "x", json=envelope, timeout=10).status_code == 404
    finally:
        code = child.stop()
    assert code == 0
    out = child.output()
    assert any(line.startswith("Stopped. Deliveries stored: 1") for line in out)
    assert token not in "".join(child.stderr)
    with Store.open(tmp_path / "cache", read_only=True) as store:
        assert store.is_delivered(envelope["callback_id"])
    # Started again: the token comes from the config and is not printed again.
    child = Child(["webhooks", "serve", "--port", "0"], env)
    try:
        masked = child.line()
        assert token not in masked and masked.endswith(token[-4:])
        port = masked.split(":")[2].split("/")[0]
        again = httpx.post(f"http://127.0.0.1:{port}/{token}", json=envelope, timeout=10)
        assert again.status_code == 200 and again.json()["status"] == "duplicate"
    finally:
        assert child.stop() == 0


def test_command_says_so_when_another_process_holds_the_cache(tmp_path: Path) -> None:
    with Store.open(tmp_path / "cache"):
        child = Child(
            ["webhooks", "serve", "--port", "0", "--path-token", TOKEN], child_env(tmp_path)
        )
        code = child.proc.wait(30)
        child.kill()
    assert code == 1
    err = "\n".join(child.stderr)
    assert "in use by another lawsuit-tui process" in err
    assert "was not started" in err
    assert child.output() == []

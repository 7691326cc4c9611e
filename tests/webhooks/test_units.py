"""Small parts: the allow-list, the token helpers, the ingestor used directly."""

from __future__ import annotations

import asyncio
from pathlib import Path

import orjson
import pytest
from pydantic import SecretStr

from lawsuit_tui.config import load_settings, read_config_file
from lawsuit_tui.services.webhooks import InvalidDelivery, WebhookIngestor, follow_writer
from lawsuit_tui.store import Store
from lawsuit_tui.webhooks.allowlist import AllowList
from lawsuit_tui.webhooks.receiver import create_receiver
from lawsuit_tui.webhooks.token import generate_token, mask_token, resolve_token
from tests.support.webhook_data import TOKEN, request_completed, response_created


def test_allow_list() -> None:
    assert AllowList().allows(None)  # empty: everyone (the token still applies)
    allow = AllowList(["10.0.0.0/8", "192.168.1.7", " 2001:db8::/32 "])
    assert allow.allows("10.255.0.1")
    assert allow.allows("192.168.1.7")
    assert not allow.allows("192.168.1.8")
    assert allow.allows("2001:db8::1")
    assert allow.allows("::ffff:10.0.0.1")
    assert not allow.allows("fe80::1%eth0")
    assert not allow.allows("not-an-address")
    assert not allow.allows(None)


def test_tokens(isolated_config: Path) -> None:
    token = generate_token()
    assert len(token) == 32 and token != generate_token()
    assert all(generate_token()[0].isalnum() for _ in range(200))
    assert mask_token(token) == "…" + token[-4:]
    assert mask_token("short") == "…"
    settings = load_settings()
    assert resolve_token(settings, "given-token-123456") == ("given-token-123456", "given")
    assert not isolated_config.exists()  # a given token is not saved
    generated, source = resolve_token(settings)
    assert source == "generated"
    assert read_config_file(isolated_config)["webhooks"]["path_token"] == generated
    settings.webhooks.path_token = SecretStr(generated)
    assert resolve_token(settings) == (generated, "config")


def test_path_token_must_be_one_segment(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c") as store:
        for bad in ("", "a/b"):
            with pytest.raises(ValueError, match="path_token"):
                create_receiver(store, path_token=bad)


def test_ingestor_directly_and_the_token_kept_out_of_quarantine(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c") as store:
        ingestor = WebhookIngestor(store, secrets=[TOKEN])
        first = ingestor.ingest(response_created(cached=True))
        assert first.new and first.kind == "response" and first.provisional is True
        done = ingestor.ingest(request_completed("req-1"))
        assert done.kind == "request" and done.status == "completed"
        with pytest.raises(InvalidDelivery):
            ingestor.ingest({"event_type": "response_created"})
        poison = f'{{"callback_url": "https://x/{TOKEN}", "oops"'.encode()
        with pytest.raises(InvalidDelivery, match="not JSON"):
            ingestor.ingest_body(poison)
        kept = store.list_quarantine()
        assert len(kept) == 1 and TOKEN not in kept[0]["body"]
        future = ingestor.submit(b"[]")
        with pytest.raises(InvalidDelivery, match="not a JSON object"):
            future.result(10)
        envelope = response_created(cached=False)
        assert ingestor.submit(_json(envelope)).result(10).new
        assert not ingestor.submit(_json(envelope)).result(10).new
        ingestor.close()
        ingestor.close()  # idempotent
        summary = ingestor.submit(_json(response_created(cached=False))).result(10)
        assert summary.new  # a submit after close starts the writer again
        ingestor.close()
        assert summary.to_json()["callback_id"] == summary.callback_id


def _json(data: object) -> bytes:
    return orjson.dumps(data)


async def test_follow_writer_sees_what_a_standalone_receiver_stores(tmp_path: Path) -> None:
    with (
        Store.open(tmp_path / "c") as writer,
        Store.open(tmp_path / "c", read_only=True) as reader,
    ):
        changed = asyncio.Event()
        ticks: list[float] = []
        tick = asyncio.Event()

        async def step(seconds: float) -> None:  # an injected clock: one tick at a time
            ticks.append(seconds)
            tick.set()
            await asyncio.sleep(0)

        follower = asyncio.create_task(follow_writer(reader, changed.set, sleep=step))
        await asyncio.wait_for(tick.wait(), 10)
        envelope = response_created(cached=False)
        await asyncio.to_thread(WebhookIngestor(writer).ingest, envelope)
        await asyncio.wait_for(changed.wait(), 10)
        follower.cancel()
        assert reader.is_delivered(envelope["callback_id"])
        assert ticks and ticks[0] == 2.0

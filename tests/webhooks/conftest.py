"""Fixtures for the webhook receiver: a real cache in a temporary directory, envelopes, clients."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from lawsuit_tui.services.webhooks import DeliverySummary
from lawsuit_tui.store import Store
from lawsuit_tui.webhooks.receiver import Receiver, create_receiver
from tests.support.webhook_data import TOKEN


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(tmp_path / "cache")
    yield opened
    opened.close()


@pytest.fixture
def notified() -> list[DeliverySummary]:
    return []


@pytest.fixture
def receiver(store: Store, notified: list[DeliverySummary]) -> Iterator[Receiver]:
    app = create_receiver(store, path_token=TOKEN, on_delivery=notified.append)
    yield app
    app.ingestor.close()


@pytest.fixture
async def client(receiver: Receiver) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=receiver, client=("127.0.0.1", 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://receiver.test") as c:
        yield c

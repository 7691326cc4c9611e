"""One writer, many clients: the holder's socket, what it takes and what it refuses (D137)."""

from __future__ import annotations

import asyncio
import inspect
import os
import re
import struct
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import orjson
import pytest

from lawsuit_tui.services import cache as cache_module
from lawsuit_tui.services.cache import Cache, Unkept
from lawsuit_tui.services.shared_cache import (
    FORWARDED_WRITES,
    WRITER_FILE,
    CacheHost,
    HolderGone,
    connect_to_holder,
)
from lawsuit_tui.store import CacheError, Store
from tests.support.store_data import make_response


@pytest.fixture
async def holder(tmp_path: Path) -> AsyncIterator[CacheHost]:
    store = Store.open(tmp_path / "cache")
    host = CacheHost(store)
    assert await host.start()
    try:
        yield host
    finally:
        await host.aclose()
        store.close()


async def test_a_write_handed_over_is_durable_there_and_read_back_here(
    holder: CacheHost,
) -> None:
    taken: list[str] = []
    holder.subscribe(taken.append)
    reader = Store.open(holder.directory, read_only=True)
    client = await connect_to_holder(holder.directory)
    assert client is not None and client.pid == os.getpid()
    cache = Cache(reader, holder=client)
    changes = await cache.upsert_responses([make_response("r1", "q")], meta={"k": 1})
    assert [c.code for c in changes] == ["0001234-56.2023.8.26.0100"]  # results come back
    assert holder.store.get_response("r1") is not None and holder.store.get_meta("k") == 1
    assert reader.get_response("r1") is not None  # read back at once
    assert taken == ["upsert_responses"] and not cache.unkept
    await cache.aclose()
    reader.close()


async def test_a_secret_of_the_client_never_reaches_the_holders_cache(holder: CacheHost) -> None:
    client = await connect_to_holder(holder.directory, secrets=["client-key-0123456789"])
    assert client is not None
    await client.call(
        "upsert_requests", [[{"request_id": "q", "note": "client-key-0123456789"}]], {}
    )
    assert holder.store.get_request("q") == {"request_id": "q", "note": "[redacted]"}
    await client.aclose()


async def test_what_a_holder_refuses_is_said(holder: CacheHost) -> None:
    client = await connect_to_holder(holder.directory)
    assert client is not None
    with pytest.raises(CacheError, match="unknown operation 'close'"):
        await client.call("close", [], {})
    with pytest.raises(CacheError, match="needs request_id"):
        await client.call("upsert_requests", [[{"no": "id"}]], {})
    await client.aclose()


async def test_garbage_on_the_socket_costs_the_holder_nothing(holder: CacheHost) -> None:
    reader, writer = await asyncio.open_unix_connection(str(holder.socket_path))
    writer.write(struct.pack(">I", 5) + b"{not!")
    await writer.drain()
    assert await reader.read() == b""  # disconnected
    writer.close()
    client = await connect_to_holder(holder.directory)
    assert client is not None
    await client.call("set_meta", ["still", True], {})
    await client.aclose()


async def test_a_gone_holder_is_said_and_a_stale_marker_ignored(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "cache")
    host = CacheHost(store)
    assert await host.start()
    client = await connect_to_holder(store.path)
    assert client is not None
    await host.aclose()
    with pytest.raises(HolderGone):
        await client.call("set_meta", ["k", 1], {})
    await client.aclose()
    assert not (store.path / WRITER_FILE).exists()
    # A marker left by a holder that was killed: nobody answers there.
    (store.path / WRITER_FILE).write_bytes(
        orjson.dumps({"pid": 1, "socket": str(store.path / "writer.sock")})
    )
    assert await connect_to_holder(store.path) is None
    store.close()


async def test_a_cache_whose_path_is_too_long_for_a_socket_still_serves(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    store = Store.open(deep)
    host = CacheHost(store)
    assert await host.start()
    try:
        assert len(os.fsencode(host.socket_path)) <= 100
        assert host.socket_path.parent.stat().st_mode & 0o777 == 0o700
        client = await connect_to_holder(deep)
        assert client is not None
        await client.call("set_meta", ["k", 2], {})
        assert store.get_meta("k") == 2
        await client.aclose()
    finally:
        await host.aclose()
        store.close()


def test_what_was_not_kept_is_counted_by_what_it_held() -> None:
    unkept = Unkept()
    unkept.add("upsert_requests", ([{"request_id": "a"}, {"request_id": "b"}],))
    unkept.add("upsert_lawsuit", ({"code": "x"},))
    unkept.add("set_meta", ("sync", {}))  # bookkeeping: not the user's data
    unkept.add("upsert_portfolio", ([1, 2, 3],))  # a write added later: by its name
    assert unkept.describe() == "2 requests, 1 lawsuit, 1 write (upsert_portfolio)"


async def test_datalake_answers_and_an_imports_records_are_kept_by_the_holder(
    holder: CacheHost,
) -> None:
    # Before: a process beside the holder wrote these to its own read-only store and failed.
    reader = Store.open(holder.directory, read_only=True)
    client = await connect_to_holder(holder.directory)
    assert client is not None
    cache = Cache(reader, holder=client)
    fetched = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
    answer = {"kind": "entity", "query_key": "k", "document": "52998224725"}
    await cache.keep_datalake_answers(
        [{**answer, "query": {"q": 1}, "answer": {"a": 2}, "fetched_at": fetched}]
    )
    kept = holder.store.datalake.get("entity", "k")
    assert kept is not None and kept.answer == {"a": 2} and kept.fetched_at == fetched
    intent = await cache.begin_portfolio_import("svc", [("cpf", "52998224725")])
    assert intent is not None and holder.store.portfolio_imports.open_intents("svc")
    made = {"tracking_id": "t1", "search": {"search_type": "cpf", "search_key": "52998224725"}}
    await cache.settle_portfolio_import(intent, "answered", {"cpf 52998224725": "t1"}, [made])
    assert holder.store.portfolio_imports.open_intents("svc") == []
    assert holder.store.get_tracking("t1") is not None
    assert reader.get_tracking("t1") is not None and not cache.unkept  # read back here
    await cache.aclose()
    reader.close()


def test_every_write_of_the_cache_is_one_a_holder_takes() -> None:
    # A write method the services reach through Cache and that is not forwarded is never
    # kept by a process beside the holder ("not kept"); one that goes around Cache, straight
    # to a table, fails there. Both are caught here, as the tables and services grow.
    source = inspect.getsource(cache_module)
    written = set(re.findall(r"self\._write\(\s*self\.store\.(\w+)", source))
    assert written and written <= FORWARDED_WRITES, written - FORWARDED_WRITES
    assert {name for name in dir(Store) if not name.startswith("_")} >= FORWARDED_WRITES
    assert re.findall(r"to_thread\(\s*self\.store\.\w+\.\w+", source) == []

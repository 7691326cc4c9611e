"""Paged cached lists, the lookup's single batch of raw lawsuits, and the sandbox a context
opens itself: in a worker thread, the one kept on disk, on a cache apart from live data that
holds only what that sandbox holds."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from lawsuit_tui.sandbox.ids import IdGenerator
from lawsuit_tui.services import context as context_module
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.paths import SANDBOX_CACHE_SUBDIR, cache_path
from lawsuit_tui.services.sandbox_home import GENERATION_FILE, match_cache, sandbox_state_path
from lawsuit_tui.store import Store
from tests.support.service_rig import Rig


def _fill(store: Store) -> None:
    store.upsert_requests(
        {"request_id": f"q{n:02d}", "created_at": f"2026-01-10T10:{n:02d}:00Z", "status": "pending"}
        for n in range(12)
    )
    store.upsert_responses(
        {
            "response_id": f"r{n:02d}",
            "request_id": "q01",
            "response_type": "application_error",
            "response_data": {"code": "LAWSUIT_NOT_FOUND", "message": "not found"},
            "created_at": f"2026-01-10T11:{n:02d}:00Z",
        }
        for n in range(23)
    )


async def test_cached_pages_are_slices_of_the_whole_lists(ctx: ServiceContext) -> None:
    _fill(ctx.store)
    every = ctx.requests.cached_list()
    for offset, limit in ((0, 5), (5, 5), (10, 5), (12, 5), (3, 0)):
        page, total = ctx.requests.cached_list_page(offset, limit)
        assert total == 12
        assert [r.request_id for r in page] == [
            r.request_id for r in every[offset : offset + limit]
        ]
    responses = ctx.requests.cached_responses("q01")
    assert [r.response_id for r in responses][:2] == ["r00", "r01"]  # oldest first
    for offset, limit in ((0, 10), (10, 10), (20, 10), (23, 10)):
        rpage, rtotal = ctx.requests.cached_responses_page("q01", offset, limit)
        assert rtotal == 23
        wanted = [r.response_id for r in responses[offset : offset + limit]]
        assert [r.response_id for r in rpage] == wanted
    assert ctx.requests.cached_responses_page("nope", 0, 10) == ([], 0)


async def test_lookup_keeps_the_raw_lawsuits_in_one_batch(
    rig: Rig, ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    samples = await rig.samples()
    key = ctx.lookup.parse(samples["cpf"][0])
    batches: list[list[tuple[dict[str, Any], bool, str]]] = []
    threads: list[str] = []
    real = ctx.store.upsert_lawsuits

    def spy(items: Any, *, meta: Any = None) -> Any:
        rows = list(items)
        batches.append(rows)
        threads.append(threading.current_thread().name)
        return real(rows, meta=meta)

    def single(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("a lookup writes its lawsuits in one batch")

    monkeypatch.setattr(ctx.store, "upsert_lawsuits", spy)
    monkeypatch.setattr(ctx.store, "upsert_lawsuit", single)
    result = await ctx.lookup.lookup(key)
    assert result.lawsuits
    assert len(batches) == 1 and len(batches[0]) == len(result.lawsuits)
    assert threads[0] != threading.main_thread().name
    assert all(provisional for _l, provisional, _s in batches[0])
    # The dicts as the service sent them (not the models dumped again).
    assert [d["code"] for d, _p, _s in batches[0]] == [x.code for x in result.lawsuits]
    again = ctx.lookup.cached(key)
    assert again is not None and [x.code for x in again.lawsuits] == [
        x.code for x in result.lawsuits
    ]


def test_sandbox_ids_are_a_counter_salted_by_the_sandbox() -> None:
    assert IdGenerator(7).next("request") == IdGenerator(7).next("request")  # deterministic
    one, two = IdGenerator(7, "gen-a"), IdGenerator(7, "gen-b")
    assert one.next("request") != two.next("request")
    assert IdGenerator(7, "gen-a").next("request") != IdGenerator(7).next("request")
    # Plain data: a generator read back goes on from where it stopped.
    kept = IdGenerator(7, "gen-a")
    first = [kept.next("request") for _ in range(3)]
    again = IdGenerator(7, "gen-a", counter=kept.counter)
    assert again.next("request") not in first


async def test_open_shares_one_kept_sandbox_built_off_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lawsuit_tui.config import Settings
    from lawsuit_tui.sandbox.app import sandbox_state
    from lawsuit_tui.sandbox.world import World

    shared = World.shared(7)
    monkeypatch.setattr(World, "build", classmethod(lambda cls, seed=7, **_kw: shared))
    threads: list[str] = []
    build = context_module.build_sandbox

    def spy(settings: Any) -> Any:
        threads.append(threading.current_thread().name)
        return build(settings)

    monkeypatch.setattr(context_module, "build_sandbox", spy)
    settings = Settings(cache_dir=tmp_path / "c")
    assert settings.mode == "sandbox"
    assert cache_path(settings) == tmp_path / "c" / SANDBOX_CACHE_SUBDIR

    ids: list[str] = []
    generations: list[str | None] = []
    for _ in range(2):
        ctx = await ServiceContext.open(settings)
        try:
            assert ctx.store.path == tmp_path / "c" / SANDBOX_CACHE_SUBDIR
            state = sandbox_state(ctx.sandbox_app)
            assert state.state_path == sandbox_state_path(settings)
            generations.append(state.generation)
            async with state.transaction():
                ids.append(state.ids.next("request"))
        finally:
            await ctx.aclose()
    assert all(t != threading.main_thread().name for t in threads)
    # D183: the second run opens the same sandbox, its ids going on (never repeating).
    assert generations[0] and generations[0] == generations[1]
    assert ids[0] != ids[1]
    marker = cache_path(settings) / GENERATION_FILE
    assert marker.read_text() == generations[0]
    assert not (tmp_path / "c" / "schema.json").exists()  # live data's place left alone


def test_a_cache_of_another_sandbox_is_emptied_and_one_in_use_left(tmp_path: Path) -> None:
    directory = tmp_path / SANDBOX_CACHE_SUBDIR
    store = Store.open(directory)
    store.upsert_requests([{"request_id": "old", "created_at": "2026-01-01T00:00:00Z"}])
    # held by another process (here: this store): left as it is
    assert match_cache(directory, "gen-b") is False
    store.close()
    # filled from no kept sandbox (an older version's): emptied, then marked
    assert match_cache(directory, "gen-b") is True
    assert (directory / GENERATION_FILE).read_text() == "gen-b"
    reopened = Store.open(directory)
    try:
        assert reopened.get_request("old") is None
        reopened.upsert_requests([{"request_id": "new", "created_at": "2026-01-01T00:00:00Z"}])
    finally:
        reopened.close()
    assert match_cache(directory, "gen-b") is False  # its own sandbox: kept
    assert match_cache(directory, "gen-c") is True  # another sandbox's: emptied
    with pytest.raises(ValueError):
        match_cache(tmp_path / "live", "gen-c")


async def test_live_lookup_keeps_the_json_sent_and_rejects_a_bad_shape(tmp_path: Path) -> None:
    import httpx

    from lawsuit_tui.api.errors import MalformedResponse
    from lawsuit_tui.config import Settings

    code = "0000001-39.2024.8.26.0100"
    answers: list[Any] = [
        {
            "has_lawsuits": True,
            "request_id": "lk-1",
            "lawsuits": [{"code": code, "instance": 1, "steps": [], "future": {"kept": 1}}],
        },
        {"has_lawsuits": True, "lawsuits": "not a list"},
    ]

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=answers.pop(0))

    settings = Settings(api_key="live-key-0123456789", cache_dir=tmp_path / "cache")
    ctx = await ServiceContext.open(settings, transport=httpx.MockTransport(handler))
    try:
        assert ctx.store.path == tmp_path / "cache"  # live mode: cache_dir itself
        key = ctx.lookup.parse(code)
        result = await ctx.lookup.lookup(key)
        assert [x.code for x in result.lawsuits] == [code]
        kept = ctx.store.get_lawsuit(code, 1)
        assert kept is not None and kept["future"] == {"kept": 1}
        with pytest.raises(MalformedResponse):
            await ctx.lookup.lookup(key)
    finally:
        await ctx.aclose()

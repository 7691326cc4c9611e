"""The use cases against the sandbox: lookup, submit and follow, lawsuits, trackings, vault,
count; everything they fetch ends up in the cache."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lawsuit_tui.domain.bodies import (
    CountBody,
    CreateRequestBody,
    CredentialItem,
    SearchBody,
    TrackingCreateBody,
    TrackingPatchBody,
)
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.errors import InvalidSearchKey, NotFound
from lawsuit_tui.services.results import (
    Completed,
    FollowEvent,
    ResponseArrived,
    StatusChanged,
)
from tests.support.service_rig import Rig


def body(search_type: str, key: str, **search: object) -> CreateRequestBody:
    return CreateRequestBody(search=SearchBody(search_type=search_type, search_key=key, **search))  # type: ignore[arg-type]


async def collect(ctx: ServiceContext, request_id: str) -> list[FollowEvent]:
    return [event async for event in ctx.requests.follow(request_id)]


# --- lookup ------------------------------------------------------------------------------


async def test_lookup_keeps_what_it_found(rig: Rig, ctx: ServiceContext) -> None:
    samples = await rig.samples()
    with pytest.raises(InvalidSearchKey):
        ctx.lookup.parse("123.456.789-00")
    key = ctx.lookup.parse(samples["lawsuit_cnj"][0])
    assert ctx.lookup.cached(key) is None
    result = await ctx.lookup.lookup(key)
    assert not result.from_cache
    assert result.lawsuits and result.request_id
    again = ctx.lookup.cached(key)
    assert again is not None and again.from_cache
    assert [x.code for x in again.lawsuits] == [x.code for x in result.lawsuits]
    assert ctx.lookup.recent()[0] == key.display
    view = ctx.lawsuits.cached(result.lawsuits[0].code, result.lawsuits[0].instance)
    assert view is not None and view.provisional  # the service's stored copy


# --- submit and follow --------------------------------------------------------------------


async def test_follow_yields_cached_then_definitive_then_completed(
    rig: Rig, ctx: ServiceContext
) -> None:
    samples = await rig.samples()
    code = samples["moving_lawsuit"]
    [record] = await ctx.requests.create(body("lawsuit_cnj", code))
    assert record.status == "pending"
    events = await collect(ctx, record.request_id)
    arrived = [e for e in events if isinstance(e, ResponseArrived)]
    assert isinstance(events[-1], Completed)
    assert events[-1].record.status == "completed"
    assert any(isinstance(e, StatusChanged) for e in events)
    provisional = [e for e in arrived if e.provisional]
    definitive = [e for e in arrived if not e.provisional]
    assert provisional and definitive
    assert arrived.index(provisional[0]) < arrived.index(definitive[0])
    assert definitive[0].replaces == provisional[0].response.response_id
    assert definitive[0].change is not None and definitive[0].change.replaced_provisional
    # Each response once, all of them in the cache, the lawsuit now definitive.
    ids = [e.response.response_id for e in arrived]
    assert len(ids) == len(set(ids))
    cached = ctx.requests.cached_responses(record.request_id)
    assert sorted(r.response_id or "" for r in cached) == sorted(i or "" for i in ids)
    lawsuit = definitive[0].response.lawsuit
    assert lawsuit is not None
    view = ctx.lawsuits.cached(lawsuit.code, lawsuit.instance)
    assert view is not None and not view.provisional
    assert ctx.status.current.following == 0


async def test_follow_on_demand_has_no_provisional_response(rig: Rig, ctx: ServiceContext) -> None:
    samples = await rig.samples()
    [record] = await ctx.requests.create(
        body("lawsuit_cnj", samples["lawsuit_cnj"][1], on_demand=True)
    )
    events = await collect(ctx, record.request_id)
    arrived = [e for e in events if isinstance(e, ResponseArrived)]
    assert arrived and not any(e.provisional for e in arrived)


async def test_follow_backs_off_while_nothing_changes(rig: Rig, ctx: ServiceContext) -> None:
    samples = await rig.samples()
    [record] = await ctx.requests.create(body("cpf", samples["cpf"][0]))
    rig.slept.clear()
    await collect(ctx, record.request_id)
    assert rig.slept  # it polled
    # Never faster than the base interval, never slower than the ceiling.
    assert min(rig.slept) >= 0.5 and max(rig.slept) <= 4.0


async def test_follow_uses_request_status_to_save_calls(rig: Rig, ctx: ServiceContext) -> None:
    samples = await rig.samples()
    [record] = await ctx.requests.create(body("cpf", samples["cpf"][0]))
    by_route_before = dict(ctx.api.stats.by_route)
    await collect(ctx, record.request_id)
    gets = ctx.api.stats.by_route["get_request"] - by_route_before.get("get_request", 0)
    looks = ctx.api.stats.by_route["list_responses"] - by_route_before.get("list_responses", 0)
    # GET /requests/{id} only when the status moved (pending, started, completed at most).
    assert gets <= 3
    assert looks >= gets


async def test_application_error_is_surfaced_as_a_result(rig: Rig, ctx: ServiceContext) -> None:
    samples = await rig.samples()
    [record] = await ctx.requests.create(body("lawsuit_cnj", samples["court_down_lawsuit"]))
    events = await collect(ctx, record.request_id)
    errors = [
        e.response.application_error
        for e in events
        if isinstance(e, ResponseArrived) and e.response.application_error is not None
    ]
    assert errors and errors[-1].code == "CRAWLER_ERROR"
    assert isinstance(events[-1], Completed)


async def test_branches_give_several_records(rig: Rig, ctx: ServiceContext) -> None:
    samples = await rig.samples()
    records = await ctx.requests.create(
        body("cnpj", samples["cnpj_with_branches"], should_search_branches=True)
    )
    assert len(records) >= 2
    original = records[0].request_id
    assert all(r.origin_id == original for r in records[1:])
    cached_ids = {r.request_id for r in ctx.requests.cached_list()}
    assert {r.request_id for r in records} <= cached_ids


async def test_lists_cancel_and_refresh(rig: Rig, ctx: ServiceContext) -> None:
    samples = await rig.samples()
    [first] = await ctx.requests.create(body("cpf", samples["cpf"][1]))
    cancelled = await ctx.requests.cancel(first.request_id)
    assert cancelled.outcome in ("cancelling", "cancelled")
    [second] = await ctx.requests.create(body("cpf", samples["cpf"][2]))
    await rig.advance(5)
    page = await ctx.requests.history().next_page()
    assert {first.request_id, second.request_id} <= {r.request_id for r in page}
    responses = await ctx.requests.refresh_responses(second.request_id)
    assert responses
    assert len(ctx.requests.cached_responses(second.request_id)) == len(responses)
    with pytest.raises(NotFound):
        await ctx.requests.cancel("00000000-0000-0000-0000-000000000000")


# --- lawsuits ----------------------------------------------------------------------------


async def test_lawsuit_refresh_export_and_attachments(
    rig: Rig, ctx: ServiceContext, tmp_path: Path
) -> None:
    samples = await rig.samples()
    code = samples["lawsuit_cnj"][0]
    records = await ctx.lawsuits.refresh(code, with_attachments=True)
    await collect(ctx, records[0].request_id)
    view = ctx.lawsuits.cached(code)
    assert view is not None
    exported = ctx.lawsuits.export_json(code, view.lawsuit.instance)
    assert code in exported
    with pytest.raises(LookupError):
        ctx.lawsuits.export_json("0000000-00.0000.0.00.0000")
    attachments = [a for a in view.lawsuit.attachments or [] if not a.private and not a.corrupted]
    if not attachments:
        pytest.skip("this sample lawsuit has no public attachment")
    attachment = attachments[0]
    target = tmp_path / "downloads"
    path = await ctx.lawsuits.download_attachment(
        code, view.lawsuit.instance, attachment.attachment_id or "", target
    )
    assert path.parent == target and path.stat().st_size > 0
    second = await ctx.lawsuits.download_attachment(
        code, view.lawsuit.instance, attachment.attachment_id or "", target
    )
    assert second != path  # never overwrites
    text = await ctx.lawsuits.attachment_text(
        code, view.lawsuit.instance, attachment.attachment_id or ""
    )
    assert text.strip()


async def test_download_names_cannot_escape_the_folder(
    rig: Rig, ctx: ServiceContext, tmp_path: Path
) -> None:
    from lawsuit_tui.services.lawsuits import safe_filename

    assert safe_filename("../../etc/passwd", "x") == "passwd"
    assert safe_filename("..", "fallback") == "fallback"
    assert "/" not in safe_filename("a/b\\c.pdf", "x")


# --- trackings ---------------------------------------------------------------------------


async def test_tracking_operations(rig: Rig, ctx: ServiceContext) -> None:
    samples = await rig.samples()
    code = samples["moving_lawsuit"]
    created = await ctx.trackings.create(
        TrackingCreateBody(
            recurrence=1, search=SearchBody(search_type="lawsuit_cnj", search_key=code)
        )
    )
    tid = created.tracking_id
    assert (await ctx.trackings.pause(tid)).status == "paused"
    assert (await ctx.trackings.resume(tid)).status in ("created", "updated")
    assert (await ctx.trackings.patch(tid, TrackingPatchBody(recurrence=3))).recurrence == 3
    listed = await ctx.trackings.refresh()
    assert tid in {t.tracking_id for t in listed}
    assert tid in {t.tracking_id for t in ctx.trackings.cached_list()}
    await rig.advance(2 * 86400)
    responses = await ctx.trackings.responses(tid)
    assert all(r.origin_id == tid for r in responses)
    assert (await ctx.trackings.delete(tid)).status == "deleted"
    assert ctx.trackings.cached_list("deleted")[0].tracking_id == tid


# --- vault and count ---------------------------------------------------------------------


async def test_vault_status_register_delete_and_no_secret_kept(
    rig: Rig, ctx: ServiceContext
) -> None:
    rows = await ctx.vault.status("*")
    names = [r.name for r in rows if r.name and r.name != "*"]
    assert ctx.vault.cached_status("*") is not None
    results = await ctx.vault.register(
        [
            CredentialItem(
                system_name=names[0], customer_key="k1", username="me", password="pw-123456"
            )
        ]
    )
    assert results[0].message == "CREDENTIAL_CREATED"
    keyed = await ctx.vault.status("k1")
    assert names[0] in {r.name for r in keyed}
    # what was registered is remembered (kind and user, never the password)
    remembered = ctx.vault.registered(names[0], "k1")
    assert remembered is not None and (remembered.kind, remembered.username) == ("login", "me")
    assert await ctx.vault.delete(names[0], "k1") == []  # D83: an empty object
    assert ctx.vault.registered(names[0], "k1") is None
    for path in rig.settings.cache_dir.rglob("*"):
        if path.is_file():
            assert b"pw-123456" not in path.read_bytes()


async def test_count_is_kept_in_history(rig: Rig, ctx: ServiceContext) -> None:
    result = await ctx.count.count(
        CountBody(kind="sentence-execution", tags=["possible_precatory"])
    )
    history = ctx.count.history()
    assert history[0]["request_id"] == result.request_id
    assert history[0]["asked"]["kind"] == "sentence-execution"


# --- context -----------------------------------------------------------------------------


async def test_status_reports_rate_and_following(rig: Rig, ctx: ServiceContext) -> None:
    seen: list[int] = []
    ctx.status.subscribe(lambda status: seen.append(status.rate_remaining))
    samples = await rig.samples()
    await ctx.requests.create(body("cpf", samples["cpf"][0]))
    assert ctx.status.current.rate_remaining == 179
    assert 179 in seen
    assert ctx.status.current.cache_writable


async def test_a_locked_cache_hands_its_writes_to_the_holder(rig: Rig, ctx: ServiceContext) -> None:
    other = await ServiceContext.open(rig.settings, transport=rig.transport)
    try:
        assert other.store.read_only and other.cache.held_elsewhere
        status = other.status.current
        assert status.cache_writable and status.cache_held_by == os.getpid()
        samples = await rig.samples()
        result = await other.lookup.lookup(other.lookup.parse(samples["lawsuit_cnj"][0]))
        assert result.lawsuits
        code = result.lawsuits[0].code
        assert ctx.cache.get_lawsuit(code) is not None  # kept by the holder
        assert other.cache.get_lawsuit(code) is not None  # and read back at once
        assert not other.cache.unkept
    finally:
        await other.aclose()


async def test_a_cache_held_by_one_that_takes_no_writes_opens_read_only(
    rig: Rig, ctx: ServiceContext
) -> None:
    assert ctx.cache_host is not None
    await ctx.cache_host.aclose()  # as an older release would: it takes in nothing
    other = await ServiceContext.open(rig.settings, transport=rig.transport)
    try:
        assert not other.status.current.cache_writable
        message = other.status.current.cache_message
        assert message and "does not take in" in message
        samples = await rig.samples()
        result = await other.lookup.lookup(other.lookup.parse(samples["lawsuit_cnj"][0]))
        assert result.lawsuits  # fetched and shown, not kept, and counted as such
        assert "lawsuit" in other.cache.unkept.describe()
    finally:
        await other.aclose()


async def test_when_the_holder_leaves_the_other_takes_the_cache(
    rig: Rig, ctx: ServiceContext
) -> None:
    other = await ServiceContext.open(rig.settings, transport=rig.transport)
    try:
        assert other.cache.held_elsewhere
        await ctx.aclose()  # the app quits while a command still works
        rig.ctx = None
        samples = await rig.samples()
        result = await other.lookup.lookup(other.lookup.parse(samples["lawsuit_cnj"][0]))
        assert not other.store.read_only and other.cache_host is not None
        assert other.cache.get_lawsuit(result.lawsuits[0].code) is not None
        assert not other.cache.unkept
        taken: list[str] = []
        other.on_writes_taken(taken.append)  # as the app does: it now serves the others
        third = await ServiceContext.open(rig.settings, transport=rig.transport)
        try:
            await third.lookup.lookup(third.lookup.parse(samples["lawsuit_cnj"][1]))
        finally:
            await third.aclose()
        assert "upsert_lawsuits" in taken
    finally:
        await other.aclose()


async def test_context_builds_the_sandbox_when_there_is_no_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lawsuit_tui.config import Settings
    from lawsuit_tui.sandbox.world import World

    # The build itself is the sandbox's business; here, reuse this process's world.
    shared = World.shared(7)
    monkeypatch.setattr(World, "build", classmethod(lambda cls, seed=7, **_kw: shared))

    settings = Settings(cache_dir=tmp_path / "c2")
    ctx = await ServiceContext.open(settings)
    try:
        assert ctx.mode == "sandbox"
        samples = await ctx.samples()
        assert samples is not None and samples["cpf"]
        await ctx.advance_sandbox_clock(1.0)
    finally:
        await ctx.aclose()

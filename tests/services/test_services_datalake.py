"""The datalake service (D108, D109): answers kept with their age, asked again only when older."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from lawsuit_tui.domain.identifiers import InvalidSearchKey, parse_search_key
from lawsuit_tui.domain.requests import Filter
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.datalake import DatalakeCost, DatalakeService, entity_key
from tests.support.clock import FakeClock
from tests.support.service_rig import Rig

DAY = timedelta(days=1)


def calls(ctx: ServiceContext, route: str) -> int:
    return ctx.api.stats.by_route[route]


async def test_an_answer_younger_than_the_age_comes_from_the_cache(
    dctx: ServiceContext, rig: Rig, clock: FakeClock
) -> None:
    busy = parse_search_key((await rig.samples())["busy_person"])
    first = await dctx.datalake.entity(busy, max_age=DAY)
    assert not first.from_cache and first.cost == DatalakeCost(1)
    (person,) = first.value.response_data
    assert person.document == busy.key
    again = await dctx.datalake.entity(busy, max_age=DAY)
    assert again.from_cache and again.cost.calls == 0 and again.fetched_at == first.fetched_at
    assert calls(dctx, "entities") == 1
    clock.advance(days=2)
    older = await dctx.datalake.entity(busy, max_age=DAY)
    assert not older.from_cache and calls(dctx, "entities") == 2
    await dctx.datalake.entity(busy)  # no age given: always asked
    assert calls(dctx, "entities") == 3


async def test_revealed_partners_are_never_kept_unmasked(dctx: ServiceContext, rig: Rig) -> None:
    company = parse_search_key((await rig.samples())["company"])
    shown = await dctx.datalake.entity(company, reveal_partners=True)
    partners = shown.value.response_data[0].partner_links
    assert partners and not any(p.masked for p in partners)
    kept = dctx.datalake.kept_entity(company)
    assert kept is not None
    people = [p for p in kept.value.response_data[0].partner_links if p.entity_type == "person"]
    assert people and all(p.masked for p in people)  # D109
    await dctx.datalake.entity(company, reveal_partners=True, max_age=DAY)
    assert calls(dctx, "entities") == 2  # the kept (masked) answer cannot serve a reveal


async def test_counts_and_aggregations_are_kept_per_filter(dctx: ServiceContext, rig: Rig) -> None:
    busy = parse_search_key((await rig.samples())["busy_person"])
    passive = Filter(side="Passive")
    everything = await dctx.datalake.count(busy, max_age=DAY)
    defendant = await dctx.datalake.count(busy, passive, max_age=DAY)
    assert 0 < defendant.value < everything.value
    assert calls(dctx, "count_lawsuits") == 2
    assert (await dctx.datalake.count(busy, passive, max_age=DAY)).from_cache
    synthetic = await dctx.datalake.synthetic(busy, passive)
    assert synthetic.value.lawsuits_count == defendant.value
    kept = dctx.datalake.kept_synthetic(busy, passive)
    assert kept is not None and kept.value == synthetic.value
    assert dctx.datalake.kept_count(busy, Filter(side="Active")) is None
    with pytest.raises(ValueError, match="unknown court"):
        await dctx.datalake.count(busy, Filter(tribunals={"keys": ["TJXX"]}))
    assert calls(dctx, "count_lawsuits") == 2  # bad input: no call


async def test_steps_are_asked_only_for_the_numbers_lacking(
    dctx: ServiceContext, rig: Rig, clock: FakeClock
) -> None:
    samples = await rig.samples()
    first, second, third = samples["lawsuit_cnj"][:3]
    asked = await dctx.datalake.steps_count([first, second], max_age=DAY)
    assert not asked.from_cache and asked.cost.calls == 1
    more = await dctx.datalake.steps_count([third, first, second], max_age=DAY)
    assert more.value[0].code == third  # in the order asked
    assert {i.code for i in more.value} == {first, second, third}
    assert calls(dctx, "steps_count") == 2
    again = await dctx.datalake.steps_count([first, second, third], max_age=DAY)
    assert again.from_cache and again.cost.calls == 0 and calls(dctx, "steps_count") == 2


async def test_the_stored_copy_is_kept_and_offered_to_the_lawsuit(
    dctx: ServiceContext, rig: Rig
) -> None:
    samples = await rig.samples()
    two = samples["two_instance_lawsuit"]
    copy = await dctx.datalake.lawsuit_copy(two)
    assert copy.value is not None and copy.value.instance == 2
    assert dctx.store.get_lawsuit(two, 2) is not None  # a provisional version
    kept = dctx.datalake.kept_lawsuit_copy(two)
    assert kept is not None and kept.value is not None and kept.value.code == two
    nothing = await dctx.datalake.lawsuit_copy(samples["never_captured_lawsuit"])
    assert nothing.value is None and nothing.cost.calls == 1
    about = dict(dctx.datalake.kept_about(two))
    assert set(about) == {"lawsuit"}


async def test_kept_answers_are_read_offline_by_the_next_session(tmp_path: Path) -> None:
    first = Rig(tmp_path / "cache")
    ctx = await first.open()
    busy = parse_search_key((await first.samples())["busy_person"])
    await ctx.datalake.entity(busy)
    await ctx.datalake.count(busy)
    await first.aclose()
    second = Rig(tmp_path / "cache")
    again = await second.open()
    try:
        kept = again.datalake.kept_entity(busy)
        assert kept is not None and kept.from_cache
        assert kept.value.response_data[0].name == "Osvaldo Queiroz Brandão"
        assert again.datalake.kept_count(busy) is not None
        assert {kind for kind, _at in again.datalake.kept_about(busy.key)} == {"entity", "count"}
        assert again.api.stats.calls == 0
    finally:
        await second.aclose()


def test_entity_keys_and_costs() -> None:
    assert entity_key("529.982.247-25").search_type == "cpf"
    assert entity_key(" maria  aparecida da silva ").key == "maria aparecida da silva"
    for wrong in ("123456SP", "0000001-02.2024.8.26.0100", "ab", "12"):
        with pytest.raises(InvalidSearchKey):
            entity_key(wrong)
    assert DatalakeService.cost_of("steps", items=1001) == DatalakeCost(3)
    assert DatalakeService.cost_of("lawsuits", items=2500) == DatalakeCost(3)
    assert DatalakeService.cost_of("entity", on_demand=True).describe() == (
        "1 billable call to the datalake (read live: billed at the higher rate)"
    )
    assert DatalakeCost(0).describe() == "from the local cache, no call"


async def test_a_filtered_lookup_is_kept_apart_from_the_whole_one(
    dctx: ServiceContext, rig: Rig
) -> None:
    busy = parse_search_key((await rig.samples())["busy_person"])
    whole = await dctx.lookup.lookup(busy)
    passive = Filter(side="Passive")
    narrow = await dctx.lookup.lookup(busy, flt=passive)
    assert 0 < len(narrow.lawsuits) < len(whole.lawsuits)
    assert len(narrow.lawsuits) == (await dctx.datalake.count(busy, passive)).value
    kept_whole, kept_narrow = dctx.lookup.cached(busy), dctx.lookup.cached(busy, passive)
    assert kept_whole is not None and len(kept_whole.lawsuits) == len(whole.lawsuits)
    assert kept_narrow is not None and len(kept_narrow.lawsuits) == len(narrow.lawsuits)
    with pytest.raises(ValueError, match="unknown court"):
        await dctx.lookup.lookup(busy, flt=Filter(tribunals={"keys": ["NOPE"]}))

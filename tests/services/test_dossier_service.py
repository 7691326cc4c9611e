"""The dossier service: the plan's costs, a run over the sandbox, max age, offline reopening,
the gate (D190), profiles (D191), decisions (D193), trackings (D194), refresh (D195)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest

from lawsuit_tui.config import Dossier as DossierSettings
from lawsuit_tui.config import DossierCount, DossierProfile
from lawsuit_tui.domain.dossier import StepStatus, Verdict, side_of
from lawsuit_tui.domain.identifiers import InvalidSearchKey, SearchKey, parse_search_key
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.dossier import DossierProgress, dossier_key
from lawsuit_tui.services.dossier_model import DossierPlan, ProfileError, StepCost, profile_of
from tests.support.clock import FakeClock
from tests.support.service_rig import Rig

DAY = timedelta(days=1)


def calls(ctx: ServiceContext, route: str) -> int:
    return ctx.api.stats.by_route[route]


async def test_the_plan_says_what_each_step_costs_before_any_call(
    dctx: ServiceContext, rig: Rig
) -> None:
    busy = dossier_key((await rig.samples())["busy_person"])
    plan = await _plan(dctx, busy)
    costs = {p.step: p.cost for p in plan.steps}
    assert list(costs) == [
        "gate",
        "count",
        "aggregations",
        "entity",
        "lawsuits",
        "warrants",
        "executions",
    ]
    assert costs["gate"] == StepCost(calls=1)
    assert costs["count"] == StepCost(calls=4)  # the guide's four counts (D191)
    assert costs["lawsuits"] == StepCost(calls=1, per_thousand=True)  # count unknown yet
    assert costs["warrants"] == StepCost(requests=1)
    assert plan.cost == StepCost(calls=8, requests=2, per_thousand=True)
    assert plan.needs_confirmation
    assert sum(dctx.api.stats.by_route.values()) == 0


async def _plan(ctx: ServiceContext, key: SearchKey, **kwargs: Any) -> DossierPlan:
    return await asyncio.to_thread(lambda: ctx.dossiers.plan(key, **kwargs))


async def test_a_run_on_the_busy_person_fills_every_part_and_reopens_offline(
    dctx: ServiceContext, rig: Rig, clock: FakeClock
) -> None:
    busy = dossier_key((await rig.samples())["busy_person"])
    # The app's clock apart from the sandbox's: a step's age is measured on the app's alone
    # (the requests' own times were once taken for it, and a day-old request never aged).
    clock.advance(days=320)  # 26/11/2026: six days after the sandbox's clock
    events: list[DossierProgress] = []
    dossier = await dctx.dossiers.run(await _plan(dctx, busy), events.append)
    assert {name: r.status for name, r in dossier.steps.items()} == dict.fromkeys(
        dossier.steps, StepStatus.DONE
    )
    assert dossier.has_lawsuits is True
    totals = {c.spec.name: c.total for c in dossier.counts}
    assert totals["total"] == len(dossier.lawsuits or []) > 100
    assert 0 < totals["defendant"] < totals["total"]
    assert dossier.aggregations is not None and dossier.aggregations.sides
    assert dossier.name and dossier.entity is not None
    assert dossier.warrants and dossier.executions
    assert dossier.steps["warrants"].cost.requests == 1
    assert dossier.steps["warrants"].cost.amount == pytest.approx(1.5)  # D118, the sandbox's
    assert dossier.steps["count"].cost.calls == 4
    running = [e.step for e in events if e.status == StepStatus.RUNNING]
    assert "warrants" in running and "lawsuits" in running
    before = dict(dctx.api.stats.by_route)

    again = dctx.dossiers.kept(busy)  # offline: from the cache alone
    assert dict(dctx.api.stats.by_route) == before
    assert again is not None
    assert [c.total for c in again.counts] == [c.total for c in dossier.counts]
    assert len(again.lawsuits or []) == len(dossier.lawsuits or [])
    # D198: the dossier keeps its listing without steps, the holder's side kept.
    assert again.lawsuits and not any(lawsuit.steps for lawsuit in again.lawsuits)
    assert {side_of(lawsuit, busy.key) for lawsuit in again.lawsuits} == {"Active", "Passive"}
    assert len(again.warrants or []) == len(dossier.warrants or [])
    assert again.entity is not None and again.entity.name == dossier.name

    # Within the profile's age (24 h), a second run costs nothing and asks nothing.
    clock.advance(hours=2)
    plan = await _plan(dctx, busy)
    assert plan.cost.free and not plan.needs_confirmation
    await dctx.dossiers.run(plan)
    assert dict(dctx.api.stats.by_route) == before


async def test_refresh_reruns_only_what_is_older_than_the_age(
    dctx: ServiceContext, rig: Rig, clock: FakeClock
) -> None:
    company = dossier_key((await rig.samples())["company"])
    await dctx.dossiers.run(await _plan(dctx, company, steps=["gate", "entity"]))
    clock.advance(hours=30)
    await dctx.dossiers.run(await _plan(dctx, company, steps=["count"]))
    dossier = dctx.dossiers.kept(company)
    assert dossier is not None
    stale = dossier.stale_steps(clock(), DAY)
    assert stale == ["gate", "entity"]
    plan = await _plan(dctx, company, steps=stale, max_age=DAY)
    assert [p.step for p in plan.steps] == ["gate", "entity"]
    assert plan.cost == StepCost(calls=2)


async def test_a_company_has_no_warrants_step_and_its_partners_are_one_key_away(
    dctx: ServiceContext, rig: Rig
) -> None:
    found = await rig.samples()
    company = dossier_key(found["company"])
    plan = await _plan(dctx, company)
    assert "warrants" not in plan.step_names  # D68: no warrant search by CNPJ
    dossier = await dctx.dossiers.run(plan)
    assert dossier.entity is not None
    partners = dossier.entity.partner_links
    assert any(p.entity_type == "person" and p.masked for p in partners)
    assert any(p.entity_type == "company" and not p.masked for p in partners)


async def test_the_gate_that_finds_nothing_skips_counting_and_listing(
    dctx: ServiceContext, rig: Rig
) -> None:
    nobody = dossier_key((await rig.samples())["no_data"]["cpf"])
    dossier = await dctx.dossiers.run(await _plan(dctx, nobody))
    assert dossier.has_lawsuits is False
    for step in ("count", "aggregations", "lawsuits"):
        assert dossier.steps[step].status == StepStatus.SKIPPED  # D190
    assert calls(dctx, "count_lawsuits") == 0 and calls(dctx, "synthetic_lawsuits") == 0
    assert dossier.steps["entity"].status == StepStatus.DONE  # identity is still wanted
    assert dossier.steps["warrants"].status == StepStatus.DONE  # another source


async def test_a_failed_step_says_why_and_the_others_go_on(
    dctx: ServiceContext, rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    busy = dossier_key((await rig.samples())["busy_person"])

    async def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("the registry is down")

    monkeypatch.setattr(dctx.datalake, "entity", broken)
    dossier = await dctx.dossiers.run(await _plan(dctx, busy, steps=["gate", "entity", "count"]))
    assert dossier.steps["entity"].status == StepStatus.FAILED
    assert dossier.steps["entity"].problem == "the registry is down"
    assert dossier.steps["count"].status == StepStatus.DONE
    assert dctx.dossiers.kept(busy) is not None


async def test_a_search_answered_only_with_errors_is_failed_not_none_found(
    dctx: ServiceContext, rig: Rig
) -> None:
    # D199: the BNMP down answers the warrant search with a CRAWLER_ERROR alone. Before, it
    # was read as "no warrant": a person nobody searched came out clean.
    busy = dossier_key((await rig.samples())["busy_person"])
    rig.state.faults.courts_down = {"BNMP"}
    dossier = await dctx.dossiers.run(await _plan(dctx, busy, steps=["warrants", "executions"]))
    warrants = dossier.steps["warrants"]
    assert warrants.status == StepStatus.FAILED
    assert warrants.error_codes == ("CRAWLER_ERROR",)
    assert warrants.problem is not None and "BNMP" in warrants.problem
    assert dossier.warrants is None  # unknown
    assert dossier.steps["executions"].status == StepStatus.DONE and dossier.executions
    # Refresh asks again (a failed step always runs), and the BNMP is back.
    rig.state.faults.courts_down = set()
    again = await dctx.dossiers.run(await _plan(dctx, busy, steps=["warrants"]))
    assert again.steps["warrants"].status == StepStatus.DONE and again.warrants
    assert again.steps["warrants"].error_codes == ()


async def test_decisions_are_kept_with_who_and_when(
    dctx: ServiceContext, rig: Rig, clock: FakeClock
) -> None:
    company = dossier_key((await rig.samples())["company"])
    await dctx.dossiers.run(await _plan(dctx, company, steps=["gate"]))
    with pytest.raises(ValueError, match="note"):
        await dctx.dossiers.decide(company, Verdict.REJECT, "  ")
    await dctx.dossiers.decide(company, Verdict.APPROVE, "", by="ana")
    clock.advance(hours=1)
    last = await dctx.dossiers.decide(
        company, Verdict.APPROVE_WITH_CONDITIONS, "guarantee required", by="bruno"
    )
    dossier = dctx.dossiers.kept(company)
    assert dossier is not None
    assert [d.by for d in dossier.decisions] == ["ana", "bruno"]
    assert dossier.decision == last and last.at == clock()
    [summary] = dctx.dossiers.recent()
    assert summary.verdict == Verdict.APPROVE_WITH_CONDITIONS


async def test_tracking_the_document_once(dctx: ServiceContext, rig: Rig) -> None:
    busy = dossier_key((await rig.samples())["busy_person"])
    await dctx.dossiers.run(await _plan(dctx, busy, steps=["gate"]))
    made = await dctx.dossiers.track(busy, "warm", name="Osvaldo")
    assert not made.existing
    record = dctx.trackings.cached(made.tracking_id)
    assert record is not None and record.recurrence == 7
    assert (record.tags or {}).get("tier") == "warm"
    assert "dossier" in (record.tags or {}).get("labels", [])  # D194
    again = await dctx.dossiers.track(busy, "hot")
    assert again.existing and again.tracking_id == made.tracking_id
    assert calls(dctx, "create_tracking") == 1
    dossier = dctx.dossiers.kept(busy)
    assert dossier is not None and dossier.tracking is not None


def test_profiles_from_the_configuration() -> None:
    settings = DossierSettings(
        profiles={
            "quick": DossierProfile(
                steps=["entity", "gate"],
                counts={"sp": DossierCount(label="in São Paulo", tribunals=["tjsp"])},
                max_age_hours=72,
                confirm=False,
            )
        }
    )
    quick = profile_of(settings, "quick")
    assert quick.steps == ("gate", "entity")  # run order, whatever the file's
    assert [c.label for c in quick.counts] == ["in São Paulo"]
    assert quick.max_age == timedelta(hours=72) and not quick.confirm
    standard = profile_of(settings)
    assert [c.name for c in standard.counts] == [
        "total",
        "defendant",
        "labour",
        "labour_defendant",
    ]
    with pytest.raises(ProfileError, match="quick, standard"):
        profile_of(settings, "nope")
    bad = DossierSettings(
        profiles={"x": DossierProfile(counts={"c": DossierCount(tribunals=["TJXX"])})}
    )
    with pytest.raises(ProfileError, match="unknown court"):
        profile_of(bad, "x")


def test_a_dossier_is_of_a_cpf_or_a_cnpj() -> None:
    assert dossier_key("01.747.321/0001-17").search_type == "cnpj"
    with pytest.raises(InvalidSearchKey, match="CPF or a CNPJ"):
        dossier_key("311007/SP")
    assert parse_search_key("37132492292").search_type == "cpf"


def test_the_configuration_knows_every_step() -> None:
    from lawsuit_tui.config import DOSSIER_STEPS
    from lawsuit_tui.domain.dossier import STEPS

    assert DOSSIER_STEPS == STEPS

"""The portfolio service: tiers from the configuration (D160), status, selections and bulk
changes described before they are made (D165)."""

from __future__ import annotations

import pytest

from lawsuit_tui.config import Portfolio
from lawsuit_tui.domain.formatting import local_clock_to_utc
from lawsuit_tui.domain.portfolio import check_rows
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.portfolio import PortfolioConfigError, Selection, portfolio_tiers
from tests.support.service_rig import Rig


async def imported(rig: Rig) -> ServiceContext:
    """A context with a small portfolio imported: 3 hot lawsuits, 3 warm people, 2 cold."""
    ctx = await rig.open()
    samples = await rig.samples()
    table = [["key", "tier", "tags"]]
    table += [[key, "hot", "vip"] for key in samples["lawsuit_cnj"][:3]]
    table += [[key, "warm", ""] for key in samples["cpf"][:3]]
    table += [[key, "cold", "vip|archive"] for key in samples["cnpj"][:2]]
    importer = ctx.portfolio_importer()
    check = check_rows(table, importer.tiers)
    outcome = await importer.run(await importer.plan(check))
    assert len(outcome.created) == 8
    return ctx


def test_the_default_tiers_and_what_the_configuration_changes() -> None:
    tiers = portfolio_tiers(Portfolio())
    assert list(tiers.tiers) == ["hot", "warm", "cold"] and tiers.default == "warm"
    changed = portfolio_tiers(
        Portfolio.model_validate(
            {
                "default_tier": "monthly",
                "tiers": {
                    "hot": {"step_terms": ["sentença"], "fixed_time": "07:30"},
                    "monthly": {"recurrence": 30},
                },
            }
        )
    )
    hot = changed.tiers["hot"]
    assert hot.recurrence == 1 and hot.step_terms == ("sentença",)
    assert (hot.hour, hot.minute) == local_clock_to_utc(7, 30)  # the user's 07:30, in UTC
    assert changed.tiers["monthly"].recurrence == 30 and changed.default == "monthly"
    assert changed.resolve("Quente") == "hot" and changed.resolve("MONTHLY") == "monthly"
    with pytest.raises(PortfolioConfigError, match="needs its recurrence"):
        portfolio_tiers(Portfolio.model_validate({"tiers": {"new": {"step_terms": ["x"]}}}))
    with pytest.raises(PortfolioConfigError, match=r"portfolio\.default_tier"):
        portfolio_tiers(Portfolio(default_tier="lukewarm"))


async def test_status_counts_by_tier_and_status(rig: Rig) -> None:
    ctx = await imported(rig)
    entries = await ctx.portfolio.refresh()
    status = ctx.portfolio.status(entries)
    assert status.total == 8
    assert status.by_tier == {"hot": 3, "warm": 3, "cold": 2}
    assert status.by_status == {"created": 8}
    assert status.monthly_runs["hot"] == 90 and status.monthly_runs["cold"] == 2
    hot = [e for e in entries if e.tier == "hot"]
    assert all(e.court for e in hot) and all(e.labels == ("vip",) for e in hot)


async def test_pause_a_tier_then_move_a_label_to_another(rig: Rig) -> None:
    ctx = await imported(rig)
    service = ctx.portfolio
    entries = await service.refresh()
    hot = service.select(entries, Selection(tier="hot"))
    plan = service.plan("pause", hot)
    assert len(plan.affected) == 3 and plan.runs_before == 90 and plan.runs_after == 0
    outcome = await service.apply(plan)
    assert len(outcome.done) == 3 and outcome.failed == []
    entries = await service.refresh()
    assert service.status(entries).by_status == {"created": 5, "paused": 3}
    again = service.plan("pause", service.select(entries, Selection(tier="hot")))
    assert again.affected == [] and again.unchanged == 3  # paused already

    vip = service.select(entries, Selection(label="VIP"))
    assert len(vip) == 5
    move = service.plan("set_tier", vip, "warm")
    assert len(move.affected) == 5
    # the paused hot ones cost nothing before or after; the two cold ones go from 1 to 30/7
    assert move.runs_before == pytest.approx(2) and move.runs_after == pytest.approx(2 * 30 / 7)
    result = await service.apply(move)
    assert len(result.done) == 5 and result.partial == []
    entries = await service.refresh()
    assert service.status(entries).by_tier == {"warm": 8}
    moved = await ctx.trackings.get(vip[0].tracking_id)
    assert moved.recurrence == 7 and moved.tags is not None and moved.tags["tier"] == "warm"
    assert "vip" in moved.tags["labels"]
    assert moved.notification_filters is not None
    assert moved.notification_filters.step_terms == ["sentença", "execução"]


async def test_delete_by_court_and_by_a_file_of_keys(rig: Rig) -> None:
    ctx = await imported(rig)
    service = ctx.portfolio
    entries = await service.refresh()
    first = next(e for e in entries if e.search_type == "lawsuit_cnj")
    assert first.court is not None
    by_court = service.select(entries, Selection(court=first.court.lower()))
    assert first in by_court and all(e.court == first.court for e in by_court)
    keys = frozenset({first.identity})
    plan = service.plan("delete", service.select(entries, Selection(keys=keys)))
    assert [e.tracking_id for e in plan.affected] == [first.tracking_id]
    await service.apply(plan)
    status = service.status(await service.refresh())
    assert status.total == 7


def test_an_empty_selection_is_said_so() -> None:
    assert Selection().empty and not Selection(tier="hot").empty

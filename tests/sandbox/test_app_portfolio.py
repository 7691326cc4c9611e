"""The demo portfolio (D177): 10,000 lawsuits of the world that move at a realistic rate, and
the sandbox-only route that tracks them, tiered."""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING

from lawsuit_tui.domain.identifiers import parse_search_key
from lawsuit_tui.sandbox.tracking_engine import TrackingEngine
from lawsuit_tui.sandbox.world.portfolio import PORTFOLIO_SIZE, movers_expected
from lawsuit_tui.sandbox.world.world import World

if TYPE_CHECKING:
    from tests.sandbox.conftest import Sandbox

DAY = 86400.0
RECOGNISED = {
    "Juntada", "Conclusão", "Publicação", "Intimação", "Despacho", "Decisão", "Certidão",
    "Ato ordinatório", "Mandado", "Custas", "Penhora", "Audiência", "Acordo", "Sentença",
    "Recurso", "Trânsito em julgado", "Execução", "Arquivamento",
}  # fmt: skip


def test_ten_thousand_lawsuits_of_the_world_from_the_seed(world: World) -> None:
    portfolio = world.portfolio
    codes = portfolio.codes()
    assert len(codes) == len(set(codes)) == PORTFOLIO_SIZE
    assert all(parse_search_key(code).search_type == "lawsuit_cnj" for code in codes[:500])
    assert not any(record.code in set(codes) for record in world.records())
    again = World.build(7).portfolio.codes()
    assert again[:50] == codes[:50] and again[-50:] == codes[-50:]
    record = world.record(codes[123])
    assert record is not None and record.court.segment == 8  # a state court
    assert world.find("lawsuit_cnj", codes[123]) == [(codes[123], 1)]


def test_most_are_quiet_a_few_move_each_working_day(world: World) -> None:
    portfolio = world.portfolio
    first = portfolio.day_of(world.epoch)  # a Friday
    weeks = [set[int]() for _ in range(4)]
    working, weekend = [], []
    for day in range(first, first + 28):
        moved = portfolio.movers(day)
        weeks[(day - first) // 7] |= set(moved)
        when = (world.epoch + timedelta(days=day - first)).date()
        (working if when.weekday() < 5 else weekend).append(len(moved))
    assert 40 <= sum(working) / len(working) <= 80  # "a handful" of 10,000 each working day
    assert max(weekend) <= 15
    for moved in weeks:
        assert 0.015 <= len(moved) / PORTFOLIO_SIZE <= 0.06  # a few percent in a week
    busy = [i for i in range(PORTFOLIO_SIZE) if portfolio.propensity(i) >= 3]
    assert 0.03 <= len(busy) / PORTFOLIO_SIZE <= 0.07


def test_the_recess_is_quiet_and_its_end_a_burst() -> None:
    recess = movers_expected(date(2027, 1, 6))  # a Wednesday in the recess
    after = movers_expected(date(2027, 1, 27))  # a Wednesday after it
    ordinary = movers_expected(date(2027, 3, 3))
    assert recess < ordinary / 4 < ordinary < after


def test_what_moved_is_what_the_court_shows(world: World) -> None:
    portfolio = world.portfolio
    first = portfolio.day_of(world.epoch)
    index = next(i for i in range(PORTFOLIO_SIZE) if i in portfolio.movers(first + 3))
    code = portfolio.codes()[index]
    later = world.epoch + timedelta(days=5)
    new = world.steps_between(code, 1, world.epoch, later)
    assert new and {step["step_type"] for step in new} <= RECOGNISED
    [view] = world.court_view(code, 1, later)
    assert [s["step_id"] for s in view["steps"][: len(new)]] == [s["step_id"] for s in new]
    assert world.steps_count(code, 1, later) == view["last_step"]["steps_count"]
    assert view["parties"][0]["side"] == "Active" and view["amount"] > 0


async def test_the_route_tracks_the_portfolio_tiered_once(sb: Sandbox) -> None:
    listing = (await sb.client.get("/_sandbox/portfolio", params={"limit": 300})).json()
    assert listing["size"] == PORTFOLIO_SIZE and len(listing["lawsuits"]) == 300
    answer = await sb.client.post("/_sandbox/portfolio", json={"size": 300})
    assert answer.status_code == 200, answer.text
    report = answer.json()
    assert report["created"] == 300 and set(report["tiers"]) == {"hot", "warm", "cold"}
    again = (await sb.client.post("/_sandbox/portfolio", json={"size": 300})).json()
    assert again == {"created": 0, "already_tracked": 300, "tiers": {}}
    trackings = list(sb.state.trackings.values())
    by_tier = {entry.record["tags"]["tier"]: entry.record for entry in trackings}
    assert by_tier["hot"]["recurrence"] == 1 and by_tier["warm"]["recurrence"] == 7
    assert by_tier["cold"]["notification_filters"]["step_terms"]
    assert all(entry.record["tags"]["labels"] == ["carteira-demo"] for entry in trackings)
    engine = TrackingEngine(sb.state)
    first_runs = sorted(
        due for entry in trackings if (due := engine.due(entry.tracking_id)) is not None
    )
    assert first_runs[0] < first_runs[-1] - timedelta(days=5)  # spread, not on one day
    for _day in range(3):
        await sb.advance(DAY)
    await sb.advance(10)
    moved = [s for s in sb.state.responses.get("sandbox", []) if s.origin_id]
    assert moved, "three days of runs over 300 lawsuits find something"


async def test_bad_sizes_are_refused(sb: Sandbox) -> None:
    for size in (0, PORTFOLIO_SIZE + 1):
        answer = await sb.client.post("/_sandbox/portfolio", json={"size": size})
        assert answer.status_code == 400

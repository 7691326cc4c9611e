"""The demo portfolio: the world's 10,000 collection lawsuits tracked in one call (D177).

``POST /_sandbox/portfolio`` registers, for the caller's key, a tracking of each of the first
``size`` lawsuits of the world's portfolio (sandbox/world/portfolio.py) that the key does not
track yet, tiered as the provider's mass-monitoring guide tiers them: the busy ones **hot**
(every day, every step), the ordinary ones **warm** (every 7 days, every step), the quiet ones
**cold** (every 30 days, only the steps holding "sentença", "arquivamento" or "trânsito").
The tier is in the tracking's ``tags`` (domain/tiers.py) with the label ``carteira-demo``.

Registered at once, the trackings would all run at the same moment of the same days (every
warm one on day 7); a real portfolio's runs are spread over their recurrence and over the day,
so each is taken as having last run at some moment of the days before
(``TrackingEngine.backdate``): the hot ones run at all hours, about a seventh of the warm ones
and a thirtieth of the cold ones each day. Then advancing the sandbox's
clock by a day brings the morning's movements (a few dozen; see ``movers_expected``).

Registration goes through the tracking engine like any other (its checks, its records on the
state), a few hundred at a time with a yield to the event loop between, so that the app
whose sandbox this is keeps answering keys.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.schemas import TrackingIn
from lawsuit_tui.sandbox.state import SandboxState
from lawsuit_tui.sandbox.tracking_engine import TrackingEngine

__all__ = ["DEMO_LABEL", "TIER_PLAN", "SeedReport", "portfolio_listing", "seed_portfolio"]

DEMO_LABEL = "carteira-demo"
# tier -> (recurrence in days, step terms): the guide's tiers (domain/tiers.py); hot and warm
# without terms, so that every step of an active case reaches the inbox.
TIER_PLAN: dict[str, tuple[int, tuple[str, ...]]] = {
    "hot": (1, ()),
    "warm": (7, ()),
    "cold": (30, ("sentença", "arquivamento", "trânsito")),
}
_CHUNK = 250


def tier_for(propensity: float) -> str:
    """The tier a lawsuit of this propensity to move gets (busy, ordinary, quiet)."""
    if propensity >= 3:
        return "hot"
    return "warm" if propensity >= 1 else "cold"


def portfolio_listing(state: SandboxState, limit: int) -> dict[str, Any]:
    """The portfolio's CNJ numbers with the tier the seeding gives each (in the world's
    thread: the first call makes the codes)."""
    portfolio = state.world.portfolio
    codes = portfolio.codes()[:limit]
    return {
        "size": portfolio.size,
        "lawsuits": [
            {"code": code, "tier": tier_for(portfolio.propensity(index))}
            for index, code in enumerate(codes)
        ],
    }


@dataclass
class SeedReport:
    created: int = 0
    already_tracked: int = 0
    tiers: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        return {
            "created": self.created,
            "already_tracked": self.already_tracked,
            "tiers": dict(self.tiers),
        }


async def seed_portfolio(
    state: SandboxState, config: KeyConfig, size: int, callback_url: str | None
) -> SeedReport:
    """Track the first ``size`` portfolio lawsuits for ``config``'s key (see the module)."""
    listing = await state.run_world(lambda: portfolio_listing(state, size))
    engine = TrackingEngine(state)
    tracked = {
        entry.search.search_key
        for entry in state.trackings.values()
        if entry.key == config.key and entry.status != "deleted"
    }
    report = SeedReport()
    now = state.clock.now()
    for number, item in enumerate(listing["lawsuits"]):
        if item["code"] in tracked:
            report.already_tracked += 1
            continue
        tier = item["tier"]
        recurrence, terms = TIER_PLAN[tier]
        body: dict[str, Any] = {
            "search": {"search_type": "lawsuit_cnj", "search_key": item["code"]},
            "recurrence": recurrence,
            "tags": {"tier": tier, "labels": [DEMO_LABEL]},
            "callback_url": callback_url,
        }
        if terms:
            body["notification_filters"] = {"step_terms": list(terms)}
        entry = engine.create(config, TrackingIn.model_validate(body))
        # Spread the runs over the recurrence and over the day (see the module).
        minutes = (number * 7919) % (24 * 60)
        engine.backdate(entry, now - timedelta(days=number % recurrence, minutes=minutes))
        report.created += 1
        report.tiers[tier] += 1
        if number % _CHUNK == _CHUNK - 1:
            await asyncio.sleep(0)
    return report

"""Tiers of a monitored portfolio: how often each tracking runs, and what it costs a month.

The provider's mass-monitoring guide tiers trackings by criticality: **hot** runs every day,
**warm** every 7 days, **cold** every 30, each with its own ``notification_filters.step_terms``.
A tracking carries its tier at the service, in its ``tags`` object under ``"tier"`` (so another
tool, or a teammate, reads the same portfolio), and the portfolio's labels under ``"labels"``
(a list of strings). Both are read here, so every feature (portfolio, inbox, dossier) agrees.

Cost: a run is one request at the service, so a tracking of recurrence *r* days costs
``30 / r`` runs a month (the guide's "entities x runs"); a fixed time does not change it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = [
    "DAYS_PER_MONTH",
    "DEFAULT_TIERS",
    "LABELS_TAG",
    "TIER_ALIASES",
    "TIER_TAG",
    "Tier",
    "labels_of",
    "monthly_runs",
    "tier_of",
    "with_tier",
]

TIER_TAG: Final = "tier"
LABELS_TAG: Final = "labels"
DAYS_PER_MONTH: Final = 30


@dataclass(frozen=True, slots=True)
class Tier:
    """One tier: its name, recurrence in days (1..90, D66), step terms and optional fixed time."""

    name: str
    recurrence: int
    step_terms: tuple[str, ...] = ()
    hour: int | None = None
    """Hour of day (0..23) of a fixed-time run, in the service's time (UTC); None: any time."""
    minute: int = 0
    labels: tuple[str, ...] = field(default=())

    @property
    def runs_per_month(self) -> float:
        return monthly_runs(self.recurrence)


DEFAULT_TIERS: Final[tuple[Tier, ...]] = (
    # The guide's own terms, as a Brazilian step text writes them.
    Tier("hot", 1, ("sentença", "recurso", "execução", "trânsito")),
    Tier("warm", 7, ("sentença", "execução")),
    Tier("cold", 30, ("sentença", "arquivamento")),
)


# D158: the default tiers as a Brazilian file names them (folded: lower case, no accents).
TIER_ALIASES: Final[dict[str, str]] = {
    "quente": "hot",
    "morno": "warm",
    "morna": "warm",
    "frio": "cold",
    "fria": "cold",
}


def monthly_runs(recurrence: int | None) -> float:
    """Runs a month of one tracking that runs every ``recurrence`` days (1 when unknown)."""
    days = recurrence if recurrence and recurrence > 0 else 1
    return DAYS_PER_MONTH / days


def tier_of(tags: Mapping[str, Any] | None) -> str | None:
    """The tier named in a tracking's ``tags`` (None when it has none)."""
    if not tags:
        return None
    value = tags.get(TIER_TAG)
    return value.strip() if isinstance(value, str) and value.strip() else None


def labels_of(tags: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The portfolio labels in a tracking's ``tags`` (a list of strings, or one string)."""
    if not tags:
        return ()
    value = tags.get(LABELS_TAG)
    if isinstance(value, str):
        return (value,) if value.strip() else ()
    if isinstance(value, list):
        return tuple(item for item in value if isinstance(item, str) and item.strip())
    return ()


def with_tier(
    tags: Mapping[str, Any] | None, tier: str, labels: tuple[str, ...] | None = None
) -> dict[str, Any]:
    """A copy of ``tags`` naming ``tier`` (and ``labels`` when given); other keys are kept."""
    result = dict(tags or {})
    result[TIER_TAG] = tier
    if labels is not None:
        result[LABELS_TAG] = list(labels)
    return result

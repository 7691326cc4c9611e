"""What a dossier is made of, as the dossier service hands it out: its profile, its plan (what
each step will cost, before any call), and the dossier itself (each step's outcome and the data
it brought).

A profile comes from the configuration (``[dossier.profiles.<name>]``, D191): which steps, which
counts (each a named filter), how old a kept answer may be to be used again, and whether the
paid steps are asked about. Without a profile of that name in the file, ``standard`` is every
step and the guide's counts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from lawsuit_tui.config import Dossier as DossierSettings
from lawsuit_tui.config import DossierCount, default_dossier_counts
from lawsuit_tui.domain.datalake import LAWSUITS_PAGE_SIZE, DatalakeSearch, SyntheticAggregations
from lawsuit_tui.domain.dossier import (
    DEFAULT_STEPS,
    StepStatus,
    Verdict,
)
from lawsuit_tui.domain.entities import Entity
from lawsuit_tui.domain.identifiers import SearchKey
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.requests import Filter
from lawsuit_tui.domain.warrants import Warrant
from lawsuit_tui.i18n import N_, _, ngettext
from lawsuit_tui.services.datalake import lawsuit_filter

__all__ = [
    "STANDARD_PROFILE",
    "CountFigure",
    "CountSpec",
    "Decision",
    "Dossier",
    "DossierPlan",
    "PlannedStep",
    "Profile",
    "ProfileError",
    "StepCost",
    "StepRecord",
    "TrackingMade",
    "instant",
    "listing_cost",
    "profile_of",
]

STANDARD_PROFILE = "standard"

# D191: the labels of the default counts (a profile's own counts are labelled as written).
_COUNT_LABELS: Mapping[str, str] = {
    "total": N_("all lawsuits"),
    "defendant": N_("as defendant"),
    "labour": N_("labour courts"),
    "labour_defendant": N_("labour courts, as defendant"),
}
_SIDES = {
    "active": "Active",
    "passive": "Passive",
    "interested": "Interested",
    "unknown": "Unknown",
}


class ProfileError(ValueError):
    """A profile that cannot be used (phrased for the user, naming the configuration key)."""


@dataclass(frozen=True, slots=True)
class CountSpec:
    """One count of a profile: its name in the configuration, its label, its filter."""

    name: str
    label: str
    filter: Filter | None

    @property
    def words(self) -> str:
        """The label in the reader's language (the default counts' are translated)."""
        return (
            _(_COUNT_LABELS[self.name])
            if self.label == _COUNT_LABELS.get(self.name)
            else (self.label)
        )

    def wire_filter(self) -> dict[str, Any] | None:
        return self.filter.to_json_dict() if self.filter is not None else None


def _filter_of(name: str, spec: DossierCount) -> Filter | None:
    if spec.tribunals and spec.exclude_tribunals:
        raise ProfileError(
            _("dossier count {name}: tribunals and exclude_tribunals cannot both be set").format(
                name=name
            )
        )
    flt = lawsuit_filter(
        side=_SIDES[spec.side] if spec.side else None,
        tribunals=spec.tribunals,
        excluded_tribunals=spec.exclude_tribunals,
        class_codes=spec.class_codes,
        subject_codes=spec.subject_codes,
        amount_min=spec.amount_min,
        amount_max=spec.amount_max,
    )
    if flt is None:
        return None
    try:
        # The datalake's own rules (known courts, ordered ranges), before any call.
        DatalakeSearch.of("cpf", "00000000000", flt)
    except ValueError as exc:
        raise ProfileError(
            _("dossier count {name}: {problem}").format(name=name, problem=exc)
        ) from None
    return flt


@dataclass(frozen=True)
class Profile:
    name: str
    steps: tuple[str, ...]
    counts: tuple[CountSpec, ...]
    max_age: timedelta | None
    confirm: bool = True


def profile_of(settings: DossierSettings, name: str | None = None) -> Profile:
    """The profile ``name`` (the configured default when None); ProfileError when the file
    names none of that name (``standard`` always exists) or one of its counts is wrong."""
    chosen = name or settings.profile
    given = settings.profiles.get(chosen)
    if given is None and chosen != STANDARD_PROFILE:
        known = sorted({STANDARD_PROFILE, *settings.profiles})
        raise ProfileError(
            _("no dossier profile named {name!r} (known: {known})").format(
                name=chosen, known=", ".join(known)
            )
        )
    counts_given = given.counts if given is not None and given.counts is not None else None
    counts = counts_given if counts_given is not None else default_dossier_counts()
    specs = tuple(
        CountSpec(name, spec.label or _COUNT_LABELS.get(name, name), _filter_of(name, spec))
        for name, spec in counts.items()
    )
    hours = (
        given.max_age_hours
        if given is not None and given.max_age_hours is not None
        else settings.max_age_hours
    )
    return Profile(
        name=chosen,
        steps=tuple(given.steps if given is not None and given.steps else DEFAULT_STEPS),
        counts=specs,
        max_age=timedelta(hours=hours) if hours else None,
        confirm=given.confirm if given is not None else True,
    )


# --- costs and the plan -----------------------------------------------------------------


@dataclass(frozen=True)
class StepCost:
    """What a step costs (or cost): billable calls to the datalake (D108), paid requests
    (D118), and the amount the service said it charged when it says (a request's ``cost``).
    ``per_thousand``: the listing's calls, known only once the number of lawsuits is."""

    calls: int = 0
    requests: int = 0
    amount: float | None = None
    per_thousand: bool = False

    @property
    def free(self) -> bool:
        return not (self.calls or self.requests or self.per_thousand)

    def __add__(self, other: StepCost) -> StepCost:
        amount = (
            None
            if self.amount is None and other.amount is None
            else (self.amount or 0.0) + (other.amount or 0.0)
        )
        return StepCost(
            self.calls + other.calls,
            self.requests + other.requests,
            amount,
            self.per_thousand or other.per_thousand,
        )

    def describe(self) -> str:
        """``2 billable calls to the datalake + 1 paid request (R$ 1,50)``; "no cost"."""
        parts: list[str] = []
        if self.calls or self.per_thousand:
            calls = ngettext(
                "{n} billable call to the datalake",
                "{n} billable calls to the datalake",
                max(self.calls, 1),
            ).format(n=max(self.calls, 1))
            if self.per_thousand:
                calls = _("at least {calls} (one per 1,000 lawsuits)").format(calls=calls)
            parts.append(calls)
        if self.requests:
            parts.append(
                ngettext("{n} paid request", "{n} paid requests", self.requests).format(
                    n=self.requests
                )
            )
        return self._joined(parts)

    def short(self) -> str:
        """``4 calls + 1 request (R$ 1,50)``, for a line of the steps; "no cost"."""
        parts: list[str] = []
        if self.calls or self.per_thousand:
            n = max(self.calls, 1)
            calls = ngettext("{n} call", "{n} calls", n).format(n=n)
            parts.append(calls + ("+" if self.per_thousand else ""))
        if self.requests:
            parts.append(
                ngettext("{n} request", "{n} requests", self.requests).format(n=self.requests)
            )
        return self._joined(parts)

    def _joined(self, parts: list[str]) -> str:
        """The parts of a cost joined by " + ", with the amount when known; "no cost"."""
        from lawsuit_tui.domain.formatting import format_money

        if not parts:
            return _("no cost")
        text = " + ".join(parts)
        if self.amount is not None:
            text += f" ({format_money(self.amount)})"
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "requests": self.requests,
            "amount": self.amount,
            "per_thousand": self.per_thousand,
        }

    @classmethod
    def from_json(cls, data: Any) -> StepCost:
        if not isinstance(data, Mapping):
            return cls()
        amount = data.get("amount")
        return cls(
            int(data.get("calls") or 0),
            int(data.get("requests") or 0),
            float(amount) if isinstance(amount, int | float) else None,
            bool(data.get("per_thousand")),
        )


def listing_cost(count: int | None) -> StepCost:
    """D108: one call per page of 1,000 lawsuits (unknown count: at least one)."""
    if count is None:
        return StepCost(calls=1, per_thousand=True)
    return StepCost(calls=max(1, math.ceil(count / LAWSUITS_PAGE_SIZE)) if count else 1)


@dataclass(frozen=True)
class PlannedStep:
    """A step as a run will take it: from the cache (``kept_at``: the kept answer is younger
    than the age and is used again, at no cost), or asked, at ``cost``."""

    step: str
    cost: StepCost
    kept_at: datetime | None = None

    @property
    def from_cache(self) -> bool:
        return self.kept_at is not None


@dataclass(frozen=True)
class DossierPlan:
    key: SearchKey
    profile: Profile
    steps: tuple[PlannedStep, ...]
    max_age: timedelta | None

    @property
    def step_names(self) -> tuple[str, ...]:
        return tuple(p.step for p in self.steps)

    @property
    def cost(self) -> StepCost:
        total = StepCost()
        for planned in self.steps:
            total = total + planned.cost
        return total

    @property
    def paid(self) -> bool:
        """Whether anything of it costs: only then is the analyst asked (once)."""
        return not self.cost.free

    @property
    def needs_confirmation(self) -> bool:
        return self.paid and self.profile.confirm


# --- the dossier ------------------------------------------------------------------------


@dataclass
class StepRecord:
    """What became of a step in the last run that touched it."""

    step: str
    status: str = StepStatus.NOT_RUN
    fetched_at: datetime | None = None
    """When its data was fetched from the service (a kept answer's time when reused)."""
    from_cache: bool = False
    cost: StepCost = field(default_factory=StepCost)
    problem: str | None = None
    ran_at: datetime | None = None
    seconds: float | None = None
    error_codes: tuple[str, ...] = ()
    """D199: the application-error codes a search was answered with, and nothing else (the
    step failed although the service answered: exit 3 for a command)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "status": str(self.status),
            "fetched_at": self.fetched_at.isoformat() if self.fetched_at else None,
            "from_cache": self.from_cache,
            "cost": self.cost.to_json(),
            "problem": self.problem,
            "error_codes": list(self.error_codes),
            "ran_at": self.ran_at.isoformat() if self.ran_at else None,
            "seconds": self.seconds,
        }

    @classmethod
    def from_json(cls, step: str, data: Any) -> StepRecord:
        if not isinstance(data, Mapping):
            return cls(step)
        seconds = data.get("seconds")
        return cls(
            step=step,
            status=str(data.get("status") or StepStatus.NOT_RUN),
            fetched_at=instant(data.get("fetched_at")),
            from_cache=bool(data.get("from_cache")),
            cost=StepCost.from_json(data.get("cost")),
            problem=str(data["problem"]) if data.get("problem") else None,
            ran_at=instant(data.get("ran_at")),
            seconds=float(seconds) if isinstance(seconds, int | float) else None,
            error_codes=tuple(str(code) for code in data.get("error_codes") or ()),
        )


def instant(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


@dataclass(frozen=True)
class CountFigure:
    spec: CountSpec
    total: int | None
    fetched_at: datetime | None = None


@dataclass(frozen=True)
class Decision:
    """The analyst's decision (D193): a verdict, the note that justifies it, who and when."""

    verdict: Verdict
    note: str
    by: str
    at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": str(self.verdict),
            "note": self.note,
            "by": self.by,
            "at": self.at.isoformat(),
        }

    @classmethod
    def from_json(cls, data: Any) -> Decision | None:
        if not isinstance(data, Mapping):
            return None
        at = instant(data.get("at"))
        try:
            verdict = Verdict(str(data.get("verdict")))
        except ValueError:
            return None
        if at is None:
            return None
        return cls(verdict, str(data.get("note") or ""), str(data.get("by") or ""), at)


@dataclass(frozen=True)
class TrackingMade:
    """The tracking of the document made from the dossier (D194)."""

    tracking_id: str
    tier: str
    at: datetime
    existing: bool = False
    """It was there already (made elsewhere): nothing was created."""

    def to_json(self) -> dict[str, Any]:
        return {"tracking_id": self.tracking_id, "tier": self.tier, "at": self.at.isoformat()}

    @classmethod
    def from_json(cls, data: Any) -> TrackingMade | None:
        if not isinstance(data, Mapping) or not data.get("tracking_id"):
            return None
        at = instant(data.get("at"))
        if at is None:
            return None
        return cls(str(data["tracking_id"]), str(data.get("tier") or ""), at)


@dataclass
class Dossier:
    """A dossier as it stands: each step's outcome and the data the steps brought. A part
    that was never asked is None (not run), an empty list when asked and empty."""

    key: SearchKey
    created_at: datetime
    updated_at: datetime
    profile: str = STANDARD_PROFILE
    steps: dict[str, StepRecord] = field(default_factory=dict)
    has_lawsuits: bool | None = None
    counts: list[CountFigure] = field(default_factory=list)
    aggregations: SyntheticAggregations | None = None
    entities: list[Entity] | None = None
    lawsuits: list[Lawsuit] | None = None
    warrants: list[Warrant] | None = None
    executions: list[Lawsuit] | None = None
    request_ids: dict[str, str] = field(default_factory=dict)
    decisions: list[Decision] = field(default_factory=list)
    """Every decision taken, oldest first (an onboarding file keeps the history)."""
    tracking: TrackingMade | None = None

    @property
    def document(self) -> str:
        return self.key.key

    @property
    def entity(self) -> Entity | None:
        """The registration data of the document itself (the first entity answered)."""
        return self.entities[0] if self.entities else None

    @property
    def name(self) -> str | None:
        entity = self.entity
        return entity.name if entity is not None and entity.name else None

    @property
    def decision(self) -> Decision | None:
        return self.decisions[-1] if self.decisions else None

    def step(self, name: str) -> StepRecord:
        return self.steps.get(name) or StepRecord(name)

    @property
    def cost(self) -> StepCost:
        total = StepCost()
        for record in self.steps.values():
            total = total + record.cost
        return total

    def stale_steps(self, now: datetime, age: timedelta | None) -> list[str]:
        """D195: the steps to run again for a refresh: failed or never run, or whose data
        were fetched longer than ``age`` ago (every step when no age is given)."""
        found = []
        for name, record in self.steps.items():
            if (
                age is None
                or record.status != StepStatus.DONE
                or record.fetched_at is None
                or now - record.fetched_at > age
            ):
                found.append(name)
        return found

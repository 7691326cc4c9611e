"""A dossier of a person or company (due diligence, the provider's KYC guide): its steps, the
analyst's decision, and the figures a screen or a report draws from the lawsuits listed.

Pure: no I/O. The steps follow en/guides/kyc-completo.mdx in order: a cheap gate (does the
document have lawsuits at all?), the size of the exposure (counts with filters, aggregations),
registration data, the full listing, warrants and penal executions; then a decision, and a
tracking of the document.

Counts by year and by amount band are not answered by any route (D106): they are computed
here from the listing, whose items all carry ``distribution_date`` and ``amount`` (D192).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from typing import Final

from lawsuit_tui.domain.base import as_datetime
from lawsuit_tui.domain.lawsuit import Lawsuit

__all__ = [
    "AMOUNT_BAND_LIMITS",
    "DATALAKE_STEPS",
    "DEFAULT_STEPS",
    "GATED_STEPS",
    "STEPS",
    "AmountBand",
    "DossierStep",
    "LawsuitRow",
    "StepStatus",
    "Verdict",
    "amount_band",
    "amount_band_figures",
    "side_of",
    "steps_for",
    "year_figures",
]


class DossierStep(StrEnum):
    GATE = "gate"
    COUNT = "count"
    AGGREGATIONS = "aggregations"
    ENTITY = "entity"
    LAWSUITS = "lawsuits"
    WARRANTS = "warrants"
    EXECUTIONS = "executions"


STEPS: Final[tuple[str, ...]] = tuple(step.value for step in DossierStep)
"""Every step, in the order a run takes them (the guide's)."""
DEFAULT_STEPS: Final = STEPS
DATALAKE_STEPS: Final = frozenset({"gate", "count", "aggregations", "entity", "lawsuits"})
"""Steps answered by the lawsuits service's datalake (billable calls, D108)."""
GATED_STEPS: Final = frozenset({"count", "aggregations", "lawsuits"})
"""D190: what a gate that found no lawsuit makes pointless (each would answer zero)."""


def steps_for(search_type: str, wanted: Iterable[str]) -> list[str]:
    """The steps of ``wanted`` that apply to a document of ``search_type``, in run order.

    D68: a warrant search takes a CPF (or a name, or an RJI), never a CNPJ: a company's
    dossier has no warrants step."""
    chosen = set(wanted)
    return [
        step
        for step in STEPS
        if step in chosen and not (step == DossierStep.WARRANTS and search_type == "cnpj")
    ]


class StepStatus(StrEnum):
    PLANNED = "planned"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    SKIPPED = "skipped"
    NOT_RUN = "not_run"


class Verdict(StrEnum):
    """The analyst's decision on a dossier."""

    APPROVE = "approve"
    APPROVE_WITH_CONDITIONS = "approve_with_conditions"
    REJECT = "reject"


# --- who the document is in a lawsuit --------------------------------------------------------


def _bare(text: str | None) -> str:
    return "".join(ch for ch in (text or "") if ch.isalnum()).upper()


def side_of(lawsuit: Lawsuit, document: str) -> str | None:
    """The side (``Active``, ``Passive``...) of the party holding ``document`` in ``lawsuit``,
    or None when no party holds it (a listing by name, a stripped secret lawsuit)."""
    wanted = _bare(document)
    if not wanted:
        return None
    for party in lawsuit.parties or []:
        documents = [party.main_document, *(d.document for d in party.documents or [])]
        if any(_bare(d) == wanted for d in documents if d):
            return str(party.side) if party.side else None
    return None


# --- figures drawn from the listing (D192) ----------------------------------------------


class AmountBand(StrEnum):
    UP_TO_10K = "up_to_10k"
    FROM_10K_TO_50K = "10k_50k"
    FROM_50K_TO_100K = "50k_100k"
    FROM_100K_TO_500K = "100k_500k"
    FROM_500K_TO_1M = "500k_1m"
    ABOVE_1M = "above_1m"
    NO_AMOUNT = "no_amount"


AMOUNT_BAND_LIMITS: Final[tuple[tuple[AmountBand, Decimal], ...]] = (
    (AmountBand.UP_TO_10K, Decimal(10_000)),
    (AmountBand.FROM_10K_TO_50K, Decimal(50_000)),
    (AmountBand.FROM_50K_TO_100K, Decimal(100_000)),
    (AmountBand.FROM_100K_TO_500K, Decimal(500_000)),
    (AmountBand.FROM_500K_TO_1M, Decimal(1_000_000)),
)
"""Each band and its upper limit (inclusive); above the last, ``ABOVE_1M``."""


def _amount(value: object) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal | str):
        return None
    try:
        amount = Decimal(str(value))
    except ArithmeticError:
        return None
    return amount if amount.is_finite() else None


def amount_band(value: object) -> AmountBand:
    """The band of a lawsuit's amount (the value of the claim); no amount, or zero, is its
    own band: most labour and family lawsuits name none, and that is not "up to 10k"."""
    amount = _amount(value)
    if amount is None or amount <= 0:
        return AmountBand.NO_AMOUNT
    for band, limit in AMOUNT_BAND_LIMITS:
        if amount <= limit:
            return band
    return AmountBand.ABOVE_1M


def amount_band_figures(lawsuits: Sequence[Lawsuit]) -> list[tuple[AmountBand, int, Decimal]]:
    """Every band (in order, empty ones included so two dossiers compare at a glance): how
    many lawsuits fall in it and the sum of their amounts."""
    counts: Counter[AmountBand] = Counter()
    sums: dict[AmountBand, Decimal] = {}
    for lawsuit in lawsuits:
        band = amount_band(lawsuit.amount)
        counts[band] += 1
        sums[band] = sums.get(band, Decimal(0)) + (_amount(lawsuit.amount) or Decimal(0))
    return [(band, counts[band], sums.get(band, Decimal(0))) for band in AmountBand]


def year_figures(lawsuits: Sequence[Lawsuit]) -> list[tuple[int, int]]:
    """Lawsuits by year of distribution, oldest first, years without any filled in between
    (a gap is a fact); lawsuits without a date are left out."""
    years: Counter[int] = Counter()
    for lawsuit in lawsuits:
        when = as_datetime(lawsuit.distribution_date) if lawsuit.distribution_date else None
        if when is not None:
            years[when.year] += 1
    if not years:
        return []
    return [(year, years[year]) for year in range(min(years), max(years) + 1)]


# --- one line of the lawsuits table --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LawsuitRow:
    """A lawsuit of the listing as the dossier's table and report show it: court, date of
    distribution, class, the document's side, amount, last step."""

    code: str
    instance: int | None
    court: str
    distributed: datetime | None
    class_name: str
    side: str | None
    amount: Decimal | None
    last_step_at: datetime | None
    last_step: str
    status: str

    @classmethod
    def of(cls, lawsuit: Lawsuit, document: str) -> LawsuitRow:
        court = lawsuit.tribunal_acronym or lawsuit.tribunal or ""
        if lawsuit.instance:
            court = f"{court} {lawsuit.instance}º".strip()
        class_name = next(
            (c.name for c in lawsuit.classifications or () if c.name), lawsuit.name or ""
        )
        last = lawsuit.last_step
        last_text = ""
        if last is not None:
            last_text = (last.step_type or last.content or "").strip()
        return cls(
            code=lawsuit.code,
            instance=lawsuit.instance,
            court=court,
            distributed=as_datetime(lawsuit.distribution_date),
            class_name=class_name,
            side=side_of(lawsuit, document),
            amount=_amount(lawsuit.amount),
            last_step_at=as_datetime(last.step_date) if last is not None else None,
            last_step=last_text,
            status=str(lawsuit.status or ""),
        )

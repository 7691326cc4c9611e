"""The Miner's answers (miner.yaml, D72): its courts, find requests and their lawsuits.

The Miner numbers courts its own way (``tribunal_id``: TJSP is 10, TRF3 is 1); ``GET
/tribunals`` lists them as ``{tribunal_id, name}`` with the acronym as ``name``. A *find*
request (``POST /requests/create``) is paid and asynchronous: it answers ``{request_id,
status: pending, cost}``, ``GET /requests/{id}`` follows it to ``completed`` (or ``failed``),
and ``GET /responses?request_id=`` pages its lawsuits as ``{data, page, page_size, total,
total_pages}``. Every model keeps unknown fields (the lawsuits are "intentionally open").
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from lawsuit_tui.domain.base import ApiModel, Number, Timestamp
from lawsuit_tui.domain.count import CountFilterEcho
from lawsuit_tui.domain.courts import court_by_acronym
from lawsuit_tui.domain.enums import CountKind, MinerRequestStatus, MinerRequestType, Open

__all__ = [
    "MINER_PAGE_SIZE_MAX",
    "FindRequestCreated",
    "MinerLawsuit",
    "MinerRequest",
    "MinerResponsesPage",
    "Tribunal",
    "parse_tribunals",
]

# GET /responses: page_size 1..100 (miner.yaml).
MINER_PAGE_SIZE_MAX = 100


class Tribunal(ApiModel):
    """One court of ``GET /tribunals``: the Miner's id and the acronym (``name``)."""

    tribunal_id: int
    name: str

    @property
    def acronym(self) -> str:
        return self.name

    @property
    def full_name(self) -> str:
        """The court's official name (domain/courts.py), "" when the acronym is not known
        there (TJDF is TJDFT there; TJMSP is TJM-SP)."""
        acronym = "TJDFT" if self.name.upper() == "TJDF" else self.name
        court = court_by_acronym(acronym)
        if court is None and self.name.upper().startswith("TJM"):
            court = court_by_acronym(f"TJM-{self.name[3:]}")
        return court.name if court is not None else ""


def parse_tribunals(data: object) -> list[Tribunal]:
    """The array of ``GET /tribunals`` (an object with a ``data`` array is read too)."""
    items = data.get("data") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ValueError("GET /tribunals did not answer an array")
    return [Tribunal.model_validate(item) for item in items]


class FindRequestCreated(ApiModel):
    """``201`` of ``POST /requests/create``: the credits are debited at this moment."""

    request_id: int
    status: Open[MinerRequestStatus] | None = None
    cost: Number | None = None


class MinerRequest(ApiModel):
    """``GET /requests/{request_id}``: a count or a find, its progress and its filter."""

    request_id: int
    status: Open[MinerRequestStatus] | None = None
    type: Open[MinerRequestType] | None = None
    total_lawsuits: int | None = None
    processed_lawsuits: int | None = None
    error_message: str | None = None
    filter: CountFilterEcho | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None

    @property
    def is_finished(self) -> bool:
        return self.status in (MinerRequestStatus.COMPLETED, MinerRequestStatus.FAILED)


class MinerLawsuit(ApiModel):
    """One lawsuit a find materialized (``LawsuitRepositoryOutput``, open)."""

    lawsuit_id: int | None = None
    tribunal_id: int | None = None
    base: Number | None = None
    kind: Open[CountKind] | None = None
    code: str | None = None
    instance: int | None = None
    name: str | None = None
    amount: Number | None = None
    is_enriched: bool | None = None
    favorites: dict[str, Any] | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None


class MinerResponsesPage(ApiModel):
    """A page of ``GET /responses`` (the Miner's own envelope, not the requests service's)."""

    data: list[MinerLawsuit] = Field(default_factory=list)
    page: int = 1
    page_size: int = 10
    total: int = 0
    total_pages: int = 0

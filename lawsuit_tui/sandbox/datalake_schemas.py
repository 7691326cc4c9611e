"""What the lawsuits service's datalake routes accept, and the answers they document.

Bodies follow openapi/lawsuits.json (``Lawsuits.Body.Post`` and its siblings) with the
placements of D71 and D87: ``search_params`` inside ``search``, at the top level, or both;
``cache_ttl_in_days`` under ``search`` or at the top. ``side`` and court keys are read case-
insensitively and courts zero-padded or not (D79). Unknown fields are accepted and ignored
(D46).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, field_validator

from lawsuit_tui.domain.datalake import (
    LawsuitsCount,
    StepsCountItem,
    SyntheticAggregations,
    canonical_tribunal,
)
from lawsuit_tui.domain.entities import EntitiesAnswer
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.sandbox.schemas import FilterIn, KeysFilterIn

__all__ = [
    "CountOut",
    "DatalakeFilterIn",
    "DatalakeSearchIn",
    "DatalakeSearchParamsIn",
    "EntitiesIn",
    "EntitiesOut",
    "LawsuitOut",
    "LawsuitsIn",
    "LawsuitsOut",
    "StepsCountIn",
    "StepsCountOut",
    "SyntheticOut",
]

# The OAS enum of search_type; which of them a route serves is the route's rule (D102).
DatalakeSearchType = Literal[
    "cpf",
    "cnpj",
    "oab",
    "name",
    "rji",
    "lawsuit_cnj",
    "lawsuit_id",
    "lawsuit_attachment",
    "execution_attachment",
    "custom",
]
_SIDES = {s.casefold(): s for s in ("Passive", "Active", "Interested", "Unknown")}


class _In(BaseModel):
    model_config = ConfigDict(extra="ignore")


class TribunalsIn(KeysFilterIn):
    @field_validator("keys")
    @classmethod
    def _known_courts(cls, value: list[str] | None) -> list[str] | None:
        """D79: ``TRT02`` is ``TRT2``, any case; an acronym of no court is refused."""
        out: list[str] = []
        for key in value or []:
            acronym = canonical_tribunal(key)
            if acronym is None:
                raise ValueError(f"unknown tribunal {key!r} (court acronyms such as TJSP, TRT2)")
            out.append(acronym)
        return out if value is not None else None


class DatalakeFilterIn(FilterIn):
    """The requests' filter (schemas.FilterIn) with the datalake's readings: any side of the
    OAS's four in any case, courts by acronym, zero-padded or not (D79)."""

    side: str | None = None  # type: ignore[assignment]
    tribunals: TribunalsIn | None = None

    @field_validator("side")
    @classmethod
    def _side_any_case(cls, value: str | None) -> str | None:
        if value is None:
            return None
        side = _SIDES.get(value.strip().casefold())
        if side is None:
            raise ValueError("side must be one of Passive, Active, Interested, Unknown")
        return side


class PaginationIn(_In):
    # D71: page from 1, page_size 1..1000 (default 100).
    page: Annotated[int, Field(ge=1)] = 1
    page_size: Annotated[int, Field(ge=1, le=1000)] = 100


class DatalakeSearchParamsIn(_In):
    filter: DatalakeFilterIn | None = None
    pagination: PaginationIn | None = None
    lawsuit_instance: Annotated[int, Field(ge=1, le=9)] | None = None
    with_inferred_parties: bool | None = None
    with_unique_name_search: bool | None = None


class LawsuitRefIn(_In):
    code: str
    instance: int


class DatalakeSearchIn(_In):
    search_type: DatalakeSearchType
    search_key: Annotated[str, Field(min_length=1, max_length=200)]
    search_name: str | None = None
    response_type: str | None = None
    search_params: DatalakeSearchParamsIn | None = None
    on_demand: bool | None = None
    cache_ttl_in_days: Annotated[int, Field(gt=0)] | None = None  # D71: > 0
    lawsuit_list: list[LawsuitRefIn] | None = None


class LawsuitsIn(_In):
    """``POST /lawsuits``, ``/lawsuits/count`` and ``/lawsuits/synthetic``."""

    search: DatalakeSearchIn
    search_params: DatalakeSearchParamsIn | None = None
    process_status: bool | None = None
    cache_ttl_in_days: Annotated[int, Field(gt=0)] | None = None  # D87: the top level too

    def merged_params(self) -> DatalakeSearchParamsIn:
        """D71: both placements merged, the top level winning field by field."""
        inner = self.search.search_params
        outer = self.search_params
        if inner is None or outer is None:
            return inner or outer or DatalakeSearchParamsIn()
        merged: dict[str, Any] = inner.model_dump(exclude_none=True)
        for name, value in outer.model_dump(exclude_none=True).items():
            if name == "filter" and isinstance(merged.get("filter"), dict):
                merged["filter"] = {**merged["filter"], **value}
            else:
                merged[name] = value
        return DatalakeSearchParamsIn.model_validate(merged)

    @property
    def ttl_days(self) -> int | None:
        return self.search.cache_ttl_in_days or self.cache_ttl_in_days


class EntitySearchIn(_In):
    search_type: DatalakeSearchType
    search_key: Annotated[str, Field(min_length=1, max_length=200)]
    response_type: str | None = None
    on_demand: bool | None = None
    reveal_partners_documents: bool | None = None  # D78: either level


class EntitiesIn(_In):
    search: EntitySearchIn
    reveal_partners_documents: bool | None = None

    @property
    def reveal(self) -> bool:
        return bool(self.reveal_partners_documents or self.search.reveal_partners_documents)


class StepsCountIn(_In):
    # D107: at least one CNJ number, at most 1000 in a call.
    lawsuit_cnj: Annotated[list[str], Field(min_length=1, max_length=1000)]


# ------------------------------------------------------------------------- outputs


class LawsuitsOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    has_lawsuits: bool
    request_id: str
    lawsuits: list[Lawsuit]


class CountOut(LawsuitsCount):
    pass


class SyntheticOut(SyntheticAggregations):
    pass


class StepsCountOut(RootModel[list[StepsCountItem]]):
    pass


class EntitiesOut(EntitiesAnswer):
    pass


class LawsuitOut(Lawsuit):
    pass

"""The lawsuits service's synchronous (datalake) routes: what the client sends, what it reads.

Routes (openapi/lawsuits.json; pages en/cache-judit/*.mdx, en/registration-data/*.mdx):

- ``POST /lawsuits``: the stored lawsuits of a key, in pages (D71): :class:`LawsuitsQueryBody`
  -> :class:`LawsuitsAnswer`.
- ``POST /lawsuits/count``: ``{total}`` (:class:`LawsuitsCountBody` -> :class:`LawsuitsCount`).
- ``POST /lawsuits/synthetic``: counts by class, subject, court... (:class:`SyntheticBody` ->
  :class:`SyntheticAggregations`).
- ``POST /steps/count``: steps and attachments per CNJ (:class:`StepsCountBody` -> a list of
  :class:`StepsCountItem`).
- ``POST /entities``: registration data (:class:`EntitiesBody` ->
  :class:`~lawsuit_tui.domain.entities.EntitiesAnswer`).
- ``GET /lawsuits/{lawsuit_cnj}``: the stored copy of one lawsuit (a
  :class:`~lawsuit_tui.domain.lawsuit.Lawsuit`).

Bodies check what the person typed before anything is sent (``filter_problems``): known
sides, court acronyms of the court list (``TRT02`` read as ``TRT2``, D79), ordered ranges.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, ClassVar

from pydantic import Field, field_validator, model_validator

from lawsuit_tui.domain.base import ApiModel, Number, as_datetime
from lawsuit_tui.domain.bodies import BodyModel, PageParams, invalid_body
from lawsuit_tui.domain.courts import court_by_acronym
from lawsuit_tui.domain.enums import Open, SearchType, Side, enum_or_none
from lawsuit_tui.domain.identifiers import InvalidSearchKey, parse_search_key
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.requests import Filter, KeysFilter
from lawsuit_tui.i18n import _

__all__ = [
    "DATALAKE_SEARCH_TYPES",
    "ENTITY_SEARCH_TYPES",
    "LAWSUITS_PAGE_SIZE",
    "STEPS_COUNT_BATCH",
    "SYNTHETIC_DIMENSIONS",
    "Bucket",
    "DatalakePagination",
    "DatalakeSearch",
    "DatalakeSearchParams",
    "EntitiesBody",
    "EntitySearch",
    "LawsuitsAnswer",
    "LawsuitsCount",
    "LawsuitsCountBody",
    "LawsuitsQueryBody",
    "StepsCountBody",
    "StepsCountItem",
    "SyntheticAggregations",
    "SyntheticBody",
    "SyntheticSearch",
    "canonical_tribunal",
    "filter_problems",
    "parse_steps_count",
]

# D71: the service's page is 100 by default and at most 1000 (the pagination page); the
# client reads the largest pages, so a listing takes the fewest calls.
LAWSUITS_PAGE_SIZE = 1000
# D107: CNJ numbers per POST /steps/count (the docs give only a minimum of one).
STEPS_COUNT_BATCH = 500

# The search types the datalake pages name (count.mdx, has-lawsuits.mdx, hotstorage.mdx).
DATALAKE_SEARCH_TYPES = ("cpf", "cnpj", "oab", "name", "lawsuit_cnj", "rji")
# POST /entities takes these three only (registration-data.mdx, the OAS enum).
ENTITY_SEARCH_TYPES = ("cpf", "cnpj", "name")

_PADDED = re.compile(r"^([A-Z]+)-?0*([0-9]+)$")


def canonical_tribunal(text: str) -> str | None:
    """The court-list acronym of ``text`` (``trt02`` -> ``TRT2``, D79), or None if unknown."""
    compact = text.strip().upper().replace(" ", "")
    court = court_by_acronym(compact)
    if court is None:
        padded = _PADDED.match(compact)
        if padded:
            court = court_by_acronym(f"{padded.group(1)}{int(padded.group(2))}")
    return court.acronym if court is not None else None


def _date_of(value: object) -> datetime | None:
    return as_datetime(value) if isinstance(value, datetime | str) else None


def filter_problems(flt: Filter | None) -> list[str]:
    """What is wrong with a filter the person wrote (every problem, in the UI language)."""
    if flt is None:
        return []
    found: list[str] = []
    if flt.side is not None and enum_or_none(Side, flt.side) is None:
        found.append(
            _("side must be one of: {choices}").format(choices=", ".join(s.value for s in Side))
        )
    unknown = [
        k
        for k in (flt.tribunals.keys if flt.tribunals else None) or []
        if not canonical_tribunal(k)
    ]
    if unknown:
        found.append(
            _("unknown court: {courts} (use acronyms such as TJSP, TRT2, TRF3)").format(
                courts=", ".join(unknown)
            )
        )
    ranges = (
        (flt.amount_gte, flt.amount_lte, _("the amount range starts above where it ends")),
        (
            _date_of(flt.distribution_date_gte),
            _date_of(flt.distribution_date_lte),
            _("the distribution dates start after they end"),
        ),
        (
            _date_of(flt.last_step_date_gte),
            _date_of(flt.last_step_date_lte),
            _("the last step dates start after they end"),
        ),
    )
    for low, high, message in ranges:
        if low is not None and high is not None and low > high:  # type: ignore[operator]
            found.append(message)
    for name, value in (("amount_gte", flt.amount_gte), ("amount_lte", flt.amount_lte)):
        if value is not None and value < 0:
            found.append(_("{field} must not be negative").format(field=name))
    for name, raw in (
        ("distribution_date_gte", flt.distribution_date_gte),
        ("distribution_date_lte", flt.distribution_date_lte),
        ("last_step_date_gte", flt.last_step_date_gte),
        ("last_step_date_lte", flt.last_step_date_lte),
    ):
        if raw is not None and _date_of(raw) is None:
            found.append(_("{field} is not a date").format(field=name))
    return found


def _wire_filter(flt: Filter) -> Filter:
    """The filter as sent: court keys in the court list's spelling (D79), side canonical."""
    if not (flt.tribunals and flt.tribunals.keys):
        return flt
    keys = [canonical_tribunal(k) or k for k in flt.tribunals.keys]
    tribunals = KeysFilter(keys=keys, not_equal=bool(flt.tribunals.not_equal))
    return flt.model_copy(update={"tribunals": tribunals})


class DatalakeSearchParams(BodyModel):
    filter: Filter | None = None
    lawsuit_instance: int | None = None


class _KeyedSearch(BodyModel):
    """What every datalake search names: a search type and a key that is not blank."""

    search_type: Open[SearchType]
    search_key: str

    @field_validator("search_key")
    @classmethod
    def _key_not_empty(cls, value: str) -> str:
        if not value.strip():
            raise invalid_body(_("search_key must not be empty"))
        return value


class DatalakeSearch(_KeyedSearch):
    """``search`` of the datalake routes (Lawsuits.Body.Post): the key and its filter."""

    default_response_type: ClassVar[str] = "lawsuits"

    response_type: str | None = None
    search_params: DatalakeSearchParams | None = None
    on_demand: bool | None = None
    cache_ttl_in_days: int | None = None

    @field_validator("cache_ttl_in_days")
    @classmethod
    def _ttl_positive(cls, value: int | None) -> int | None:
        # D71: the on-demand page says "integer (> 0)".
        if value is not None and value < 1:
            raise invalid_body(
                _("cache_ttl_in_days must be at least 1 day, not {value}").format(value=value)
            )
        return value

    @model_validator(mode="after")
    def _filter_valid(self) -> DatalakeSearch:
        flt = self.search_params.filter if self.search_params else None
        problems = filter_problems(flt)
        if problems:
            raise invalid_body("; ".join(problems))
        if flt is not None and self.search_params is not None:
            self.search_params.filter = _wire_filter(flt)
        return self

    @property
    def filter(self) -> Filter | None:
        return self.search_params.filter if self.search_params else None

    @classmethod
    def of(
        cls,
        search_type: str,
        search_key: str,
        flt: Filter | None = None,
        *,
        response_type: str | None = None,
        on_demand: bool | None = None,
        cache_ttl_in_days: int | None = None,
        lawsuit_instance: int | None = None,
    ) -> DatalakeSearch:
        params = None
        if flt is not None or lawsuit_instance is not None:
            params = DatalakeSearchParams(filter=flt, lawsuit_instance=lawsuit_instance)
        return cls(
            search_type=search_type,
            search_key=search_key,
            response_type=response_type or cls.default_response_type,
            search_params=params,
            on_demand=on_demand,
            cache_ttl_in_days=cache_ttl_in_days,
        )


class DatalakePagination(PageParams):
    """``search_params.pagination`` of the listing: page from 1, 1..1000 a page (D71)."""

    page_size: int = LAWSUITS_PAGE_SIZE


class LawsuitsQueryParams(BodyModel):
    pagination: DatalakePagination = Field(default_factory=DatalakePagination)


class LawsuitsQueryBody(BodyModel):
    """``POST /lawsuits`` (D71): ``{search: {..., search_params: {filter}}, search_params:
    {pagination}, process_status?}``; pagination at the top level, as every example."""

    search: DatalakeSearch
    search_params: LawsuitsQueryParams = Field(default_factory=LawsuitsQueryParams)
    process_status: bool | None = None

    def page(self, page: int, page_size: int | None = None) -> LawsuitsQueryBody:
        size = page_size or self.search_params.pagination.page_size
        params = LawsuitsQueryParams(pagination=DatalakePagination(page=page, page_size=size))
        return self.model_copy(update={"search_params": params})


class LawsuitsCountBody(BodyModel):
    """``POST /lawsuits/count``: ``{search}`` with the same filter as the listing."""

    search: DatalakeSearch


class SyntheticSearch(DatalakeSearch):
    # The Postman collection's body, the only example of this route that names it.
    default_response_type: ClassVar[str] = "synthetic_lawsuits"


class SyntheticBody(BodyModel):
    """``POST /lawsuits/synthetic``: ``{search}`` with the same filter as the listing."""

    search: SyntheticSearch


class EntitySearch(_KeyedSearch):
    response_type: str = "entity"
    on_demand: bool | None = None

    @model_validator(mode="after")
    def _type_accepted(self) -> EntitySearch:
        if str(self.search_type) not in ENTITY_SEARCH_TYPES:
            raise invalid_body(
                _("registration data are searched by {choices}, not by {search}").format(
                    choices=", ".join(ENTITY_SEARCH_TYPES), search=str(self.search_type)
                )
            )
        return self


class EntitiesBody(BodyModel):
    """``POST /entities`` (D78): ``{search: {search_type, search_key, response_type: "entity",
    on_demand?}, reveal_partners_documents?}``."""

    search: EntitySearch
    reveal_partners_documents: bool | None = None


class StepsCountBody(BodyModel):
    """``POST /steps/count``: ``{lawsuit_cnj: [CNJ...]}``, at least one; each a CNJ number."""

    lawsuit_cnj: list[str]

    @field_validator("lawsuit_cnj")
    @classmethod
    def _valid_numbers(cls, value: list[str]) -> list[str]:
        if not value:
            raise invalid_body(_("give at least one CNJ number"))
        out: list[str] = []
        bad: list[str] = []
        for text in value:
            try:
                key = parse_search_key(text)
            except InvalidSearchKey as exc:
                bad.append(f"{text} ({exc.message})")
                continue
            if key.search_type != "lawsuit_cnj":
                bad.append(text)
            else:
                out.append(key.key)
        if bad:
            raise invalid_body(_("not a CNJ number: {numbers}").format(numbers="; ".join(bad)))
        return list(dict.fromkeys(out))


# ------------------------------------------------------------------------- answers


class LawsuitsAnswer(ApiModel):
    """``POST /lawsuits``: ``{has_lawsuits, request_id, lawsuits}``. The hot-storage page
    names the array ``response_data``: read from either (D71)."""

    has_lawsuits: bool | None = None
    request_id: str | None = None
    lawsuits: list[Lawsuit] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _response_data_too(cls, data: Any) -> Any:
        if isinstance(data, dict) and "lawsuits" not in data and "response_data" in data:
            items = data["response_data"]
            if isinstance(items, list):
                return {**data, "lawsuits": items}
        return data


class LawsuitsCount(ApiModel):
    """``POST /lawsuits/count``: ``{total}``."""

    total: Number

    @property
    def count(self) -> int:
        return int(self.total)


class Bucket(ApiModel):
    """One group of an aggregation: ``value`` (a string; instances come as numbers in the
    page's example) and how many lawsuits it holds."""

    value: str | int | float | None = None
    count: Number = 0


SYNTHETIC_DIMENSIONS = (
    "classifications",
    "subjects",
    "areas",
    "tribunals",
    "justices",
    "phases",
    "states",
    "instances",
    "sides",
    "person_types",
    "names",
    "other_parties",
)


class SyntheticAggregations(ApiModel):
    """``POST /lawsuits/synthetic`` (LawsuitsSynthetic.Response.Post): one list of buckets per
    dimension, the number of lawsuits and of secret lawsuits (D106)."""

    classifications: list[Bucket] = Field(default_factory=list)
    subjects: list[Bucket] = Field(default_factory=list)
    areas: list[Bucket] = Field(default_factory=list)
    tribunals: list[Bucket] = Field(default_factory=list)
    justices: list[Bucket] = Field(default_factory=list)
    phases: list[Bucket] = Field(default_factory=list)
    states: list[Bucket] = Field(default_factory=list)
    instances: list[Bucket] = Field(default_factory=list)
    sides: list[Bucket] = Field(default_factory=list)
    person_types: list[Bucket] = Field(default_factory=list)
    names: list[Bucket] = Field(default_factory=list)
    other_parties: list[Bucket] = Field(default_factory=list)
    lawsuits_count: Number | None = None
    secrecy_lawsuits_count: Number | None = None
    request_id: str | None = None

    def dimension(self, name: str) -> list[Bucket]:
        """The buckets of ``name`` (one of SYNTHETIC_DIMENSIONS), largest first."""
        if name not in SYNTHETIC_DIMENSIONS:
            raise KeyError(name)
        buckets: list[Bucket] = getattr(self, name)
        return sorted(buckets, key=lambda b: (-float(b.count), str(b.value)))


class StepsCountItem(ApiModel):
    """One lawsuit instance of ``POST /steps/count``; ``error_message`` when it failed."""

    code: str
    instance: int | None = None
    steps_count: Number = 0
    attachments_count: Number = 0
    error_message: str | None = None

    @property
    def failed(self) -> bool:
        return bool(self.error_message)


def parse_steps_count(data: Any) -> list[StepsCountItem]:
    """The answer of ``POST /steps/count`` (an array); ValueError when it is not one."""
    if not isinstance(data, list):
        raise ValueError("the steps count answer is not an array")
    return [StepsCountItem.model_validate(item) for item in data]

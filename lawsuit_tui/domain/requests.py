"""The request record and its search: search_params, filter, pagination, credential.

Two conflicts of the spec are absorbed here (see READING-NOTES):
- ``should_search_branches`` is read under ``search`` or under ``search.search_params``
  (``Search.branches_requested`` reads either); bodies send it under ``search``.
- ``subject_codes``/``subject_names`` come as ``{contains, not_contains}`` or as
  ``{keys, not_equal}``: :class:`SubjectFilter` holds either shape and round-trips it.
"""

from __future__ import annotations

from lawsuit_tui.domain.base import ApiModel, JsonObject, Number, Timestamp
from lawsuit_tui.domain.enums import (
    Open,
    Origin,
    PlanConfigType,
    RequestStatus,
    ResponseType,
    SearchType,
    ServiceIa,
    Side,
)

__all__ = [
    "CredentialRef",
    "Filter",
    "KeysFilter",
    "Pagination",
    "RequestDeletion",
    "RequestRecord",
    "Search",
    "SearchParams",
    "SubjectFilter",
]


class KeysFilter(ApiModel):
    """``{keys, not_equal}``: match any of ``keys``, or none of them when not_equal."""

    keys: list[str] | None = None
    not_equal: bool | None = None

    def included(self) -> list[str]:
        return [] if self.not_equal else list(self.keys or [])

    def excluded(self) -> list[str]:
        return list(self.keys or []) if self.not_equal else []


class SubjectFilter(ApiModel):
    """Subject filter in either shape: ``{contains, not_contains}`` or ``{keys, not_equal}``."""

    contains: list[str] | None = None
    not_contains: list[str] | None = None
    keys: list[str] | None = None
    not_equal: bool | None = None

    def included(self) -> list[str]:
        keys = [] if self.not_equal else list(self.keys or [])
        return list(self.contains or []) + keys

    def excluded(self) -> list[str]:
        keys = list(self.keys or []) if self.not_equal else []
        return list(self.not_contains or []) + keys


class Filter(ApiModel):
    side: Open[Side] | None = None
    party_names: list[str] | None = None
    party_documents: list[str] | None = None
    distribution_date_gte: Timestamp | None = None
    distribution_date_lte: Timestamp | None = None
    last_step_date_gte: Timestamp | None = None
    last_step_date_lte: Timestamp | None = None
    tribunals: KeysFilter | None = None
    classification_codes: KeysFilter | None = None
    classification_names: KeysFilter | None = None
    subject_codes: SubjectFilter | None = None
    subject_names: SubjectFilter | None = None
    amount_gte: Number | None = None
    amount_lte: Number | None = None


class Pagination(ApiModel):
    page: int | None = None
    page_size: int | None = None


class CredentialRef(ApiModel):
    """Selects the vault credentials of ``customer_key`` for a query."""

    customer_key: str | None = None


class SearchParams(ApiModel):
    full_lawsuit: bool | None = None
    public_search: bool | None = None
    lawsuit_instance: int | None = None
    attachment_id: str | None = None
    attachment_extension: str | None = None
    masked_response: bool | None = None
    filter: Filter | None = None
    pagination: Pagination | None = None
    credential: CredentialRef | None = None
    # Where the record echoes it (the create body puts it under search).
    should_search_branches: bool | None = None


class Search(ApiModel):
    search_type: Open[SearchType] | None = None
    search_key: str | None = None
    search_params: SearchParams | None = None
    on_demand: bool | None = None
    search_name: str | None = None
    response_type: Open[ResponseType] | None = None
    cache_ttl_in_days: int | None = None
    should_search_branches: bool | None = None

    @property
    def branches_requested(self) -> bool | None:
        """should_search_branches, read under search first, then under search_params."""
        if self.should_search_branches is not None:
            return self.should_search_branches
        if self.search_params is not None:
            return self.search_params.should_search_branches
        return None


class RequestRecord(ApiModel):
    """A request: returned by create and get, and listed in the requests page."""

    request_id: str
    search: Search | None = None
    origin: Open[Origin] | None = None
    origin_id: str | None = None
    company_id: str | None = None
    user_id: str | None = None
    status: Open[RequestStatus] | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    started_at: Timestamp | None = None
    cancelled_at: Timestamp | None = None
    completed_at: Timestamp | None = None
    deleted_at: Timestamp | None = None
    with_attachments: bool | None = None
    tags: JsonObject | None = None
    source_name: str | None = None
    plan_config_type: Open[PlanConfigType] | None = None
    # D80: the OAS names it judit_ia; older pages service_ia, the guide use_judit_ia.
    judit_ia: list[Open[ServiceIa]] | None = None
    service_ia: list[Open[ServiceIa]] | None = None
    use_judit_ia: bool | None = None
    cost: Number | None = None
    callback_url: str | None = None
    responses_count: int | None = None
    filters_count: int | None = None
    is_unique_name: bool | None = None
    ip: str | None = None
    trace_id: str | None = None

    @property
    def asks_ai_summary(self) -> bool:
        """D80: whether the request asked for the AI summary, under any of its names."""
        named = [*(self.judit_ia or []), *(self.service_ia or [])]
        return self.use_judit_ia is True or any(str(item) == ServiceIa.SUMMARY for item in named)

    @property
    def is_finished(self) -> bool:
        """True once the request can produce no more responses (completed or cancelled)."""
        return self.status in (RequestStatus.COMPLETED, RequestStatus.CANCELLED)


class RequestDeletion(ApiModel):
    """DELETE /requests/{id} (D62): ``{success, time}``."""

    success: bool | None = None
    time: Timestamp | None = None

"""Open enums: known values in any case become members, unknown values stay strings."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lawsuit_tui.domain.base import ApiModel
from lawsuit_tui.domain.count import CountRequestResult
from lawsuit_tui.domain.enums import (
    AmountTier,
    ApplicationErrorCode,
    CountKind,
    CredentialStatus,
    DocumentType,
    Open,
    PlanConfigType,
    RequestStatus,
    SearchType,
    Side,
    TrackingStatus,
    coerce_enum,
    enum_or_none,
)
from lawsuit_tui.domain.lawsuit import Lawsuit, Party
from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.domain.vault import SystemStatusRow
from tests.support.roundtrip import load


class _Holder(ApiModel):
    side: Open[Side] | None = None
    status: Open[CredentialStatus] | None = None
    kind: Open[CountKind] | None = None


@pytest.mark.parametrize(
    ("raw", "member"),
    [
        ("Active", Side.ACTIVE),
        ("ACTIVE", Side.ACTIVE),
        ("active", Side.ACTIVE),
        ("PASSIVE", Side.PASSIVE),
        ("passive", Side.PASSIVE),
    ],
)
def test_side_case_variants_parse_to_the_member(raw: str, member: Side) -> None:
    party = Party.model_validate({"side": raw, "name": "JOÃO CARLOS DA SILVA"})
    assert party.side is member


def test_case_variant_round_trips_as_the_canonical_value() -> None:
    """Decision: a case variant is stored and dumped as the member's canonical value."""
    payload = {"side": "ACTIVE", "status": "NOT_EXISTS", "kind": "JUDGEMENT_BOND"}
    dumped = _Holder.model_validate(payload).model_dump(mode="json", exclude_unset=True)
    assert dumped == {"side": "Active", "status": "not exists", "kind": "judgement-bond"}


@pytest.mark.parametrize(
    ("enum_cls", "raw", "member"),
    [
        (CredentialStatus, "NOT_EXISTS", CredentialStatus.NOT_EXISTS),
        (CredentialStatus, "Not Exists", CredentialStatus.NOT_EXISTS),
        (CountKind, "Sentence_Execution", CountKind.SENTENCE_EXECUTION),
        (AmountTier, "750K-1.5m", AmountTier.FROM_750K_TO_1_5M),
        (ApplicationErrorCode, "lawsuit_not_found", ApplicationErrorCode.LAWSUIT_NOT_FOUND),
        (PlanConfigType, "Full_Lawsuit_Tracking", PlanConfigType.FULL_LAWSUIT_TRACKING),
        (DocumentType, "CNPJ", DocumentType.CNPJ),
        (TrackingStatus, "Paused", TrackingStatus.PAUSED),
    ],
)
def test_coerce_enum_folds_case_and_separators(enum_cls: Any, raw: str, member: Any) -> None:
    assert coerce_enum(enum_cls, raw) is member
    assert enum_or_none(enum_cls, raw) is member


def test_enum_or_none_for_unknown_and_absent_values() -> None:
    assert enum_or_none(RequestStatus, "archived") is None
    assert enum_or_none(RequestStatus, None) is None
    assert enum_or_none(RequestStatus, 3) is None
    assert enum_or_none(RequestStatus, RequestStatus.STARTED) is RequestStatus.STARTED


def test_unknown_values_are_kept_as_plain_strings() -> None:
    payload = load("request_record")
    payload["status"] = "archived"
    payload["origin"] = "partner_portal"
    payload["plan_config_type"] = "premium_lawsuit_search_2027"
    payload["search"]["search_type"] = "rg"
    record = RequestRecord.model_validate(payload)
    assert record.status == "archived" and not isinstance(record.status, RequestStatus)
    assert record.search is not None and record.search.search_type == "rg"
    assert enum_or_none(SearchType, record.search.search_type) is None
    assert record.model_dump(mode="json", exclude_unset=True) == payload


# Copied verbatim from the spec's "plan_config_type values" line.
SPEC_PLAN_CONFIG_TYPES = (
    "datalake_lawsuit_search, download_attachment, download_full_lawsuit, "
    "download_execution_attachment, simple_lawsuit_search, simple_lawsuit_search_with_summary, "
    "complete_lawsuit_search, complete_lawsuit_search_with_summary, full_lawsuit_search, "
    "full_lawsuit_search_with_summary, simple_lawsuit_tracking, "
    "simple_lawsuit_tracking_fixed_time, complete_lawsuit_tracking, "
    "complete_lawsuit_tracking_fixed_time, full_lawsuit_tracking, "
    "full_lawsuit_tracking_fixed_time, simple_warrant_search, complete_warrant_search, "
    "simple_execution_search, complete_execution_search, binary_document_search, "
    "count_document_search, aggregate_document_search, simple_document_search, "
    "simple_document_search_with_summary, complete_document_search, "
    "complete_document_search_with_summary, complete_document_search_on_demand, "
    "complete_document_search_on_demand_with_summary, document_tracking, "
    "document_tracking_fixed_time, public_document_tracking, "
    "public_document_tracking_fixed_time, custom_search, custom_tracking, "
    "custom_tracking_fixed_time, communication_tracking, entity_person_search, "
    "entity_person_search_on_demand, entity_person_name_search, "
    "entity_person_name_search_on_demand, entity_company_search, "
    "entity_company_search_on_demand, complete_company_search_with_branches, "
    "complete_company_search_with_branches_on_demand, sanctions_lists_search, "
    "sync_complete_document_search, error"
)


def test_every_plan_config_type_of_the_spec_is_a_member() -> None:
    spec_values = {value.strip() for value in SPEC_PLAN_CONFIG_TYPES.split(",")}
    assert {member.value for member in PlanConfigType} == spec_values
    assert (
        PlanConfigType("sync_complete_document_search")
        is PlanConfigType.SYNC_COMPLETE_DOCUMENT_SEARCH
    )
    assert PlanConfigType("error") is PlanConfigType.ERROR


def test_fixture_unknown_values_survive() -> None:
    count = CountRequestResult.model_validate(load("count_result_sentence_execution"))
    assert count.filter is not None
    assert count.filter.tags == [
        "precatory_dispatched",
        "possible_approved_calculation",
        "new_tag_from_service",
    ]
    assert count.filter.amount_tier is AmountTier.FROM_750K_TO_1_5M
    rows = [SystemStatusRow.model_validate(r) for r in load("vault_listing")["systems"]]
    assert rows[-1].credential_status == "blocked_by_court"
    assert rows[0].credential_status is CredentialStatus.NOT_EXISTS


def test_uppercase_payload_parses_in_nested_positions() -> None:
    lawsuit = Lawsuit.model_validate(
        {
            "code": "1001234-56.2023.8.26.0100",
            "parties": [
                {
                    "side": "PASSIVE",
                    "documents": [{"document": "12345678000195", "document_type": "CNPJ"}],
                    "lawyers": [{"name": "RAFAEL ALMEIDA SOUZA"}],
                }
            ],
        }
    )
    party = (lawsuit.parties or [])[0]
    assert party.side is Side.PASSIVE
    assert (party.documents or [])[0].document_type is DocumentType.CNPJ
    tracking = TrackingRecord.model_validate({"tracking_id": "t", "status": "SUSPENDED"})
    assert tracking.status is TrackingStatus.SUSPENDED


@given(st.text(max_size=40))
def test_any_string_parses_and_unknown_strings_round_trip(value: str) -> None:
    holder = _Holder.model_validate({"side": value})
    member = enum_or_none(Side, value)
    if member is None:
        assert holder.side == value
        assert holder.model_dump(mode="json", exclude_unset=True) == {"side": value}
    else:
        assert holder.side is member


def test_non_string_value_is_still_an_error() -> None:
    with pytest.raises(ValueError):
        _Holder.model_validate({"side": 3})

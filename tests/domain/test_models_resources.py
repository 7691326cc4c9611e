"""What the typed models give the rest of the app: dispatch, conflicts, helpers."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from lawsuit_tui.domain.base import as_datetime, format_timestamp
from lawsuit_tui.domain.enums import (
    ApplicationErrorCode,
    CredentialMessage,
    EventType,
    RequestStatus,
    ResponseType,
    Side,
)
from lawsuit_tui.domain.lawsuit import LastStep, Lawsuit, Lawyer, Party
from lawsuit_tui.domain.pagination import Page
from lawsuit_tui.domain.requests import RequestRecord, Search, SubjectFilter
from lawsuit_tui.domain.responses import (
    ApplicationError,
    LookupResult,
    ResponseRecord,
    ResponsesPage,
    typed_response_data,
)
from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.domain.vault import VaultListing, parse_registration_results
from lawsuit_tui.domain.webhooks import (
    RequestCompletedPayload,
    ResponseCreatedPayload,
    TrackingResponsePayload,
    WebhookEnvelope,
)
from tests.support.roundtrip import load


def test_lawsuit_tree() -> None:
    lawsuit = Lawsuit.model_validate(load("lawsuit"))
    assert lawsuit.code == "1001234-56.2023.8.26.0100"
    assert lawsuit.tribunal_acronym == "TJSP"
    parties = lawsuit.parties or []
    assert [p.side for p in parties] == [Side.ACTIVE, Side.PASSIVE]
    assert isinstance((parties[0].lawyers or [])[0], Lawyer)
    assert parties[1].legal_nature is not None and parties[1].legal_nature.active is True
    assert parties[1].share_capital == 1500000000
    assert isinstance(lawsuit.last_step, LastStep) and lawsuit.last_step.steps_count == 3
    assert lawsuit.sentence is not None and lawsuit.sentence.step_id == "stp_9a01bb"
    assert lawsuit.main_lawsuit is not None and lawsuit.main_lawsuit.instance == 1
    related = (lawsuit.related_lawsuits or [])[0]
    assert related.classification is not None and related.classification.name == "Apelação Cível"
    subjects = lawsuit.subjects or []
    assert subjects[1].code == 10433  # an integer code is kept as sent
    assert lawsuit.amount == 48750.35
    assert lawsuit.is_secret is False
    assert lawsuit.distribution_date == datetime(2023, 4, 11, 14, 30, tzinfo=UTC)


def test_lawyer_has_no_party_only_fields() -> None:
    party_only = {"side", "person_type", "was_inferred", "lawyers"}
    assert party_only <= set(Party.model_fields)
    assert not party_only & set(Lawyer.model_fields)


def test_step_without_source_name_and_secret_lawsuit() -> None:
    lookup = LookupResult.model_validate(load("lookup_result"))
    steps = lookup.lawsuits[0].steps or []
    assert steps[2].source_name is None and "source_name" not in steps[2].model_fields_set
    assert lookup.lawsuits[1].is_secret is True


def test_lawsuit_code_is_required() -> None:
    with pytest.raises(ValidationError, match="code"):
        Lawsuit.model_validate({"instance": 1})


def test_should_search_branches_read_under_either_place() -> None:
    under_params = RequestRecord.model_validate(load("request_record"))
    under_search = RequestRecord.model_validate(load("request_record_branches_under_search"))
    assert under_params.search is not None and under_search.search is not None
    assert under_params.search.should_search_branches is None
    assert under_params.search.branches_requested is True
    assert under_search.search.branches_requested is True
    assert Search().branches_requested is None


def test_both_subject_filter_shapes() -> None:
    contains = RequestRecord.model_validate(load("request_record"))
    keys = RequestRecord.model_validate(load("request_record_branches_under_search"))
    assert contains.search is not None and contains.search.search_params is not None
    assert keys.search is not None and keys.search.search_params is not None
    f1 = contains.search.search_params.filter
    f2 = keys.search.search_params.filter
    assert f1 is not None and f2 is not None
    assert f1.subject_codes is not None and f1.subject_codes.included() == ["7780"]
    assert f1.subject_codes.excluded() == ["10433"]
    assert f2.subject_codes is not None and f2.subject_codes.included() == ["7780", "7779"]
    assert f2.tribunals is not None and f2.tribunals.excluded() == ["TRF3"]
    negated = SubjectFilter(keys=["1"], not_equal=True)
    assert negated.included() == [] and negated.excluded() == ["1"]


def test_request_record_helpers() -> None:
    record = RequestRecord.model_validate(load("request_record"))
    assert record.status is RequestStatus.COMPLETED and record.is_finished
    assert record.cost == 3.5


def test_response_data_is_typed_by_response_type() -> None:
    page = ResponsesPage.model_validate(load("responses_page"))
    lawsuit_rec, error_rec, entity_rec, unknown_rec = page.page_data
    assert isinstance(lawsuit_rec.response_data, Lawsuit) and lawsuit_rec.lawsuit is not None
    assert isinstance(error_rec.response_data, ApplicationError)
    assert error_rec.application_error is not None
    assert error_rec.application_error.known_code is ApplicationErrorCode.LAWSUIT_NOT_FOUND
    # entity data has a "code" too: it must not be mistaken for a lawsuit or an error
    assert isinstance(entity_rec.response_data, dict) and entity_rec.lawsuit is None
    assert unknown_rec.response_type == "sanctions"
    assert unknown_rec.response_data == {"lists": ["CEIS"], "hits": 0}
    assert page.request_status is RequestStatus.COMPLETED
    assert page.is_last


def test_application_error_code_as_integer() -> None:
    record = ResponseRecord.model_validate(load("response_application_error_int"))
    error = record.application_error
    assert error is not None and error.code == 404 and error.known_code is None
    assert record.is_cached is False


def test_is_cached_reads_either_signal() -> None:
    assert ResponseRecord(cached=True).is_cached
    assert ResponseRecord(tags={"cached_response": True}).is_cached
    assert not ResponseRecord(tags={"cached_response": False}).is_cached
    assert not ResponseRecord().is_cached


def test_lawsuit_data_that_does_not_fit_is_kept_raw() -> None:
    raw = {"instance": 1, "name": "sem código"}
    record = ResponseRecord.model_validate({"response_type": "lawsuit", "response_data": raw})
    assert record.response_data == raw
    assert typed_response_data("entity", raw) is raw


def test_pages() -> None:
    page = Page[TrackingRecord].model_validate(load("trackings_page"))
    assert [t.tracking_id for t in page.page_data] == ["trk_7710", "trk_8821"]
    assert page.is_last
    requests_page = Page[RequestRecord].model_validate(load("requests_page"))
    assert not requests_page.is_last and requests_page.all_count == 61
    assert Page[RequestRecord].model_validate({"page": 3, "all_pages_count": 4}).is_last


def test_tracking_record() -> None:
    tracking = TrackingRecord.model_validate(load("tracking_record"))
    assert tracking.notification_filters is not None
    assert tracking.notification_filters.step_terms == [
        "sentença",
        "acórdão",
        "trânsito em julgado",
    ]
    assert tracking.hour_range == 6 and tracking.execution_minute == 30


def test_webhook_payloads_are_typed_by_event_type() -> None:
    created = WebhookEnvelope.model_validate(load("webhook_response_created"))
    assert created.event_type is EventType.RESPONSE_CREATED
    assert isinstance(created.payload, ResponseCreatedPayload)
    assert isinstance(created.payload.response_data, Lawsuit)
    assert created.payload.is_cached
    completed = WebhookEnvelope.model_validate(load("webhook_request_completed"))
    assert isinstance(completed.payload, RequestCompletedPayload)
    assert completed.payload.status is RequestStatus.COMPLETED
    tracking = WebhookEnvelope.model_validate(load("webhook_tracking_response"))
    assert isinstance(tracking.payload, TrackingResponsePayload)
    assert not tracking.payload.is_cached
    entity = WebhookEnvelope.model_validate(load("webhook_entity_response"))
    assert isinstance(entity.payload, ResponseCreatedPayload)
    assert entity.payload.response_type is ResponseType.ENTITY
    assert isinstance(entity.payload.response_data, dict)
    unknown = WebhookEnvelope.model_validate(load("webhook_unknown_event"))
    assert unknown.event_type == "tracking_paused"
    assert unknown.payload == {"tracking_id": "trk_7710", "reason": "plan_limit"}


def test_vault_models() -> None:
    listing = VaultListing.model_validate(load("vault_listing"))
    assert listing.systems[0].is_wildcard and listing.systems[0].customer_key == ""
    results = parse_registration_results(load("credential_registration_results"))
    assert [r.message for r in results] == [
        CredentialMessage.CREDENTIAL_CREATED,
        CredentialMessage.CREDENTIAL_UPDATED,
    ]
    single = parse_registration_results({"system_name": "*", "message": "CREDENTIAL_CREATED"})
    assert len(single) == 1


def test_timestamp_helpers() -> None:
    moment = datetime(2024, 7, 20, 12, 0, 4, tzinfo=UTC)
    assert format_timestamp(moment) == "2024-07-20T12:00:04.000Z"
    assert as_datetime("2024-07-20T12:00:04.000Z") == moment
    assert as_datetime(moment) is moment
    assert as_datetime("11/04/2023") is None and as_datetime(None) is None


def test_webhook_accepts_model_instances() -> None:
    record = RequestRecord.model_validate(load("request_record"))
    envelope = WebhookEnvelope(callback_id="cb_1", event_type="request_completed", payload=record)
    assert isinstance(envelope.payload, RequestCompletedPayload)
    assert envelope.payload.request_id == record.request_id
    dumped = envelope.model_dump(mode="json", exclude_unset=True)
    assert dumped["payload"] == load("request_record")


def test_top_level_models_have_a_json_schema() -> None:
    """The sandbox's OpenAPI document is generated from these models (nested ones included)."""
    from pydantic import BaseModel

    from lawsuit_tui.domain.bodies import (
        CountBody,
        CreateRequestBody,
        CredentialsRegistrationBody,
        TrackingCreateBody,
    )
    from lawsuit_tui.domain.count import CountRequestResult
    from lawsuit_tui.domain.errors import TransportErrorBody

    models: list[type[BaseModel]] = [
        LookupResult,
        Page[RequestRecord],
        ResponsesPage,
        Page[TrackingRecord],
        VaultListing,
        CountRequestResult,
        WebhookEnvelope,
        TransportErrorBody,
        CreateRequestBody,
        TrackingCreateBody,
        CredentialsRegistrationBody,
        CountBody,
    ]
    for model in models:
        assert model.model_json_schema(mode="validation")["type"] == "object"
        assert model.model_json_schema(mode="serialization")["type"] == "object"
    schema = json.dumps(RequestRecord.model_json_schema())
    assert "pending" in schema and "complete_document_search" in schema

"""Round-trip law: validate then dump (json, exclude_unset) gives back every fixture."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from lawsuit_tui.domain.count import CountRequestResult
from lawsuit_tui.domain.errors import ErrorListBody, FlatErrorBody, TransportErrorBody
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.pagination import Page
from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.domain.responses import LookupResult, ResponseRecord, ResponsesPage
from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.domain.vault import VaultListing, parse_registration_results
from lawsuit_tui.domain.webhooks import WebhookEnvelope
from tests.support.roundtrip import assert_same_payload, fixture_names, load, normalise

Dumper = Callable[[Any], Any]


def _model(model: Any) -> Dumper:
    def run(payload: Any) -> Any:
        return model.model_validate(payload).model_dump(mode="json", exclude_unset=True)

    return run


def _registration(payload: Any) -> Any:
    return [
        item.model_dump(mode="json", exclude_unset=True)
        for item in parse_registration_results(payload)
    ]


ROUND_TRIPS: dict[str, Dumper] = {
    "lawsuit": _model(Lawsuit),
    "lookup_result": _model(LookupResult),
    "request_record": _model(RequestRecord),
    "request_record_branches_under_search": _model(RequestRecord),
    "requests_page": _model(Page[RequestRecord]),
    "responses_page": _model(ResponsesPage),
    "response_application_error_int": _model(ResponseRecord),
    "tracking_record": _model(TrackingRecord),
    "trackings_page": _model(Page[TrackingRecord]),
    "vault_listing": _model(VaultListing),
    "credential_registration_results": _registration,
    "count_result": _model(CountRequestResult),
    "count_result_sentence_execution": _model(CountRequestResult),
    "webhook_response_created": _model(WebhookEnvelope),
    "webhook_request_completed": _model(WebhookEnvelope),
    "webhook_tracking_response": _model(WebhookEnvelope),
    "webhook_entity_response": _model(WebhookEnvelope),
    "webhook_unknown_event": _model(WebhookEnvelope),
    "error_transport_validation": _model(TransportErrorBody),
    "error_transport_string": _model(TransportErrorBody),
    "error_transport_object": _model(TransportErrorBody),
    "error_flat": _model(FlatErrorBody),
    "error_flat_forbidden": _model(FlatErrorBody),
    "error_list": _model(ErrorListBody),
}


def test_every_fixture_has_a_round_trip() -> None:
    assert sorted(ROUND_TRIPS) == fixture_names()


@pytest.mark.parametrize("name", sorted(ROUND_TRIPS))
def test_round_trip(name: str) -> None:
    payload = load(name)
    assert_same_payload(ROUND_TRIPS[name](payload), payload)


@pytest.mark.parametrize("name", sorted(ROUND_TRIPS))
def test_round_trip_is_stable(name: str) -> None:
    """Dumping what was dumped gives the very same JSON (no drift through the cache)."""
    once = ROUND_TRIPS[name](load(name))
    assert ROUND_TRIPS[name](once) == once


def test_timestamp_comparison_is_by_instant() -> None:
    assert normalise("2024-07-20T12:00:04.000Z") == normalise("2024-07-20T09:00:04-03:00")
    assert normalise("2024-07-20T12:00:04.000Z") != normalise("2024-07-20T12:00:05Z")


def test_round_trip_would_notice_a_lost_field() -> None:
    payload = load("lawsuit")
    dumped = ROUND_TRIPS["lawsuit"](payload)
    del dumped["parties"][0]["lawyers"][0]["lawyer_since"]
    with pytest.raises(AssertionError):
        assert_same_payload(dumped, payload)


def test_unknown_fields_are_kept_at_every_depth() -> None:
    lawsuit = Lawsuit.model_validate(load("lawsuit"))
    assert lawsuit.extra_fields["summary_ai"]["model"] == "v2"
    assert lawsuit.crawler is not None and lawsuit.crawler.extra_fields == {"worker": "sp-03"}
    assert lawsuit.parties is not None
    lawyer = (lawsuit.parties[0].lawyers or [])[0]
    assert lawyer.extra_fields == {"lawyer_since": 2009}
    assert (lawyer.documents or [])[0].extra_fields == {"uf_hint": "SP"}
    assert lawsuit.full_lawsuit_file is not None
    assert lawsuit.full_lawsuit_file.extra_fields == {"pages": 212}


def test_null_fields_round_trip_as_null() -> None:
    payload = {"code": "1001234-56.2023.8.26.0100", "judge": None, "steps": None}
    dumped = Lawsuit.model_validate(payload).model_dump(mode="json", exclude_unset=True)
    assert dumped == payload


def test_unparseable_timestamp_is_kept_as_text() -> None:
    payload = {"code": "1001234-56.2023.8.26.0100", "distribution_date": "11/04/2023"}
    lawsuit = Lawsuit.model_validate(payload)
    assert lawsuit.distribution_date == "11/04/2023"
    assert lawsuit.model_dump(mode="json", exclude_unset=True) == payload


@pytest.mark.parametrize("name", sorted(ROUND_TRIPS))
def test_round_trip_is_exact_for_service_timestamps(name: str) -> None:
    """Timestamps written the service's way (milliseconds and Z, D2) come back verbatim."""
    payload = load(name)
    assert ROUND_TRIPS[name](payload) == payload

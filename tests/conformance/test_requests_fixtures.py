"""The requests service's documented examples (fixtures written from the pages, our own
values) parse into our models and come back out unchanged (D85: open records)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from lawsuit_tui.domain.errors import FlatErrorBody, TransportErrorBody, parse_error_body
from lawsuit_tui.domain.pagination import Page
from lawsuit_tui.domain.requests import RequestDeletion, RequestRecord
from lawsuit_tui.domain.responses import AiSummary, ResponseRecord, ResponsesPage
from lawsuit_tui.domain.webhooks import WebhookEnvelope
from tests.support.conformance import fixture, fixture_names, problems

FAMILY = "requests"

MODELS: dict[str, type[BaseModel]] = {
    "request_created": RequestRecord,
    "requests_page": Page[RequestRecord],
    "request_deleted": RequestDeletion,
    "response_lawsuit": ResponseRecord,
    "response_summary": ResponseRecord,
    "responses_page": ResponsesPage,
    "webhook_completion_notice": WebhookEnvelope,
    "error_400": TransportErrorBody,
    "error_401": TransportErrorBody,
    "error_404": TransportErrorBody,
    "error_429": FlatErrorBody,
    "error_500": TransportErrorBody,
}

# Fixtures whose documented shape is whole (the create, find-one and find-many examples
# leave out company_id, which the OAS requires, so they are not held to the schema).
SCHEMAS = {
    "request_deleted": "request_deleted",
    "responses_page": "responses_page",
    "response_summary": "response",
    "webhook_completion_notice": "webhook",
    "error_400": "error_400",
    "error_401": "error_401",
    "error_404": "error_404",
    "error_429": "error_429",
    "error_500": "error_500",
}


def test_every_fixture_has_a_model() -> None:
    assert sorted(MODELS) == fixture_names(FAMILY)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_each_example_parses_and_round_trips(name: str) -> None:
    raw = fixture(FAMILY, name)
    model = MODELS[name].model_validate(raw)
    dumped: Any = model.model_dump(mode="json", exclude_unset=True)
    assert dumped == raw


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_each_whole_example_is_what_the_schema_documents(name: str) -> None:
    assert problems(FAMILY, SCHEMAS[name], fixture(FAMILY, name)) == []


def test_what_the_examples_mean() -> None:
    summary = ResponseRecord.model_validate(fixture(FAMILY, "response_summary")).ai_summary
    assert isinstance(summary, AiSummary) and summary.origin == "response"
    lawsuit = ResponseRecord.model_validate(fixture(FAMILY, "response_lawsuit"))
    assert lawsuit.lawsuit is not None and lawsuit.extra_fields["request_status"] == "completed"
    notice = WebhookEnvelope.model_validate(fixture(FAMILY, "webhook_completion_notice"))
    payload = notice.payload
    assert isinstance(payload, BaseModel)
    response = ResponseRecord.model_validate(payload.model_dump(exclude_unset=True))
    assert response.is_completion_notice  # D69
    codes = {
        name: parse_error_body(int(name[-3:]), fixture(FAMILY, name)).code
        for name in ("error_400", "error_401", "error_404", "error_429", "error_500")
    }
    assert codes == {
        "error_400": None,
        "error_401": None,
        "error_404": "REQUEST_NOT_FOUND",
        "error_429": 429,
        "error_500": None,
    }
    bad = parse_error_body(400, fixture(FAMILY, "error_400"))
    assert [item.field for item in bad.items] == ["search.search_key", "search.search_type"]

"""D80: ``judit_ia`` sent and read (also ``service_ia``, ``use_judit_ia``), and the summary
response's data."""

from __future__ import annotations

from typing import Any

import pytest

from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.domain.responses import AiSummary, ResponseRecord


def test_the_body_sends_judit_ia() -> None:
    body = CreateRequestBody(
        search=SearchBody(search_type="cpf", search_key="52998224725"), judit_ia=["summary"]
    )
    assert body.to_wire()["judit_ia"] == ["summary"]
    plain = CreateRequestBody(search=SearchBody(search_type="cpf", search_key="52998224725"))
    assert "judit_ia" not in plain.to_wire()


@pytest.mark.parametrize(
    ("fields", "asked"),
    [
        ({"judit_ia": ["summary"]}, True),
        ({"service_ia": ["summary"]}, True),
        ({"use_judit_ia": True}, True),
        ({"judit_ia": [], "use_judit_ia": False}, False),
        ({"judit_ia": ["something_new"]}, False),
        ({}, False),
    ],
)
def test_the_record_says_whether_a_summary_was_asked(fields: dict[str, Any], asked: bool) -> None:
    record = RequestRecord.model_validate({"request_id": "r", **fields})
    assert record.asks_ai_summary is asked
    assert record.to_json_dict() == {"request_id": "r", **fields}  # round-trips as received


def test_a_summary_response_is_typed_and_kept_whole() -> None:
    raw = {
        "response_id": "s-1",
        "response_type": "summary",
        "response_data": {
            "data": ["## Resumo\n\nUm texto.", "## Partes\n\n- A"],
            "origin": "response",
            "origin_id": "l-1",
            "future": 1,
        },
    }
    response = ResponseRecord.model_validate(raw)
    summary = response.ai_summary
    assert isinstance(summary, AiSummary) and summary.origin_id == "l-1"
    assert summary.text == "## Resumo\n\nUm texto.\n\n## Partes\n\n- A"
    assert response.to_json_dict() == raw

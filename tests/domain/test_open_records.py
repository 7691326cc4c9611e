"""Open record models (D85): only what every document example carries is required; unknown
fields, unknown enum values and numbers written as strings are read, and the cached flag
is found under any of its three names."""

from __future__ import annotations

from typing import Any

import pytest

from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.domain.responses import ResponseRecord, ResponsesPage


def test_a_request_as_the_find_one_page_shows_it() -> None:
    record = RequestRecord.model_validate(
        {
            "request_id": "r-1",
            "search": {"search_type": "lawsuit_cnj", "search_key": "x", "search_params": {}},
            "status": "processing",  # the guide's status words, not in the OAS enum
            "cost": "0.5",
            "responses_count": "3",
            "something_new": {"kept": True},
        }
    )
    assert record.status == "processing" and not record.is_finished
    assert record.cost == 0.5 and record.responses_count == 3
    assert record.extra_fields["something_new"] == {"kept": True}


@pytest.mark.parametrize(
    "flags",
    [
        {"cached": True},
        {"cached_response": True},
        {"tags": {"cached_response": True}},
    ],
)
def test_the_cached_flag_under_each_name(flags: dict[str, Any]) -> None:
    response = ResponseRecord.model_validate(
        {"response_id": "x", "response_type": "lawsuit", "response_data": {}, **flags}
    )
    assert response.is_cached


def test_a_page_number_given_as_a_string() -> None:
    page = ResponsesPage.model_validate(
        {"page": "2", "page_count": "0", "all_pages_count": "2", "all_count": "1", "page_data": []}
    )
    assert (page.page, page.all_pages_count, page.request_status) == (2, 2, None)
    status = ResponsesPage.model_validate({"page_data": [], "request_status": "created"})
    assert status.request_status == "created"

"""The three error body shapes, and a parser that takes anything without raising."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lawsuit_tui.domain.errors import (
    ErrorDataMessage,
    ErrorListBody,
    FlatErrorBody,
    ServiceErrorInfo,
    TransportErrorBody,
    ValidationItem,
    parse_error_body,
)
from tests.support.roundtrip import load


def test_transport_shape_with_validation_items() -> None:
    body = load("error_transport_validation")
    info = parse_error_body(400, body)
    assert info.status == 400
    assert info.name == "HttpBadRequestError" and info.message == "BAD_REQUEST"
    assert [item.field for item in info.items] == ["search.search_type", "search.search_key"]
    assert info.items[1].rule == "required"
    assert info.raw is body
    assert "search.search_key: search_key is required" in info.summary
    typed = TransportErrorBody.model_validate(body)
    assert isinstance(typed.error.data, list) and isinstance(typed.error.data[0], ValidationItem)


def test_transport_shape_with_string_and_object_data() -> None:
    info = parse_error_body(404, load("error_transport_string"))
    assert info.name == "HttpNotFoundError" and info.messages == ["REQUEST_NOT_FOUND"]
    info = parse_error_body(401, load("error_transport_object"))
    assert info.message == "UNAUTHORIZED" and info.messages == ["USER_NOT_FOUND"]
    typed = TransportErrorBody.model_validate(load("error_transport_object"))
    assert isinstance(typed.error.data, ErrorDataMessage)
    assert typed.error.data.message == "USER_NOT_FOUND"


def test_flat_shape() -> None:
    info = parse_error_body(429, load("error_flat"))
    assert info.name == "TOO_MANY_REQUESTS" and info.code == 429
    assert info.message == "Rate limit exceeded: 180 requests per minute"
    info = parse_error_body(403, load("error_flat_forbidden"))
    assert info.name == "FORBIDDEN" and info.message == "INSUFFICIENT_PERMISSIONS"
    assert info.code == "HttpForbiddenError"
    assert FlatErrorBody.model_validate(load("error_flat")).code == 429


def test_error_list_shape() -> None:
    body = load("error_list")
    info = parse_error_body(400, body)
    assert info.messages == body["errors"]
    assert info.summary == "; ".join(body["errors"])
    assert ErrorListBody.model_validate(body).errors == body["errors"]


@pytest.mark.parametrize(
    ("body", "expected_message", "expected_messages"),
    [
        (None, None, []),
        ("", None, []),
        (
            "<html><body>502 Bad Gateway</body></html>",
            "<html><body>502 Bad Gateway</body></html>",
            [],
        ),
        (b'{"errors": ["kind is required"]}', None, ["kind is required"]),
        ('{"error": {"name": "X", "message": "BAD", "data": null}}', "BAD", []),
        ("{not json", "{not json", []),
        (["one", {"message": "two"}], None, ["one", "two"]),
        (42, None, ["42"]),
        ({}, None, []),
        ({"error": None, "message": None}, None, []),
        ({"error": {"data": [{"field": "page", "rule": "min"}]}}, None, []),
    ],
)
def test_anything_else_is_accepted(
    body: object, expected_message: str | None, expected_messages: list[str]
) -> None:
    info = parse_error_body(502, body)
    assert isinstance(info, ServiceErrorInfo)
    assert info.message == expected_message
    assert info.messages == expected_messages
    assert info.summary  # always something to show
    assert info.raw is body


def test_summary_falls_back_to_the_status() -> None:
    assert parse_error_body(503, None).summary == "HTTP 503"


def test_info_is_frozen() -> None:
    info = parse_error_body(500, {"error": "X"})
    with pytest.raises(AttributeError):
        info.status = 200  # type: ignore[misc]


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["error", "errors", "message", "code", "name", "data", "field", "rule"])
            | st.text(max_size=5),
            children,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@given(_json)
def test_parse_never_raises(body: Any) -> None:
    info = parse_error_body(400, body)
    assert isinstance(info.summary, str)
    parse_error_body(400, json.dumps(body))


# -- D64: every documented shape, one error type ---------------------------------------------


def _transport(name: str, message: str, data: object) -> dict[str, Any]:
    return {"error": {"name": name, "message": message, "data": data}}


def test_a_400_lists_each_field_of_its_string_data() -> None:
    body = _transport(
        "HttpBadRequestError",
        "BAD_REQUEST",
        ["search.search_key: not a valid CPF", "credentials[2].password: required", "CNJ bad"],
    )
    info = parse_error_body(400, body)
    assert [(i.field, i.message) for i in info.items] == [
        ("search.search_key", "not a valid CPF"),
        ("credentials[2].password", "required"),
    ]
    assert info.messages == ["CNJ bad"]  # a sentence naming no field stays a sentence
    assert info.code is None  # the generic Http*Error name says only the status


@pytest.mark.parametrize(
    ("status", "body", "code", "messages"),
    [
        (
            401,
            _transport("HttpUnauthorizedError", "UNAUTHORIZED", "USER_NOT_FOUND"),
            None,
            ["USER_NOT_FOUND"],
        ),
        (
            403,
            _transport("SECRECY_RESTRICTED", "FORBIDDEN", "the lawsuit is secret"),
            "SECRECY_RESTRICTED",
            ["the lawsuit is secret"],
        ),
        (
            404,
            _transport("REQUEST_NOT_FOUND", "NOT_FOUND", {"request_id": "r-1"}),
            "REQUEST_NOT_FOUND",
            ["request_id: r-1"],
        ),
        (
            409,
            _transport("HttpConflictError", "CONFLICT", {"email": "already_exists"}),
            None,
            ["email: already_exists"],
        ),
        (
            422,
            _transport("HttpUnprocessableEntityError", "UNPROCESSABLE_ENTITY", "Invalid state"),
            None,
            ["Invalid state"],
        ),
        (
            500,
            _transport("HttpInternalServerError", "INTERNAL_SERVER_ERROR", {"message": "db"}),
            None,
            ["db"],
        ),
        (
            429,
            {"error": "Too Many Requests", "message": "Rate limit exceeded.", "code": 429},
            429,
            [],
        ),
        (403, {"errors": ["INSUFFICIENT_CREDITS: balance 0"]}, "INSUFFICIENT_CREDITS", None),
        (404, {"errors": ["REQUEST_NOT_FOUND"]}, "REQUEST_NOT_FOUND", None),
        (400, {"errors": ["tribunals: unknown tribunal id 9"]}, None, None),
    ],
)
def test_every_documented_error_shape_gives_its_code_and_words(
    status: int, body: dict[str, Any], code: object, messages: list[str] | None
) -> None:
    info = parse_error_body(status, body)
    assert info.code == code
    if messages is not None:
        assert info.messages == messages
    assert info.summary

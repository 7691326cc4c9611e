"""Bodies the client sends: each rule of the spec (and of the decisions) fails clearly."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from lawsuit_tui.domain.bodies import (
    CertificateBody,
    CountBody,
    CreateRequestBody,
    CredentialDeleteBody,
    CredentialItem,
    CredentialsRegistrationBody,
    LookupBody,
    PageParams,
    RequestsPageParams,
    ResponsesPageParams,
    TrackingCreateBody,
    TrackingPatchBody,
    TrackingsPageParams,
    accepted_response_types,
    response_type_problem,
    validation_messages,
)
from lawsuit_tui.domain.enums import CountKind, ResponseType
from lawsuit_tui.domain.formatting import format_money
from lawsuit_tui.i18n import set_language

CNJ = "1001234-56.2023.8.26.0100"


def messages(model: type[BaseModel], data: Any) -> list[str]:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(data)
    return validation_messages(caught.value)


def test_create_request_body_to_wire() -> None:
    body = CreateRequestBody.model_validate(
        {
            "search": {
                "search_type": "cnpj",
                "search_key": "12345678000195",
                "response_type": "lawsuits",
                "cache_ttl_in_days": 7,
                "should_search_branches": True,
                "search_params": {
                    "lawsuit_instance": 1,
                    "masked_response": True,
                    "filter": {
                        "side": "Passive",
                        "distribution_date_gte": "2020-01-01T00:00:00.000Z",
                        "subject_codes": {"contains": ["7780"], "not_contains": []},
                        "tribunals": {"keys": ["826"], "not_equal": False},
                    },
                    "credential": {"customer_key": "escritorio-sp"},
                },
            },
            "callback_url": "https://hooks.escritorio.com.br/judicial/7f3a",
        }
    )
    wire = body.to_wire()
    assert wire["search"]["should_search_branches"] is True
    assert "should_search_branches" not in wire["search"]["search_params"]
    assert wire["search"]["search_params"]["filter"]["distribution_date_gte"] == (
        "2020-01-01T00:00:00.000Z"
    )
    assert "with_attachments" not in wire


def test_lookup_body() -> None:
    body = LookupBody.model_validate({"search": {"search_type": "lawsuit_cnj", "search_key": CNJ}})
    assert body.to_wire() == {"search": {"search_type": "lawsuit_cnj", "search_key": CNJ}}


def test_with_attachments_only_for_lawsuit_cnj() -> None:
    data = {"search": {"search_type": "cpf", "search_key": "52998224725"}, "with_attachments": True}
    assert messages(CreateRequestBody, data) == [
        "with_attachments applies only to lawsuit_cnj and warrant searches, not to cpf"
    ]
    data["with_attachments"] = False
    CreateRequestBody.model_validate(data)
    ok = {"search": {"search_type": "lawsuit_cnj", "search_key": CNJ}, "with_attachments": True}
    assert CreateRequestBody.model_validate(ok).to_wire()["with_attachments"] is True


@pytest.mark.parametrize(
    ("search_type", "response_type"),
    [
        ("cpf", "step"),
        ("oab", "attachments"),
        ("lawsuit_cnj", "lawsuits"),
        ("cnpj", "warrant"),  # D68: companies have no arrest warrants
        ("oab", "execution"),
        ("rji", "lawsuits"),
        ("oab", "entity"),
    ],
)
def test_incompatible_response_type(search_type: str, response_type: str) -> None:
    data = {
        "search": {"search_type": search_type, "search_key": "x", "response_type": response_type}
    }
    [line] = messages(CreateRequestBody, data)
    assert line.startswith(
        f"search: response_type {response_type} cannot be asked for a {search_type} search"
    )


def test_response_type_table() -> None:
    assert accepted_response_types("lawsuit_cnj")[0] is ResponseType.LAWSUIT
    assert accepted_response_types("CPF")[0] is ResponseType.LAWSUITS
    assert accepted_response_types("rg") == ()
    assert response_type_problem("cpf", "parties") is None
    assert response_type_problem("lawsuit_id", "step") is None
    assert response_type_problem("rg", "step") is None  # unknown search type: service decides
    assert response_type_problem("cpf", "dossier") is None  # unknown response type
    assert response_type_problem("cpf", "application_error") is not None


@pytest.mark.parametrize(
    ("search", "expected"),
    [
        ({"search_key": "  "}, "search.search_key: search_key must not be empty"),
        (
            {"search_key": CNJ, "cache_ttl_in_days": 0},
            "search.cache_ttl_in_days: cache_ttl_in_days must be between 1 and 365 days, not 0",
        ),
        (
            {"search_key": CNJ, "cache_ttl_in_days": 366},
            "search.cache_ttl_in_days: cache_ttl_in_days must be between 1 and 365 days, not 366",
        ),
    ],
)
def test_search_rules(search: dict[str, Any], expected: str) -> None:
    data = {"search": {"search_type": "lawsuit_cnj", **search}}
    assert messages(CreateRequestBody, data) == [expected]


def test_callback_url_must_be_http() -> None:
    data = {"search": {"search_type": "lawsuit_cnj", "search_key": CNJ}, "callback_url": "ftp://x"}
    assert messages(CreateRequestBody, data) == [
        "callback_url: callback_url must be an http:// or https:// address"
    ]


def test_page_params() -> None:
    assert PageParams().to_query() == {"page": "1", "page_size": "20"}
    assert PageParams(page_size=1).page_size == 1
    assert PageParams(page_size=1000).page_size == 1000
    assert messages(PageParams, {"page": 0}) == ["page: page must be at least 1, not 0"]
    assert messages(PageParams, {"page_size": 1001}) == [
        "page_size: page_size must be between 1 and 1000, not 1001"
    ]
    for model in (ResponsesPageParams, TrackingsPageParams):
        assert messages(model, {"page_size": 4}) == [
            "page_size: page_size must be between 5 and 1000, not 4"
        ]
        assert model(page_size=5).page_size == 5
    query = ResponsesPageParams(request_id="r1", cached=False, page_size=100).to_query()
    assert query == {"page": "1", "page_size": "100", "request_id": "r1", "cached": "false"}
    query = RequestsPageParams(status="completed", include_deleted=True).to_query()
    assert query["status"] == "completed" and query["include_deleted"] == "true"


def _tracking(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "recurrence": 1,
        "search": {"search_type": "lawsuit_cnj", "search_key": CNJ, "response_type": "lawsuit"},
        "notification_emails": ["juridico@escritorio.com.br"],
        "notification_filters": {"step_terms": ["sentença"]},
        "with_attachments": True,
        "fixed_time": True,
        "hour_range": 6,
        "execution_minute": 30,
    }
    data.update(changes)
    return data


def test_tracking_create_body_valid() -> None:
    wire = TrackingCreateBody.model_validate(_tracking()).to_wire()
    assert wire["notification_filters"] == {"step_terms": ["sentença"]}
    assert wire["hour_range"] == 6


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"recurrence": 0}, "recurrence: recurrence is a number of days from 1 to 90, not 0"),
        ({"recurrence": 91}, "recurrence: recurrence is a number of days from 1 to 90, not 91"),
        ({"hour_range": 24}, "hour_range: hour_range must be an hour from 0 to 23, not 24"),
        ({"hour_range": -1}, "hour_range: hour_range must be an hour from 0 to 23, not -1"),
        (
            {"execution_minute": 60},
            "execution_minute: execution_minute must be a minute from 0 to 59, not 60",
        ),
        (
            {"notification_emails": ["ok@escritorio.com.br", "sem-arroba", "a@b"]},
            "notification_emails: not a valid e-mail address: sem-arroba, a@b",
        ),
        (
            {"search": {"search_type": "oab", "search_key": "123456SP"}},
            "with_attachments applies only to lawsuit_cnj and warrant searches, not to oab",
        ),
    ],
)
def test_tracking_rules(changes: dict[str, Any], expected: str) -> None:
    assert messages(TrackingCreateBody, _tracking(**changes)) == [expected]


def test_tracking_patch_sends_only_what_changed() -> None:
    assert TrackingPatchBody().to_wire() == {}
    assert TrackingPatchBody(recurrence=7).to_wire() == {"recurrence": 7}
    assert messages(TrackingPatchBody, {"execution_minute": 75}) == [
        "execution_minute: execution_minute must be a minute from 0 to 59, not 75"
    ]


def test_credentials_secret_only_in_the_wire_body() -> None:
    item = CredentialItem(
        system_name="TJSP - ESAJ - 1º grau",
        customer_key="escritorio-sp",
        username="12345678909",
        password="s3nh4-f0rte",
    )
    assert "s3nh4-f0rte" not in repr(item)
    assert "s3nh4-f0rte" not in str(item.model_dump())
    assert "s3nh4-f0rte" not in item.model_dump_json()
    body = CredentialsRegistrationBody.of(item)
    assert "s3nh4-f0rte" not in repr(body)
    assert body.to_wire() == {
        "credentials": [
            {
                "credential": {
                    "system_name": "TJSP - ESAJ - 1º grau",
                    "customer_key": "escritorio-sp",
                    "username": "12345678909",
                    "password": "s3nh4-f0rte",
                }
            }
        ]
    }


def test_credentials_key_is_always_explicit() -> None:
    for key in (None, "", "  "):
        item = CredentialItem(system_name="*", customer_key=key, username="u", password="p")
        assert item.to_wire()["customer_key"] == "*"
    item = CredentialItem(system_name="*", username="u", password="p")
    assert (
        CredentialsRegistrationBody.of(item).to_wire()["credentials"][0]["credential"][
            "customer_key"
        ]
        == "*"
    )


def test_credentials_flat_items_and_the_two_factor_key() -> None:
    """D67: the two-factor setup key is sent as ``custom_data.secret`` (never totp_secret)."""
    body = CredentialsRegistrationBody.model_validate(
        {
            "credentials": [
                {"system_name": "PJE TRF3 - 1º grau", "username": "u", "password": "p"},
                {
                    "credential": {
                        "system_name": "PJE TJBA - 1º grau",
                        "username": "u",
                        "password": "p",
                        "custom_data": {"secret": "jbsw y3dp ehpk 3pxp"},
                    }
                },
            ]
        }
    )
    wire = body.to_wire()
    assert wire["credentials"][0]["credential"]["system_name"] == "PJE TRF3 - 1º grau"
    second = wire["credentials"][1]["credential"]
    assert second["custom_data"] == {"secret": "jbsw y3dp ehpk 3pxp"}
    assert "totp_secret" not in second
    assert "jbsw" not in repr(body)


def test_the_certificate_body_of_its_own_route() -> None:
    """D67: file_base64 (one line), password, system_name and customer_key default to *."""
    body = CertificateBody(file_base64="TUlJS0FB", password="segredo")
    assert body.to_wire() == {
        "file_base64": "TUlJS0FB",
        "password": "segredo",
        "system_name": "*",
        "customer_key": "*",
    }
    assert "TUlJS0FB" not in repr(body) and "segredo" not in repr(body)
    with_key = CertificateBody(
        file_base64="TUlJ",
        password="x",
        system_name="ESAJ - TJSP - 1º grau",
        custom_data={"secret": "JBSWY3DPEHPK3PXP"},
    )
    assert with_key.to_wire()["custom_data"] == {"secret": "JBSWY3DPEHPK3PXP"}
    assert messages(CertificateBody, {"file_base64": "TUl\nJ", "password": "x"}) == [
        "file_base64: the certificate must be Base64 on a single line"
    ]
    assert messages(
        CertificateBody,
        {"file_base64": "TUlJ", "password": "x", "custom_data": {"secret": "0O1I"}},
    ) == ["the two-factor secret must be base32 (letters A-Z, digits 2-7)"]


def test_two_factor_secrets_are_read_as_people_copy_them() -> None:
    item = CredentialItem(
        system_name="TJGO", username="u", password="p", custom_data={"secret": "jbsw y3dp 3pxp"}
    )
    assert item.two_factor_secret is not None


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"credentials": []}, "credentials: register at least one credential"),
        (
            {"credentials": [{"credential": {"system_name": "TJSP", "username": "u"}}]},
            "credentials.0.credential: a credential needs a username and a password",
        ),
        (
            {
                "credentials": [
                    {"credential": {"system_name": " ", "username": "u", "password": "p"}}
                ]
            },
            "credentials.0.credential.system_name: system_name must not be empty",
        ),
        (
            {
                "credentials": [
                    {
                        "credential": {
                            "system_name": "TJRJ",
                            "username": "u",
                            "password": "p",
                            "custom_data": {"secret": "JBSW Y3DP 0HPK"},
                        }
                    }
                ]
            },
            "credentials.0.credential: the two-factor secret must be base32 "
            "(letters A-Z, digits 2-7)",
        ),
    ],
)
def test_credentials_rules(data: dict[str, Any], expected: str) -> None:
    assert messages(CredentialsRegistrationBody, data) == [expected]


def test_credential_delete_body() -> None:
    body = CredentialDeleteBody(system_name="TJSP - ESAJ - 1º grau", customer_key="*")
    assert body.to_wire() == {"system_name": "TJSP - ESAJ - 1º grau", "customer_key": "*"}
    assert messages(CredentialDeleteBody, {"system_name": "x", "customer_key": ""}) == [
        "customer_key: customer_key must not be empty"
    ]


def test_count_body_valid_kinds() -> None:
    bond = CountBody.model_validate(
        {
            "kind": "judgement-bond",
            "tribunals": [826, 403],
            "amount_min": 100000,
            "amount_max": 750000.5,
            "budget_years": [2025, 2026],
            "natures": ["alimentary"],
        }
    )
    assert bond.kind is CountKind.JUDGEMENT_BOND
    assert bond.to_wire()["amount_min"] == 100000
    execution = CountBody.model_validate(
        {"kind": "sentence-execution", "amount_tier": "1.5M+", "tags": ["possible_precatory"]}
    )
    assert execution.to_wire() == {
        "kind": "sentence-execution",
        "amount_tier": "1.5M+",
        "tags": ["possible_precatory"],
    }
    assert CountBody.problems({"kind": "judgement-bond", "amount_min": 5, "amount_max": 5}) == []


def test_count_body_reports_every_problem_at_once() -> None:
    data = {
        "kind": "sentence-execution",
        "tribunals": [826, "TJSP"],
        "amount_min": 500000,
        "amount_max": 100000,
        "amount_tier": "0-100k",
        "budget_years": [2025],
        "natures": ["common", "fiscal"],
        "colour": "blue",
    }
    expected = [
        "unknown field: colour",
        "tribunals must be a list of integers",
        "amount_min and amount_max cannot be combined with amount_tier",
        "amount_min (R$ 500.000,00) must not be greater than amount_max (R$ 100.000,00)",
        "natures must be a list of values among: alimentary, common",
        "budget_years is only allowed for kind judgement-bond",
        "natures is only allowed for kind judgement-bond",
    ]
    assert CountBody.problems(data) == expected
    assert messages(CountBody, data) == expected
    with pytest.raises(ValidationError) as caught:
        CountBody.model_validate(data)
    assert len(caught.value.errors()) == 1  # one error, listing them all
    assert "; ".join(expected) in str(caught.value)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({}, ["kind is required"]),
        ({"kind": "precatory"}, ["kind must be one of: judgement-bond, sentence-execution"]),
        (
            {"kind": "judgement-bond", "tags": ["possible_precatory"]},
            ["tags is only allowed for kind sentence-execution"],
        ),
        ({"kind": "judgement-bond", "amount_min": "100"}, ["amount_min must be a number"]),
        ({"kind": "judgement-bond", "amount_max": True}, ["amount_max must be a number"]),
        (
            {"kind": "judgement-bond", "amount_tier": "2M+"},
            [
                "amount_tier must be one of: "
                "0-100k, 100k-250k, 250k-500k, 500k-750k, 750k-1.5M, 1.5M+"
            ],
        ),
        (
            {"kind": "sentence-execution", "tags": ["maybe"]},
            [
                "tags must be a list of values among: precatory_dispatched, possible_precatory, "
                "possible_approved_calculation"
            ],
        ),
        (
            {"kind": "judgement-bond", "budget_years": "2025"},
            ["budget_years must be a list of integers"],
        ),
        ("kind=judgement-bond", ["the count body must be a JSON object"]),
    ],
)
def test_count_body_single_rules(data: Any, expected: list[str]) -> None:
    assert CountBody.problems(data) == expected


def test_responses_limit_is_the_finds_and_never_sent_to_a_count() -> None:
    """D72: the cap is ``responses_limit``, part of the Miner's filter, sent only to a find."""
    assert CountBody.problems({"kind": "judgement-bond", "limit": 10}) == ["unknown field: limit"]
    assert CountBody.problems({"kind": "judgement-bond", "responses_limit": 10}) == []
    body = CountBody.model_validate({"kind": "judgement-bond", "responses_limit": 10})
    assert "responses_limit" not in body.to_wire()
    assert body.to_find_wire() == {"kind": "judgement-bond", "responses_limit": 10}
    for bad in (0, -3, True, 2.5):
        assert CountBody.problems({"kind": "judgement-bond", "responses_limit": bad}) == [
            "responses_limit must be a whole number of at least 1"
        ]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"kind": ["judgement-bond"]}, ["kind must be one of: judgement-bond, sentence-execution"]),
        ({"kind": {"a": 1}}, ["kind must be one of: judgement-bond, sentence-execution"]),
        (
            {"kind": "judgement-bond", "amount_tier": {"tier": "1.5M+"}, "amount_min": 1},
            [
                "amount_tier must be one of: "
                "0-100k, 100k-250k, 250k-500k, 500k-750k, 750k-1.5M, 1.5M+",
                "amount_min and amount_max cannot be combined with amount_tier",
            ],
        ),
        (
            {"kind": "judgement-bond", "amount_min": 10**400, "amount_max": 1},
            ["amount_min must be a number"],
        ),
        (
            {"kind": "judgement-bond", "amount_min": 10**5000, "amount_max": -(10**5000)},
            ["amount_min must be a number", "amount_max must be a number"],
        ),
        ({"kind": "judgement-bond", "amount_max": float("inf")}, ["amount_max must be a number"]),
        ({"kind": "judgement-bond", "amount_max": float("nan")}, ["amount_max must be a number"]),
        (
            {"kind": "judgement-bond", "natures": [["common"]], "tribunals": [{}]},
            [
                "tribunals must be a list of integers",
                "natures must be a list of values among: alimentary, common",
            ],
        ),
    ],
)
def test_count_problems_are_total(data: Any, expected: list[str]) -> None:
    # Arrays, objects and numbers beyond a double are problems to report, never a crash.
    assert CountBody.problems(data) == expected
    assert messages(CountBody, data) == expected


def test_count_amounts_compare_exactly_near_the_limit() -> None:
    big = int(1.7e308)
    assert CountBody.problems({"kind": "judgement-bond", "amount_min": big, "amount_max": 1.5}) == [
        f"amount_min ({format_money(big)}) must not be greater than amount_max (R$ 1,50)"
    ]


def test_count_problems_in_english_whatever_the_ui_language() -> None:
    data = {"kind": "precatory", "colour": "blue"}
    english = ["unknown field: colour", "kind must be one of: judgement-bond, sentence-execution"]
    set_language("pt-BR")
    translated = CountBody.problems(data)
    assert CountBody.problems(data, translate=str) == english
    assert translated != english and len(translated) == len(english)
    assert all("colour" in line or "judgement-bond" in line for line in translated)


def test_count_body_is_strict() -> None:
    with pytest.raises(ValidationError):
        CountBody(kind="judgement-bond", colour="blue")  # type: ignore[call-arg]


def test_validation_errors_never_echo_a_password() -> None:
    data = {
        "credentials": [
            {"credential": {"system_name": "TJSP", "username": " ", "password": "pw-SECRET-1"}}
        ]
    }
    with pytest.raises(ValidationError) as caught:
        CredentialsRegistrationBody.model_validate(data)
    assert "pw-SECRET-1" not in str(caught.value)
    assert "pw-SECRET-1" not in repr(caught.value.errors(include_input=False))
    assert "pw-SECRET-1" not in " ".join(validation_messages(caught.value))
    with pytest.raises(ValidationError) as caught:
        CredentialItem.model_validate({"system_name": "", "password": "pw-SECRET-2"})
    assert "pw-SECRET-2" not in str(caught.value)

"""The count service, ``POST /miner/requests/count`` (D72): the strict body, every problem
reported at once as ``{errors: [...]}``, the Miner's tribunal ids, the echo of the filter,
totals that leave out what the key already retrieved, 201 ``completed``, the integer
request_id sequence, and auth."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from lawsuit_tui.sandbox.app import create_app, sandbox_state
from lawsuit_tui.sandbox.clock import SandboxClock
from lawsuit_tui.sandbox.counts import FIRST_REQUEST_ID
from lawsuit_tui.sandbox.routes.count import count_problems
from tests.support.error_bodies import error_name
from tests.support.sandbox_http import sandbox_http

API_KEY = "count-key"
OTHER_KEY = "other-key"
NO_MINER_KEY = "KEY"
URL = "/miner/requests/count"

# (code, kind, tribunal) of the fake world's lawsuits.
# Miner ids (D72): TJSP 10, TRF3 1, TRT2 150610.
LAWSUITS = [
    ("0000001-00.2020.8.26.0001", "judgement-bond", 10),
    ("0000002-00.2020.8.26.0001", "judgement-bond", 10),
    ("0000003-00.2020.8.26.0001", "sentence-execution", 10),
    ("0000004-00.2020.4.03.0001", "judgement-bond", 1),
    ("0000005-00.2020.5.02.0001", "sentence-execution", 150610),
]


@dataclass
class FakeWorld:
    """Counts its lawsuits by kind and tribunal, and remembers what it was asked."""

    calls: list[tuple[dict[str, Any], set[str]]] = field(default_factory=list)

    def court_systems(self) -> list[Any]:
        return []

    def count(self, flt: dict[str, Any], exclude: set[str]) -> int:
        self.calls.append((dict(flt), set(exclude)))
        return sum(
            1
            for code, kind, tribunal in LAWSUITS
            if kind == flt["kind"]
            and (not flt.get("tribunals") or tribunal in flt["tribunals"])
            and code not in exclude
        )


@pytest.fixture
def world() -> FakeWorld:
    return FakeWorld()


@pytest.fixture
def app(world: FakeWorld) -> FastAPI:
    return create_app(
        api_keys=[API_KEY, OTHER_KEY, f"{NO_MINER_KEY}:no-miner"],
        clock=SandboxClock.frozen(),
        world=world,  # type: ignore[arg-type]
        rate_limit=(2, 60.0),
    )


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with sandbox_http(app, api_key=API_KEY) as http:
        yield http


async def errors_of(client: httpx.AsyncClient, body: Any) -> list[str]:
    answer = await client.post(URL, json=body)
    # D94: amount_min above amount_max and a court id the Miner lacks are the rules its
    # schema cannot say: alone, a 422.
    unusable = ("must not be greater than amount_max", "unknown tribunal id")
    alone = answer.json().get("errors", [""])
    only_unusable = all(any(text in e for text in unusable) for e in alone)
    assert answer.status_code == (422 if only_unusable else 400), answer.text
    data = answer.json()
    assert set(data) == {"errors"}
    errors: list[str] = data["errors"]
    return errors


# -- accepted bodies -----------------------------------------------------------------------


async def test_accepted_body_echoes_the_filter_with_absent_fields_null(
    client: httpx.AsyncClient, world: FakeWorld
) -> None:
    answer = await client.post(
        URL,
        json={"kind": "judgement-bond", "tribunals": [10], "natures": ["alimentary"]},
    )
    assert answer.status_code == 201, answer.text  # D72, D82
    assert answer.json() == {
        "request_id": FIRST_REQUEST_ID,
        "total_lawsuits": 2,
        "status": "completed",
        "filter": {
            "kind": "judgement-bond",
            "tribunals": [10],
            "amount_min": None,
            "amount_max": None,
            "amount_tier": None,
            "budget_years": None,
            "natures": ["alimentary"],
            "tags": None,
        },
    }
    assert world.calls[0][0]["tribunals"] == [10]


async def test_amounts_echo_as_sent(client: httpx.AsyncClient) -> None:
    answer = await client.post(
        URL, json={"kind": "sentence-execution", "amount_min": 1500, "amount_max": 2500.5}
    )
    assert answer.status_code == 201
    echo = answer.json()["filter"]
    assert (echo["amount_min"], echo["amount_max"]) == (1500, 2500.5)
    assert isinstance(echo["amount_min"], int)
    tier = await client.post(URL, json={"kind": "sentence-execution", "amount_tier": "1.5M+"})
    assert tier.json()["filter"]["amount_tier"] == "1.5M+"


async def test_request_ids_are_an_integer_sequence_from_1001(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    ids = []
    for _ in range(3):
        answer = await client.post(URL, json={"kind": "judgement-bond"})
        ids.append(answer.json()["request_id"])
    assert ids == [1001, 1002, 1003]
    records = list(sandbox_state(app).counts.records.values())
    assert [r.request_id for r in records] == ids
    assert all(API_KEY not in r.key for r in records)  # the key is kept as a label only


async def test_totals_leave_out_what_the_key_already_retrieved(
    client: httpx.AsyncClient, app: FastAPI, world: FakeWorld
) -> None:
    body = {"kind": "judgement-bond"}
    before = (await client.post(URL, json=body)).json()["total_lawsuits"]
    assert before == 3
    retrieved = {LAWSUITS[0][0], LAWSUITS[2][0]}  # one judgement-bond, one other kind
    sandbox_state(app).retrieved[API_KEY] = set(retrieved)
    after = (await client.post(URL, json=body)).json()["total_lawsuits"]
    assert after == 2
    assert world.calls[-1][1] == retrieved
    # Another key's retrievals do not count against this key.
    other = await client.post(URL, json=body, headers={"api-key": OTHER_KEY})
    assert other.json()["total_lawsuits"] == 3
    assert world.calls[-1][1] == set()


async def test_count_is_not_rate_limited(client: httpx.AsyncClient) -> None:
    # The app allows 2 calls a window on limited routes; the count route is not one (D74).
    for _ in range(5):
        answer = await client.post(URL, json={"kind": "judgement-bond"})
        assert answer.status_code == 201
        assert "x-ratelimit-remaining" not in answer.headers


# -- rules, one at a time ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, "kind is required"),
        ({"kind": "other"}, "kind must be one of: judgement-bond, sentence-execution"),
        ({"kind": "judgement-bond", "colour": "red"}, "unknown field: colour"),
        ({"kind": "judgement-bond", "limit": 10}, "unknown field: limit"),
        ({"kind": "judgement-bond", "tribunals": ["10"]}, "tribunals must be a list of integers"),
        ({"kind": "judgement-bond", "tribunals": [826]}, "tribunals: unknown tribunal id 826"),
        (
            {"kind": "judgement-bond", "responses_limit": 0},
            "responses_limit must be a whole number of at least 1",
        ),
        (
            {"kind": "judgement-bond", "responses_limit": 2.5},
            "responses_limit must be a whole number of at least 1",
        ),
        ({"kind": "judgement-bond", "amount_min": "10"}, "amount_min must be a number"),
        (
            {"kind": "judgement-bond", "amount_min": 10, "amount_tier": "0-100k"},
            "amount_min and amount_max cannot be combined with amount_tier",
        ),
        (
            {"kind": "judgement-bond", "amount_min": 10, "amount_max": 5},
            "amount_min (R$ 10,00) must not be greater than amount_max (R$ 5,00)",
        ),
        ({"kind": "judgement-bond", "amount_tier": "2M+"}, "amount_tier must be one of"),
        ({"kind": ["judgement-bond"]}, "kind must be one of"),
        ({"kind": {"a": 1}}, "kind must be one of"),
        ({"kind": "judgement-bond", "amount_tier": ["1.5M+"]}, "amount_tier must be one of"),
        (
            {"kind": "sentence-execution", "budget_years": [2024]},
            "budget_years is only allowed for kind judgement-bond",
        ),
        (
            {"kind": "sentence-execution", "natures": ["common"]},
            "natures is only allowed for kind judgement-bond",
        ),
        (
            {"kind": "judgement-bond", "tags": ["possible_precatory"]},
            "tags is only allowed for kind sentence-execution",
        ),
        ({"kind": "judgement-bond", "natures": ["both"]}, "natures must be a list of values"),
        ({"kind": "sentence-execution", "tags": ["x"]}, "tags must be a list of values"),
    ],
)
async def test_each_rule_is_rejected_with_its_message(
    client: httpx.AsyncClient, world: FakeWorld, body: dict[str, Any], expected: str
) -> None:
    errors = await errors_of(client, body)
    assert len(errors) == 1, errors
    assert errors[0].startswith(expected)
    assert world.calls == []  # nothing counted, nothing recorded


async def test_every_problem_is_reported_at_once(client: httpx.AsyncClient) -> None:
    errors = await errors_of(
        client,
        {
            "kind": "sentence-execution",
            "limit": 5,
            "tribunals": "10",
            "amount_min": 10,
            "amount_max": 1,
            "natures": ["alimentary"],
            "colour": "red",
        },
    )
    assert errors == [
        "unknown field: limit",
        "unknown field: colour",
        "tribunals must be a list of integers",
        "amount_min (R$ 10,00) must not be greater than amount_max (R$ 1,00)",
        "natures is only allowed for kind judgement-bond",
    ]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"{nope", ["the body is not valid JSON"]),
        (b"", ["a JSON body is required"]),
        (b"[1, 2]", ["the count body must be a JSON object"]),
        (b"null", ["the count body must be a JSON object"]),
        (b'{"kind": "judgement-bond", "amount_min": NaN}', ["the body is not valid JSON"]),
        (
            b'{"kind": "judgement-bond", "amount_min": 1e400}',
            ["a number in the body is out of range"],
        ),
        pytest.param(
            b'{"kind": "judgement-bond", "amount_min": 1' + b"0" * 400 + b', "amount_max": 1.5}',
            ["a number in the body is out of range"],
            id="huge-int",
        ),
        pytest.param(
            b"[" * 100_000 + b"]" * 100_000, ["the body is not valid JSON"], id="deep-nesting"
        ),
    ],
)
async def test_malformed_bodies_answer_the_errors_shape(
    client: httpx.AsyncClient, content: bytes, expected: list[str]
) -> None:
    answer = await client.post(URL, content=content, headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert answer.json() == {"errors": expected}


def test_count_problems_without_foreign_keys_are_count_bodys() -> None:
    body = {"kind": "judgement-bond", "x": 1, "tags": ["possible_precatory"]}
    assert count_problems(body) == [
        "unknown field: x",
        "tags is only allowed for kind sentence-execution",
    ]
    assert count_problems({"kind": "judgement-bond", "budget_years": [2023]}) == []
    # The cap belongs to the filter (miner.yaml) and means nothing to a count: accepted.
    assert count_problems({"kind": "judgement-bond", "responses_limit": 5}) == []


# -- auth ------------------------------------------------------------------------------------


async def test_a_key_without_the_miner_feature_gets_403(
    client: httpx.AsyncClient, world: FakeWorld
) -> None:
    answer = await client.post(URL, json={"kind": "judgement-bond"}, headers={"api-key": "KEY"})
    assert answer.status_code == 403
    body = answer.json()
    assert error_name(body) == "INSUFFICIENT_PERMISSIONS"  # D64: {errors: [...]}
    assert world.calls == []


async def test_missing_or_unknown_key_gets_401(client: httpx.AsyncClient) -> None:
    for headers in ({"api-key": ""}, {"api-key": "who"}):
        answer = await client.post(URL, json={"kind": "judgement-bond"}, headers=headers)
        assert answer.status_code == 401
        assert error_name(answer.json()) == "HttpUnauthorizedError"  # D64: {errors: [...]}


async def test_auth_comes_before_body_checks(client: httpx.AsyncClient) -> None:
    answer = await client.post(URL, json={"bad": 1}, headers={"api-key": "KEY"})
    assert answer.status_code == 403


# -- documentation ---------------------------------------------------------------------------


async def test_openapi_documents_the_count_route(client: httpx.AsyncClient) -> None:
    doc = (await client.get("/openapi.json")).json()
    post = doc["paths"]["/miner/requests/count"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]
    assert body["additionalProperties"] is False
    assert body["required"] == ["kind"]
    assert "limit" not in body["properties"]
    assert body["properties"]["responses_limit"]["minimum"] == 1
    errors = post["responses"]["400"]["content"]["application/json"]["schema"]
    assert errors["$ref"].endswith("/CountErrorList")
    ok = post["responses"]["201"]["content"]["application/json"]["schema"]
    assert ok["$ref"].endswith("/CountRequest")
    assert {"401", "403"} <= set(post["responses"])


# -- over the generated world ----------------------------------------------------------------


async def test_counts_over_the_generated_world_exclude_retrieved_lawsuits() -> None:
    from lawsuit_tui.sandbox.world import World

    world = World.shared(7)
    app = create_app(api_keys=[API_KEY], clock=SandboxClock.frozen(), world=world)
    body = {"kind": "judgement-bond", "tribunals": [10]}
    matching = world.miner_matches(dict(body), set())
    assert len(matching) >= 2  # the world has judgement bonds at TJSP to count
    async with sandbox_http(app, api_key=API_KEY) as http:
        first = (await http.post(URL, json=body)).json()
        assert first["total_lawsuits"] == len(matching)
        sandbox_state(app).mark_retrieved(API_KEY, matching[0])
        sandbox_state(app).mark_retrieved(API_KEY, matching[1])
        second = (await http.post(URL, json=body)).json()
        assert second["total_lawsuits"] == len(matching) - 2
        assert second["request_id"] == first["request_id"] + 1
        everything = (await http.post(URL, json={"kind": "sentence-execution"})).json()
        assert everything["total_lawsuits"] > 0


async def test_whole_numbers_written_as_decimals_are_integers(client: httpx.AsyncClient) -> None:
    # JSON Schema (and the provider's JavaScript) read 10.0 as the integer 10: the documented
    # schema allows it, so the Miner takes it (D94). Before: "must be a list of integers".
    answer = await client.post(
        URL, json={"kind": "judgement-bond", "tribunals": [10.0], "responses_limit": 5.0}
    )
    assert answer.status_code == 201, answer.text
    assert answer.json()["filter"]["tribunals"] == [10]

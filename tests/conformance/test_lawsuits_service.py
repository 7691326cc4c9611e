"""Conformance of the lawsuits service's synchronous routes to the provider's documents.

- every documented answer shape (fixtures written from the pages' and the OAS's examples)
  parses and round-trips through the client's models;
- the sandbox's answers validate against JSON Schemas written from the documented answers;
- the documented request bodies of the pages are answered 200 with the documented answer;
- the Postman collection's "Lawsuits (síncrono)" requests, replayed against the sandbox served
  on a loopback port, are answered as documented.

Self-contained (the shared conformance harness is another engineer's, merged later).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest

from lawsuit_tui.domain.datalake import (
    LawsuitsAnswer,
    LawsuitsCount,
    SyntheticAggregations,
    parse_steps_count,
)
from lawsuit_tui.domain.entities import EntitiesAnswer
from lawsuit_tui.domain.identifiers import format_cnpj, format_cpf
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.sandbox.app import create_app
from lawsuit_tui.sandbox.clock import SandboxClock
from tests.support.client_rig import make_client
from tests.support.clock import VirtualClock
from tests.support.roundtrip import assert_same_payload
from tests.support.samples import samples, shared_world
from tests.support.sandbox_http import sandbox_http
from tests.support.served_sandbox import served_sandbox

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures" / "lawsuits"
SCHEMAS = HERE / "schemas" / "lawsuits" / "answers.schema.json"


def load(name: str) -> Any:
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


@cache
def validator(name: str) -> Any:
    document = json.loads(SCHEMAS.read_text(encoding="utf-8"))
    schema = {**document, "$ref": f"#/$defs/{name}"}
    return jsonschema.validators.validator_for(schema)(schema)


def assert_documented(name: str, answer: Any) -> None:
    errors = [f"{e.json_path}: {e.message}" for e in validator(name).iter_errors(answer)]
    assert not errors, errors[:5]


def keys() -> dict[str, str]:
    """The collection's placeholders filled with keys the world holds (as people type them)."""
    s = samples()
    return {
        "cpf": format_cpf(s["busy_person"]),
        "cnpj": format_cnpj(s["company"]),
        "cnj": s["two_instance_lawsuit"],
        "name": s["homonym_name"],
    }


def filled(value: Any) -> Any:
    text = json.dumps(value, ensure_ascii=False)
    for name, key in keys().items():
        text = text.replace("{{" + name + "}}", key)
    return json.loads(text)


# ------------------------------------------------------------------------- round trips


def _model(model: Any) -> Callable[[Any], Any]:
    def run(payload: Any) -> Any:
        return model.model_validate(payload).model_dump(mode="json", exclude_unset=True)

    return run


ROUND_TRIPS: dict[str, Callable[[Any], Any]] = {
    "answer_entities_cpf": _model(EntitiesAnswer),
    "answer_entities_cnpj": _model(EntitiesAnswer),
    "answer_entities_name": _model(EntitiesAnswer),
    "answer_count": _model(LawsuitsCount),
    "answer_synthetic": _model(SyntheticAggregations),
    "answer_synthetic_grouped": _model(SyntheticAggregations),
    "answer_has_lawsuits": _model(LawsuitsAnswer),
    "answer_on_demand": _model(LawsuitsAnswer),
    "answer_lawsuit_copy": _model(Lawsuit),
    "answer_steps_count": lambda data: [i.to_json_dict() for i in parse_steps_count(data)],
}


def test_every_answer_fixture_is_checked() -> None:
    names = {p.stem for p in FIXTURES.glob("answer_*.json")}
    assert names == set(ROUND_TRIPS) | {"answer_hot_storage"}


@pytest.mark.parametrize("name", sorted(ROUND_TRIPS))
def test_documented_answers_round_trip(name: str) -> None:
    payload = load(name)
    assert_same_payload(ROUND_TRIPS[name](payload), payload)


def test_the_hot_storage_pages_answer_is_read_from_response_data() -> None:
    payload = load("answer_hot_storage")
    answer = LawsuitsAnswer.model_validate(payload)
    (lawsuit,) = answer.lawsuits
    assert lawsuit.phase == "Inicial" and lawsuit.status == "Ativo"
    assert [p.extra_fields["document"] for p in lawsuit.parties or []] == [
        "11144477735",
        "11222333000181",
    ]
    dumped = answer.model_dump(mode="json", exclude_unset=True)
    assert_same_payload(dumped["response_data"], payload["response_data"])


def test_documented_values_read_as_the_client_means_them() -> None:
    company = EntitiesAnswer.model_validate(load("answer_entities_cnpj")).response_data[0]
    assert company.is_company and company.document == "11222333000181"
    assert company.partner_links[0].masked and company.revenue_updated_at is not None
    grouped = SyntheticAggregations.model_validate(load("answer_synthetic_grouped"))
    assert grouped.dimension("instances")[0].value == 1  # a number in the page's example
    assert grouped.names == [] and grouped.lawsuits_count == 3
    items = parse_steps_count(load("answer_steps_count"))
    assert [i.failed for i in items] == [False, True]


@pytest.mark.parametrize(
    ("name", "schema"),
    [
        ("answer_synthetic", "SyntheticAnswer"),
        ("answer_steps_count", "StepsCountAnswer"),
        ("answer_lawsuit_copy", "Lawsuit"),
        ("answer_count", "CountAnswer"),
    ],
)
def test_the_schemas_accept_the_documented_examples(name: str, schema: str) -> None:
    assert_documented(schema, load(name))


def test_the_pages_entities_omit_what_the_oas_requires() -> None:
    # registration-data.mdx's person examples carry no ``partners``, which the OAS requires:
    # the client reads both (round trip above), the sandbox always sends it (D104).
    for name in ("answer_entities_cpf", "answer_entities_name"):
        errors = list(validator("EntitiesAnswer").iter_errors(load(name)))
        # by rule and property, not by message: jsonschema's quoting of names varies
        assert [(e.validator, e.message.split()[0].strip("'\"")) for e in errors] == [
            ("required", "partners")
        ]


async def test_the_client_reads_the_documented_listing() -> None:
    payload = load("answer_hot_storage")

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=payload)

    async with make_client(VirtualClock(), httpx.MockTransport(handler)) as api:
        answer = await api.lookup("cpf", "11144477735")
    assert [x.code for x in answer.lawsuits] == ["0001234-56.2023.5.03.0001"]


# ------------------------------------------------------------------------- the sandbox


@pytest.fixture
async def sandbox() -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(clock=SandboxClock.frozen(), world=shared_world())
    async with sandbox_http(app, base_url="http://sandbox.test/lawsuits") as client:
        yield client
    await app.state.sandbox.aclose()


async def test_the_documented_bodies_are_answered_as_documented(
    sandbox: httpx.AsyncClient,
) -> None:
    for item in load("bodies_pages")["items"]:
        answer = await sandbox.post(item["path"], json=filled(item["body"]))
        assert answer.status_code == 200, (item["body"], answer.text)
        assert_documented(item["answer"], answer.json())


async def test_the_sandboxs_answers_validate_across_the_world(
    sandbox: httpx.AsyncClient,
) -> None:
    s = samples()
    world = shared_world()
    documents = [s["busy_person"], s["company"], *s["cpf"], *s["cnpj"], s["cnpj_with_branches"]]
    for document in documents:
        kind = "cpf" if len(document) == 11 else "cnpj"
        search = {"search": {"search_type": kind, "search_key": document}}
        for path, schema in (
            ("/lawsuits", "LawsuitsAnswer"),
            ("/lawsuits/count", "CountAnswer"),
            ("/lawsuits/synthetic", "SyntheticAnswer"),
            ("/entities", "EntitiesAnswer"),
        ):
            answer = await sandbox.post(path, json=search)
            assert answer.status_code == 200, answer.text
            assert_documented(schema, answer.json())
    secret = next(r.code for r in world.records() if r.secrecy > 0)
    numbers = [*s["lawsuit_cnj"], s["big_lawsuit"], secret, s["stale_lawsuit"]]
    for number in numbers:
        answer = await sandbox.post(
            "/lawsuits", json={"search": {"search_type": "lawsuit_cnj", "search_key": number}}
        )
        assert_documented("LawsuitsAnswer", answer.json())
        copy = await sandbox.get(f"/lawsuits/{number}", params={"saved_att": "true"})
        if copy.status_code == 200:
            assert_documented("Lawsuit", copy.json())
    counted = await sandbox.post("/steps/count", json={"lawsuit_cnj": [*numbers, "1234"]})
    assert_documented("StepsCountAnswer", counted.json())
    for person in world.pop.persons[:300]:
        entity = world.entity(person)
        assert_documented("Entity", entity)


# ------------------------------------------------------------------------- Postman, on a port


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    with served_sandbox() as root:
        yield root


def test_the_postman_collection_is_answered_as_documented(served: str) -> None:
    # {{lawsuits_url}} is <root>/lawsuits in the sandbox (D1).
    with httpx.Client(
        base_url=f"{served}/lawsuits", headers={"api-key": "sandbox"}, timeout=30
    ) as client:
        for item in load("postman_lawsuits_sync")["items"]:
            body = filled(item["body"])
            answer = client.request(item["method"], filled(item["path"]), json=body)
            assert answer.status_code == 200, (item["name"], answer.text)
            assert answer.headers["x-ratelimit-limit"] == "500", item["name"]  # D74
            assert_documented(item["answer"], answer.json())

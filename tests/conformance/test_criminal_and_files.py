"""Conformance of warrants, penal executions, attachment addresses and transfer files to the
provider's documents (D68, D70, D81, D115-D124).

- the fixtures (written here from the documents' examples: the warrant and execution pages, the
  file-transfer page, the attachment routes of lawsuits.json) parse and round-trip through the
  client's models; the documented request bodies are accepted as they are;
- every answer of the sandbox for these shapes validates against JSON Schemas written here from
  the documented answers (``schemas/``);
- the Postman collection's warrant request, replayed against the sandbox served on a loopback
  port, is answered as documented: a created request, then warrant responses, then the
  warrant's document behind its address.

Self-contained: the shared conformance harness comes with the provider-requests work.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from pydantic import BaseModel

from lawsuit_tui.domain.bodies import CreateRequestBody
from lawsuit_tui.domain.file_links import AttachmentLink
from lawsuit_tui.domain.formatting import format_document
from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.domain.responses import ResponseRecord, ResponsesPage
from lawsuit_tui.domain.transfer_files import (
    TransferFile,
    TransferFilePatchBody,
    TransferFilesPage,
)
from lawsuit_tui.domain.warrants import Warrant
from lawsuit_tui.sandbox.app import create_app, drain
from lawsuit_tui.sandbox.clock import SandboxClock
from tests.support.samples import samples as shared_samples
from tests.support.samples import shared_world
from tests.support.sandbox_http import sandbox_http
from tests.support.served_sandbox import served_sandbox
from tests.support.waiting import wait_until

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures"
SCHEMAS = HERE / "schemas"
CREATED = (200, 201)  # D82


def fixture(path: str) -> Any:
    data = json.loads((FIXTURES / path).read_text(encoding="utf-8"))
    if isinstance(data, dict):
        data.pop("_about", None)
    return data


def _inline(node: Any) -> Any:
    """A schema with its references to the other schema files put in place."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.endswith(".schema.json"):
            return _inline(json.loads((SCHEMAS / ref).read_text(encoding="utf-8")))
        return {key: _inline(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_inline(item) for item in node]
    return node


def schema(name: str) -> Any:
    loaded = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    inlined = _inline(loaded)
    return jsonschema.validators.validator_for(inlined)(inlined)


def conforms(name: str, instance: Any) -> None:
    errors = [f"{e.json_path}: {e.message}" for e in schema(name).iter_errors(instance)]
    assert not errors, f"{name}: " + "; ".join(errors[:5])


def round_trips(model: type[BaseModel], data: Any) -> BaseModel:
    parsed = model.model_validate(data)
    assert parsed.model_dump(mode="json", exclude_unset=True) == data
    return parsed


# --- the documents' shapes through the client's models --------------------------------------


@pytest.mark.parametrize("name", list(fixture("criminal/requests.json")))
def test_documented_request_bodies_are_sent_as_they_are(name: str) -> None:
    body = fixture("criminal/requests.json")[name]
    assert CreateRequestBody.model_validate(body).to_wire() == body


def test_the_postman_warrant_body_is_accepted() -> None:
    body = fixture("criminal/postman_warrant.json")["body"]
    assert CreateRequestBody.model_validate(body).to_wire() == body


@pytest.mark.parametrize("name", ["warrant_created.json", "execution_created.json"])
def test_creation_answers_round_trip(name: str) -> None:
    data = fixture(f"criminal/{name}")
    round_trips(RequestRecord, data)
    conforms("request_created", data)


def test_execution_answers_round_trip_and_read_as_lawsuits() -> None:
    for name in ("execution_responses_cpf.json", "execution_responses_cnj.json"):
        data = fixture(f"criminal/{name}")
        page = round_trips(ResponsesPage, data)
        assert isinstance(page, ResponsesPage)
        lawsuit = page.page_data[0].lawsuit
        assert lawsuit is not None and lawsuit.classifications
        assert lawsuit.classifications[0].code == "386"


def test_a_warrant_answer_round_trips() -> None:
    page = round_trips(ResponsesPage, fixture("criminal/warrant_responses.json"))
    assert isinstance(page, ResponsesPage)
    warrant = page.page_data[0].warrant
    assert isinstance(warrant, Warrant) and warrant.laws[0].number == "157"
    conforms("warrant", fixture("criminal/warrant_responses.json")["page_data"][0]["response_data"])


def test_warrant_not_found_round_trips() -> None:
    record = round_trips(ResponseRecord, fixture("criminal/warrant_not_found.json"))
    assert isinstance(record, ResponseRecord)
    assert record.application_error is not None
    assert record.application_error.code == "WARRANT_NOT_FOUND"


@pytest.mark.parametrize("name", ["criminal/warrant_attachment.json", "files/attachment_link.json"])
def test_attachment_addresses_round_trip(name: str) -> None:
    round_trips(AttachmentLink, fixture(name))
    conforms("attachment_link", fixture(name))


def test_transfer_file_answers_round_trip() -> None:
    round_trips(TransferFilesPage, fixture("files/transfer_files_page.json"))
    for name in ("transfer_file.json", "transfer_file_downloaded.json", "transfer_file_error.json"):
        round_trips(TransferFile, fixture(f"files/{name}"))
    for body in fixture("files/patch_bodies.json").values():
        assert TransferFilePatchBody.model_validate(body).to_wire() == body


# --- the sandbox's answers against the documented shapes ------------------------------------


@pytest.fixture
async def sandbox() -> Any:
    clock = SandboxClock.frozen()
    app = create_app(clock=clock, world=shared_world())
    client = sandbox_http(app, base_url="http://sandbox.test")
    try:
        yield app, client, clock
    finally:
        await client.aclose()
        await app.state.sandbox.aclose()


async def completed_responses(
    sandbox: Any, body: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    app, client, clock = sandbox
    created = await client.post("/requests/requests", json=body)
    assert created.status_code in CREATED, created.text
    conforms("request_created", created.json())
    clock.advance(3)
    await drain(app)
    page = await client.get(
        "/requests/responses",
        params={"request_id": created.json()["request_id"], "page_size": 100},
    )
    assert page.status_code == 200
    conforms("responses_page", page.json())
    return created.json(), page.json()


async def test_warrant_answers_conform(sandbox: Any) -> None:
    busy = shared_samples()["busy_person"]
    for key, search_type in ((busy, "cpf"), (shared_samples()["warrant_rji"], "rji")):
        body = {
            "search": {"search_type": search_type, "search_key": key, "response_type": "warrant"}
        }
        _created, page = await completed_responses(sandbox, {**body, "with_attachments": True})
        assert page["page_data"]
        for item in page["page_data"]:
            assert item["response_type"] == "warrant"
            conforms("warrant", item["response_data"])


async def test_execution_answers_conform(sandbox: Any) -> None:
    samples = shared_samples()
    bodies = [
        {"search_type": "cpf", "search_key": samples["busy_person"]},
        {"search_type": "lawsuit_cnj", "search_key": samples["penal_execution"]},
    ]
    for search in bodies:
        _created, page = await completed_responses(
            sandbox, {"search": {**search, "response_type": "execution"}}
        )
        for item in page["page_data"]:
            assert item["response_type"] == "execution"  # D70
            conforms("execution", item["response_data"])


async def test_not_found_answers_conform(sandbox: Any) -> None:
    nobody = shared_samples()["cpf"][0]
    for response_type, code in (
        ("warrant", "WARRANT_NOT_FOUND"),
        ("execution", "EXECUTION_NOT_FOUND"),
    ):
        body = {
            "search": {"search_type": "cpf", "search_key": nobody, "response_type": response_type}
        }
        _created, page = await completed_responses(sandbox, body)
        [item] = page["page_data"]
        conforms("application_error", item["response_data"])
        assert item["response_data"]["code"] == code


async def test_attachment_and_transfer_file_answers_conform(sandbox: Any) -> None:
    _app, client, _clock = sandbox
    world = shared_world()
    warrant = world.criminal.warrants_of(shared_samples()["busy_person"])[0]
    view = world.criminal.warrant_view(warrant, None, with_attachments=True)
    attachment_id = view["attachments"][0]["attachment_id"]
    link = await client.get(f"/lawsuits/warrants/{warrant.lawsuit}/attachments/{attachment_id}")
    conforms("attachment_link", link.json())
    listing = await client.get("/lawsuits/transfer-file", params={"page_size": 100})
    conforms("transfer_files_page", listing.json())
    for item in listing.json()["page_data"]:
        one = await client.get(f"/lawsuits/transfer-file/{item['transfer_file_id']}")
        conforms("transfer_file_with_url", one.json())
    ready = next(i for i in listing.json()["page_data"] if i["status"] == "completed")
    for body in fixture("files/patch_bodies.json").values():
        patched = await client.patch(
            f"/lawsuits/transfer-file/{ready['transfer_file_id']}", json=body
        )
        assert patched.status_code == 200
        conforms("transfer_file", patched.json())
        assert patched.json()["status"] == body["status"]


# --- the Postman warrant request against the sandbox on a port ------------------------------


def test_the_postman_warrant_request_on_a_port() -> None:
    request = fixture("criminal/postman_warrant.json")
    with (
        served_sandbox(speed=10) as served,
        httpx.Client(base_url=served, headers={"api-key": "sandbox"}, timeout=10) as client,
    ):
        # The collection's CPF is a placeholder (all nines): a person of the sandbox's world
        # with a warrant takes its place, written the same way (with punctuation).
        busy = client.get("/_sandbox/samples").json()["busy_person"]
        body = json.loads(json.dumps(request["body"]))
        body["search"]["search_key"] = format_document(busy, "cpf")
        url = request["url"].replace("{{requests_url}}", f"{served}/requests")
        created = client.request(request["method"], url, json=body, headers=request["headers"])
        assert created.status_code in CREATED, created.text
        conforms("request_created", created.json())
        assert created.json()["with_attachments"] is True
        request_id = created.json()["request_id"]
        # The collection's next request: GET /responses?request_id=...
        answers: dict[str, Any] = {}

        def completed() -> bool:
            page = client.get("/requests/responses", params={"request_id": request_id}).json()
            answers.update(page)
            return page.get("request_status") == "completed"

        wait_until(completed, what="the warrant request to complete")
        conforms("responses_page", answers)
        warrants = [i["response_data"] for i in answers["page_data"]]
        assert warrants and all(i["response_type"] == "warrant" for i in answers["page_data"])
        for warrant in warrants:
            conforms("warrant", warrant)
            assert warrant["attachments"][0]["status"] == "done"  # with_attachments: the PDF
        first = warrants[0]
        link = client.get(
            f"/lawsuits/warrants/{first['code']}/attachments/{first['attachments'][0]['attachment_id']}"
        )
        conforms("attachment_link", link.json())
        with httpx.Client(timeout=10) as anyone:  # the address needs no api-key
            document = anyone.get(link.json()["attachment_url"])
        assert document.status_code == 200
        assert document.content.startswith(b"%PDF")
        assert int(document.headers["content-length"]) == len(document.content)

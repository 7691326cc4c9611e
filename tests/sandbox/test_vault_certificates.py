"""``POST /vault/credentials/certificate`` (D67): the checks in their order, the vault's codes
as the error's name, the holder and type conflicts, and the defaults of the route."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import httpx
import pytest

from lawsuit_tui.sandbox.app import create_app
from lawsuit_tui.sandbox.clock import DEFAULT_START, SandboxClock
from lawsuit_tui.sandbox.world import World
from tests.support.certificates import HOLDER_CN, PFX_PASSWORD, make_pfx, pfx_base64
from tests.support.sandbox_http import sandbox_http

URL = "/vault/credentials/certificate"
ESAJ_1 = "ESAJ - TJSP - 1º grau"


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(clock=SandboxClock.frozen(), world=World.shared(7))
    async with sandbox_http(app) as http:
        yield http


def body(**changes: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "system_name": ESAJ_1,
        "customer_key": "teste",
        "file_base64": pfx_base64(),
        "password": PFX_PASSWORD,
    }
    values.update(changes)
    return {k: v for k, v in values.items() if v is not None}


async def refused(client: httpx.AsyncClient, payload: dict[str, Any]) -> tuple[int, str]:
    answer = await client.post(URL, json=payload)
    error = answer.json()["error"]
    return answer.status_code, error["name"]


async def test_created_then_updated_for_the_same_holder(client: httpx.AsyncClient) -> None:
    first = await client.post(URL, json=body())
    assert first.status_code == 200, first.text
    assert first.json()["message"] == "CERTIFICATE_CREATED"
    assert first.json()["subject_cn"] == HOLDER_CN
    assert first.json()["customer_key"] == "teste"
    assert first.json()["not_after"].endswith("Z") and first.json()["uploaded_at"].endswith("Z")
    again = await client.post(URL, json=body(file_base64=pfx_base64()))
    assert again.json()["message"] == "CERTIFICATE_UPDATED"
    listed = (await client.get("/vault/credentials", params={"customer_key": "teste"})).json()
    assert listed["systems"][1:] == [
        {"name": ESAJ_1, "customer_key": "teste", "credential_status": "active"}
    ]


async def test_system_and_key_default_to_the_wildcard(client: httpx.AsyncClient) -> None:
    answer = await client.post(URL, json=body(system_name=None, customer_key=None))
    assert answer.status_code == 200 and answer.json()["customer_key"] == "*"
    listed = (await client.get("/vault/credentials")).json()["systems"]
    assert listed[0] == {"name": "*", "customer_key": "*", "credential_status": "active"}


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"file_base64": "not base64!"}, "PFX_MALFORMED"),
        ({"file_base64": base64.b64encode(b"\x30\x03\x02\x01\x03").decode()}, "PFX_MALFORMED"),
        ({"file_base64": "TUlJ\nS0FB"}, "PFX_MALFORMED"),
        ({"password": "wrong"}, "PFX_PASSWORD_INVALID"),
        ({"file_base64": pfx_base64(with_key=False)}, "PFX_NO_PRIVATE_KEY"),
        ({"file_base64": pfx_base64(with_certificate=False)}, "PFX_NO_CERTIFICATE"),
        (
            {"file_base64": pfx_base64(not_after=DEFAULT_START - timedelta(days=1))},
            "PFX_EXPIRED",
        ),
        (
            {"file_base64": pfx_base64(not_before=DEFAULT_START + timedelta(days=30))},
            "PFX_NOT_YET_VALID",
        ),
    ],
)
async def test_each_fault_is_a_422_named_by_its_code(
    client: httpx.AsyncClient, changes: dict[str, Any], code: str
) -> None:
    # D94: the documented schema allows any string; a file that is no usable certificate is
    # unprocessable, named by the vault's code (D67).
    assert await refused(client, body(**changes)) == (422, code)


async def test_a_file_over_64_kb_is_too_large(client: httpx.AsyncClient) -> None:
    padded = make_pfx(padding_certificates=200)
    assert len(padded) > 64 * 1024
    assert await refused(client, body(file_base64=base64.b64encode(padded).decode())) == (
        422,
        "PFX_TOO_LARGE",
    )


async def test_validity_is_judged_by_the_sandbox_clock(client: httpx.AsyncClient) -> None:
    soon = pfx_base64(not_before=DEFAULT_START + timedelta(hours=1))
    assert await refused(client, body(file_base64=soon)) == (422, "PFX_NOT_YET_VALID")
    await client.post("/_sandbox/clock", json={"advance_seconds": 7200})
    assert (await client.post(URL, json=body(file_base64=soon))).status_code == 200


async def test_another_holder_is_a_409_naming_the_credential(client: httpx.AsyncClient) -> None:
    await client.post(URL, json=body())
    answer = await client.post(URL, json=body(file_base64=pfx_base64(cn="OUTRA PESSOA:1")))
    assert answer.status_code == 409
    assert answer.json()["error"]["name"] == "CERTIFICATE_HOLDER_MISMATCH"
    assert answer.json()["error"]["data"] == {"system_name": ESAJ_1, "customer_key": "teste"}


async def test_a_login_of_the_same_system_and_key_is_a_type_conflict(
    client: httpx.AsyncClient,
) -> None:
    login = {"system_name": ESAJ_1, "customer_key": "teste", "username": "u", "password": "p"}
    await client.post("/vault/credentials", json={"credentials": [login]})
    assert await refused(client, body()) == (409, "CREDENTIAL_TYPE_CONFLICT")
    # Another key has no login: the certificate goes in.
    assert (await client.post(URL, json=body(customer_key="outra"))).status_code == 200


async def test_missing_fields_and_unknown_systems_are_400(client: httpx.AsyncClient) -> None:
    # The schema requires the file and its password: a 400 naming every problem (D64), the
    # unknown system among them.
    answer = await client.post(URL, json={"system_name": "TJSP"})
    assert answer.status_code == 400
    fields = {item.split(":")[0] for item in answer.json()["error"]["data"]}
    assert fields == {"file_base64", "password", "system_name"}


async def test_the_route_is_documented(client: httpx.AsyncClient) -> None:
    doc = (await client.get("/openapi.json")).json()
    post = doc["paths"]["/vault/credentials/certificate"]["post"]
    schema = post["requestBody"]["content"]["application/json"]["schema"]
    assert schema["required"] == ["file_base64", "password"]
    assert {"200", "400", "409"} <= set(post["responses"])

"""Every answer of the sandbox's requests-service routes is the documented answer
(tests/conformance/schemas/requests.json): the records, the pages, the deletion, a response
by its id, and the errors of each status (D64)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.support.conformance import problems
from tests.support.service_rig import Rig

FAMILY = "requests"
WINDOW = {"created_at_gte": "2000-01-01", "created_at_lte": "2100-12-31"}


async def answers(rig: Rig) -> dict[str, tuple[int, Any]]:
    """One answer of each kind, as the sandbox gave it: ``{definition: (status, body)}``."""
    samples = await rig.samples()
    found: dict[str, tuple[int, Any]] = {}
    async with httpx.AsyncClient(
        transport=rig.transport, base_url="http://sandbox.test", headers={"api-key": "sandbox"}
    ) as client:

        async def keep(definition: str, answer: httpx.Response) -> Any:
            found[definition] = (answer.status_code, answer.json())
            return answer.json()

        body = {
            "search": {"search_type": "lawsuit_cnj", "search_key": samples["moving_lawsuit"]},
            "judit_ia": ["summary"],
        }
        created = await keep("request", await client.post("/requests/requests", json=body))
        await rig.advance(3)
        rid = created["request_id"]
        await keep("request_again", await client.get(f"/requests/requests/{rid}"))
        await keep("requests_page", await client.get("/requests/requests", params=WINDOW))
        page = await keep(
            "responses_page", await client.get("/requests/responses", params={"request_id": rid})
        )
        for item in page["page_data"]:
            answer = await client.get(f"/requests/responses/{item['response_id']}")
            await keep(f"response_by_id:{item['response_type']}", answer)
        await keep("request_deleted", await client.delete(f"/requests/requests/{rid}"))
        await keep("error_400", await client.post("/requests/requests", json={"search": {}}))
        await keep(
            "error_401", await client.get("/requests/responses", headers={"api-key": "nope"})
        )
        await keep("error_404", await client.get("/requests/responses/nope"))
        cpf = {"search": {"search_type": "cpf", "search_key": "123.456.789-00"}}
        await keep("error_422", await client.post("/requests/requests", json=cpf))
    return found


EXPECTED = {
    "request": 201,
    "request_again": 200,
    "requests_page": 200,
    "responses_page": 200,
    "request_deleted": 200,
    "error_400": 400,
    "error_401": 401,
    "error_404": 404,
    "error_422": 422,
}


async def test_every_answer_is_the_documented_one(rig: Rig) -> None:
    found = await answers(rig)
    kinds = {name.split(":", 1)[1] for name in found if name.startswith("response_by_id:")}
    assert kinds == {"lawsuit", "summary"}  # a cached and a court's lawsuit, their summaries
    for name, (status, body) in found.items():
        definition = name.split(":", 1)[0].replace("request_again", "request")
        assert status == EXPECTED.get(name.split(":", 1)[0], 200), (name, body)
        assert problems(FAMILY, definition, body) == [], name


@pytest.mark.parametrize("legacy", [False, True])
async def test_the_completion_notice_is_a_documented_response(rig: Rig, legacy: bool) -> None:
    async with httpx.AsyncClient(
        transport=rig.transport, base_url="http://sandbox.test", headers={"api-key": "sandbox"}
    ) as client:
        await client.post("/_sandbox/faults", json={"legacy_completion": legacy})
        samples = await rig.samples()
        body = {"search": {"search_type": "cpf", "search_key": samples["cpf"][0]}}
        created = (await client.post("/requests/requests", json=body)).json()
        await rig.advance(3)
        page = (
            await client.get("/requests/responses", params={"request_id": created["request_id"]})
        ).json()
    assert problems(FAMILY, "responses_page", page) == []
    notices = [r for r in page["page_data"] if r["response_type"] == "application_info"]
    assert len(notices) == (1 if legacy else 0)


async def test_the_rate_limit_answer_is_the_documented_one(tmp_path: Any) -> None:
    rig = Rig(tmp_path / "cache", rate_limit=(1, 60.0))
    try:
        async with httpx.AsyncClient(
            transport=rig.transport, base_url="http://s", headers={"api-key": "sandbox"}
        ) as client:
            await client.get("/requests/responses")
            limited = await client.get("/requests/responses")
        assert limited.status_code == 429 and "Retry-After" in limited.headers
        assert problems(FAMILY, "error_429", limited.json()) == []
    finally:
        await rig.aclose()

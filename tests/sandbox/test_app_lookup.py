"""Cached lookup on both routes (D39, D40) and the attachment file route (D41)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lawsuit_tui.domain.lawsuit import Lawsuit
from tests.support.sandbox_http import sandbox_http

if TYPE_CHECKING:
    from tests.sandbox.conftest import Sandbox


def search(search_type: str, key: str) -> dict[str, Any]:
    return {"search": {"search_type": search_type, "search_key": key}}


async def test_lookup_answers_stored_lawsuits(sb: Sandbox, samples: dict[str, Any]) -> None:
    code = samples["two_instance_lawsuit"]
    first = await sb.client.post("/lawsuits/lawsuits", json=search("lawsuit_cnj", code))
    second = await sb.client.post("/lawsuits/lawsuits", json=search("lawsuit_cnj", code))
    assert first.status_code == 200
    body = first.json()
    assert body["has_lawsuits"] is True
    assert {lw["instance"] for lw in body["lawsuits"]} == {1, 2}
    assert body["request_id"] != second.json()["request_id"]
    lawsuit = Lawsuit.model_validate(body["lawsuits"][0])
    assert lawsuit.code == code
    assert all("source_name" in step for step in body["lawsuits"][0]["steps"])
    assert first.headers["X-RateLimit-Limit"] == "500"  # the datalake's own window (D74)


async def test_lookup_without_data(sb: Sandbox, samples: dict[str, Any]) -> None:
    answer = await sb.client.post(
        "/lawsuits/lawsuits", json=search("cpf", samples["no_data"]["cpf"])
    )
    assert answer.json()["has_lawsuits"] is False
    assert answer.json()["lawsuits"] == []


async def test_secret_lawsuit_is_stripped_and_documents_leave_it_out(
    sb: Sandbox, samples: dict[str, Any], world: Any
) -> None:
    # D102 (on-demand page): a CNJ search answers a secret lawsuit with its public fields only
    captured = next(
        r.code
        for r in world.records()
        if r.secrecy > 0 and len(r.instances) == 1 and r.instances[0].stored_at is not None
    )
    # captured or not, only the public fields (court portals show them under secrecy too)
    for secret in (captured, samples["secret_lawsuit"]["code"]):
        answer = await sb.client.post("/lawsuits/lawsuits", json=search("lawsuit_cnj", secret))
        assert answer.status_code == 200
        (item,) = answer.json()["lawsuits"]
        assert item["secrecy_level"] > 0 and item["tribunal_acronym"] and item["county"]
        assert item["parties"] == [] and item["steps"] == [] and "amount" not in item
    secret = captured
    record = world.record(secret)
    document = record.parties[0].document
    search_type = "cpf" if len(document) == 11 else "cnpj"
    answer = await sb.client.post("/lawsuits/lawsuits", json=search(search_type, document))
    assert answer.status_code == 200
    assert secret not in {lw["code"] for lw in answer.json()["lawsuits"]}


async def test_bearer_variant(sb: Sandbox, samples: dict[str, Any]) -> None:
    code = samples["moving_lawsuit"]
    minted = await sb.client.post("/_sandbox/token", json={"api_key": "sandbox"})
    assert minted.status_code == 200
    token = minted.json()
    assert token["token_type"] == "Bearer" and token["expires_in"] > 0
    assert token["access_token"].count(".") == 2  # JWT-shaped
    async with sandbox_http(sb.app, api_key=None, base_url="http://t") as bare:
        answer = await bare.post(
            "/requests/lawsuits",
            json=search("lawsuit_cnj", code),
            headers={"Authorization": f"Bearer {token['access_token']}"},
        )
        assert answer.status_code == 200
        steps = answer.json()["lawsuits"][0]["steps"]
        assert steps and all("source_name" not in step for step in steps)
        # the api-key does not open the bearer route, nor a wrong token
        for refused in ({"api-key": "sandbox"}, {"Authorization": "Bearer nope"}):
            answer = await bare.post(
                "/requests/lawsuits", json=search("lawsuit_cnj", code), headers=refused
            )
            assert answer.status_code == 401, refused
    # the shared world was not changed by the bearer variant
    again = await sb.client.post("/lawsuits/lawsuits", json=search("lawsuit_cnj", code))
    assert all("source_name" in s for s in again.json()["lawsuits"][0]["steps"])
    assert (await sb.client.post("/_sandbox/token", json={"api_key": "x"})).status_code == 401


def _attachments(world: Any, sb: Sandbox, code: str) -> list[tuple[int, dict[str, Any]]]:
    return [
        (lw["instance"], att)
        for c, i in world.find("lawsuit_cnj", code)
        for lw in world.court_view(c, i, sb.clock.now())
        for att in lw.get("attachments") or []
    ]


async def test_attachment_files(sb: Sandbox, samples: dict[str, Any], world: Any) -> None:
    found: dict[str, tuple[str, int, dict[str, Any]]] = {}
    for code in [samples["big_lawsuit"], *samples["lawsuit_cnj"]]:
        for instance, att in _attachments(world, sb, code):
            kind = (
                "corrupted" if att.get("corrupted") else "private" if att.get("private") else "ok"
            )
            found.setdefault(kind, (code, instance, att))
        if len(found) == 3:
            break
    code, instance, att = found["ok"]
    url = f"/lawsuits/lawsuits/{code}/{instance}/attachments/{att['attachment_id']}"
    answer = await sb.client.get(url)
    assert answer.status_code == 200
    file = await sb.client.get(answer.json()["attachment_url"])  # D81: the file's address
    assert file.content
    assert file.headers["content-type"].split(";")[0] in (
        "application/pdf",
        "text/html",
        "text/plain",
    )
    if "private" in found:
        code, instance, att = found["private"]
        answer = await sb.client.get(
            f"/lawsuits/lawsuits/{code}/{instance}/attachments/{att['attachment_id']}"
        )
        assert answer.status_code == 403
    if "corrupted" in found:
        code, instance, att = found["corrupted"]
        answer = await sb.client.get(
            f"/lawsuits/lawsuits/{code}/{instance}/attachments/{att['attachment_id']}"
        )
        assert answer.status_code in (403, 422)
        if answer.status_code == 422:
            assert answer.json()["error"]["name"] == "PROCESSING_ERROR"
    answer = await sb.client.get(f"/lawsuits/lawsuits/{code}/{instance}/attachments/zzz")
    assert answer.status_code == 404
    assert answer.json()["error"]["name"] == "ATTACHMENT_NOT_FOUND"

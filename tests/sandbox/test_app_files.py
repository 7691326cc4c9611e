"""Attachment addresses and the files behind them (D81, D121, D122), and transfer files
(D123), in the sandbox."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from lawsuit_tui.sandbox.world import World
from tests.sandbox.conftest import Sandbox, SandboxFactory
from tests.support.sandbox_http import sandbox_http


def public_attachment(sb: Sandbox, world: World, samples: dict[str, Any]) -> tuple[str, int, str]:
    for code in samples["lawsuit_cnj"]:
        for lawsuit in world.court_view(code, None, sb.clock.now()):
            for att in lawsuit["attachments"]:
                if not att["private"] and not att["corrupted"]:
                    return code, int(lawsuit["instance"]), str(att["attachment_id"])
    raise AssertionError("no public attachment among the samples")


async def ask_address(sb: Sandbox, code: str, instance: int, attachment_id: str) -> httpx.Response:
    """The attachment route's answer: the address of the attachment's file (D81)."""
    return await sb.client.get(f"/lawsuits/lawsuits/{code}/{instance}/attachments/{attachment_id}")


async def fetch(sb: Sandbox, url: str) -> httpx.Response:
    """The address as a browser would ask for it: no api-key."""
    async with sandbox_http(sb.app, api_key=None) as plain:
        return await plain.get(url)


# --- attachment addresses ---------------------------------------------------------------


async def test_an_attachment_route_answers_an_address(
    sb: Sandbox, world: World, samples: dict[str, Any]
) -> None:
    code, instance, attachment_id = public_attachment(sb, world, samples)
    answer = await ask_address(sb, code, instance, attachment_id)
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    url = answer.json()["attachment_url"]
    assert url.startswith("http://sandbox.test/_sandbox/files/")
    file = await fetch(sb, url)
    assert file.status_code == 200
    content, media = world.attachment_file(code, instance, attachment_id) or (b"", "")
    assert file.content == content
    assert file.headers["content-length"] == str(len(content))
    assert file.headers["content-type"].split(";")[0] == media.split(";")[0]
    assert file.headers["content-disposition"].startswith("attachment; filename=")


async def test_an_address_lasts_five_minutes(
    sb: Sandbox, world: World, samples: dict[str, Any]
) -> None:
    code, instance, attachment_id = public_attachment(sb, world, samples)
    answer = await ask_address(sb, code, instance, attachment_id)
    url = answer.json()["attachment_url"]
    await sb.advance(299)
    assert (await fetch(sb, url)).status_code == 200
    await sb.advance(2)
    expired = await fetch(sb, url)
    assert expired.status_code == 403
    assert expired.json()["error"]["name"] == "LINK_EXPIRED"
    unknown = await fetch(sb, url.rsplit("/", 1)[0] + "/nope")
    assert unknown.status_code == 404


async def test_a_warrant_document(sb: Sandbox, world: World, samples: dict[str, Any]) -> None:
    warrant = world.criminal.warrants_of(samples["busy_person"])[0]
    view = world.criminal.warrant_view(warrant, None, with_attachments=True)
    attachment_id = view["attachments"][0]["attachment_id"]
    answer = await sb.client.get(
        f"/lawsuits/warrants/{warrant.lawsuit}/attachments/{attachment_id}"
    )
    assert answer.status_code == 200, answer.text
    file = await fetch(sb, answer.json()["attachment_url"])
    assert file.status_code == 200
    assert file.headers["content-type"] == "application/pdf"
    assert file.content.startswith(b"%PDF-1.4")
    assert "Mandado de Pris" in file.headers["content-disposition"]
    wrong = await sb.client.get(f"/lawsuits/warrants/{warrant.lawsuit}/attachments/w9-000000000000")
    assert (wrong.status_code, wrong.json()["error"]["name"]) == (404, "ATTACHMENT_NOT_FOUND")
    plain = samples["lawsuit_cnj"][0]
    none = await sb.client.get(f"/lawsuits/warrants/{plain}/attachments/{attachment_id}")
    assert (none.status_code, none.json()["error"]["name"]) == (404, "RESOURCE_NOT_FOUND")


async def test_an_attachment_address_needs_the_key(
    sb: Sandbox, world: World, samples: dict[str, Any]
) -> None:
    code, instance, attachment_id = public_attachment(sb, world, samples)
    path = f"/lawsuits/lawsuits/{code}/{instance}/attachments/{attachment_id}"
    async with sandbox_http(sb.app, api_key=None, base_url="http://sandbox.test") as plain:
        assert (await plain.get(path)).status_code == 401


# --- transfer files -----------------------------------------------------------------------


async def listing(sb: Sandbox, **params: Any) -> dict[str, Any]:
    answer = await sb.client.get("/lawsuits/transfer-file", params=params)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


async def test_the_company_has_transfer_files(sb: Sandbox) -> None:
    page = await listing(sb)
    assert page["page"] == 1 and page["all_count"] == 8 and page["page_count"] == 8
    items = page["page_data"]
    assert [i["created_at"] for i in items] == sorted(
        (i["created_at"] for i in items), reverse=True
    )
    assert {i["file_type"] for i in items} == {"csv", "json", "parquet"}
    statuses = {i["status"] for i in items}
    assert {"completed", "downloaded", "error", "failed", "in_progress", "pending"} == statuses
    for item in items:
        assert item["name"] == f"{item['transfer_file_id']}-part-00001.{item['file_type']}"
        assert item["lawsuits_count"] > 0
        assert "pre_signed_url" not in item
    error = next(i for i in items if i["status"] == "error")
    assert error["error_message"] and error["error_at"]


@pytest.mark.parametrize("size", [4, 101, 0])
async def test_page_sizes_from_5_to_100(sb: Sandbox, size: int) -> None:  # D75
    answer = await sb.client.get("/lawsuits/transfer-file", params={"page_size": size})
    assert answer.status_code == 400


async def test_filters_and_order(sb: Sandbox) -> None:
    repeated = await sb.client.get("/lawsuits/transfer-file?status=completed&status=error")
    as_array = await listing(sb, status='["completed","error"]')  # the page's own example
    assert repeated.json()["all_count"] == as_array["all_count"] == 4
    parquet = await listing(sb, file_type="parquet")
    assert {i["file_type"] for i in parquet["page_data"]} == {"parquet"}
    oldest = await listing(sb, order="asc", page_size=5)
    assert oldest["page_data"][0]["description"] == "ARQUIVO INICIAL - CARGA 0"
    assert oldest["all_pages_count"] == 2
    daily = await listing(sb, description="diária")
    assert daily["all_count"] == 4
    recent = await listing(sb, created_at_gte="2026-11-19T00:00:00.000Z")
    assert all(i["created_at"] >= "2026-11-19" for i in recent["page_data"])
    assert (
        await sb.client.get("/lawsuits/transfer-file", params={"order": "up"})
    ).status_code == 400


async def test_a_ready_file_has_an_address_to_its_bytes(sb: Sandbox) -> None:
    items = (await listing(sb))["page_data"]
    for item in items:
        answer = await sb.client.get(f"/lawsuits/transfer-file/{item['transfer_file_id']}")
        assert answer.status_code == 200
        one = answer.json()
        if item["status"] not in ("completed", "downloaded", "error"):
            assert one["pre_signed_url"] is None
            continue
        file = await fetch(sb, one["pre_signed_url"])
        assert file.status_code == 200
        assert round(len(file.content) / 1_000_000, 3) == item["file_size"]
        content = file.content
        if item["file_type"] == "parquet":
            assert content[:4] == b"PAR1" and content[-4:] == b"PAR1"
        elif item["file_type"] == "json":
            # one row per instance: lawsuits_count counts lawsuits
            assert len({row["code"] for row in json.loads(content)}) == item["lawsuits_count"]
        else:
            assert content.startswith(b"code,instance,tribunal_acronym")


async def test_marking_a_file(sb: Sandbox) -> None:
    items = (await listing(sb))["page_data"]
    ready = next(i for i in items if i["status"] == "completed")
    url = f"/lawsuits/transfer-file/{ready['transfer_file_id']}"
    answer = await sb.client.patch(url, json={"status": "downloaded"})
    assert answer.status_code == 200
    marked = answer.json()
    assert marked["status"] == "downloaded" and marked["downloaded_at"]
    answer = await sb.client.patch(url, json={"status": "error", "error_message": "CSV ilegível"})
    assert answer.json()["status"] == "error"
    assert answer.json()["error_message"] == "CSV ilegível"
    bad = await sb.client.patch(url, json={"status": "completed"})
    assert bad.status_code == 400
    pending = next(i for i in items if i["status"] == "pending")
    early = await sb.client.patch(
        f"/lawsuits/transfer-file/{pending['transfer_file_id']}", json={"status": "downloaded"}
    )
    assert (early.status_code, early.json()["error"]["name"]) == (409, "TRANSFER_FILE_NOT_READY")


async def test_files_being_prepared_become_ready(sb: Sandbox) -> None:
    before = {i["transfer_file_id"]: i["status"] for i in (await listing(sb))["page_data"]}
    await sb.advance(31 * 60)
    after = {i["transfer_file_id"]: i["status"] for i in (await listing(sb))["page_data"]}
    changed = {k for k in before if before[k] != after[k]}
    assert {before[k] for k in changed} == {"pending", "in_progress"}
    assert {after[k] for k in changed} == {"completed"}


async def test_another_company_sees_its_own(make_sandbox: SandboxFactory) -> None:
    sb = await make_sandbox(api_keys=("one", "two"), api_key="one")
    mine = (await listing(sb))["page_data"][0]["transfer_file_id"]
    other = await sb.client.get(f"/lawsuits/transfer-file/{mine}", headers={"api-key": "two"})
    assert other.status_code == 404
    assert other.json()["error"]["name"] == "TRANSFER_FILE_NOT_FOUND"

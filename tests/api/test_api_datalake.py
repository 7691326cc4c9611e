"""The client's datalake routes (D71, D100-D108): against the sandbox, and a mock service for
the answers the sandbox never gives."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from lawsuit_tui.api.errors import ServerError, Unprocessable
from lawsuit_tui.api.resources.lookup import lookup_body
from lawsuit_tui.domain.datalake import DatalakeSearch, EntitiesBody, EntitySearch
from lawsuit_tui.domain.requests import Filter, KeysFilter
from tests.support.client_rig import SandboxRig, make_client
from tests.support.clock import VirtualClock


async def test_the_lookup_reads_every_page_once(sandbox: SandboxRig) -> None:
    samples = await sandbox.samples()
    busy = str(samples["busy_person"])
    body = lookup_body("cpf", busy).page(1, 40)
    answer, raw = await sandbox.api.lookup_with_raw("cpf", busy, body=body)
    total = await sandbox.api.count_lawsuits(DatalakeSearch.of("cpf", busy))
    assert answer.has_lawsuits is True
    assert len(answer.lawsuits) == len(raw) == total.count > 80
    assert len({(x.code, x.instance) for x in answer.lawsuits}) == total.count
    assert sandbox.api.stats.by_route["lookup"] == total.count // 40 + 1
    assert all(x.status for x in answer.lawsuits)  # process_status asked (D102)


async def test_the_lookup_sends_the_documented_body() -> None:
    sent: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        # hotstorage.mdx names the array response_data (D71)
        return httpx.Response(
            200, json={"has_lawsuits": True, "request_id": "r1", "response_data": []}
        )

    clock = VirtualClock()
    async with make_client(clock, httpx.MockTransport(handler)) as api:
        answer = await api.lookup("cpf", "52998224725")
    assert answer.has_lawsuits is True and answer.lawsuits == []
    assert sent == [
        {
            "search": {
                "search_type": "cpf",
                "search_key": "52998224725",
                "response_type": "lawsuits",
            },
            "search_params": {"pagination": {"page": 1, "page_size": 1000}},
            "process_status": True,
        }
    ]


async def test_a_404_reads_as_no_lawsuits() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            404, json={"error": {"name": "HttpNotFoundError", "message": "NOT_FOUND", "data": {}}}
        )

    async with make_client(VirtualClock(), httpx.MockTransport(handler)) as api:
        answer = await api.lookup("cpf", "52998224725")
        assert answer.has_lawsuits is False and answer.lawsuits == []
        assert await api.stored_lawsuit("0000001-02.2024.8.26.0100") is None


async def test_a_paid_datalake_call_is_not_repeated_after_a_500() -> None:
    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.url.path)
        return httpx.Response(500, json={"error": {"name": "x", "message": "INTERNAL", "data": {}}})

    async with make_client(VirtualClock(), httpx.MockTransport(handler)) as api:
        with pytest.raises(ServerError):
            await api.count_lawsuits(DatalakeSearch.of("cpf", "52998224725"))
    assert calls == ["/lawsuits/lawsuits/count"]  # D108: billed per call, never retried


async def test_counts_and_aggregations_agree(sandbox: SandboxRig) -> None:
    samples = await sandbox.samples()
    busy = str(samples["busy_person"])
    passive = Filter(side="passive", tribunals=KeysFilter(keys=["tjsp"], not_equal=False))
    search = DatalakeSearch.of("cpf", busy, passive)
    assert search.to_wire()["search_params"]["filter"] == {
        "side": "Passive",
        "tribunals": {"keys": ["TJSP"], "not_equal": False},
    }
    count = await sandbox.api.count_lawsuits(search)
    synthetic = await sandbox.api.synthetic_lawsuits(search)
    assert synthetic.lawsuits_count == count.count > 0
    assert [(b.value, b.count) for b in synthetic.dimension("tribunals")] == [("TJSP", count.count)]
    assert synthetic.dimension("sides")[0].value == "PASSIVE"


async def test_steps_are_counted_in_batches(sandbox: SandboxRig) -> None:
    world = sandbox.app.state.sandbox.world
    codes = [code for code, _instance in world.lawsuit_keys()][:620]
    items = await sandbox.api.steps_count(codes)
    assert sandbox.api.stats.by_route["steps_count"] == 2  # 500 + 120 (D107)
    assert {i.code for i in items} == set(codes)
    assert all(i.failed or i.steps_count > 0 for i in items)
    with pytest.raises(ValueError, match="not a CNJ number"):
        await sandbox.api.steps_count(["123"])  # checked before any call


async def test_registration_data_and_the_stored_copy(sandbox: SandboxRig) -> None:
    samples = await sandbox.samples()
    company = str(samples["company"])
    answer = await sandbox.api.entities(
        EntitiesBody(search=EntitySearch(search_type="cnpj", search_key=company))
    )
    (entity,) = answer.response_data
    assert entity.is_company and entity.document == company
    assert any(p.masked for p in entity.partner_links)
    revealed = await sandbox.api.entities(
        EntitiesBody(
            search=EntitySearch(search_type="cnpj", search_key=company),
            reveal_partners_documents=True,
        )
    )
    assert not any(p.masked for p in revealed.response_data[0].partner_links)
    with pytest.raises(ValueError, match="registration data are searched by"):
        EntitiesBody(search=EntitySearch(search_type="oab", search_key="123456SP"))
    two = str(samples["two_instance_lawsuit"])
    copy = await sandbox.api.stored_lawsuit(two)
    assert copy is not None and copy.code == two and copy.instance == 2
    first = await sandbox.api.stored_lawsuit(two, 1, saved_attachments=True)
    assert first is not None and first.instance == 1
    assert first.saved_attachments == [a for a in first.attachments or [] if a.status == "done"]
    never = str(samples["never_captured_lawsuit"])
    assert await sandbox.api.stored_lawsuit(never) is None
    with pytest.raises(Unprocessable):  # D94: a text that is no CNJ
        await sandbox.api.stored_lawsuit("12345")


async def test_a_secret_lawsuit_comes_stripped(sandbox: SandboxRig) -> None:
    world = sandbox.app.state.sandbox.world
    secret = next(
        r.code for r in world.records() if r.secrecy > 0 and r.instances[0].stored_at is not None
    )
    answer = await sandbox.api.lookup("lawsuit_cnj", secret)
    assert answer.lawsuits and all(x.is_secret and not x.parties for x in answer.lawsuits)


async def test_the_datalake_window_is_its_own() -> None:
    clock = VirtualClock()
    seen: list[float] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(clock())
        return httpx.Response(200, json={"total": 1})

    async with make_client(
        clock, httpx.MockTransport(handler), datalake_rate_calls=2, datalake_rate_seconds=60.0
    ) as api:
        for _ in range(3):
            await api.count_lawsuits(DatalakeSearch.of("cpf", "52998224725"))
        assert api.rate_remaining == api.rate_limit  # the requests window was not touched
    assert seen[2] - seen[0] >= 60.0  # the third call waited for a slot, no 429

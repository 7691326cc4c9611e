"""DELETE {requests_url}/requests/{id} (D62): the documented ``{success, time}`` answer, and the
request record older services answered with."""

from __future__ import annotations

import httpx
import pytest
import respx

from lawsuit_tui.api.errors import NotFound
from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from tests.support.client_rig import ROOT, SandboxRig, make_client
from tests.support.clock import VirtualClock


@pytest.mark.parametrize(
    ("success", "time"),
    [
        pytest.param(True, "2025-03-04T10:00:00.000Z", id="cancelled"),
        pytest.param(False, "2025-03-04T10:00:00Z", id="refused"),
    ],
)
@respx.mock(base_url=ROOT)
async def test_the_documented_answer_is_read(
    respx_mock: respx.MockRouter, success: bool, time: str
) -> None:
    # Before D62 the client read a request record here and raised MalformedResponse.
    respx_mock.delete("/requests/requests/r-1").mock(
        return_value=httpx.Response(200, json={"success": success, "time": time})
    )
    async with make_client(VirtualClock()) as api:
        answer = await api.cancel_request("r-1")
    assert answer.success is success  # a refusal says so
    assert answer.record is None
    assert str(answer.time).startswith("2025-03-04")


@respx.mock(base_url=ROOT)
async def test_an_older_answer_with_the_request_record_is_read_too(
    respx_mock: respx.MockRouter,
) -> None:
    record = {"request_id": "r-1", "status": "cancelling", "search": {"search_type": "cpf"}}
    respx_mock.delete("/requests/requests/r-1").mock(return_value=httpx.Response(200, json=record))
    async with make_client(VirtualClock()) as api:
        answer = await api.cancel_request("r-1")
    assert answer.success is True
    assert answer.record is not None and answer.record.status == "cancelling"


async def test_the_sandbox_answers_success_and_time(sandbox: SandboxRig) -> None:
    samples = await sandbox.samples()
    body = CreateRequestBody(
        search=SearchBody(search_type="cpf", search_key=samples["cpf"][1])  # type: ignore[index]
    )
    [created] = await sandbox.api.create_request(body)
    answer = await sandbox.api.cancel_request(created.request_id)
    assert answer.success is True and answer.record is None and answer.time is not None
    await sandbox.advance(5)
    assert (await sandbox.api.get_request(created.request_id)).status == "cancelled"
    deleted = await sandbox.api.cancel_request(created.request_id)  # a finished one: deleted
    assert deleted.success is True
    assert (await sandbox.api.get_request(created.request_id)).deleted_at is not None
    with pytest.raises(NotFound) as info:
        await sandbox.api.cancel_request("00000000-0000-0000-0000-000000000000")
    assert info.value.code == "REQUEST_NOT_FOUND"

"""GET {requests_url}/responses/{response_id} (D90): the client, the sandbox and the service
that keeps what it reads."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from lawsuit_tui.api.errors import NotFound
from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.sandbox.keys import parse_key_spec
from tests.support.client_rig import ROOT, SandboxRig
from tests.support.service_rig import Rig


async def made_responses(sandbox: SandboxRig) -> list[str]:
    samples = await sandbox.samples()
    body = CreateRequestBody(
        search=SearchBody(search_type="lawsuit_cnj", search_key=samples["moving_lawsuit"])  # type: ignore[arg-type]
    )
    [created] = await sandbox.api.create_request(body)
    await sandbox.advance(3)
    page = await sandbox.api.list_responses(1, 100)
    return [r.response_id for r in page.page_data if r.request_id == created.request_id]  # type: ignore[misc]


async def test_a_response_by_its_id(sandbox: SandboxRig) -> None:
    ids = await made_responses(sandbox)
    response = await sandbox.api.get_response(ids[-1])
    assert response.response_id == ids[-1]
    assert isinstance(response.response_data, Lawsuit)
    assert response.extra_fields["request_status"] == "completed"  # as the page's example


async def test_an_unknown_or_foreign_id_is_404_naming_it(sandbox: SandboxRig) -> None:
    ids = await made_responses(sandbox)
    with pytest.raises(NotFound) as info:
        await sandbox.api.get_response("00000000-0000-0000-0000-000000000000")
    assert info.value.code == "RESPONSE_NOT_FOUND"
    assert info.value.messages == ["response 00000000-0000-0000-0000-000000000000 not found"]
    # D47: another key's response does not exist for this one.
    sandbox.app.state.sandbox.keys["other"] = parse_key_spec("other")
    answer = await sandbox.api.http.get(
        f"{ROOT}/requests/responses/{ids[0]}", headers={"api-key": "other"}
    )
    assert answer.status_code == 404
    assert answer.json()["error"]["data"] == {
        "response_id": ids[0],
        "message": f"response {ids[0]} not found",
    }


async def test_the_service_keeps_what_it_reads(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "cache")
    try:
        ctx = await rig.open()
        samples = await rig.samples()
        body = CreateRequestBody(
            search=SearchBody(search_type="lawsuit_cnj", search_key=samples["moving_lawsuit"])
        )
        [created] = await ctx.requests.create(body)
        await rig.advance(3)
        wanted = rig.held_responses()[-1]["response_id"]
        assert ctx.requests.cached_response(wanted) is None
        response = await ctx.requests.response(wanted)
        assert response.request_id == created.request_id
        kept = ctx.requests.cached_response(wanted)
        assert kept is not None and "request_status" not in kept.extra_fields
        assert ctx.requests.cached_position(created.request_id, wanted) == 0
        assert ctx.requests.cached_position(created.request_id, "nope") is None
    finally:
        await rig.aclose()


async def test_a_notice_read_by_id_completes_its_request(tmp_path: Path) -> None:
    from lawsuit_tui.config import Settings
    from lawsuit_tui.services.context import ServiceContext
    from tests.support.webhook_data import completion_notice

    notice = completion_notice("req-1")["payload"]

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={**notice, "request_status": "completed"})

    settings = Settings(api_key="live-key-0123456789", cache_dir=tmp_path / "cache")
    ctx = await ServiceContext.open(settings, transport=httpx.MockTransport(handler))
    try:
        response = await ctx.requests.response(notice["response_id"])
        assert response.is_completion_notice
        assert ctx.requests.cached_response(notice["response_id"]) is None
        record = ctx.requests.cached_record("req-1")
        assert record is not None and record.status == "completed"
    finally:
        await ctx.aclose()

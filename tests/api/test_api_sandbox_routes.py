"""Every route of the client against the in-process sandbox (frozen clock)."""

from __future__ import annotations

import pytest

from lawsuit_tui.api.client import ApiClient
from lawsuit_tui.api.errors import (
    BadRequest,
    Conflict,
    NotFound,
    Unauthorized,
)
from lawsuit_tui.api.filters import RequestFilters, ResponseFilters, TrackingFilters
from lawsuit_tui.domain.bodies import (
    CountBody,
    CreateRequestBody,
    CredentialDeleteBody,
    CredentialItem,
    CredentialsRegistrationBody,
    SearchBody,
    TrackingCreateBody,
    TrackingPatchBody,
)
from lawsuit_tui.domain.lawsuit import Lawsuit
from tests.support.client_rig import SandboxRig, make_config


def request_body(search_type: str, key: str, **extra: object) -> CreateRequestBody:
    search = {k: v for k, v in extra.items() if k != "with_attachments"}
    return CreateRequestBody(
        search=SearchBody(search_type=search_type, search_key=key, **search),  # type: ignore[arg-type]
        with_attachments=extra.get("with_attachments"),  # type: ignore[arg-type]
    )


async def test_lookup_finds_lawsuits_and_says_when_there_are_none(sandbox: SandboxRig) -> None:
    samples = await sandbox.samples()
    code = samples["lawsuit_cnj"][0]  # type: ignore[index]
    answer = await sandbox.api.lookup("lawsuit_cnj", code)
    assert answer.has_lawsuits is True
    assert answer.request_id
    assert all(isinstance(x, Lawsuit) for x in answer.lawsuits)
    assert {x.code for x in answer.lawsuits} == {code}
    nothing = await sandbox.api.lookup("cpf", samples["no_data"]["cpf"])  # type: ignore[index]
    assert nothing.has_lawsuits is False
    assert nothing.lawsuits == []


async def test_bearer_variant(sandbox: SandboxRig) -> None:
    samples = await sandbox.samples()
    token = await sandbox.admin("POST", "token", {"api_key": "sandbox"})
    assert isinstance(token, dict)
    api = ApiClient(
        make_config(api_key="sandbox", bearer_token=token["access_token"]),
        transport=sandbox.transport,
    )
    async with api:
        answer = await api.lookup_bearer("lawsuit_cnj", samples["lawsuit_cnj"][0])  # type: ignore[index]
    assert answer.lawsuits
    for lawsuit in answer.lawsuits:
        for step in lawsuit.steps or []:
            assert "source_name" not in step.to_json_dict()


async def test_wrong_key_is_unauthorized(sandbox: SandboxRig) -> None:
    api = ApiClient(make_config(api_key="wrong"), transport=sandbox.transport)
    async with api:
        with pytest.raises(Unauthorized):
            await api.get_request("anything")


async def test_request_lifecycle_and_responses(sandbox: SandboxRig) -> None:
    api = sandbox.api
    samples = await sandbox.samples()
    cpf = samples["cpf"][0]  # type: ignore[index]
    [created] = await api.create_request(request_body("cpf", cpf))
    assert created.status == "pending"
    assert (await api.get_request(created.request_id)).request_id == created.request_id
    await sandbox.advance(5)
    done = await api.get_request(created.request_id)
    assert done.status == "completed"
    page = await api.list_responses(filters=ResponseFilters(request_id=created.request_id))
    assert page.request_status == "completed"
    assert page.all_count >= 1
    assert all(r.request_id == created.request_id for r in page.page_data)
    every = [
        r
        async for r in api.iter_responses(
            page_size=5, filters=ResponseFilters(request_id=created.request_id)
        )
    ]
    assert len(every) == page.all_count
    assert len({r.response_id for r in every}) == len(every)
    listed = await api.list_requests(1, 10)
    assert created.request_id in {r.request_id for r in listed.page_data}
    found = [r async for r in api.iter_requests(filters=RequestFilters(search_key=cpf))]
    assert [r.request_id for r in found] == [created.request_id]


async def test_application_error_is_a_result(sandbox: SandboxRig) -> None:
    samples = await sandbox.samples()
    code = samples["court_down_lawsuit"]  # type: ignore[index]
    [created] = await sandbox.api.create_request(request_body("lawsuit_cnj", code))
    await sandbox.advance(5)
    page = await sandbox.api.list_responses(filters=ResponseFilters(request_id=created.request_id))
    errors = [r.application_error for r in page.page_data if r.application_error is not None]
    assert errors and errors[-1].code == "CRAWLER_ERROR"


async def test_branches_are_linked_by_origin_id(sandbox: SandboxRig) -> None:
    samples = await sandbox.samples()
    cnpj = samples["cnpj_with_branches"]  # type: ignore[index]
    created = await sandbox.api.create_request(
        request_body("cnpj", cnpj, should_search_branches=True)
    )
    original = created[0].request_id
    branches = await sandbox.api.list_requests(1, 100, filters=RequestFilters(origin_id=original))
    assert branches.page_data
    assert all(r.origin_id == original for r in branches.page_data)


async def test_tracking_routes(sandbox: SandboxRig) -> None:
    api = sandbox.api
    samples = await sandbox.samples()
    code = samples["moving_lawsuit"]  # type: ignore[index]
    body = TrackingCreateBody(
        recurrence=1, search=SearchBody(search_type="lawsuit_cnj", search_key=code)
    )
    tracking = await api.create_tracking(body)
    assert tracking.status == "created"
    tid = tracking.tracking_id
    with pytest.raises(Conflict):
        await api.create_tracking(body)
    assert (await api.get_tracking(tid)).tracking_id == tid
    assert (await api.pause_tracking(tid)).status == "paused"
    assert (await api.resume_tracking(tid)).status in ("created", "updated")
    patched = await api.patch_tracking(tid, TrackingPatchBody(recurrence=7))
    assert patched.recurrence == 7
    listed = [t.tracking_id async for t in api.iter_trackings(page_size=5)]
    assert tid in listed
    page = await api.list_trackings(1, 5, filters=TrackingFilters(search_key=code))
    assert [t.tracking_id for t in page.page_data] == [tid]
    deleted = await api.delete_tracking(tid)
    assert deleted.status == "deleted"
    assert tid not in [t.tracking_id async for t in api.iter_trackings(page_size=5)]
    with pytest.raises(NotFound):
        await api.get_tracking("00000000-0000-0000-0000-000000000000")


async def test_vault_routes(sandbox: SandboxRig) -> None:
    api = sandbox.api
    listing = await api.vault_status("*")
    names = [row.name for row in listing.systems if row.name and row.name != "*"]
    assert names
    item = CredentialItem(
        system_name=names[0], customer_key="team-a", username="u1", password="s3cret-pw"
    )
    results = await api.register_credentials(CredentialsRegistrationBody.of(item))
    assert results and results[0].message == "CREDENTIAL_CREATED"
    assert all(r.customer_key == "team-a" for r in results)
    again = await api.register_credentials(CredentialsRegistrationBody.of(item))
    assert again[0].message == "CREDENTIAL_UPDATED"
    keyed = await api.vault_status("team-a")
    assert names[0] in {row.name for row in keyed.systems}
    assert "s3cret-pw" not in keyed.model_dump_json()
    gone = await api.delete_credential(
        CredentialDeleteBody(system_name=names[0], customer_key="team-a")
    )
    assert gone == []  # D83: the service answers an empty object
    with pytest.raises(NotFound):
        await api.delete_credential(
            CredentialDeleteBody(system_name=names[0], customer_key="team-a")
        )


async def test_count_routes(sandbox: SandboxRig) -> None:
    result = await sandbox.api.count(CountBody(kind="judgement-bond", tribunals=[10]))
    assert isinstance(result.request_id, int)
    assert result.total_lawsuits is not None and result.total_lawsuits >= 0
    assert result.status == "completed"  # D72
    with pytest.raises(BadRequest) as info:
        await sandbox.api._call(
            "count",
            lambda r: r,
            body={"kind": "sentence-execution", "natures": ["common"], "bogus": 1},
        )
    assert len(info.value.messages) >= 2


async def test_attachment_download(sandbox: SandboxRig) -> None:
    samples = await sandbox.samples()
    attachments = []
    for code in samples["lawsuit_cnj"]:  # type: ignore[union-attr]
        answer = await sandbox.api.lookup("lawsuit_cnj", code)
        attachments = [
            (lawsuit, a)
            for lawsuit in answer.lawsuits
            for a in lawsuit.attachments or []
            if not a.private and not a.corrupted
        ]
        if attachments:
            break
    assert attachments
    lawsuit, attachment = attachments[0]
    file = await sandbox.api.download_attachment(
        lawsuit.code, lawsuit.instance or 1, attachment.attachment_id or ""
    )
    assert file.content
    assert file.media_type
    with pytest.raises(NotFound):
        await sandbox.api.download_attachment(lawsuit.code, lawsuit.instance or 1, "no-such-id")


async def test_rate_headers_feed_the_allowance(sandbox: SandboxRig) -> None:
    seen: list[int] = []
    sandbox.api.on_rate_change(lambda remaining, limit: seen.append(remaining))
    await sandbox.api.list_requests()
    await sandbox.api.list_requests()
    assert sandbox.api.rate_remaining == 178
    assert 178 in seen

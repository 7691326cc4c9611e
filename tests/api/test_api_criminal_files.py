"""The client's warrant and execution searches, attachment addresses and file streaming
(D68, D81, D121, D122) and transfer files (D123), against the sandbox."""

from __future__ import annotations

import io
import random
from typing import Any

import httpx
import pytest

from lawsuit_tui.api.client import ApiClient
from lawsuit_tui.api.errors import Conflict, Forbidden, NotFound
from lawsuit_tui.api.models import AttachmentFile
from lawsuit_tui.domain.bodies import CreateRequestBody
from lawsuit_tui.domain.file_links import AttachmentLink
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.transfer_files import TransferFilePatchBody, TransferFilesPageParams
from lawsuit_tui.domain.warrants import Warrant
from tests.support.client_rig import ROOT, SandboxRig, make_config


async def responses_of(sandbox: SandboxRig, body: dict[str, Any]) -> list[Any]:
    [record] = await sandbox.api.create_request(CreateRequestBody.model_validate(body))
    await sandbox.advance(3)
    page = await sandbox.api.list_responses(1, 100, filters=None)
    return [r for r in page.page_data if r.request_id == record.request_id]


async def test_warrants_and_executions_come_typed(sandbox: SandboxRig) -> None:
    samples = await sandbox.samples()
    busy = str(samples["busy_person"])
    warrants = await responses_of(
        sandbox, {"search": {"search_type": "cpf", "search_key": busy, "response_type": "warrant"}}
    )
    assert warrants and all(isinstance(r.warrant, Warrant) for r in warrants)
    assert warrants[0].warrant.status == "Pendente de Cumprimento"
    executions = await responses_of(
        sandbox,
        {"search": {"search_type": "cpf", "search_key": busy, "response_type": "execution"}},
    )
    [execution] = executions
    assert isinstance(execution.lawsuit, Lawsuit)  # D70
    assert execution.lawsuit.code == samples["penal_execution"]


async def a_public_attachment(sandbox: SandboxRig) -> tuple[str, int, str]:
    samples = await sandbox.samples()
    for code in samples["lawsuit_cnj"]:  # type: ignore[union-attr]
        answer = await sandbox.api.lookup("lawsuit_cnj", code)
        for lawsuit in answer.lawsuits:
            for att in lawsuit.attachments or []:
                if not att.private and not att.corrupted and att.attachment_id:
                    return lawsuit.code, lawsuit.instance or 1, att.attachment_id
    raise AssertionError("no public attachment")


async def test_an_attachment_is_streamed_from_its_address(sandbox: SandboxRig) -> None:
    code, instance, attachment_id = await a_public_attachment(sandbox)
    link = await sandbox.api.attachment_link(code, instance, attachment_id)
    assert isinstance(link, AttachmentLink)  # D81: not the JSON saved as the document
    seen: list[tuple[int, int | None]] = []
    sink = io.BytesIO()
    fetched = await sandbox.api.fetch_file(
        link.attachment_url, sink, lambda got, total: seen.append((got, total))
    )
    assert fetched.size == len(sink.getvalue()) > 0
    assert not sink.getvalue().startswith(b'{"attachment_url"')
    assert seen[0] == (0, fetched.size) and seen[-1] == (fetched.size, fetched.size)
    assert fetched.filename and fetched.media_type


async def test_the_api_key_never_goes_to_the_address(sandbox: SandboxRig) -> None:
    sent: list[httpx.Request] = []

    class Recording(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            sent.append(request)
            return await sandbox.transport.handle_async_request(request)

    api = ApiClient(make_config(api_key="sandbox"), transport=Recording(), rng=random.Random(1))
    try:
        code, instance, attachment_id = await a_public_attachment(sandbox)
        file = await api.download_attachment(code, instance, attachment_id)
        assert file.content
    finally:
        await api.aclose()
    link_call, file_call = sent[-2], sent[-1]
    assert link_call.headers["api-key"] == "sandbox"
    assert "/_sandbox/files/" in str(file_call.url)
    assert "api-key" not in file_call.headers  # D121


async def test_an_older_service_answering_the_file_itself(sandbox: SandboxRig) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200,
            content=b"%PDF-1.4 old",
            headers={
                "content-type": "application/pdf",
                "content-disposition": 'attachment; filename="a.pdf"',
            },
        )

    api = ApiClient(make_config(), transport=httpx.MockTransport(handler))
    try:
        found = await api.attachment_link("0001234-56.2023.8.26.0100", 1, "x")
        assert isinstance(found, AttachmentFile) and found.filename == "a.pdf"
        file = await api.download_attachment("0001234-56.2023.8.26.0100", 1, "x")
        assert file.content == b"%PDF-1.4 old"
    finally:
        await api.aclose()


async def test_an_expired_address_is_refused(sandbox: SandboxRig) -> None:
    code, instance, attachment_id = await a_public_attachment(sandbox)
    link = await sandbox.api.attachment_link(code, instance, attachment_id)
    assert isinstance(link, AttachmentLink)
    await sandbox.advance(301)
    with pytest.raises(Forbidden):
        await sandbox.api.fetch_file(link.attachment_url, io.BytesIO())


async def test_a_warrant_document(sandbox: SandboxRig) -> None:
    samples = await sandbox.samples()
    warrants = await responses_of(
        sandbox,
        {
            "search": {
                "search_type": "rji",
                "search_key": samples["warrant_rji"],
                "response_type": "warrant",
            },
            "with_attachments": True,
        },
    )
    warrant = warrants[0].warrant
    assert warrant is not None and warrant.attachments and warrant.code
    attachment_id = warrant.attachments[0].attachment_id or ""
    link = await sandbox.api.warrant_attachment_link(warrant.code, attachment_id)
    assert isinstance(link, AttachmentLink)
    sink = io.BytesIO()
    await sandbox.api.fetch_file(link.attachment_url, sink)
    assert sink.getvalue().startswith(b"%PDF")
    with pytest.raises(NotFound):
        await sandbox.api.warrant_attachment_link(warrant.code, "w9-000000000000")


async def test_transfer_files(sandbox: SandboxRig) -> None:
    api = sandbox.api
    page = await api.list_transfer_files()
    assert page.all_count == 8 and len(page.page_data) == 8
    everything = [f async for f in api.iter_transfer_files()]
    assert [f.transfer_file_id for f in everything] == [f.transfer_file_id for f in page.page_data]
    ready = await api.list_transfer_files(TransferFilesPageParams(status="completed"))
    assert ready.page_data and all(f.status == "completed" for f in ready.page_data)
    one = await api.get_transfer_file(ready.page_data[0].transfer_file_id)
    assert one.pre_signed_url and one.pre_signed_url.startswith(ROOT)
    sink = io.BytesIO()
    fetched = await api.fetch_file(one.pre_signed_url, sink)
    assert one.size_bytes is not None and abs(fetched.size - one.size_bytes) <= 500
    marked = await api.update_transfer_file(
        one.transfer_file_id, TransferFilePatchBody(status="downloaded")
    )
    assert marked.status == "downloaded" and marked.downloaded_at is not None
    pending = next(f for f in page.page_data if f.status == "pending")
    with pytest.raises(Conflict):
        await api.update_transfer_file(
            pending.transfer_file_id, TransferFilePatchBody(status="downloaded")
        )
    with pytest.raises(NotFound):
        await api.get_transfer_file("no-such-file")


async def test_the_real_services_answer_is_followed_to_the_file() -> None:
    """The provider answers ``{attachment_url}`` pointing at its storage, another host: the
    document is what is there (before D81 the client gave back the JSON as the document)."""
    storage_hits: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.host == "storage.example":
            storage_hits.append(request)
            return httpx.Response(
                200, content=b"%PDF-1.4 the petition", headers={"content-type": "application/pdf"}
            )
        url = "https://storage.example/bucket/petition.pdf?X-Amz-Signature=abc"
        return httpx.Response(200, json={"attachment_url": url})

    api = ApiClient(make_config(), transport=httpx.MockTransport(handler))
    try:
        file = await api.download_attachment("0001234-56.2023.8.26.0100", 1, "60153051-1-1")
    finally:
        await api.aclose()
    assert file.content == b"%PDF-1.4 the petition"
    assert file.media_type == "application/pdf"
    [hit] = storage_hits
    assert "api-key" not in hit.headers

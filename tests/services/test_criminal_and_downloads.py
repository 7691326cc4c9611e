"""Warrants and executions through the services, downloads streamed to disk (D81, D121) and
transfer files (D123)."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from lawsuit_tui.domain.bodies import CreateRequestBody
from lawsuit_tui.domain.warrants import Warrant
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.errors import Forbidden
from lawsuit_tui.services.results import ResponseArrived
from lawsuit_tui.services.transfer_files import TransferFileNotReady
from lawsuit_tui.services.warrants import as_execution
from tests.support.service_rig import Rig


async def arrived(ctx: ServiceContext, body: dict[str, Any]) -> list[ResponseArrived]:
    [record] = await ctx.requests.create(CreateRequestBody.model_validate(body))
    return [
        e async for e in ctx.requests.follow(record.request_id) if isinstance(e, ResponseArrived)
    ]


async def test_an_execution_is_kept_as_a_lawsuit(rig: Rig, ctx: ServiceContext) -> None:
    samples = await rig.samples()
    search = {
        "search_type": "cpf",
        "search_key": samples["busy_person"],
        "response_type": "execution",
    }
    [event] = await arrived(ctx, {"search": search})
    execution = as_execution(event.response, None)
    assert execution is not None and execution.code == samples["penal_execution"]
    # D124: the lawsuit screen opens it from the cache, steps and all.
    view = ctx.lawsuits.cached(execution.code, 1)
    assert view is not None and view.lawsuit.steps
    assert (
        view.lawsuit.classifications and view.lawsuit.classifications[0].name == "EXECUÇÃO DA PENA"
    )


async def test_a_lawsuit_answer_to_an_execution_search_is_an_execution(
    rig: Rig, ctx: ServiceContext
) -> None:
    samples = await rig.samples()
    search = {
        "search_type": "cpf",
        "search_key": samples["busy_person"],
        "response_type": "execution",
    }
    [record] = await ctx.requests.create(CreateRequestBody.model_validate({"search": search}))
    [event] = [
        e async for e in ctx.requests.follow(record.request_id) if isinstance(e, ResponseArrived)
    ]
    # The pages' examples answer type "lawsuit": the request says it is an execution (D70).
    relabelled = event.response.model_copy(update={"response_type": "lawsuit"})
    assert as_execution(relabelled, record) is not None
    assert as_execution(relabelled, None) is None


async def test_a_warrant_document_is_saved(rig: Rig, ctx: ServiceContext, tmp_path: Path) -> None:
    samples = await rig.samples()
    search = {
        "search_type": "rji",
        "search_key": samples["warrant_rji"],
        "response_type": "warrant",
    }
    events = await arrived(ctx, {"search": search, "with_attachments": True})
    warrant = events[0].response.warrant
    assert isinstance(warrant, Warrant)
    seen: list[tuple[int, int | None]] = []
    saved = await ctx.warrants.download_document(
        warrant, tmp_path / "warrants", progress=lambda got, total: seen.append((got, total))
    )
    assert saved.path.name.startswith("Mandado de Prisão")
    assert saved.path.read_bytes().startswith(b"%PDF")
    assert seen[-1] == (saved.size, saved.size)
    assert stat.S_IMODE(saved.path.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "warrants").stat().st_mode) == 0o700
    again = await ctx.warrants.download_document(warrant, tmp_path / "warrants")
    assert again.path != saved.path and again.path.name.endswith("(1).pdf")


async def test_an_attachment_is_the_file_not_the_json(
    rig: Rig, ctx: ServiceContext, tmp_path: Path
) -> None:
    samples = await rig.samples()
    code = samples["lawsuit_cnj"][0]
    result = await ctx.lookup.lookup(ctx.lookup.parse(code))
    lawsuit = result.lawsuits[0]
    attachment = next(a for a in lawsuit.attachments or [] if not a.private and not a.corrupted)
    path = await ctx.lawsuits.download_attachment(
        code, lawsuit.instance, attachment.attachment_id or "", tmp_path
    )
    content = path.read_bytes()
    assert not content.startswith(b'{"attachment_url"')  # before D81 the JSON was saved
    expected = rig.state.world.attachment_file(
        code, lawsuit.instance or 1, attachment.attachment_id or ""
    )
    assert expected is not None and content == expected[0]
    assert [name for name in os.listdir(tmp_path) if name.startswith(".download-")] == []


async def test_an_expired_address_is_asked_again_once(
    rig: Rig, ctx: ServiceContext, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    samples = await rig.samples()
    code = samples["lawsuit_cnj"][0]
    lawsuit = (await ctx.lookup.lookup(ctx.lookup.parse(code))).lawsuits[0]
    attachment = next(a for a in lawsuit.attachments or [] if not a.private and not a.corrupted)
    api = ctx.api
    asked: list[str] = []
    real_link = api.attachment_link

    async def late_link(*args: Any) -> Any:
        link = await real_link(*args)
        asked.append("link")
        if len(asked) == 1:
            await rig.advance(301)  # the first address expires before it is used
        return link

    monkeypatch.setattr(api, "attachment_link", late_link)
    path = await ctx.lawsuits.download_attachment(
        code, lawsuit.instance, attachment.attachment_id or "", tmp_path
    )
    assert asked == ["link", "link"] and path.stat().st_size > 0

    async def always_late(*args: Any) -> Any:
        link = await real_link(*args)
        await rig.advance(301)
        return link

    monkeypatch.setattr(api, "attachment_link", always_late)
    with pytest.raises(Forbidden):
        await ctx.lawsuits.download_attachment(
            code, lawsuit.instance, attachment.attachment_id or "", tmp_path / "never"
        )
    assert os.listdir(tmp_path / "never") == []  # nothing half written stays


async def test_transfer_files(rig: Rig, ctx: ServiceContext, tmp_path: Path) -> None:
    files = await ctx.transfer_files.list()
    assert len(files) == 8
    ready = next(f for f in files if f.status == "completed" and f.file_type == "parquet")
    saved = await ctx.transfer_files.download(ready.transfer_file_id, tmp_path, mark=True)
    assert saved.path.name == ready.name
    content = saved.path.read_bytes()
    assert content[:4] == b"PAR1" and content[-4:] == b"PAR1"
    assert (await ctx.transfer_files.get(ready.transfer_file_id)).status == "downloaded"
    pending = next(f for f in files if f.status == "pending")
    with pytest.raises(TransferFileNotReady):
        await ctx.transfer_files.download(pending.transfer_file_id, tmp_path)
    marked = await ctx.transfer_files.mark(ready.transfer_file_id, "error", "colunas trocadas")
    assert marked.status == "error" and marked.error_message == "colunas trocadas"

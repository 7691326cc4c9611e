"""``{lawsuits_url}/transfer-file``: a company's transfer files (file-transfer page, lawsuits.json;
D75, D76, D123).

- ``GET /transfer-file``: the files, newest first, filtered and paged (5..100, default 10);
- ``GET /transfer-file/{id}``: one file and its ``pre_signed_url`` (D81: 5 minutes);
- ``PATCH /transfer-file/{id}``: mark it ``downloaded``, or ``error`` with a message.

A key sees only its own company's files; another's id answers 404 like an unknown one (D47).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from lawsuit_tui.domain.transfer_files import TransferFile, TransferFilesPage
from lawsuit_tui.sandbox.auth import require_key
from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.dependencies import State
from lawsuit_tui.sandbox.errors import ServiceError
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.pagination import (
    PageParams,
    ValuesQuery,
    listed_values,
    order_query,
    page_params,
    paginate,
    query_instant,
    query_order,
)
from lawsuit_tui.sandbox.routes._common import FastJSON, answer, documented
from lawsuit_tui.sandbox.routes.files import link_to
from lawsuit_tui.sandbox.state import SandboxState
from lawsuit_tui.sandbox.world import transfer_files

__all__ = ["router"]

router = APIRouter(prefix="/lawsuits", tags=["transfer files"], default_response_class=FastJSON)

LookupKey = Annotated[KeyConfig, Depends(require_key("lookup"))]

_DATE_FIELDS = (
    "created_at",
    "updated_at",
    "completed_at",
    "downloaded_at",
    "error_at",
    "failed_at",
    "started_at",
)
_READY = ("completed", "downloaded", "error")


class TransferFilePatchIn(BaseModel):
    """lawsuits.json ``TransferFileTransferFileId.Body.Patch``; unknown fields ignored (D46)."""

    model_config = ConfigDict(extra="ignore")

    status: Literal["downloaded", "error"]
    error_message: Annotated[str, Field(max_length=2000)] | None = None


class TransferFileWithUrl(TransferFile):
    pre_signed_url: str | None = None


async def _files(state: SandboxState, key: str) -> dict[str, dict[str, Any]]:
    """The key's files, made from the world the first time (in the world's thread: their
    sizes are those of their bytes)."""
    found = state.transfer_files.get(key)
    if found is None:
        world = await state.world_ready()
        made = await state.run_world(
            lambda: transfer_files.initial_files(
                state.seed, key, state.company_id(key), world.epoch, world.records(), world.pop
            )
        )
        found = state.transfer_files.setdefault(key, made)
    return found


def _within(item: dict[str, Any], ranges: dict[str, str | None]) -> bool:
    """Whether the item's dates fall in every ``<field>_gte``/``<field>_lte`` bound given."""
    for key, bound in ranges.items():
        if bound is None:
            continue
        field, end = key.rsplit("_", 1)
        value = item.get(field)
        if value is None or (str(value) < bound if end == "gte" else str(value) > bound):
            return False
    return True


_ORDER_FIELDS = (*_DATE_FIELDS, "name", "description", "file_size", "lawsuits_count")


@router.get(
    "/transfer-file",
    summary="List the company's transfer files",
    responses=documented(TransferFilesPage),
)
async def list_transfer_files(
    request: Request,
    config: LookupKey,
    state: State,
    status: ValuesQuery,
    file_type: ValuesQuery,
    name: ValuesQuery,
    description: ValuesQuery,
    paging: Annotated[PageParams, Depends(page_params(5, max_size=100, default_size=10))],
    order: Annotated[
        str | None,
        order_query(
            _ORDER_FIELDS, 'asc|desc (with order_by), {"created_at":"desc"}, or order[field]=dir'
        ),
    ] = None,
    order_by: Annotated[
        str | None, Query(json_schema_extra={"pattern": f"^({'|'.join(_ORDER_FIELDS)})$"})
    ] = None,
) -> FastJSON:
    # D75, D76, D89: the page bounds, filters, dates and order every listing reads.
    now = state.clock.now()
    wanted = {
        "status": {v.lower() for v in listed_values("status", status)},
        "file_type": {v.lower() for v in listed_values("file_type", file_type)},
    }
    texts = {
        "name": listed_values("name", name),
        "description": listed_values("description", description),
    }
    ranges: dict[str, str | None] = {}
    for field in _DATE_FIELDS:
        for end in ("gte", "lte"):
            bound = f"{field}_{end}"
            moment = query_instant(request.query_params.get(bound), bound, end_of_day=end == "lte")
            ranges[bound] = iso(moment) if moment is not None else None
    sort_field, direction = query_order(request, _ORDER_FIELDS, default=("created_at", "desc"))
    items: list[dict[str, Any]] = []
    for record in (await _files(state, config.key)).values():
        item = transfer_files.visible(record, now)
        if any(values and str(item.get(k)).lower() not in values for k, values in wanted.items()):
            continue
        if any(
            values and not any(v.casefold() in str(item.get(k) or "").casefold() for v in values)
            for k, values in texts.items()
        ):
            continue
        if not _within(item, ranges):
            continue
        items.append(item)
    # None last (or first, descending); a number field never meets a text in the comparison.
    items.sort(
        key=lambda i: (i.get(sort_field) is None, i.get(sort_field) or 0),
        reverse=direction == "desc",
    )
    return answer(paginate(items, paging.page, paging.page_size))


async def _one(state: SandboxState, key: str, transfer_file_id: str) -> dict[str, Any]:
    record = (await _files(state, key)).get(transfer_file_id)
    if record is None:
        raise ServiceError(
            404,
            f"transfer file {transfer_file_id} not found",
            name="TRANSFER_FILE_NOT_FOUND",
        )
    return record


@router.get(
    "/transfer-file/{transfer_file_id}",
    summary="A transfer file and its download address (5 minutes)",
    responses=documented(TransferFileWithUrl, 404),
)
async def get_transfer_file(
    transfer_file_id: str, request: Request, config: LookupKey, state: State
) -> FastJSON:
    record = await _one(state, config.key, transfer_file_id)
    item = transfer_files.visible(record, state.clock.now())
    url = None
    if item["status"] in _READY:  # D123: a file not made yet has no address
        url = link_to(
            state,
            request,
            kind="transfer_file",
            key=config.key,
            filename=str(item["name"]),
            item_id=transfer_file_id,
        )
    return answer({**item, "pre_signed_url": url})


@router.patch(
    "/transfer-file/{transfer_file_id}",
    summary="Mark a transfer file downloaded, or report an error",
    responses=documented(TransferFile, 404, 409),
)
async def update_transfer_file(
    transfer_file_id: str, body: TransferFilePatchIn, config: LookupKey, state: State
) -> FastJSON:
    record = await _one(state, config.key, transfer_file_id)
    now = state.clock.now()
    item = transfer_files.visible(record, now)
    if item["status"] not in _READY:
        raise ServiceError(
            409,
            f"the file is {item['status']}: only a file that was made can be marked",
            name="TRANSFER_FILE_NOT_READY",
        )
    stamp = iso(now)
    # What was planned is now settled: the client's word is the last one (D123).
    record.update(item)
    record["_becomes"] = []
    record.update(status=body.status, updated_at=stamp)
    if body.status == "downloaded":
        record["downloaded_at"] = stamp
    else:
        record["error_at"] = stamp
        record["error_message"] = body.error_message or ""
    return answer(transfer_files.visible(record, now))

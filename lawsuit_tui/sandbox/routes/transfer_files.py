"""``{lawsuits_url}/transfer-file``: a company's transfer files (file-transfer page, lawsuits.json;
D75, D76, D123).

- ``GET /transfer-file``: the files, newest first, filtered and paged (5..100, default 10);
- ``GET /transfer-file/{id}``: one file and its ``pre_signed_url`` (D81: 5 minutes);
- ``PATCH /transfer-file/{id}``: mark it ``downloaded``, or ``error`` with a message.

A key sees only its own company's files; another's id answers 404 like an unknown one (D47).
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from lawsuit_tui.domain.transfer_files import TransferFile, TransferFilesPage
from lawsuit_tui.sandbox.auth import require_key
from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.dependencies import State
from lawsuit_tui.sandbox.errors import ServiceError
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.routes._common import FastJSON, answer, documented
from lawsuit_tui.sandbox.routes.files import link_to
from lawsuit_tui.sandbox.state import SandboxState
from lawsuit_tui.sandbox.world import transfer_files

__all__ = ["router"]

router = APIRouter(prefix="/lawsuits", tags=["transfer files"])

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


def _values(raw: list[str] | None) -> list[str]:
    """D76: repeated keys, a JSON array string, or one value."""
    out: list[str] = []
    for item in raw or []:
        text = item.strip()
        if text.startswith("["):
            try:
                parsed = json.loads(text)
            except ValueError:
                raise ServiceError.invalid("query", "json", f"not a JSON array: {text}") from None
            out.extend(str(v) for v in parsed) if isinstance(parsed, list) else out.append(text)
        elif text:
            out.append(text)
    return out


def _date(name: str, text: str | None) -> str | None:
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ServiceError.invalid(name, "date", f"{name} is not an ISO 8601 date") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return iso(moment)


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


def _order(order: str | None, order_by: str | None) -> tuple[str, bool]:
    """(field, descending): ``order=asc|desc`` with ``order_by``, or D76's JSON object."""
    field, direction = order_by or "created_at", "desc"
    if order:
        text = order.strip()
        if text.startswith("{"):
            try:
                parsed = json.loads(text)
            except ValueError:
                raise ServiceError.invalid("order", "json", "order is not a JSON object") from None
            if isinstance(parsed, dict) and parsed:
                field, direction = next(iter(parsed.items()))
        else:
            direction = text
    if str(direction).lower() not in ("asc", "desc"):
        raise ServiceError.invalid("order", "enum", "order is asc or desc")
    if field not in (*_DATE_FIELDS, "name", "description", "file_size", "lawsuits_count"):
        raise ServiceError.invalid("order_by", "enum", f"cannot order by {field}")
    return str(field), str(direction).lower() == "desc"


@router.get(
    "/transfer-file",
    summary="List the company's transfer files",
    response_class=FastJSON,
    responses=documented(TransferFilesPage),
)
async def list_transfer_files(
    request: Request,
    config: LookupKey,
    state: State,
    page: Annotated[int, Query(ge=1)] = 1,
    page_size: Annotated[int, Query(ge=5, le=100)] = 10,  # D75: lawsuits.json's bounds
    status: Annotated[list[str] | None, Query(max_length=20)] = None,
    file_type: Annotated[list[str] | None, Query(max_length=20)] = None,
    name: Annotated[list[str] | None, Query(max_length=20)] = None,
    description: Annotated[list[str] | None, Query(max_length=20)] = None,
    order: Annotated[str | None, Query(max_length=200)] = None,
    order_by: Annotated[str | None, Query(max_length=40)] = None,
) -> FastJSON:
    now = state.clock.now()
    wanted = {
        "status": {v.lower() for v in _values(status)},
        "file_type": {v.lower() for v in _values(file_type)},
    }
    texts = {"name": _values(name), "description": _values(description)}
    ranges = {
        f"{field}_{end}": _date(f"{field}_{end}", request.query_params.get(f"{field}_{end}"))
        for field in _DATE_FIELDS
        for end in ("gte", "lte")
    }
    sort_field, descending = _order(order, order_by)
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
    items.sort(
        key=lambda i: (i.get(sort_field) is None, i.get(sort_field) or ""), reverse=descending
    )
    start = (page - 1) * page_size
    page_data = items[start : start + page_size]
    return answer(
        {
            "page": page,
            "page_data": page_data,
            "page_count": len(page_data),
            "all_count": len(items),
            "all_pages_count": math.ceil(len(items) / page_size) if items else 0,
        }
    )


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
    response_class=FastJSON,
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
    response_class=FastJSON,
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

"""``GET <root>/_sandbox/files/{token}``: the files behind the short-lived addresses (D81,
D121), and :func:`link_to`, which issues them.

Not part of the service: the provider's addresses point at its storage (pre-signed URLs), which
need no api-key and expire. This route plays that part: the bytes with ``Content-Type``,
``Content-Length`` and a ``Content-Disposition`` file name; 403 once the link expired; 404 for a
token never issued.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import Response

from lawsuit_tui.sandbox.dependencies import State
from lawsuit_tui.sandbox.errors import ServiceError
from lawsuit_tui.sandbox.file_links import LINK_LIFETIME, FileLink
from lawsuit_tui.sandbox.schemas import error_responses
from lawsuit_tui.sandbox.state import SandboxState
from lawsuit_tui.sandbox.world import files as world_files
from lawsuit_tui.sandbox.world import transfer_files

__all__ = ["link_to", "router"]

router = APIRouter(prefix="/_sandbox", tags=["sandbox"])

_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The file",
        "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
    },
    **error_responses(403, 404),
}


def link_to(
    state: SandboxState,
    request: Request,
    *,
    kind: str,
    key: str,
    filename: str,
    code: str = "",
    instance: int = 1,
    item_id: str = "",
) -> str:
    """Issue a link (D121) and give its address on the root the caller used."""
    token = state.ids.next("file-link").replace("-", "")
    state.file_links[token] = FileLink(
        token=token,
        kind=kind,
        key=key,
        expires_at=state.clock.now() + LINK_LIFETIME,
        filename=filename,
        code=code,
        instance=instance,
        item_id=item_id,
    )
    return f"{str(request.base_url).rstrip('/')}/_sandbox/files/{token}"


def _disposition(filename: str) -> str:
    ascii_name = filename.encode("ascii", "replace").decode().replace('"', "'").replace("?", "_")
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(filename)}"


async def _content(state: SandboxState, link: FileLink) -> tuple[bytes, str] | None:
    world = await state.world_ready()
    if link.kind == "attachment":
        return await state.run_world(
            lambda: world.attachment_file(link.code, link.instance, link.item_id)
        )
    if link.kind == "warrant":
        criminal = world.criminal
        warrant = criminal.warrants.get(link.item_id)
        if warrant is None:
            return None
        entity = world.entity(warrant.person)
        data = await state.run_world(lambda: criminal.warrant_file(warrant, entity))
        return data, world_files.MEDIA_TYPES["pdf"]
    record = state.transfer_files.get(link.key, {}).get(link.item_id)
    if record is None:
        return None
    data = await state.run_world(
        lambda: transfer_files.file_bytes(state.seed, record, world.records(), world.pop)
    )
    return data, transfer_files.MEDIA_TYPES.get(
        str(record["file_type"]), "application/octet-stream"
    )


@router.get(
    "/files/{token}",
    summary="A file behind a short-lived address (D81); no api-key",
    response_class=Response,
    responses=_RESPONSES,
)
async def file(token: str, state: State) -> Response:
    link = state.file_links.get(token)
    if link is None:
        raise ServiceError(404, "no file behind this address", name="RESOURCE_NOT_FOUND")
    now: datetime = state.clock.now()
    if link.expired(now):
        raise ServiceError(403, "the address expired: ask for the file again", name="LINK_EXPIRED")
    found = await _content(state, link)
    if found is None:
        raise ServiceError(404, "no file behind this address", name="RESOURCE_NOT_FOUND")
    data, media_type = found
    return Response(
        content=data,
        media_type=media_type,
        headers={"Content-Disposition": _disposition(link.filename)},
    )

"""The attachment routes (D41, D56, D81, D122): each answers ``{attachment_url}``, the address
of the file (``routes/files.py`` serves it), after the refusals of D41 and D56.

- ``GET {lawsuits_url}/lawsuits/{cnj}/{instance}/attachments/{attachment_id}``
- ``GET {lawsuits_url}/warrants/{lawsuit_cnj}/attachments/{attachment_id}``
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request

from lawsuit_tui.domain.file_links import AttachmentLink
from lawsuit_tui.domain.identifiers import format_cnj
from lawsuit_tui.sandbox.auth import require_key
from lawsuit_tui.sandbox.dependencies import State
from lawsuit_tui.sandbox.errors import FlatServiceError, ServiceError
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.routes._common import FastJSON, answer, documented
from lawsuit_tui.sandbox.routes.files import link_to

__all__ = ["router"]

router = APIRouter(prefix="/lawsuits", tags=["lookup"], default_response_class=FastJSON)

_LINK_RESPONSES = documented(AttachmentLink, 404)


@router.get(
    "/lawsuits/{cnj}/{instance}/attachments/{attachment_id}",
    summary="The address of an attachment's file (D81)",
    responses=_LINK_RESPONSES,
)
async def attachment_file(
    cnj: str,
    instance: int,
    attachment_id: str,
    request: Request,
    config: Annotated[KeyConfig, Depends(require_key("lookup"))],
    state: State,
    customer_key: Annotated[str | None, Query(max_length=200)] = None,
) -> FastJSON:
    world = await state.world_ready()
    found = world.find("lawsuit_cnj", cnj)
    if (cnj_key := next((k for k in found if k[1] == instance), None)) is None:
        raise ServiceError.not_found(
            "RESOURCE_NOT_FOUND", f"lawsuit {cnj} ({instance}) not held", lawsuit_cnj=cnj
        )
    code = cnj_key[0]
    record = await state.run_world(lambda: world.attachment(code, instance, attachment_id))
    if record is None:
        raise ServiceError.not_found(
            "ATTACHMENT_NOT_FOUND",
            f"attachment {attachment_id} not found",
            attachment_id=attachment_id,
        )
    secret = world.is_secret(code, instance)
    if record.get("private") or secret:  # D41: an active credential opens it
        system = world.court_system(code, instance)
        if state.vault.status(system, customer_key or "*") != "active":
            raise FlatServiceError.forbidden(
                "SECRECY_RESTRICTED" if secret else "PRIVATE_ATTACHMENT",
                "the attachment is private: an active court credential is needed",
            )
    if record.get("corrupted"):
        raise ServiceError(422, "the attachment file is corrupted", name="PROCESSING_ERROR")
    state.mark_retrieved(config.key, code)
    url = link_to(
        state,
        request,
        kind="attachment",
        key=config.key,
        filename=str(record.get("attachment_name") or attachment_id),
        code=code,
        instance=instance,
        item_id=attachment_id,
    )
    return answer({"attachment_url": url})  # D81


@router.get(
    "/warrants/{lawsuit_cnj}/attachments/{attachment_id}",
    summary="The address of a warrant's document (D81, D122)",
    responses=_LINK_RESPONSES,
)
async def warrant_attachment(
    lawsuit_cnj: str,
    attachment_id: str,
    request: Request,
    config: Annotated[KeyConfig, Depends(require_key("lookup"))],
    state: State,
) -> FastJSON:
    world = await state.world_ready()
    try:
        code = format_cnj(lawsuit_cnj.strip())
    except ValueError:
        code = lawsuit_cnj.strip()
    criminal = world.criminal
    if not any(w.lawsuit == code for w in criminal.warrants.values()):
        raise ServiceError.not_found("RESOURCE_NOT_FOUND", f"no warrant in lawsuit {lawsuit_cnj}")
    warrant = criminal.warrant_by_attachment(code, attachment_id)
    if warrant is None:
        raise ServiceError.not_found(
            "ATTACHMENT_NOT_FOUND",
            f"attachment {attachment_id} not found",
            attachment_id=attachment_id,
        )
    view = await state.run_world(
        lambda: criminal.warrant_view(warrant, None, with_attachments=True)
    )
    url = link_to(
        state,
        request,
        kind="warrant",
        key=config.key,
        filename=str(view["attachments"][0]["attachment_name"]),
        code=code,
        item_id=warrant.warrant_id,
    )
    return answer({"attachment_url": url})

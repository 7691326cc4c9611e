"""``GET {lawsuits_url}/lawsuits/{cnj}/{instance}/attachments/{attachment_id}`` (D41)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response

from lawsuit_tui.sandbox.auth import require_key
from lawsuit_tui.sandbox.dependencies import State
from lawsuit_tui.sandbox.errors import FlatServiceError, ServiceError
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.schemas import ERROR_RESPONSES, error_responses

__all__ = ["router"]

router = APIRouter(prefix="/lawsuits", tags=["lookup"])

_FILE_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The file, with its media type",
        "content": {
            "application/pdf": {"schema": {"type": "string", "format": "binary"}},
            "text/html": {"schema": {"type": "string"}},
            "text/plain": {"schema": {"type": "string"}},
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
        },
    },
    **ERROR_RESPONSES,
    **error_responses(404),
}


@router.get(
    "/lawsuits/{cnj}/{instance}/attachments/{attachment_id}",
    summary="Download an attachment file",
    response_class=Response,
    responses=_FILE_RESPONSES,
)
async def attachment_file(
    cnj: str,
    instance: int,
    attachment_id: str,
    config: Annotated[KeyConfig, Depends(require_key("lookup"))],
    state: State,
    customer_key: Annotated[str | None, Query(max_length=200)] = None,
) -> Response:
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
    file = await state.run_world(lambda: world.attachment_file(code, instance, attachment_id))
    if file is None:
        raise ServiceError.not_found(
            "ATTACHMENT_NOT_FOUND",
            f"attachment {attachment_id} not found",
            attachment_id=attachment_id,
        )
    data, media_type = file
    state.mark_retrieved(config.key, code)
    return Response(content=data, media_type=media_type)

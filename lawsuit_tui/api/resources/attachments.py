"""Attachments: the documents of a lawsuit's steps."""

from __future__ import annotations

import httpx

from lawsuit_tui.api.models import AttachmentFile
from lawsuit_tui.api.resources.base import RouteCaller, filename_of

__all__ = ["AttachmentRoutes"]


class AttachmentRoutes(RouteCaller):
    async def download_attachment(
        self, code: str, instance: int | str, attachment_id: str
    ) -> AttachmentFile:
        """GET {lawsuits_url}/lawsuits/{cnj}/{instance}/attachments/{id} (D41)."""

        def parse(response: httpx.Response) -> AttachmentFile:
            media = response.headers.get("content-type")
            return AttachmentFile(
                content=response.content,
                media_type=media.split(";")[0].strip() if media else None,
                filename=filename_of(response.headers.get("content-disposition")),
            )

        return await self._call(
            "download_attachment",
            parse,
            path={"code": code, "instance": instance, "attachment_id": attachment_id},
        )

"""The answer of both attachment routes (D81): ``{attachment_url}``, where the file is."""

from __future__ import annotations

from lawsuit_tui.domain.base import ApiModel

__all__ = ["AttachmentLink"]


class AttachmentLink(ApiModel):
    """``GET .../attachments/{id}`` (lawsuits.json): a short-lived address of the file."""

    attachment_url: str

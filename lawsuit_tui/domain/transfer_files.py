"""Transfer files: the files the provider prepares for a company (file-transfer page,
lawsuits.json ``/transfer-file``), their page, the status update and the list's query.

A file is listed with its metadata; ``GET /transfer-file/{id}`` adds ``pre_signed_url``, a
download address valid for 5 minutes (D81, D123). After using a file the client marks it
``downloaded``, or ``error`` with a message.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field, field_validator, model_validator

from lawsuit_tui.domain.base import ApiModel, Number, Timestamp
from lawsuit_tui.domain.bodies import BodyModel, PageParams, invalid_body
from lawsuit_tui.domain.enums import Open, TransferFileStatus, TransferFileType
from lawsuit_tui.domain.pagination import PageEnvelope
from lawsuit_tui.i18n import _

__all__ = [
    "MARKABLE_STATUSES",
    "READY_STATUSES",
    "TRANSFER_FILES_MAX_PAGE_SIZE",
    "TransferFile",
    "TransferFilePatchBody",
    "TransferFilesPage",
    "TransferFilesPageParams",
]

TRANSFER_FILES_MAX_PAGE_SIZE = 100  # D75: lawsuits.json's bound
READY_STATUSES = (
    TransferFileStatus.COMPLETED,
    TransferFileStatus.DOWNLOADED,
    TransferFileStatus.ERROR,
)
"""Statuses of a file that exists and can be downloaded (D123)."""
MARKABLE_STATUSES = (TransferFileStatus.DOWNLOADED, TransferFileStatus.ERROR)
"""What a client may set with PATCH (lawsuits.json's body enum)."""


class TransferFile(ApiModel):
    """One file (``page_data`` item, or the answer of GET/PATCH by id)."""

    transfer_file_id: str
    company_id: str | None = None
    description: str | None = None
    error_message: str | None = None
    file_size: Number | None = None
    """Megabytes (the example's 0.038 for a 19-lawsuit parquet file; D123)."""
    file_type: Open[TransferFileType] | None = None
    lawsuits_count: int | None = None
    name: str | None = None
    status: Open[TransferFileStatus] | None = None
    created_at: Timestamp | None = None
    completed_at: Timestamp | None = None
    downloaded_at: Timestamp | None = None
    error_at: Timestamp | None = None
    failed_at: Timestamp | None = None
    started_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    pre_signed_url: str | None = None

    @field_validator("lawsuits_count", mode="before")
    @classmethod
    def _count_as_int(cls, value: object) -> object:
        # A JSON number the service may write as 19.0 (lawsuits.json types it "number").
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value

    @property
    def ready(self) -> bool:
        """The file exists: it can be downloaded (completed, or already marked)."""
        return self.status in READY_STATUSES

    @property
    def size_bytes(self) -> int | None:
        return None if self.file_size is None else round(float(self.file_size) * 1_000_000)


class TransferFilesPage(PageEnvelope):
    page_data: list[TransferFile] = Field(default_factory=list)


class TransferFilePatchBody(BodyModel):
    """PATCH /transfer-file/{id}: ``downloaded``, or ``error`` with a message (D123)."""

    status: Open[TransferFileStatus]
    error_message: str | None = None

    @model_validator(mode="after")
    def _markable(self) -> TransferFilePatchBody:
        if self.status not in MARKABLE_STATUSES:
            raise invalid_body(
                _("a file can only be marked downloaded or error, not {status}").format(
                    status=self.status
                )
            )
        if self.status == TransferFileStatus.ERROR and not (self.error_message or "").strip():
            raise invalid_body(_("say what went wrong: marking a file as error needs a message"))
        return self


class TransferFilesPageParams(PageParams):
    """GET /transfer-file: page_size 5..100 (default 10), one value per filter (D76)."""

    min_page_size: ClassVar[int] = 5
    max_page_size: ClassVar[int] = TRANSFER_FILES_MAX_PAGE_SIZE

    page_size: int = 10
    status: Open[TransferFileStatus] | None = None
    file_type: Open[TransferFileType] | None = None
    name: str | None = None
    description: str | None = None
    created_at_gte: Timestamp | None = None
    created_at_lte: Timestamp | None = None

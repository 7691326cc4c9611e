"""Transfer files (D123): what the provider prepared for the company, downloaded and marked.

After using a file the client says so: ``downloaded``, or ``error`` with what went wrong (the
provider's team looks at those). Downloading does not mark a file by itself: a person may want
to open it first; ``download(..., mark=True)`` does both.
"""

from __future__ import annotations

from pathlib import Path

from lawsuit_tui.domain.enums import TransferFileStatus
from lawsuit_tui.domain.file_links import AttachmentLink
from lawsuit_tui.domain.transfer_files import (
    TransferFile,
    TransferFilePatchBody,
    TransferFilesPageParams,
)
from lawsuit_tui.i18n import _
from lawsuit_tui.services.deps import Deps
from lawsuit_tui.services.downloads import Progress, SavedFile, save_linked

__all__ = ["TransferFileNotReady", "TransferFileService"]


class TransferFileNotReady(LookupError):
    """The file is not made yet (pending, in progress) or failed: there is nothing to get."""


class TransferFileService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    async def list(self, params: TransferFilesPageParams | None = None) -> list[TransferFile]:
        """Every file the filters keep, newest first (as the service orders them)."""
        return [item async for item in self._d.api.iter_transfer_files(params)]

    async def get(self, transfer_file_id: str) -> TransferFile:
        return await self._d.api.get_transfer_file(transfer_file_id)

    async def download(
        self,
        transfer_file_id: str,
        dest_dir: Path,
        *,
        progress: Progress | None = None,
        mark: bool = False,
    ) -> SavedFile:
        """Save the file into ``dest_dir`` under its own name (never overwriting); with
        ``mark``, then tell the service it was downloaded."""
        api = self._d.api

        async def link() -> AttachmentLink:
            item = await api.get_transfer_file(transfer_file_id)
            if not item.pre_signed_url:
                raise TransferFileNotReady(
                    _("file {name} is {status}: there is nothing to download yet").format(
                        name=item.name or transfer_file_id, status=item.status
                    )
                )
            return AttachmentLink(attachment_url=item.pre_signed_url)

        saved = await save_linked(
            link,
            api.fetch_file,
            Path(dest_dir),
            name=None,
            fallback=f"{transfer_file_id}.bin",
            progress=progress,
        )
        if mark:
            await self.mark(transfer_file_id, TransferFileStatus.DOWNLOADED)
        return saved

    async def mark(
        self, transfer_file_id: str, status: str, error_message: str | None = None
    ) -> TransferFile:
        """``downloaded``, or ``error`` with a message (checked before any call)."""
        body = TransferFilePatchBody(status=status, error_message=error_message)
        return await self._d.api.update_transfer_file(transfer_file_id, body)

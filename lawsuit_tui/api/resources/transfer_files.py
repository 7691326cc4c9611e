"""Transfer files (file-transfer page, D123): list, one with its address, mark it used."""

from __future__ import annotations

from collections.abc import AsyncIterator

from lawsuit_tui.api.pagination import iter_items, iter_pages
from lawsuit_tui.api.resources.base import RouteCaller, wire_of
from lawsuit_tui.domain.transfer_files import (
    TRANSFER_FILES_MAX_PAGE_SIZE,
    TransferFile,
    TransferFilePatchBody,
    TransferFilesPage,
    TransferFilesPageParams,
)

__all__ = ["TransferFileRoutes"]


class TransferFileRoutes(RouteCaller):
    async def list_transfer_files(
        self, params: TransferFilesPageParams | None = None
    ) -> TransferFilesPage:
        """GET {lawsuits_url}/transfer-file: one page, newest first."""
        query = (params or TransferFilesPageParams()).to_query()
        return await self._call("list_transfer_files", self._model(TransferFilesPage), params=query)

    def iter_transfer_files(
        self, params: TransferFilesPageParams | None = None
    ) -> AsyncIterator[TransferFile]:
        """Every file the filters of ``params`` keep, each once (pages of 100, D75)."""
        base = params or TransferFilesPageParams()
        size = TRANSFER_FILES_MAX_PAGE_SIZE

        def page(number: int) -> TransferFilesPageParams:
            return base.model_copy(update={"page": number, "page_size": size})

        return iter_items(
            iter_pages(lambda n: self.list_transfer_files(page(n))),
            key=lambda item: item.transfer_file_id,
        )

    async def get_transfer_file(self, transfer_file_id: str) -> TransferFile:
        """GET {lawsuits_url}/transfer-file/{id}: the file and its ``pre_signed_url``."""
        return await self._call(
            "get_transfer_file",
            self._model(TransferFile),
            path={"transfer_file_id": transfer_file_id},
        )

    async def update_transfer_file(
        self, transfer_file_id: str, body: TransferFilePatchBody
    ) -> TransferFile:
        """PATCH {lawsuits_url}/transfer-file/{id}: ``downloaded``, or ``error`` and why."""
        return await self._call(
            "update_transfer_file",
            self._model(TransferFile),
            path={"transfer_file_id": transfer_file_id},
            body=wire_of(body),
        )

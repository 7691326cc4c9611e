"""Arrest warrants and penal executions in the answers of requests (D68, D70, D116, D122).

A warrant or execution search is an ordinary request (``RequestService.create``); this service
reads what came back and fetches a warrant's document.
"""

from __future__ import annotations

from pathlib import Path

from lawsuit_tui.domain.enums import ResponseType
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.domain.warrants import Warrant
from lawsuit_tui.i18n import _
from lawsuit_tui.services.deps import Deps
from lawsuit_tui.services.downloads import Progress, SavedFile, save_linked

__all__ = ["WarrantService", "as_execution"]


def as_execution(response: ResponseRecord, request: RequestRecord | None) -> Lawsuit | None:
    """The penal execution a response carries: an ``execution`` response, or (D70) a
    ``lawsuit`` response of a request that asked for executions (the pages' examples)."""
    lawsuit = response.lawsuit
    if lawsuit is None:
        return None
    if response.response_type == ResponseType.EXECUTION:
        return lawsuit
    search = request.search if request is not None else None
    asked = search.response_type if search is not None else None
    return lawsuit if asked == ResponseType.EXECUTION else None


class WarrantService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    async def download_document(
        self, warrant: Warrant, dest_dir: Path, *, progress: Progress | None = None
    ) -> SavedFile:
        """Save the warrant's document (its one attachment, D122) into ``dest_dir``."""
        attachments = [a for a in warrant.attachments or [] if a.attachment_id]
        if not warrant.code or not attachments:
            raise LookupError(_("this warrant has no document to download"))
        attachment_id = attachments[0].attachment_id or ""
        code = warrant.code
        api = self._d.api
        return await save_linked(
            lambda: api.warrant_attachment_link(code, attachment_id),
            api.fetch_file,
            Path(dest_dir),
            name=attachments[0].attachment_name,
            fallback=f"{warrant.number or code}.pdf",
            progress=progress,
        )

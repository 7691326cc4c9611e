"""A lawsuit from the cache, its refresh by a new request, its attachments and its export."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

import orjson

from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.domain.identifiers import parse_search_key
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.i18n import _
from lawsuit_tui.services.deps import Deps
from lawsuit_tui.services.downloads import Progress, safe_filename, save_linked
from lawsuit_tui.services.requests import RequestService
from lawsuit_tui.services.results import LawsuitView
from lawsuit_tui.store import LawsuitChange
from lawsuit_tui.store.tables.lawsuit_versions import diff

__all__ = ["LawsuitService", "safe_filename"]  # safe_filename: services/downloads.py

_TEXT_TYPES = ("text/", "application/json", "application/xml")


class LawsuitService:
    def __init__(self, deps: Deps, requests: RequestService) -> None:
        self._d = deps
        self._requests = requests

    def cached(self, code: str, instance: int | None = None) -> LawsuitView | None:
        """The lawsuit as the cache holds it (definitive if known, else provisional)."""
        entry = self._d.cache.lawsuit_entry(code, instance)
        if entry is None:
            return None
        changes = entry.changes
        return LawsuitView(
            lawsuit=Lawsuit.model_validate(entry.lawsuit),
            provisional=entry.provisional,
            stored_at=entry.stored_at,
            new_step_ids=set(changes.new_step_ids) if changes else set(),
            new_attachment_ids=set(changes.new_attachment_ids) if changes else set(),
        )

    def view_of(self, lawsuit: Lawsuit, fetched_at: datetime | None = None) -> LawsuitView:
        """A lawsuit already validated (a lookup's) as the cache knows it: whether it is
        provisional and what its stored version brought, without validating it again. When
        the cache holds nothing for it (read-only), a provisional copy of ``fetched_at``.
        A blocking call (a store read): call it from a worker thread."""
        entry = self._d.cache.lawsuit_state(lawsuit.code, lawsuit.instance)
        if entry is None:
            return LawsuitView(
                lawsuit=lawsuit, provisional=True, stored_at=fetched_at or self._d.now()
            )
        changes = entry.changes
        return LawsuitView(
            lawsuit=lawsuit,
            provisional=entry.provisional,
            stored_at=entry.stored_at,
            new_step_ids=set(changes.new_step_ids) if changes else set(),
            new_attachment_ids=set(changes.new_attachment_ids) if changes else set(),
        )

    def changes_between(self, old: Lawsuit, new: Lawsuit) -> LawsuitChange:
        """What ``new`` brings over ``old`` (new steps, attachments, parties), as the cache
        would say on storing it: for a copy the cache did not keep (read-only)."""
        return diff(
            old.model_dump(mode="json", exclude_none=True),
            new.model_dump(mode="json", exclude_none=True),
            code=new.code,
            instance=new.instance,
        )

    async def refresh(self, code: str, *, with_attachments: bool = False) -> list[RequestRecord]:
        """Ask the court again: creates a lawsuit request (follow it with
        ``requests.follow`` for its progress). The number is checked before any call."""
        key = parse_search_key(code)
        body = CreateRequestBody(
            search=SearchBody(search_type=key.search_type, search_key=key.key),
            with_attachments=with_attachments or None,
        )
        return await self._requests.create(body)

    async def download_attachment(
        self,
        code: str,
        instance: int | None,
        attachment_id: str,
        dest_dir: Path,
        filename: str | None = None,
        *,
        progress: Progress | None = None,
    ) -> Path:
        """Save an attachment's file into ``dest_dir`` (never overwriting, streamed: D81,
        D121); its path. ``progress(received, total)`` as the bytes arrive."""
        api = self._d.api
        saved = await save_linked(
            lambda: api.attachment_link(code, instance or 1, attachment_id),
            api.fetch_file,
            Path(dest_dir),
            name=filename,
            fallback=self._attachment_name(code, instance, attachment_id),
            progress=progress,
        )
        return saved.path

    def _attachment_name(self, code: str, instance: int | None, attachment_id: str) -> str:
        data = self._d.cache.get_lawsuit(code, instance)
        for item in (data or {}).get("attachments") or []:
            if isinstance(item, dict) and item.get("attachment_id") == attachment_id:
                name = str(item.get("attachment_name") or attachment_id)
                extension = item.get("extension")
                if extension and not name.lower().endswith("." + str(extension).lower()):
                    name = f"{name}.{extension}"
                return name
        return attachment_id

    async def attachment_text(self, code: str, instance: int | None, attachment_id: str) -> str:
        """The text of an attachment: its ``content`` when the cache has it, else the file
        when it is text; a one-line note for a binary file."""
        data = self._d.cache.get_lawsuit(code, instance)
        for item in (data or {}).get("attachments") or []:
            if (
                isinstance(item, dict)
                and item.get("attachment_id") == attachment_id
                and isinstance(item.get("content"), str)
                and item["content"].strip()
            ):
                return str(item["content"])
        file = await self._d.api.download_attachment(code, instance or 1, attachment_id)
        media = file.media_type or ""
        if media.startswith(_TEXT_TYPES) or not media:
            try:
                return file.content.decode("utf-8")
            except UnicodeDecodeError:
                pass
        return _("(binary file, {size} bytes, {media})").format(
            size=len(file.content), media=media or _("unknown type")
        )

    async def export_to(self, code: str, instance: int | None, folder: Path) -> Path:
        """Write the cached lawsuit as JSON into ``folder`` (made if missing), as
        ``<code>[-<instance>].json``; the file written."""
        text = self.export_json(code, instance)
        suffix = f"-{instance}" if instance else ""
        target = folder / f"{code}{suffix}.json"

        def write() -> None:
            folder.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")

        await asyncio.to_thread(write)
        return target

    def export_json(self, code: str, instance: int | None = None) -> str:
        """The cached lawsuit as indented JSON, every field kept (nothing secret is cached)."""
        data = self._d.cache.get_lawsuit(code, instance)
        if data is None:
            raise LookupError(_("lawsuit {code} is not in the cache").format(code=code))
        return orjson.dumps(data, option=orjson.OPT_INDENT_2).decode()

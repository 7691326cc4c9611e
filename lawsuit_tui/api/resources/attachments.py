"""Attachments: the documents of a lawsuit's steps and of an arrest warrant (D41, D81, D122).

Both routes answer ``{attachment_url}``, a short-lived address of the file (D81); the file
itself is fetched from there, streamed, by :meth:`AttachmentRoutes.fetch_file`. That address may
be another host's (the provider's storage): it is asked without the api-key (D121). An older
service that answers the file itself is read too.
"""

from __future__ import annotations

import io
from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

import httpx
import orjson

from lawsuit_tui.api.errors import TransportFailure, error_from_response
from lawsuit_tui.api.models import AttachmentFile
from lawsuit_tui.api.resources.base import RouteCaller, filename_of
from lawsuit_tui.api.routes import ROUTES, Route
from lawsuit_tui.domain.file_links import AttachmentLink

__all__ = ["CHUNK_SIZE", "AttachmentRoutes", "FetchedFile", "Progress"]

CHUNK_SIZE = 64 * 1024

Progress = Callable[[int, int | None], None]
"""``progress(received_bytes, total_bytes_or_None)`` as a download goes."""


@dataclass(frozen=True)
class FetchedFile:
    """What :meth:`AttachmentRoutes.fetch_file` wrote: its size and what the server said."""

    size: int
    media_type: str | None
    filename: str | None


def _media(response: httpx.Response) -> str | None:
    media = response.headers.get("content-type")
    return media.split(";")[0].strip() if media else None


def _link_or_file(response: httpx.Response) -> AttachmentLink | AttachmentFile:
    """D81's ``{attachment_url}``; a file answered directly (D41) is taken as the file."""
    if _media(response) == "application/json":
        data = orjson.loads(response.content)
        if isinstance(data, dict) and isinstance(data.get("attachment_url"), str):
            return AttachmentLink.model_validate(data)
    return AttachmentFile(
        content=response.content,
        media_type=_media(response),
        filename=filename_of(response.headers.get("content-disposition")),
    )


class AttachmentRoutes(RouteCaller):
    @property
    @abstractmethod
    def http(self) -> httpx.AsyncClient: ...

    @abstractmethod
    def _timeout(self, route: Route) -> httpx.Timeout: ...

    async def attachment_link(
        self, code: str, instance: int | str, attachment_id: str
    ) -> AttachmentLink | AttachmentFile:
        """GET {lawsuits_url}/lawsuits/{cnj}/{instance}/attachments/{id} (D41, D81)."""
        return await self._call(
            "download_attachment",
            _link_or_file,
            path={"code": code, "instance": instance, "attachment_id": attachment_id},
        )

    async def warrant_attachment_link(
        self, code: str, attachment_id: str
    ) -> AttachmentLink | AttachmentFile:
        """GET {lawsuits_url}/warrants/{lawsuit_cnj}/attachments/{id} (D122)."""
        return await self._call(
            "warrant_attachment",
            _link_or_file,
            path={"code": code, "attachment_id": attachment_id},
        )

    async def fetch_file(
        self, url: str, sink: BinaryIO, progress: Progress | None = None
    ) -> FetchedFile:
        """Stream the file at ``url`` into ``sink`` (D121): no api-key, the time-outs of a
        file route, ``progress`` after every chunk. An error answer raises the client's error
        (403: the address expired)."""
        timeout = self._timeout(ROUTES["download_attachment"])
        received = 0
        try:
            async with self.http.stream("GET", url, timeout=timeout) as response:
                if not 200 <= response.status_code < 300:
                    body = await response.aread()
                    raise error_from_response(
                        response.status_code, body, response.headers, route=f"GET {url}"
                    )
                length = response.headers.get("content-length")
                total = int(length) if length and length.isdigit() else None
                if progress is not None:
                    progress(0, total)
                async for chunk in response.aiter_bytes(CHUNK_SIZE):
                    sink.write(chunk)
                    received += len(chunk)
                    if progress is not None:
                        progress(received, total)
                return FetchedFile(
                    received,
                    _media(response),
                    filename_of(response.headers.get("content-disposition")),
                )
        except httpx.HTTPError as exc:
            text = str(exc).strip() or type(exc).__name__
            timed_out = isinstance(exc, httpx.TimeoutException)
            raise TransportFailure(text, timed_out=timed_out, sent=True) from exc

    async def download_attachment(
        self, code: str, instance: int | str, attachment_id: str
    ) -> AttachmentFile:
        """The bytes of an attachment, in memory (for small ones: the text viewer)."""
        found = await self.attachment_link(code, instance, attachment_id)
        if isinstance(found, AttachmentFile):
            return found
        buffer = io.BytesIO()
        fetched = await self.fetch_file(found.attachment_url, buffer)
        return AttachmentFile(buffer.getvalue(), fetched.media_type, fetched.filename)

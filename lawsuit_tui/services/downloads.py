"""Saving a file the service points at (D81, D121): streamed to disk, never half written.

Every download (a lawsuit's attachment, a warrant's document, a transfer file) goes through
:func:`save_linked`: ask the route for the file's address, stream the bytes into a temporary
file beside the destination, then give it its name. The name is never an existing file's
(``name (1).pdf``); a download that fails leaves nothing behind; an address that expired
before it was used is asked for again, once.
"""

from __future__ import annotations

import asyncio
import os
import re
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from lawsuit_tui.api.errors import Forbidden
from lawsuit_tui.api.models import AttachmentFile
from lawsuit_tui.api.resources.attachments import FetchedFile, Progress
from lawsuit_tui.domain.file_links import AttachmentLink

__all__ = ["Progress", "SavedFile", "safe_filename", "save_bytes", "save_linked", "unique_path"]

_UNSAFE = re.compile(r"[^\w.\- ()\[\]]+", re.UNICODE)

LinkSource = Callable[[], Awaitable[AttachmentLink | AttachmentFile]]
Fetch = Callable[[str, BinaryIO, Progress | None], Awaitable[FetchedFile]]


@dataclass(frozen=True)
class SavedFile:
    path: Path
    size: int
    media_type: str | None


def safe_filename(name: str, fallback: str) -> str:
    """A file name that stays inside the destination folder (no path, no control chars)."""
    base = Path(name.replace("\\", "/")).name.strip()
    base = _UNSAFE.sub("_", base).strip(" .")
    return base[:150] or fallback


def unique_path(path: Path) -> Path:
    """``path``, or ``stem (n).suffix`` when a file already has that name."""
    if not path.exists():
        return path
    stem, suffix = path.stem, path.suffix
    n = 1
    while True:
        candidate = path.with_name(f"{stem} ({n}){suffix}")
        if not candidate.exists():
            return candidate
        n += 1


def _folder(dest_dir: Path) -> Path:
    # Downloads may be private (a warrant, a client's portfolio): a new folder is 0700.
    dest_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    return dest_dir


def _settle(temporary: Path, dest_dir: Path, name: str) -> Path:
    """fsync the temporary file and give it its final, unused name."""
    with temporary.open("rb") as handle:
        os.fsync(handle.fileno())
    target = unique_path(dest_dir / name)
    temporary.replace(target)
    return target


def _discard(temporary: Path) -> None:
    temporary.unlink(missing_ok=True)


def _write(dest_dir: Path, name: str, content: bytes) -> Path:
    folder = _folder(dest_dir)
    fd, tmp = tempfile.mkstemp(prefix=".download-", dir=folder)  # 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
        return _settle(Path(tmp), folder, name)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


async def save_bytes(dest_dir: Path, name: str, content: bytes) -> Path:
    """Write ``content`` as ``name`` in ``dest_dir`` (never overwriting); its path."""
    return await asyncio.to_thread(_write, Path(dest_dir), name, content)


async def save_linked(
    get_link: LinkSource,
    fetch: Fetch,
    dest_dir: Path,
    *,
    name: str | None,
    fallback: str,
    progress: Progress | None = None,
) -> SavedFile:
    """Ask ``get_link`` for the file's address, stream it with ``fetch`` into ``dest_dir``.

    ``name``: the file name to give (else the server's, else ``fallback``), made safe.
    """
    folder = await asyncio.to_thread(_folder, Path(dest_dir))
    found = await get_link()
    if isinstance(found, AttachmentFile):  # an older service answering the file (D41)
        chosen = safe_filename(name or found.filename or fallback, fallback)
        path = await save_bytes(folder, chosen, found.content)
        if progress is not None:
            progress(len(found.content), len(found.content))
        return SavedFile(path, len(found.content), found.media_type)
    fd, tmp = await asyncio.to_thread(tempfile.mkstemp, prefix=".download-", dir=folder)
    temporary = Path(tmp)
    try:
        with os.fdopen(fd, "wb") as sink:
            try:
                fetched = await fetch(found.attachment_url, sink, progress)
            except Forbidden:
                # D121: the address expired before it was used: ask for a new one, once.
                sink.seek(0)
                sink.truncate()
                again = await get_link()
                if isinstance(again, AttachmentFile):
                    sink.write(again.content)
                    fetched = FetchedFile(len(again.content), again.media_type, again.filename)
                else:
                    fetched = await fetch(again.attachment_url, sink, progress)
        chosen = safe_filename(name or fetched.filename or fallback, fallback)
        path = await asyncio.to_thread(_settle, temporary, folder, chosen)
    except BaseException:
        _discard(temporary)  # at once, even when cancelled: nothing half written stays
        raise
    return SavedFile(path, fetched.size, fetched.media_type)

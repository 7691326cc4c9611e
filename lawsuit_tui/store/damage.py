"""Damage stays reported until the user acknowledges it, and what can be read is kept.

When the writer finds a file it cannot read, it moves it aside as
``<name>.damaged-<UTC timestamp>`` (a shard, ``schema.json``) or copies it there (a journal
segment with a corrupt entry: its other entries were replayed). Those files stay where they
are, for inspection, and are reported (``cache verify`` exits 1; the app's status line says
so) until they are acknowledged: ``damage-acknowledged.json`` in the cache directory lists
the acknowledged ones by their path inside the cache (D139).

A shard set aside is salvaged first (:func:`salvage`): every record in it that still parses
whole, and whose body still reads, is kept (D140).
"""

from __future__ import annotations

import binascii
import contextlib
import json
import shutil
import time
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from lawsuit_tui.store.codec import unpack
from lawsuit_tui.store.fileio import FILE_MODE, atomic_write_bytes, fsync_dir

__all__ = [
    "ACK_FILE",
    "DAMAGED_MARK",
    "SetAside",
    "acknowledge",
    "copy_aside",
    "move_aside",
    "salvage",
    "set_aside_files",
]

ACK_FILE = "damage-acknowledged.json"
DAMAGED_MARK = ".damaged-"
_PLACES = ("", "tables", "journal")
_RECORD_START = '{"k":'


@dataclass(frozen=True)
class SetAside:
    """A damaged file kept aside: ``name`` its path inside the cache directory."""

    name: str
    size: int
    acknowledged: bool


def _stamp() -> str:
    return time.strftime("%Y%m%dT%H%M%S", time.gmtime())


def _aside_path(path: Path) -> Path:
    target = path.with_name(f"{path.name}{DAMAGED_MARK}{_stamp()}")
    number = 1
    while target.exists():  # two in one second: never overwrite the first
        number += 1
        target = path.with_name(f"{path.name}{DAMAGED_MARK}{_stamp()}-{number}")
    return target


def move_aside(path: Path) -> Path:
    """Move ``path`` aside (raises OSError); returns where it went."""
    target = _aside_path(path)
    path.replace(target)
    fsync_dir(path.parent)
    return target


def copy_aside(path: Path) -> Path:
    """Copy ``path`` aside, keeping the original in place (raises OSError)."""
    target = _aside_path(path)
    shutil.copyfile(path, target)
    target.chmod(FILE_MODE)
    fsync_dir(path.parent)
    return target


def _acknowledged(directory: Path) -> set[str]:
    try:
        data = orjson.loads((directory / ACK_FILE).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return set()
    names = data.get("acknowledged") if isinstance(data, dict) else None
    return {n for n in names if isinstance(n, str)} if isinstance(names, list) else set()


def set_aside_files(directory: Path) -> list[SetAside]:
    """Every file set aside in the cache at ``directory``, oldest name first."""
    acknowledged = _acknowledged(directory)
    found: list[SetAside] = []
    for place in _PLACES:
        folder = directory / place if place else directory
        with contextlib.suppress(OSError):
            for entry in sorted(folder.iterdir()):
                if DAMAGED_MARK not in entry.name or not entry.is_file():
                    continue
                name = f"{place}/{entry.name}" if place else entry.name
                with contextlib.suppress(OSError):
                    found.append(SetAside(name, entry.stat().st_size, name in acknowledged))
    return found


def acknowledge(directory: Path, names: Iterable[str]) -> None:
    """Add ``names`` to the acknowledged files (those no longer on disk are dropped)."""
    present = {f.name for f in set_aside_files(directory)}
    keep = sorted((_acknowledged(directory) | set(names)) & present)
    payload = json.dumps({"acknowledged": keep}, indent=1).encode()
    atomic_write_bytes(directory / ACK_FILE, payload)


def salvage(raw: bytes, bodies: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """The records of a damaged shard's text that still read whole, by key.

    Every record is written as a JSON object starting ``{"k":`` (its key first); each such
    start is parsed on its own, so damage costs only the records it touches. A record is
    kept when it is an object with a string key whose body fields (``bodies``) unpack.
    """
    text = raw.decode("utf-8", errors="replace")
    decoder = json.JSONDecoder()
    found: dict[str, dict[str, Any]] = {}
    position = text.find(_RECORD_START)
    while position >= 0:
        try:
            doc, end = decoder.raw_decode(text, position)
        except ValueError:
            position = text.find(_RECORD_START, position + 1)
            continue
        if _readable(doc, bodies):
            found[doc["k"]] = doc
            position = text.find(_RECORD_START, end)
        else:
            position = text.find(_RECORD_START, position + 1)
    return found


def _readable(doc: object, bodies: tuple[str, ...]) -> bool:
    if not isinstance(doc, dict) or not isinstance(doc.get("k"), str):
        return False
    try:
        for field in bodies:
            value = doc.get(field)
            if isinstance(value, str):
                unpack(value)
    except (ValueError, zlib.error, binascii.Error):
        return False
    return True

"""Records of the big tables held on disk: their index fields in memory, the rest read back.

The responses and lawsuits tables hold nearly all of a cache's bytes (a response carries its
lawsuit). Kept in memory, even packed, they made the store of a 50,000-response cache cost
about 180 MiB. A record that is in a shard file is therefore held as a :class:`ColdDoc`:
its key and index fields (what the in-memory indexes, counts and searches need) and where
its JSON text sits in the shard file; the bodies are read back (one ``pread``) when asked
for. Records written since the last checkpoint stay whole in memory until the next one.

Each shard file that cold records point into is held open (:class:`ShardFile`). A
checkpoint writes a new file and points the records it wrote at it; the old file, replaced
on disk, stays readable through its open descriptor for as long as a record (or a reader
holding one) still points at it, and is closed when the last one lets go. So a read never
races a checkpoint, in this process or in a read-only one: a reader keeps the version it
loaded until ``refresh()``.

Offsets are found without a second parser: shard files are written by orjson (ours, and
schema 1 and 2 alike), so each record's text is exactly ``orjson.dumps(record)`` at a
position that follows from the lengths before it; the text at that position is compared
before it is trusted, and a shard written in another form simply stays in memory.
"""

from __future__ import annotations

import contextlib
import os
import resource
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson

__all__ = [
    "ColdDoc",
    "Fields",
    "ShardFile",
    "locate",
    "raise_open_file_limit",
    "shard_bytes",
]

Doc = dict[str, Any]

_HEAD = b'{"records":{'
_TAIL = b"}}"
# Descriptors this process wants: one per shard of the big tables (192 by default), for
# this store and a read-only one, with room for everything else an app opens.
_WANTED_FILES = 4096


def raise_open_file_limit() -> None:
    """Lift the soft limit on open files towards ``_WANTED_FILES`` (macOS starts at 256)."""
    with contextlib.suppress(ValueError, OSError):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        ceiling = _WANTED_FILES if hard == resource.RLIM_INFINITY else min(hard, _WANTED_FILES)
        if soft != resource.RLIM_INFINITY and soft < ceiling:
            resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))


# Key sets of index fields, one tuple each, shared by every record that has them.
_NAMES: dict[tuple[str, ...], tuple[str, ...]] = {}


class Fields(tuple[Any, ...]):
    """A cold record's index fields, read with ``get`` like the dict they came from.

    ``(names, value, value, ...)``, the names shared: about 90 bytes where the dict took 180
    to 270, for each of tens of thousands of records."""

    __slots__ = ()

    @classmethod
    def of(cls, index: dict[str, Any], shared: frozenset[str] = frozenset()) -> Fields:
        """``shared``: fields whose values repeat across records (a request id): one string
        each instead of one per record."""
        names = tuple(index)
        names = _NAMES.setdefault(names, names)
        values = (
            sys.intern(value) if name in shared and isinstance(value, str) else value
            for name, value in index.items()
        )
        return cls((names, *values))

    def get(self, name: str, default: Any = None) -> Any:
        names: tuple[str, ...] = self[0]
        try:
            return self[names.index(name) + 1]
        except ValueError:
            return default


class ShardFile:
    """One version of a shard file, open for reading for as long as anything points at it."""

    __slots__ = ("__weakref__", "fd")

    def __init__(self, fd: int) -> None:
        self.fd = fd

    @classmethod
    def open(cls, path: Path) -> ShardFile:
        return cls(os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)))

    def read(self, offset: int, length: int) -> bytes:
        data = os.pread(self.fd, length, offset)
        if len(data) != length:  # a file cut short under us: say so rather than misparse
            raise OSError(f"short read: {len(data)} of {length} bytes at {offset}")
        return data

    def read_all(self) -> bytes:
        """The whole file, from its start (to its end as it is now)."""
        parts: list[bytes] = []
        offset = 0
        while chunk := os.pread(self.fd, 1 << 24, offset):
            parts.append(chunk)
            offset += len(chunk)
        return b"".join(parts)

    def close(self) -> None:
        fd, self.fd = self.fd, -1
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)

    def __del__(self) -> None:
        self.close()


class ColdDoc:
    """A record whose JSON text is in a shard file: its key and index fields in memory.

    Reads like the record's dict for ``"k"`` and ``"i"`` (what the indexes use); anything
    else is in :meth:`load`. ``flag``: one fact about the rest of the record that its table
    keeps in memory (see ``TableSpec.cold_flag``; lawsuits: no definitive version is held).
    """

    __slots__ = ("_span", "file", "flag", "i", "k")

    def __init__(
        self,
        k: str,
        i: Fields,
        file: ShardFile,
        offset: int,
        length: int,
        *,
        flag: bool = False,
    ) -> None:
        self.k = k
        self.i = i
        self.file = file
        # One int for both (records are far below 4 GiB): 36 bytes less for each of tens of
        # thousands of records.
        self._span = offset << 32 | length
        self.flag = flag

    @property
    def offset(self) -> int:
        return self._span >> 32

    @property
    def length(self) -> int:
        return self._span & 0xFFFFFFFF

    def __getitem__(self, name: str) -> Any:
        if name == "k":
            return self.k
        if name == "i":
            return self.i
        raise KeyError(name)

    def get(self, name: str, default: Any = None) -> Any:
        if name == "k":
            return self.k
        if name == "i":
            return self.i
        # A body field asked of a cold record is a bug: it must go through load().
        raise KeyError(name)

    def raw(self) -> bytes:
        """The record's JSON text as it is in the shard file."""
        return self.file.read(self.offset, self.length)

    def load(self) -> Doc:
        """The whole record, read back from its shard file."""
        doc: Doc = orjson.loads(self.raw())
        return doc


def locate(raw: bytes, records: Iterable[tuple[str, Doc]]) -> list[tuple[Doc, int, int]] | None:
    """``(doc, offset, length)`` of each record of a shard file's text ``raw``, given its
    ``(doc id, record)`` pairs parsed from it in order; None when the file is not in
    orjson's compact form (written by something else: its records then stay in memory)."""
    if not raw.startswith(_HEAD):
        return None
    found: list[tuple[Doc, int, int]] = []
    position = len(_HEAD)
    for number, (doc_id, doc) in enumerate(records):
        label = (b"," if number else b"") + orjson.dumps(doc_id) + b":"
        if not raw.startswith(label, position):  # compared in place, not copied
            return None
        position += len(label)
        text = orjson.dumps(doc)
        if not raw.startswith(text, position):
            return None
        found.append((doc, position, len(text)))
        position += len(text)
    return found


def shard_bytes(records: Iterable[bytes]) -> tuple[bytes, list[tuple[int, int]]]:
    """The text of a shard file holding ``records`` (each a record's JSON text), in the
    TinyDB layout, and where each record's text sits in it."""
    parts: list[bytes] = [_HEAD]
    spans: list[tuple[int, int]] = []
    position = len(_HEAD)
    for number, text in enumerate(records, 1):
        label = (b',"%d":' if number > 1 else b'"%d":') % number
        parts.append(label)
        position += len(label)
        parts.append(text)
        spans.append((position, len(text)))
        position += len(text)
    parts.append(_TAIL)
    return b"".join(parts), spans

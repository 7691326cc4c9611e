"""How record bodies are held: zlib-compressed, base64 text, in memory and in the files.

A body is a JSON document (a record, a lawsuit version). Held as compact JSON text it costs
its full size in memory for the life of the app (about 320 MiB for 50,000 responses and
20,000 lawsuits); compressed at zlib level 1 it costs a fifth to a quarter of that. It stays
a ``str`` (``"z:"`` + base64) so the shard files remain plain TinyDB JSON documents, and a
shard loads without touching the bodies: they are decompressed only when read.

Bodies too small to gain are kept as JSON text. :func:`unpack` reads both forms (JSON text
never starts with ``z``), so records written by schema 1 still read.
"""

from __future__ import annotations

import binascii
import zlib
from typing import Any

import orjson

__all__ = ["is_packed", "pack", "pack_value", "unpack", "unpack_bytes"]

_MARK = "z:"
# Below this a zlib stream plus base64 is no smaller than the text.
_MIN_PACKED = 160
_LEVEL = 1


def pack(raw: bytes) -> str:
    """The held form of a JSON document given as bytes (orjson output)."""
    if len(raw) < _MIN_PACKED:
        return raw.decode()
    return _MARK + binascii.b2a_base64(zlib.compress(raw, _LEVEL), newline=False).decode("ascii")


def pack_value(value: Any) -> str:
    return pack(orjson.dumps(value))


def is_packed(text: str) -> bool:
    return text.startswith(_MARK)


def unpack_bytes(text: str) -> bytes | str:
    """The JSON text of a held body (bytes when it was packed)."""
    if text.startswith(_MARK):
        return zlib.decompress(binascii.a2b_base64(text[2:]))
    return text


def unpack(text: str) -> Any:
    """The parsed document of a held body."""
    return orjson.loads(unpack_bytes(text))

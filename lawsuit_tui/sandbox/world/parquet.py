"""A minimal Apache Parquet writer: one row group, one plain page per column, no compression.

Enough for the sandbox's transfer files to be real Parquet files that any reader opens
(pandas, DuckDB, Spark...), without a columnar library in the sandbox. Columns are required
(no nulls): UTF-8 strings, 64-bit integers or doubles. The footer is Thrift's compact
protocol, written by hand below (the format's specification: parquet-format's
``parquet.thrift``).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["write_table"]

_MAGIC = b"PAR1"
# parquet.thrift enums
_BYTE_ARRAY, _INT64, _DOUBLE = 6, 2, 5
_REQUIRED = 0
_UTF8 = 0
_PLAIN, _RLE = 0, 3
_UNCOMPRESSED = 0
_DATA_PAGE = 0
# Thrift compact protocol types
_I32, _I64, _BINARY, _LIST, _STRUCT = 5, 6, 8, 9, 12


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _zigzag(value: int) -> int:
    return (value << 1) ^ (value >> 63)


class _Struct:
    """A Thrift struct in the compact protocol, fields added in increasing id order."""

    def __init__(self) -> None:
        self.out = bytearray()
        self._last = 0

    def _head(self, field_id: int, kind: int) -> None:
        delta = field_id - self._last
        if 0 < delta <= 15:
            self.out.append((delta << 4) | kind)
        else:
            self.out.append(kind)
            self.out += _varint(_zigzag(field_id))
        self._last = field_id

    def i32(self, field_id: int, value: int) -> _Struct:
        self._head(field_id, _I32)
        self.out += _varint(_zigzag(value))
        return self

    def i64(self, field_id: int, value: int) -> _Struct:
        self._head(field_id, _I64)
        self.out += _varint(_zigzag(value))
        return self

    def string(self, field_id: int, value: str) -> _Struct:
        data = value.encode("utf-8")
        self._head(field_id, _BINARY)
        self.out += _varint(len(data)) + data
        return self

    def struct(self, field_id: int, value: _Struct) -> _Struct:
        self._head(field_id, _STRUCT)
        self.out += value.done()
        return self

    def structs(self, field_id: int, values: Sequence[_Struct]) -> _Struct:
        self._list_head(field_id, len(values), _STRUCT)
        for value in values:
            self.out += value.done()
        return self

    def i32s(self, field_id: int, values: Sequence[int]) -> _Struct:
        self._list_head(field_id, len(values), _I32)
        for value in values:
            self.out += _varint(_zigzag(value))
        return self

    def strings(self, field_id: int, values: Sequence[str]) -> _Struct:
        self._list_head(field_id, len(values), _BINARY)
        for value in values:
            data = value.encode("utf-8")
            self.out += _varint(len(data)) + data
        return self

    def _list_head(self, field_id: int, size: int, kind: int) -> None:
        self._head(field_id, _LIST)
        if size < 15:
            self.out.append((size << 4) | kind)
        else:
            self.out.append(0xF0 | kind)
            self.out += _varint(size)

    def done(self) -> bytes:
        return bytes(self.out) + b"\x00"


def _plain(kind: int, values: Iterable[Any]) -> bytes:
    out = bytearray()
    for value in values:
        if kind == _BYTE_ARRAY:
            data = str(value).encode("utf-8")
            out += struct.pack("<i", len(data)) + data
        elif kind == _INT64:
            out += struct.pack("<q", int(value))
        else:
            out += struct.pack("<d", float(value))
    return bytes(out)


def write_table(
    columns: Sequence[str],
    rows: Sequence[dict[str, Any]],
    *,
    doubles: Sequence[str] = (),
    integers: Sequence[str] = (),
) -> bytes:
    """A Parquet file of ``rows`` (dicts by column name): ``doubles`` and ``integers`` name the
    numeric columns, every other column is a UTF-8 string."""
    out = bytearray(_MAGIC)
    chunks: list[_Struct] = []
    schema = [_Struct().string(4, "schema").i32(5, len(columns))]
    for name in columns:
        kind = _DOUBLE if name in doubles else _INT64 if name in integers else _BYTE_ARRAY
        element = _Struct().i32(1, kind).i32(3, _REQUIRED).string(4, name)
        if kind == _BYTE_ARRAY:
            element.i32(6, _UTF8)
        schema.append(element)
        data = _plain(kind, (row[name] for row in rows))
        page_header = (
            _Struct()
            .i32(1, _DATA_PAGE)
            .i32(2, len(data))
            .i32(3, len(data))
            .struct(5, _Struct().i32(1, len(rows)).i32(2, _PLAIN).i32(3, _RLE).i32(4, _RLE))
            .done()
        )
        offset = len(out)
        out += page_header + data
        size = len(page_header) + len(data)
        metadata = (
            _Struct()
            .i32(1, kind)
            .i32s(2, [_PLAIN, _RLE])
            .strings(3, [name])
            .i32(4, _UNCOMPRESSED)
            .i64(5, len(rows))
            .i64(6, size)
            .i64(7, size)
            .i64(9, offset)
        )
        chunks.append(_Struct().i64(2, offset).struct(3, metadata))
    total = len(out) - len(_MAGIC)
    row_group = _Struct().structs(1, chunks).i64(2, total).i64(3, len(rows))
    footer = (
        _Struct()
        .i32(1, 1)
        .structs(2, schema)
        .i64(3, len(rows))
        .structs(4, [row_group])
        .string(6, "lawsuit-tui sandbox")
        .done()
    )
    out += footer + struct.pack("<i", len(footer)) + _MAGIC
    return bytes(out)

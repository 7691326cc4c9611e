"""A TinyDB storage that is crash-safe and fast: orjson plus atomic replacement.

TinyDB's own JSONStorage writes in place (a kill can leave JSON followed by an old tail)
and uses the slow json module. This storage parses with orjson and writes through
:func:`lawsuit_tui.store.fileio.atomic_write_bytes`, so every shard file of the cache is a
valid TinyDB database that ``TinyDB(path, storage=AtomicOrjsonStorage)`` can open.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from tinydb.storages import Storage

from lawsuit_tui.store.errors import CacheReadOnly
from lawsuit_tui.store.fileio import atomic_write_bytes


class DamagedFile(ValueError):
    """The file exists but is not a TinyDB JSON document."""


def parse_tinydb(raw: bytes) -> dict[str, dict[str, Any]] | None:
    """The tables of a TinyDB file's text (None when empty); DamagedFile if it is not one."""
    if not raw.strip():
        return None
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise DamagedFile(f"not valid JSON: {exc}") from exc
    if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
        raise DamagedFile("not a TinyDB document")
    return data


class AtomicOrjsonStorage(Storage):
    def __init__(
        self,
        path: str | Path,
        *,
        read_only: bool = False,
        sync_dir: bool = True,
        **_: Any,
    ) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self.sync_dir = sync_dir

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        return parse_tinydb(raw)

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        if self.read_only:
            raise CacheReadOnly(f"{self.path} is open read-only")
        self.write_raw(orjson.dumps(data))

    def write_raw(self, raw: bytes) -> None:
        """Write an already serialised TinyDB document."""
        if self.read_only:
            raise CacheReadOnly(f"{self.path} is open read-only")
        atomic_write_bytes(self.path, raw, sync_dir=self.sync_dir)

    def close(self) -> None:
        return None

"""Schema version of the cache directory, its layout, and the migration hook.

``schema.json`` records the version and the number of shards of each table (keys are
placed by a hash modulo that number, so it cannot change without a migration). The tables
declare their number (``TableSpec.shards``); a table a cache does not hold yet gets it when
the cache is next opened for writing. When SCHEMA_VERSION grows, add a function to
MIGRATIONS under the old version: it receives the cache directory (held for writing) and
upgrades its files to version + 1.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from lawsuit_tui.store.codec import is_packed, pack
from lawsuit_tui.store.fileio import atomic_write_bytes, fsync_dir

# 1: bodies held as JSON text. 2: bodies packed (zlib + base64, see codec.py).
SCHEMA_VERSION = 2
SCHEMA_FILE = "schema.json"

Migration = Callable[[Path], None]

_BODY_FIELDS = ("b", "d", "p")


def _pack_bodies(directory: Path) -> None:
    """1 -> 2: rewrite every shard with its bodies packed. The journal is left as it is:
    its plain bodies still read (codec.unpack takes both forms) and are packed when the
    next checkpoint rewrites their shards. A kill midway leaves shards of both forms, which
    read alike, and the migration runs again."""
    tables = directory / "tables"
    if not tables.is_dir():
        return
    for path in sorted(tables.iterdir()):
        if not path.name.endswith(".json") or not path.is_file():
            continue
        try:
            data = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            continue  # a damaged shard is set aside when it is loaded
        changed = False
        for table in data.values() if isinstance(data, dict) else ():
            for doc in table.values() if isinstance(table, dict) else ():
                if not isinstance(doc, dict):
                    continue
                for field in _BODY_FIELDS:
                    text = doc.get(field)
                    if isinstance(text, str) and not is_packed(text):
                        doc[field] = pack(text.encode())
                        changed = True
                if isinstance(doc.get("c"), dict):  # a lawsuit's change set
                    doc["c"] = pack(orjson.dumps(doc["c"]))
                    changed = True
        if changed:
            atomic_write_bytes(path, orjson.dumps(data), sync_dir=False)
    fsync_dir(tables)


def packed_journal_doc(doc: Any) -> Any:
    """A journal document with its bodies packed: lines written by schema 1 hold text, and
    the migration leaves the journal as it is (they are packed as they are replayed)."""
    if not isinstance(doc, dict):
        return doc
    for field in _BODY_FIELDS:
        text = doc.get(field)
        if isinstance(text, str) and not is_packed(text):
            doc[field] = pack(text.encode())
    if isinstance(doc.get("c"), dict):
        doc["c"] = pack(orjson.dumps(doc["c"]))
    return doc


MIGRATIONS: dict[int, Migration] = {1: _pack_bodies}


def new_schema(layout: dict[str, int]) -> dict[str, Any]:
    """The schema of a new cache whose tables are laid out in ``layout`` (name: shards)."""
    return {"version": SCHEMA_VERSION, "shards": dict(layout)}


def read_schema(directory: Path) -> dict[str, Any] | None:
    """The schema document, None when absent; raises ValueError when unreadable."""
    try:
        raw = (directory / SCHEMA_FILE).read_bytes()
    except FileNotFoundError:
        return None
    data = orjson.loads(raw)
    if not isinstance(data, dict) or not isinstance(data.get("version"), int):
        raise ValueError("schema.json has no version")
    shards = data.get("shards")
    if not isinstance(shards, dict):
        raise ValueError("schema.json has no shard layout")
    data["shards"] = {k: int(v) for k, v in shards.items()}
    return data


def write_schema(directory: Path, schema: dict[str, Any]) -> None:
    atomic_write_bytes(directory / SCHEMA_FILE, orjson.dumps(schema, option=orjson.OPT_INDENT_2))


def migrate(directory: Path, schema: dict[str, Any]) -> dict[str, Any]:
    """Run the migrations from the stored version up to SCHEMA_VERSION."""
    version = int(schema["version"])
    while version < SCHEMA_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise ValueError(f"no migration from cache schema {version}")
        step(directory)
        version += 1
        schema = {**schema, "version": version}
        write_schema(directory, schema)
    return schema

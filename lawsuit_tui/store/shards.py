"""The shard files of ``tables/``: reading one, writing one, and the files cold records use.

Each table is split into shards, ``tables/<table>-<NNN>.json``, each a TinyDB database
(one TinyDB table, ``records``, holding the table's records) written whole and atomically
by a checkpoint. A shard of a cold table (see cold.py) stays open once read: its records
point into it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import orjson

from lawsuit_tui.store.cold import ColdDoc, Fields, ShardFile, locate, shard_bytes
from lawsuit_tui.store.records import Held, TableSpec
from lawsuit_tui.store.storage import AtomicOrjsonStorage, parse_tinydb

__all__ = ["TINYDB_TABLE", "LoadedShard", "ShardFiles", "hold_cold"]

TINYDB_TABLE = "records"

Signature = tuple[int, int, int]


def hold_cold(doc: Held, spec: TableSpec, file: ShardFile, offset: int, length: int) -> ColdDoc:
    """``doc`` held cold, its text at ``offset`` in ``file``, its index cut to the spec's."""
    if isinstance(doc, ColdDoc):
        return ColdDoc(doc.k, doc.i, file, offset, length, flag=doc.flag)
    index = doc.get("i")
    kept = spec.cold_fields or frozenset()
    fields = {k: v for k, v in index.items() if k in kept} if isinstance(index, dict) else {}
    flag = spec.cold_flag(doc) if spec.cold_flag is not None else False
    held = Fields.of(fields, spec.cold_shared)
    return ColdDoc(doc["k"], held, file, offset, length, flag=flag)


@dataclass
class LoadedShard:
    """A shard file as read: its records (cold where they could be placed in the file)."""

    records: dict[str, Held] = field(default_factory=dict)
    malformed: int = 0
    # A cold table's file not in our compact form: its records stay whole in memory until
    # a checkpoint rewrites it.
    needs_rewrite: bool = False


class ShardFiles:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        # The shard files cold records point into, open, by (table, shard).
        self.open_files: dict[tuple[str, int], ShardFile] = {}
        self.sizes: dict[tuple[str, int], int] = {}
        self.signatures: dict[tuple[str, int], Signature | None] = {}

    def path(self, table: str, number: int) -> Path:
        return self.directory / f"{table}-{number:03d}.json"

    @staticmethod
    def signature(path: Path) -> Signature | None:
        try:
            st = path.stat()
        except FileNotFoundError:
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def changed(self) -> list[tuple[str, int]]:
        """Shards whose file is not the one read last (a writer replaced it since)."""
        return [k for k, sig in self.signatures.items() if self.signature(self.path(*k)) != sig]

    def total_size(self) -> int:
        return sum(self.sizes.values())

    def load(self, table: str, number: int, spec: TableSpec | None) -> LoadedShard:
        """Read a shard file (absent: empty). Raises DamagedFile or OSError when it cannot
        be read; ``spec`` None: a table this release does not know, held whole."""
        path = self.path(table, number)
        sig = self.signature(path)
        self.signatures[(table, number)] = sig
        self.sizes[(table, number)] = sig[2] if sig else 0
        cold = spec is not None and spec.cold
        file: ShardFile | None = None
        raw = b""
        try:
            if sig is None:
                data = None
            else:
                # Read through the descriptor the cold records keep: the version parsed is
                # the version they point into, even if a writer replaces the file meanwhile.
                file = ShardFile.open(path)
                raw = file.read_all()
                data = parse_tinydb(raw)
        except FileNotFoundError:
            data = None
        except BaseException:
            if file is not None:
                file.close()
            raise
        loaded = LoadedShard()
        records = (data or {}).get(TINYDB_TABLE, {})
        for doc in records.values():
            if isinstance(doc, dict) and isinstance(doc.get("k"), str):
                loaded.records[doc["k"]] = doc
            else:
                loaded.malformed += 1
        if spec is not None and cold and file is not None and records and not loaded.malformed:
            spans = locate(raw, records.items())
            if spans is None:
                loaded.needs_rewrite = True
            else:
                for doc, offset, length in spans:
                    loaded.records[doc["k"]] = hold_cold(doc, spec, file, offset, length)
        if cold and file is not None:
            self.open_files[(table, number)] = file
        elif file is not None:
            file.close()
        return loaded

    def write(
        self, table: str, number: int, items: list[tuple[str, Held]]
    ) -> list[tuple[int, int]]:
        """Replace a shard file with ``items`` (not fsyncing the directory: the caller does,
        once for all); where each record's text sits in the new file."""
        # Cold records are copied from the file they are in, as they are there.
        texts = (d.raw() if isinstance(d, ColdDoc) else orjson.dumps(d) for _k, d in items)
        raw, spans = shard_bytes(texts)
        AtomicOrjsonStorage(self.path(table, number), sync_dir=False).write_raw(raw)
        self.sizes[(table, number)] = len(raw)
        return spans

    def close_all(self) -> None:
        for file in self.open_files.values():
            file.close()  # a read of a cold record after close() fails, never misreads
        self.open_files.clear()

"""Looking after a cache directory: what it holds and whether every file still reads."""

from __future__ import annotations

import contextlib
import zlib
from pathlib import Path
from typing import Any

from lawsuit_tui.i18n import _
from lawsuit_tui.store import journal as jr
from lawsuit_tui.store.codec import unpack
from lawsuit_tui.store.engine import Engine, unreadable
from lawsuit_tui.store.schema import SCHEMA_FILE, read_schema
from lawsuit_tui.store.shards import TINYDB_TABLE
from lawsuit_tui.store.storage import AtomicOrjsonStorage, DamagedFile

__all__ = ["stats", "verify"]


def _files(engine: Engine) -> list[Path]:
    files: list[Path] = []
    for sub in (engine.path, engine.tables_dir, engine.journal_dir):
        if sub.is_dir():
            files.extend(p for p in sub.iterdir() if p.is_file())
    return files


def stats(engine: Engine) -> dict[str, Any]:
    """Counts per table and sizes on disk."""
    with engine.lock:
        counts = engine.memory.counts()
    files = _files(engine)
    sizes: dict[str, int] = {"tables": 0, "journal": 0, "other": 0}
    for f in files:
        with contextlib.suppress(OSError):
            part = f.parent.name if f.parent != engine.path else "other"
            sizes[part if part in sizes else "other"] += f.stat().st_size
    return {
        "path": str(engine.path),
        "schema_version": engine.schema_version,
        "read_only": engine.read_only,
        "counts": counts,
        "files": len(files),
        "bytes_on_disk": sum(sizes.values()),
        "bytes_tables": sizes["tables"],
        "bytes_journal": sizes["journal"],
        "damaged_files": sorted(f.name for f in files if ".damaged-" in f.name),
        "problems": list(engine.problems),
    }


def verify(engine: Engine) -> list[str]:
    """Read every file of the cache; a list of what could not be read (empty: all good)."""
    problems: list[str] = []
    try:
        read_schema(engine.path)
    except (ValueError, OSError) as exc:
        problems.append(unreadable(engine.path / SCHEMA_FILE, exc))
    bodies = tuple(dict.fromkeys(f for spec in engine.specs.values() for f in spec.bodies))
    if engine.tables_dir.is_dir():
        for path in sorted(engine.tables_dir.iterdir()):
            if not path.name.endswith(".json") or not path.is_file():
                continue
            problems.extend(_verify_shard(path, bodies))
    for _num, seg in jr.list_segments(engine.journal_dir):
        result = jr.read_segment(seg)
        if result.problem:
            problems.append(result.problem)
    return problems


def _verify_shard(path: Path, bodies: tuple[str, ...]) -> list[str]:
    try:
        data = AtomicOrjsonStorage(path, read_only=True).read()
    except (DamagedFile, OSError) as exc:
        return [unreadable(path, exc)]
    bad = 0
    for doc in ((data or {}).get(TINYDB_TABLE) or {}).values():
        try:
            if not isinstance(doc, dict) or not isinstance(doc.get("k"), str):
                raise ValueError
            for field in bodies:
                if isinstance(doc.get(field), str):
                    unpack(doc[field])
        except (ValueError, zlib.error):
            bad += 1
    if not bad:
        return []
    return [_("{name}: {n} unreadable record(s)").format(name=path.name, n=bad)]

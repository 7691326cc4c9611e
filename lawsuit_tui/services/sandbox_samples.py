"""The embedded sandbox's sample keys, read straight from the state it keeps on disk (D185).

The lookup screen shows them as soon as it is drawn: reading them here costs one SQLite query
and no import of the sandbox, pydantic or the service layer, so they appear long before the
service context is open (which then answers them again, the same). Light on purpose: the
standard library only.

The state's ``samples`` part is one row of ``rows`` (sandbox/persistence.py): the JSON of
``KeptSamples`` (sandbox/records.py), ``{"version": n, "keys": {...}}``.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path
from typing import Any

from lawsuit_tui.services.paths import state_path_for

__all__ = ["kept_samples"]

# A writer holds the file for one call at most; the screen does not wait longer for a hint.
_WAIT_SECONDS = 0.5


def kept_samples(cache_dir: Path, seed: int) -> dict[str, Any] | None:
    """The sample keys the sandbox of ``seed`` under ``cache_dir`` keeps, or None (no state
    yet, none kept, a file that cannot be read): a hint, the service's answer is the truth."""
    path = state_path_for(cache_dir, seed)
    if not path.is_file():
        return None
    try:
        # mode=rw: never creates the file (a reset may just have removed it).
        db = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=_WAIT_SECONDS)
    except sqlite3.Error:
        return None
    try:
        db.execute("PRAGMA query_only = 1")
        row = db.execute("SELECT body FROM rows WHERE part = 'samples' AND id = ''").fetchone()
    except sqlite3.Error:
        return None
    finally:
        with contextlib.suppress(sqlite3.Error):
            db.close()
    if row is None:
        return None
    try:
        kept = json.loads(row[0])
    except (TypeError, ValueError):
        return None
    keys = kept.get("keys") if isinstance(kept, dict) else None
    return keys if isinstance(keys, dict) else None

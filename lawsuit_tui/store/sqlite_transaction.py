"""One write transaction on a SQLite database beside the cache (the inbox, the full-text index).

Those databases are opened in autocommit mode (``isolation_level=None``), so the transaction is
ours to open: ``BEGIN IMMEDIATE`` takes the write lock at once, before anything is read, so a
writer in another process waits here rather than failing at its first write.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator

__all__ = ["immediate_transaction"]


@contextlib.contextmanager
def immediate_transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``db`` in a transaction: committed when the block ends, rolled back when it raises."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")

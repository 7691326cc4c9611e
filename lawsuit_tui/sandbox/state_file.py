"""The file of a sandbox kept on disk: SQLite (WAL, full sync), rows of encoded records.

Why SQLite (D180): it is in the standard library, a commit is atomic and durable (a process
killed at any moment leaves the last commit whole: the state is never torn), and its write
lock is the lock the processes sharing a sandbox take for each transaction, with a wait built
in. Readers are never blocked by a writer.

Tables:

- ``meta(name, value)``: ``format``, ``seed``, ``generation`` (drawn when the file is made;
  salts the ids), ``version`` (raised by every transaction that changed something);
- ``rows(part, id, version, body)``: one row per record of a part of the state (see
  sandbox/persistence.py), with the version that last wrote it; its rowid keeps the order in
  which records were made;
- ``removed(part, id, version)``: records removed, so that a process that last read an older
  version removes them too.

Every process that opens the file holds a shared lock on ``<file>.lock`` until it closes it:
:func:`remove_state` (``lawsuit-tui sandbox reset``) takes it exclusively, so a sandbox is
never removed from under a process that uses it.

Every method blocks; the persistence layer calls them from one thread of its own.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path

__all__ = ["FORMAT", "StateBusy", "StateFile", "StateFileError", "StateInUse", "remove_state"]

FORMAT = "1"
# How long a transaction waits for another process's (seconds): the longest a sandbox call
# holds the lock is a world view of a busy document, a second or two under load.
WAIT_SECONDS = 60.0

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS rows (part TEXT NOT NULL, id TEXT NOT NULL, "
    "version INTEGER NOT NULL, body BLOB NOT NULL, UNIQUE (part, id))",
    "CREATE INDEX IF NOT EXISTS rows_version ON rows (version)",
    "CREATE TABLE IF NOT EXISTS removed (part TEXT NOT NULL, id TEXT NOT NULL, "
    "version INTEGER NOT NULL, PRIMARY KEY (part, id))",
    "CREATE INDEX IF NOT EXISTS removed_version ON removed (version)",
)

Row = tuple[str, str, bytes]


class StateFileError(Exception):
    """The file cannot be used (not a sandbox state, another format, unreadable)."""


class StateBusy(StateFileError):
    """Another process held the state longer than :data:`WAIT_SECONDS`."""


class StateInUse(StateFileError):
    """A process has the state open (it cannot be removed now)."""


def _lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def _use_lock(path: Path, how: int) -> int:
    fd = os.open(_lock_path(path), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, how)
    except BaseException:
        os.close(fd)
        raise
    return fd


def remove_state(path: Path) -> bool:
    """Remove the sandbox kept in ``path`` (StateInUse while a process has it open); whether
    there was one. SQLite's own files go with it."""
    path = Path(path)
    if not path.parent.is_dir():
        return False
    try:
        fd = _use_lock(path, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise StateInUse(f"{path} is in use by another process") from None
    try:
        existed = path.exists()
        for name in (path.name + "-wal", path.name + "-shm", path.name):
            with contextlib.suppress(FileNotFoundError):
                (path.parent / name).unlink()
    finally:
        os.close(fd)
    return existed


class StateFile:
    def __init__(self, path: Path, *, wait: float = WAIT_SECONDS) -> None:
        self.path = Path(path)
        self.wait = wait
        self._db: sqlite3.Connection | None = None
        self._use = -1

    # ----------------------------------------------------------------- opening

    def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._use = _use_lock(self.path, fcntl.LOCK_SH)
        try:
            self._connect()
        except BaseException:
            self._release()
            raise

    def _release(self) -> None:
        if self._use >= 0:
            os.close(self._use)
            self._use = -1

    def _connect(self) -> None:
        fresh = not self.path.exists()
        if fresh:
            # The file holds the sandbox's accounts (its API keys): the user's alone.
            fd = os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600)
            os.close(fd)
        try:
            db = sqlite3.connect(
                self.path, timeout=self.wait, isolation_level=None, check_same_thread=False
            )
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            for statement in _SCHEMA:
                db.execute(statement)
        except sqlite3.DatabaseError as exc:
            raise StateFileError(f"{self.path}: not a sandbox state ({exc})") from exc
        self._db = db

    @property
    def is_open(self) -> bool:
        return self._db is not None

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise StateFileError("the state file is not open")
        return self._db

    def close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            db.close()
        self._release()

    # ----------------------------------------------------------------- transactions

    def begin_write(self) -> None:
        """Take the write lock (waiting for another process's transaction to end)."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise StateBusy(
                    f"{self.path}: another process held the sandbox for {self.wait:.0f} s"
                ) from exc
            raise

    def begin_read(self) -> None:
        self.db.execute("BEGIN")

    def commit(self) -> None:
        self.db.execute("COMMIT")

    def rollback(self) -> None:
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")

    def data_version(self) -> int:
        """Changes whenever another connection committed (cheap: no read of the file)."""
        found = self.db.execute("PRAGMA data_version").fetchone()
        return int(found[0])

    # ----------------------------------------------------------------- reading

    def meta(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT name, value FROM meta").fetchall())

    def version(self) -> int:
        found = self.db.execute("SELECT value FROM meta WHERE name = 'version'").fetchone()
        return int(found[0]) if found else 0

    def all_rows(self) -> list[Row]:
        return [
            (part, row_id, bytes(body))
            for part, row_id, body in self.db.execute(
                "SELECT part, id, body FROM rows ORDER BY rowid"
            )
        ]

    def changes_since(self, version: int) -> tuple[list[Row], list[tuple[str, str]]]:
        """Rows written after ``version`` (in the order they were made), rows removed."""
        rows = [
            (part, row_id, bytes(body))
            for part, row_id, body in self.db.execute(
                "SELECT part, id, body FROM rows WHERE version > ? ORDER BY rowid", (version,)
            )
        ]
        removed = self.db.execute(
            "SELECT part, id FROM removed WHERE version > ?", (version,)
        ).fetchall()
        return rows, [(part, row_id) for part, row_id in removed]

    # ----------------------------------------------------------------- writing

    def set_meta(self, values: dict[str, str]) -> None:
        self.db.executemany(
            "INSERT INTO meta (name, value) VALUES (?, ?) "
            "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            list(values.items()),
        )

    def write(self, version: int, rows: Iterable[Row], removed: Iterable[tuple[str, str]]) -> None:
        """Write ``rows`` (new ones after the others, in order) and remove ``removed``, all as
        of ``version``; the caller commits."""
        db = self.db
        gone = list(removed)
        if gone:
            db.executemany("DELETE FROM rows WHERE part = ? AND id = ?", gone)
            db.executemany(
                "INSERT INTO removed (part, id, version) VALUES (?, ?, ?) "
                "ON CONFLICT (part, id) DO UPDATE SET version = excluded.version",
                [(part, row_id, version) for part, row_id in gone],
            )
        written = [(part, row_id, version, body) for part, row_id, body in rows]
        if written:
            # An update keeps the row where it was (its rowid): the order records were made.
            db.executemany(
                "INSERT INTO rows (part, id, version, body) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (part, id) DO UPDATE SET version = excluded.version, "
                "body = excluded.body",
                written,
            )
            db.executemany(
                "DELETE FROM removed WHERE part = ? AND id = ?",
                [(part, row_id) for part, row_id, _v, _b in written],
            )
        self.set_meta({"version": str(version)})

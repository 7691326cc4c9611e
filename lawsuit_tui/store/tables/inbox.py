"""The inbox: one row per movement, its read mark, and filters over 100,000 of them at once.

The other tables hold a record per key in the engine's memory; at 100,000 movements that is
60 MB before any text and seconds to load. The inbox is therefore a SQLite database beside
the engine's files, ``inbox.sqlite3`` in the cache directory (SQLite is in the standard
library; DESIGN.md's derived indexes use it too): write-ahead log, full synchronous commits,
so a movement or a mark is durable when the call returns; opened read-only by a process that
does not hold the cache. Each movement is a row: the movement as
:mod:`lawsuit_tui.services.movements` made it (``body``, compressed JSON), the fields the
filters read, its read mark, and its text in an FTS5 table (accents and case folded:
``sentenca`` finds "SENTENÇA").

A movement is stored once: a second ``add`` of the same id (a webhook redelivered, a poll
that reads it again) changes nothing.

Filters answer from memory: the columns the filters read (when, unread, tracking, tier,
court, step types, terms) are read once, the first time they are needed (about 0.2 s for
100,000), and kept in step with this process's writes (another process's writes are seen by
the database's ``data_version`` and the columns read again). A search's words go to the FTS
index; everything else is one pass over the columns. About 25 MB for 100,000 movements.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import zlib
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from lawsuit_tui.domain.inbox import InboxFilter, fold
from lawsuit_tui.domain.listeners import Listeners
from lawsuit_tui.store.engine import Engine
from lawsuit_tui.store.records import text_of
from lawsuit_tui.store.sqlite_transaction import immediate_transaction

__all__ = ["FILE_NAME", "SEPARATOR", "Inbox", "search_text"]

FILE_NAME = "inbox.sqlite3"
SEPARATOR = "\x1f"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS movements (
    id TEXT PRIMARY KEY,
    at REAL NOT NULL,
    unread INTEGER NOT NULL,
    read_at TEXT,
    tracking TEXT NOT NULL,
    tier TEXT NOT NULL,
    court TEXT NOT NULL,
    types TEXT NOT NULL,
    terms TEXT NOT NULL,
    stored REAL NOT NULL,
    body BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS movements_at ON movements (at);
CREATE INDEX IF NOT EXISTS movements_unread ON movements (unread);
CREATE VIRTUAL TABLE IF NOT EXISTS movements_text
    USING fts5 (text, tokenize = 'unicode61 remove_diacritics 2');
"""
_MIN_WORD = 2
"""Shorter words are not searched: a single letter is in nearly every movement."""


def search_text(record: dict[str, Any]) -> str:
    """What a search of the inbox looks in: the lawsuit's number (formatted and as digits),
    parties, class, court and county, the tier, the tracking's key, the new steps' types and
    texts, the matched terms and an error's code."""
    parts: list[str] = []
    for name in ("code", "name", "class_name", "court", "county", "tier", "search_key"):
        value = record.get(name)
        if isinstance(value, str) and value:
            parts.append(value)
    for name in ("code", "search_key"):
        value = record.get(name)
        if isinstance(value, str):
            parts.append("".join(ch for ch in value if ch.isdigit()))
    for step in record.get("steps") or ():
        if isinstance(step, dict):
            parts.append(str(step.get("step_type") or ""))
            parts.append(str(step.get("content") or ""))
    parts.extend(t for t in record.get("terms") or () if isinstance(t, str))
    parts.append(text_of(record.get("error_code")))
    return " ".join(p for p in parts if p)


def _when(value: Any) -> float:
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return 0.0
        return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()
    return 0.0


def _joined(values: Iterable[Any]) -> str:
    """``\\x1fA\\x1fB\\x1f``: each value found by ``instr`` with its separators."""
    chosen = [str(v) for v in values if isinstance(v, str) and v]
    return SEPARATOR + SEPARATOR.join(chosen) + SEPARATOR if chosen else ""


def _words(text: str) -> list[str]:
    """The search's words as FTS5 queries: folded, letters and digits only (a CNJ number
    typed with its punctuation is searched by its digits), quoted; from three characters a
    word is the start of a word (``penh`` finds "penhora"), two are a whole word (``SP``,
    ``RJ``: the start of half the inbox's words otherwise), one is not searched."""
    found: list[str] = []
    for word in text.split():
        bare = "".join(ch for ch in fold(word) if ch.isalnum())
        if len(bare) > _MIN_WORD:
            found.append(f'"{bare}"*')
        elif len(bare) == _MIN_WORD:
            found.append(f'"{bare}"')
    return found


@dataclass
class _Columns:
    """What the filters read, a row per movement, oldest first by (when, rowid): arrays of
    numbers, and strings shared by every row with the same value (a tier, a tracking)."""

    rowids: array[int] = field(default_factory=lambda: array("q"))
    ids: list[str] = field(default_factory=list)
    at: array[float] = field(default_factory=lambda: array("d"))
    unread: bytearray = field(default_factory=bytearray)
    tracking: list[str] = field(default_factory=list)
    tier: list[str] = field(default_factory=list)
    court: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, db: sqlite3.Connection) -> _Columns:
        """Every row's columns, a few thousand rows at a time turned into columns by C loops
        (so that 100,000 take a fraction of a second and only a chunk is held as tuples)."""
        columns = cls()
        cursor = db.execute(
            "SELECT rowid, id, at, unread, tracking, tier, court, types, terms"
            " FROM movements ORDER BY at, rowid"
        )
        while rows := cursor.fetchmany(5_000):
            rowids, ids, at, unread, tracking, tier, court, types, terms = zip(*rows, strict=True)
            columns.rowids.extend(rowids)
            columns.ids.extend(ids)
            columns.at.extend(at)
            columns.unread.extend(unread)
            columns.tracking.extend(_shared_all(tracking))
            columns.tier.extend(_shared_all(tier))
            columns.court.extend(_shared_all(court))
            columns.types.extend(_shared_all(types))
            columns.terms.extend(_shared_all(terms))
        return columns

    def append(self, row: tuple[Any, ...]) -> None:
        rowid, key, at, unread, tracking, tier, court, types, terms = row
        self.rowids.append(rowid)
        self.ids.append(key)
        self.at.append(at)
        self.unread.append(1 if unread else 0)
        self.tracking.append(_shared(tracking))
        self.tier.append(_shared(tier))
        self.court.append(_shared(court))
        self.types.append(_shared(types))
        self.terms.append(_shared(terms))


_SHARED: dict[str, str] = {}


def _shared(value: str) -> str:
    """One string object per distinct value (a tracking's id, a tier: repeated thousands)."""
    return _SHARED.setdefault(value, value)


def _shared_all(values: Sequence[str]) -> list[str]:
    keep = _SHARED.setdefault
    return [keep(value, value) for value in values]


class Inbox:
    """The movements of the inbox, in ``inbox.sqlite3`` beside the engine's files."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._lock = threading.RLock()
        self._db: sqlite3.Connection | None = None
        self._columns: _Columns | None = None
        self._data_version = -1
        self._version = 0
        self._listeners: Listeners[Callable[[], None]] = Listeners()
        self._unread: int | None = None

    # ------------------------------------------------------------------ the database

    @property
    def path(self) -> Path:
        return self._engine.path / FILE_NAME

    def _connection(self) -> sqlite3.Connection:
        if self._db is not None:
            return self._db
        path = self.path
        if self._engine.read_only:
            if not path.exists():
                db = sqlite3.connect(":memory:", check_same_thread=False)
                db.executescript(_SCHEMA)
            else:
                db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        else:
            fresh = not path.exists()
            db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            if fresh:
                path.chmod(0o600)  # the cache's files are private (DESIGN.md)
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")  # durable on return, as the engine is
            db.executescript(_SCHEMA)
        self._db = db
        return db

    @contextlib.contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """The connection in a transaction, this process's writers one at a time (also what
        the ingestion of a movement holds while it decides what is new)."""
        with self._lock:
            self._engine.check_writable()
            with immediate_transaction(self._connection()) as db:
                yield db
        for listener in self._listeners:
            listener()

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` after each write of this process (on the writer's thread);
        returns the function that unsubscribes it."""
        return self._listeners.add(listener)

    @property
    def lock(self) -> threading.RLock:
        """Held by a caller whose reads must not change before its write (one process)."""
        return self._lock

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._db.close()
                self._db = None
            self._columns = None
            self._unread = None

    # ------------------------------------------------------------------ writes

    def add(self, records: Iterable[dict[str, Any]]) -> list[str]:
        """Store movements not held yet, durably, in one transaction; the ids of those new."""
        sanitizer = self._engine.sanitizer
        now = self._engine.now()
        new: list[str] = []
        with self.writing() as db:
            for raw in records:
                record, text = sanitizer.clean_json(raw)
                key = text_of(record.get("movement_id"))
                if not key:
                    raise ValueError("a movement needs movement_id")
                steps = [s for s in record.get("steps") or () if isinstance(s, dict)]
                row = (
                    key,
                    _when(record.get("received_at")),
                    0 if record.get("read_at") else 1,
                    record.get("read_at") or None,
                    text_of(record.get("tracking_id")),
                    text_of(record.get("tier")),
                    text_of(record.get("court")),
                    _joined(dict.fromkeys(str(s.get("step_type") or "") for s in steps)),
                    _joined(record.get("terms") or ()),
                    now,
                    zlib.compress(text),
                )
                cursor = db.execute(
                    "INSERT OR IGNORE INTO movements (id, at, unread, read_at, tracking, tier,"
                    " court, types, terms, stored, body) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    row,
                )
                if cursor.rowcount != 1:
                    continue  # held already: stored once
                rowid = cursor.lastrowid
                db.execute(
                    "INSERT INTO movements_text (rowid, text) VALUES (?, ?)",
                    (rowid, search_text(record)),
                )
                new.append(key)
                if self._unread is not None:
                    self._unread += row[2]
                if self._columns is not None:
                    self._place((rowid, *row[:3], *row[4:9]))
            self._version += 1
        return new

    def _place(self, row: tuple[Any, ...]) -> None:
        columns = self._columns
        assert columns is not None
        if not columns.at or row[2] >= columns.at[-1]:
            columns.append(row)
            return
        self._columns = None  # an older movement than the newest: read the columns again

    def mark(self, keys: Iterable[str], *, read: bool, at: str) -> int:
        """Mark movements read (at ``at``, ISO) or unread; how many changed."""
        chosen = list(dict.fromkeys(keys))
        changed = 0
        with self.writing() as db:
            for start in range(0, len(chosen), 500):
                part = chosen[start : start + 500]
                marks = ",".join("?" * len(part))
                cursor = db.execute(
                    f"UPDATE movements SET unread = ?, read_at = ? WHERE id IN ({marks})"
                    " AND unread = ?",
                    (0 if read else 1, at if read else None, *part, 1 if read else 0),
                )
                changed += cursor.rowcount
            columns = self._columns
            if columns is not None and changed:
                wanted = set(chosen)
                flag = 0 if read else 1
                unread = columns.unread
                for spot, key in enumerate(columns.ids):
                    if key in wanted:
                        unread[spot] = flag
            if self._unread is not None:
                self._unread += -changed if read else changed
            self._version += 1
        return changed

    def prune(self, cutoff: float) -> int:
        """Forget the movements that came before ``cutoff`` (epoch seconds); how many."""
        with self.writing() as db:
            rowids = [
                r for (r,) in db.execute("SELECT rowid FROM movements WHERE at < ?", (cutoff,))
            ]
            for start in range(0, len(rowids), 500):
                part = rowids[start : start + 500]
                marks = ",".join("?" * len(part))
                db.execute(f"DELETE FROM movements_text WHERE rowid IN ({marks})", part)
                db.execute(f"DELETE FROM movements WHERE rowid IN ({marks})", part)
            self._columns = None
            self._unread = None
            self._version += 1
            return len(rowids)

    # ------------------------------------------------------------------ reads

    def get(self, key: str) -> dict[str, Any] | None:
        found = self.records([key])
        return found[0] if found else None

    def records(self, keys: Sequence[str]) -> list[dict[str, Any]]:
        """The movements of ``keys`` (a page), in that order; gone ones left out."""
        if not keys:
            return []
        rows: dict[str, dict[str, Any]] = {}
        with self._lock:
            db = self._connection()
            for start in range(0, len(keys), 500):
                part = list(keys[start : start + 500])
                marks = ",".join("?" * len(part))
                for key, read_at, body in db.execute(
                    f"SELECT id, read_at, body FROM movements WHERE id IN ({marks})", part
                ):
                    record: dict[str, Any] = orjson.loads(zlib.decompress(body))
                    record["read_at"] = read_at
                    rows[key] = record
        return [rows[key] for key in keys if key in rows]

    def changed_elsewhere(self) -> bool:
        """True when another process wrote the inbox since this one last looked (a read-only
        process polls this): what was read from it is read again when next asked."""
        with self._lock:
            if self._db is None and not self.path.exists():
                return False
            db = self._connection()
            data_version = int(db.execute("PRAGMA data_version").fetchone()[0])
            if data_version == self._data_version:
                return False
            self._data_version = data_version
            self._columns = None
            self._unread = None
            self._version += 1
            return True

    def _ready(self) -> _Columns:
        """The columns, read if they are not. The read holds the lock (writers wait for
        it); the event loop's callers (the status line's count, the version) take none."""
        columns = self._columns
        if columns is not None:
            return columns
        with self._lock:
            if self._columns is None:
                self._columns = _Columns.read(self._connection())
            return self._columns

    def select(self, query: InboxFilter) -> list[str]:
        """The ids of the movements ``query`` keeps, newest first."""
        columns = self._ready()
        words = _words(query.text)
        matched: set[int] | None = None
        if words:
            with self._lock:
                db = self._connection()
                matched = {
                    rowid
                    for (rowid,) in db.execute(
                        "SELECT rowid FROM movements_text WHERE movements_text MATCH ?",
                        (" AND ".join(words),),
                    )
                }
        # The columns only grow (this process's own writes) or have flags changed while the
        # pass runs: it reads the rows there were when it began.
        return _select(columns, query, matched)

    def facets(self) -> dict[str, Counter[str]]:
        """How many movements have each tier, court, step type and term."""
        columns = self._ready()
        counts: dict[str, Counter[str]] = {
            "tier": Counter(columns.tier),
            "court": Counter(columns.court),
            "step_type": Counter(),
            "term": Counter(),
        }
        for name, column in (("step_type", columns.types), ("term", columns.terms)):
            for joined, times in Counter(column).items():
                for value in joined.split(SEPARATOR):
                    if value:
                        counts[name][value] += times
        for counter in counts.values():
            counter.pop("", None)
        return counts

    def unread_count(self) -> int:
        """How many are unread: counted by the database once, then kept in step with this
        process's writes. The status line asks it on the event loop: once known it is
        answered without a lock or a query."""
        known = self._unread
        if known is not None:
            return known
        with self._lock:
            if self._unread is None:
                found = (
                    self._connection()
                    .execute("SELECT count(*) FROM movements WHERE unread = 1")
                    .fetchone()[0]
                )
                self._unread = int(found)
            return self._unread

    def count(self) -> int:
        """How many movements are held (from the columns once they are read)."""
        columns = self._columns
        if columns is not None:
            return len(columns.ids)
        with self._lock:
            return int(self._connection().execute("SELECT count(*) FROM movements").fetchone()[0])

    @property
    def version(self) -> int:
        """Changes whenever this process adds or marks a movement, or sees another's."""
        return self._version


def _select(columns: _Columns, query: InboxFilter, matched: set[int] | None) -> list[str]:
    """One pass over the columns (newest first), narrowed by each field of ``query``."""
    rows: Iterable[int] = range(len(columns.ids) - 1, -1, -1)
    if query.since is not None or query.until is not None:
        low = query.since.timestamp() if query.since is not None else float("-inf")
        high = query.until.timestamp() if query.until is not None else float("inf")
        at = columns.at
        rows = [r for r in rows if low <= at[r] < high]
    if query.unread:
        unread = columns.unread
        rows = [r for r in rows if unread[r]]
    for column, wanted in (
        (columns.tracking, query.tracking_id),
        (columns.tier, query.tier),
        (columns.court, query.court),
    ):
        if wanted:
            rows = [r for r in rows if column[r] == wanted]
    for column, wanted in ((columns.types, query.step_type), (columns.terms, query.term)):
        if wanted:
            needle = SEPARATOR + wanted + SEPARATOR
            rows = [r for r in rows if needle in column[r]]
    if matched is not None:
        rowids = columns.rowids
        rows = [r for r in rows if rowids[r] in matched]
    ids = columns.ids
    return [ids[r] for r in rows]

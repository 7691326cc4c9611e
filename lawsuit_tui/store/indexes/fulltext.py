"""A full-text index of the cache's lawsuits, in SQLite FTS5: derived, never the source of truth.

The index lives beside the cache as ``search.sqlite`` (0600). It can be deleted at any time:
:meth:`FullTextIndex.catch_up` rebuilds what is missing from the cache. For each lawsuit
record it indexed it keeps the record's key and the time that version was stored (``at``, held
in memory by the cache for every record), so comparing those stamps with the cache's finds
what any writer changed since: another process, or a crash between a cache commit and the
index update. A writer process also feeds it each committed batch (``apply``), so a lawsuit
stored is found a few milliseconds later.

What is searched, in columns weighted for ranking (bm25; a hit in a name or a number counts
more than one in a step's text):

- ``code``: the CNJ number, formatted and as bare digits;
- ``names``: parties (name, social name, other names) and their lawyers;
- ``documents``: their CPF, CNPJ and OAB numbers, as written and as bare letters and digits;
- ``classes``: the lawsuit's name, classes, subjects and area;
- ``court``: court acronym and names, county, city, state, judge;
- ``steps``: the type and text of every step.

Accents and case are folded by the ``unicode61`` tokenizer (``remove_diacritics 2``), so "joao"
finds "JOÃO". The user's text is never FTS5 syntax: :func:`match_expression` quotes every word
and makes each a prefix, so half-typed words match and ``"``, ``-``, ``OR`` or ``(`` are plain text.

Concurrency: one connection, serialised by a lock, in WAL mode so another process can read
while this one writes; SQLite's own locking (with a busy timeout) orders two writers.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lawsuit_tui.store.sqlite_transaction import immediate_transaction
from lawsuit_tui.store.tables.lawsuit_versions import code_key, document_key, instance_of

__all__ = [
    "HIT_END",
    "HIT_START",
    "INDEX_FILE",
    "FullTextIndex",
    "IndexedLawsuit",
    "SearchHit",
    "indexed_lawsuit",
    "match_expression",
]

INDEX_FILE = "search.sqlite"
# Bumped when the columns or what goes into them change: an older index is rebuilt.
_FORMAT = "1"
# Marks around a matched word in a snippet (control characters never found in the data).
HIT_START, HIT_END = "\x02", "\x03"
_COLUMNS = ("code", "names", "documents", "classes", "court", "steps")
# The ranking: bm25 weights in the order of the FTS table's columns (key and kind unindexed).
_RANK = "bm25(0.0, 0.0, 10.0, 8.0, 10.0, 4.0, 3.0, 1.0)"
_SCHEMA = f"""
CREATE VIRTUAL TABLE IF NOT EXISTS docs USING fts5(
    key UNINDEXED, kind UNINDEXED, {", ".join(_COLUMNS)},
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
CREATE TABLE IF NOT EXISTS entries (
    key TEXT PRIMARY KEY, row INTEGER NOT NULL, at REAL NOT NULL,
    code TEXT NOT NULL, instance INTEGER, title TEXT NOT NULL, court TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_WORD = re.compile(r"\w+", re.UNICODE)
_PUNCTUATED_NUMBER = re.compile(r"^[0-9A-Za-z]+([./-][0-9A-Za-z]+)+$")


@dataclass(frozen=True, slots=True)
class IndexedLawsuit:
    """What the index keeps of one lawsuit record: its columns and what a hit shows."""

    key: str
    at: float
    code: str
    instance: int | None
    title: str
    court: str
    updated: str
    columns: tuple[str, str, str, str, str, str]


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One lawsuit found: where it is, what it is, and the words that matched in context."""

    code: str
    instance: int | None
    title: str
    court: str
    updated: str
    snippet: str
    """With the matched words between HIT_START and HIT_END."""
    score: float
    """bm25: lower is better (SQLite's sign)."""

    @property
    def plain_snippet(self) -> str:
        return self.snippet.replace(HIT_START, "").replace(HIT_END, "")

    @property
    def matched(self) -> list[str]:
        """The matched words of the snippet, in order, each once."""
        found = re.findall(f"{HIT_START}(.*?){HIT_END}", self.snippet)
        return list(dict.fromkeys(found))


# ------------------------------------------------------------------------------ documents


def _dicts(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, list):
        yield from (item for item in value if isinstance(item, dict))


def _texts(*values: Any) -> list[str]:
    return [v.strip() for v in values if isinstance(v, str) and v.strip()]


def _people(lawsuit: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    for party in _dicts(lawsuit.get("parties")):
        yield party
        yield from _dicts(party.get("lawyers"))


def _names(lawsuit: Mapping[str, Any]) -> list[str]:
    names: list[str] = []
    for person in _people(lawsuit):
        names.extend(_texts(person.get("name"), person.get("social_name")))
        for other in person.get("aka_names") or ():
            names.extend(_texts(other if isinstance(other, str) else None))
    return names


def _documents(lawsuit: Mapping[str, Any]) -> list[str]:
    found: list[str] = []
    for person in _people(lawsuit):
        values = _texts(person.get("main_document"))
        values += _texts(*(d.get("document") for d in _dicts(person.get("documents"))))
        for value in values:
            found.append(value)
            found.append(document_key(value))
    return list(dict.fromkeys(found))


def _named(items: Any) -> list[str]:
    return _texts(*(item.get("name") for item in _dicts(items)))


def indexed_lawsuit(key: str, at: float, lawsuit: Mapping[str, Any]) -> IndexedLawsuit:
    """The index's view of one cached lawsuit (a plain JSON dict, as the cache holds it)."""
    code = str(lawsuit.get("code") or "")
    classes = _named(lawsuit.get("classifications"))
    subjects = _named(lawsuit.get("subjects"))
    court_words = _texts(
        lawsuit.get("tribunal_acronym"),
        lawsuit.get("county"),
        lawsuit.get("city"),
        lawsuit.get("state"),
        lawsuit.get("judge"),
        lawsuit.get("justice_description"),
    ) + _named(lawsuit.get("courts"))
    steps = [
        " ".join(_texts(step.get("step_type"), step.get("content")))
        for step in _dicts(lawsuit.get("steps"))
    ]
    title = (classes or _texts(lawsuit.get("name")) or [""])[0]
    court = " · ".join(
        _texts(lawsuit.get("tribunal_acronym"), lawsuit.get("county") or lawsuit.get("city"))
    )
    updated = lawsuit.get("updated_at")
    return IndexedLawsuit(
        key=key,
        at=at,
        code=code,
        instance=instance_of(dict(lawsuit)),
        title=title,
        court=court,
        updated=updated if isinstance(updated, str) else "",
        columns=(
            f"{code} {code_key(code)}",
            "\n".join(_names(lawsuit)),
            " ".join(_documents(lawsuit)),
            "\n".join(
                [*_texts(lawsuit.get("name")), *classes, *subjects, *_texts(lawsuit.get("area"))]
            ),
            "\n".join(court_words),
            "\n".join(step for step in steps if step),
        ),
    )


def match_expression(text: str) -> str | None:
    """The FTS5 query for what a person typed: every word required, each a prefix.

    A number written with dots, dashes or slashes (a CPF, a CNJ number) is one word of its
    letters and digits, as the index holds it. None when nothing searchable was typed."""
    terms: list[str] = []
    for part in text.split():
        if _PUNCTUATED_NUMBER.match(part) and any(c.isdigit() for c in part):
            terms.append(document_key(part))
        else:
            terms.extend(_WORD.findall(part))
    words = [t for t in dict.fromkeys(terms) if t.strip("_")]
    if not words:
        return None
    return " ".join(f'"{word}"*' for word in words)


# ------------------------------------------------------------------------------ the index


class FullTextIndex:
    """The index file of one cache directory. Open with :meth:`open`; :meth:`close` it."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self._lock = threading.Lock()
        self.path = path

    @classmethod
    def open(cls, directory: Path) -> FullTextIndex:
        """Open (creating it, 0600) the index of the cache in ``directory``.

        An index that cannot be read (damaged, or of an older format) is started afresh: it
        is derived data, and :meth:`catch_up` fills it again."""
        path = Path(directory) / INDEX_FILE
        try:
            return cls._connect(path)
        except sqlite3.DatabaseError:
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    Path(f"{path}{suffix}").unlink()
            return cls._connect(path)

    @classmethod
    def _connect(cls, path: Path) -> FullTextIndex:
        if not path.exists():
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        db = sqlite3.connect(path, check_same_thread=False, timeout=30.0, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(_SCHEMA)
            found = db.execute("SELECT value FROM meta WHERE name = 'format'").fetchone()
            if found is None or found[0] != _FORMAT:
                db.executescript("DELETE FROM docs; DELETE FROM entries;")
                db.execute("INSERT INTO docs (docs, rank) VALUES ('rank', ?)", (_RANK,))
                db.execute("INSERT OR REPLACE INTO meta VALUES ('format', ?)", (_FORMAT,))
            db.execute("SELECT count(*) FROM docs").fetchone()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return cls(db, path)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --------------------------------------------------------------------------- writes

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock, immediate_transaction(self._db) as db:
            yield db

    def apply(self, items: Iterable[IndexedLawsuit], removed: Iterable[str] = ()) -> int:
        """Index ``items`` (replacing what each key held) and forget ``removed``, in one
        transaction. Returns how many keys changed."""
        changed = 0
        with self._transaction() as db:
            for key in removed:
                changed += self._remove(db, key)
            for item in items:
                self._remove(db, item.key)
                cursor = db.execute(
                    "INSERT INTO docs (key, kind, code, names, documents, classes, court, steps)"
                    " VALUES (?, 'lawsuit', ?, ?, ?, ?, ?, ?)",
                    (item.key, *item.columns),
                )
                db.execute(
                    "INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        item.key,
                        cursor.lastrowid,
                        item.at,
                        item.code,
                        item.instance,
                        item.title,
                        item.court,
                        item.updated,
                    ),
                )
                changed += 1
        return changed

    @staticmethod
    def _remove(db: sqlite3.Connection, key: str) -> int:
        found = db.execute("SELECT row FROM entries WHERE key = ?", (key,)).fetchone()
        if found is None:
            return 0
        db.execute("DELETE FROM docs WHERE rowid = ?", (found[0],))
        db.execute("DELETE FROM entries WHERE key = ?", (key,))
        return 1

    def catch_up(
        self,
        stamps: Mapping[str, float],
        read: Callable[[str], Mapping[str, Any] | None],
        *,
        batch: int = 200,
        progress: Callable[[int, int], None] | None = None,
    ) -> int:
        """Make the index hold exactly the cache's records: ``stamps`` (key -> stored at) are
        the cache's; ``read(key)`` its lawsuit. Records are read and indexed ``batch`` at a
        time, so searches run between batches. Returns how many keys changed."""
        held = self.stamps()
        stale = [key for key, at in stamps.items() if held.get(key) != at]
        gone = [key for key in held if key not in stamps]
        changed = self.apply((), gone) if gone else 0
        for start in range(0, len(stale), batch):
            items: list[IndexedLawsuit] = []
            lost: list[str] = []
            for key in stale[start : start + batch]:
                lawsuit = read(key)
                if lawsuit is None:
                    lost.append(key)
                else:
                    items.append(indexed_lawsuit(key, stamps[key], lawsuit))
            changed += self.apply(items, lost)
            if progress is not None:
                progress(min(start + batch, len(stale)), len(stale))
        return changed

    def clear(self) -> None:
        """Forget everything (the next :meth:`catch_up` indexes the whole cache again)."""
        with self._transaction() as db:
            db.execute("DELETE FROM docs")
            db.execute("DELETE FROM entries")

    # --------------------------------------------------------------------------- reads

    def stamps(self) -> dict[str, float]:
        with self._lock:
            return dict(self._db.execute("SELECT key, at FROM entries").fetchall())

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM entries").fetchone()[0])

    def search(self, text: str, limit: int = 20) -> list[SearchHit]:
        """The lawsuits matching every word of ``text``, best first (at most ``limit``)."""
        expression = match_expression(text)
        if expression is None or limit <= 0:
            return []
        with self._lock:
            db = self._db
            # Ranked first, on the FTS table alone (its ORDER BY rank LIMIT is optimised);
            # the snippets, the costly part, only for the rows kept.
            ranked = db.execute(
                "SELECT rowid, rank FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT ?",
                (expression, limit),
            ).fetchall()
            if not ranked:
                return []
            rows = ",".join(str(int(row)) for row, _rank in ranked)
            snippets = dict(
                db.execute(
                    f"SELECT rowid, snippet(docs, -1, '{HIT_START}', '{HIT_END}', '…', 12)"
                    f" FROM docs WHERE docs MATCH ? AND rowid IN ({rows})",
                    (expression,),
                ).fetchall()
            )
            entries = {
                row[0]: row[1:]
                for row in db.execute(
                    "SELECT row, code, instance, title, court, updated FROM entries"
                    f" WHERE row IN ({rows})"
                ).fetchall()
            }
        hits = []
        for row, rank in ranked:
            entry = entries.get(row)
            if entry is None:
                continue
            code, instance, title, court, updated = entry
            hits.append(
                SearchHit(
                    code=code,
                    instance=instance,
                    title=title,
                    court=court,
                    updated=updated,
                    snippet=" ".join(str(snippets.get(row, "")).split()),
                    score=float(rank),
                )
            )
        return hits

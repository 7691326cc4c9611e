"""The local cache: everything retrieved, kept crash-safe on disk and indexed in memory.

Layout of a cache directory (0700; every file 0600)::

    schema.json                  version and shard layout (see schema.py)
    lock                         held by the one writer process (fcntl.flock)
    checkpoint.lock              readers vs. journal clean-up (see lock.py)
    tables/<table>-<NNN>.json    TinyDB databases, one per shard, via AtomicOrjsonStorage
    journal/seg-<N>.log          write-ahead journal (see journal.py)

Durability contract: every write method returns only after its whole batch is in the
journal and fdatasynced. From that moment the write survives a kill -9 and is visible to
the readers of this Store (they never see a write that is not durable). A batch (one call)
is all or nothing. The shard files are rewritten later by a checkpoint (a background thread
once the journal passes ``checkpoint_bytes``, and ``close()``), which costs what changed:
only the dirty shards are rewritten, each atomically. Opening replays the journal on top
of the shards.

Record bodies are packed (zlib level 1, base64 text: see codec.py; about a fifth of their
JSON size, the same form in memory and in the shard files, so opening never compresses
anything). Indexes, counts and searches answer from memory. The records of the small tables
are held whole; those of the two big ones (responses, lawsuits) only until a checkpoint has
put them in a shard file: from then on memory holds their key and index fields and where
their text is, and a read takes it from the file (one ``pread``; see cold.py). Each read
returns a freshly unpacked and parsed dict that the caller may keep or change. Lists come in
pages (``responses_of(offset=, limit=)``, ``list_requests(offset=, limit=)``) that read only
the page.

Thread safety: writers are serialised by ``_wlock``, held while a batch is built, appended
to the journal and fdatasynced; the state lock ``_lock`` is taken by readers and, by the
writer, only to apply a batch that is already durable. So readers never wait for a disk
flush, never see a write that is not durable, and see a batch all at once. Reads are
microseconds. Services call the store from worker threads.

One writer at a time: a second writer gets CacheLocked; ``Store.open(path, read_only=True)``
works beside the writer and ``refresh()`` picks up what it has written since.

The records are plain JSON dicts (``model_dump(mode="json")``). Nothing secret is written:
every record goes through the sanitizer first (see sanitize.py).
"""

from __future__ import annotations

import contextlib
import gc
import threading
import time
import uuid
import zlib
from bisect import insort
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from lawsuit_tui.i18n import _
from lawsuit_tui.store import journal as jr
from lawsuit_tui.store.codec import is_packed, pack, pack_value, unpack
from lawsuit_tui.store.cold import (
    ColdDoc,
    Fields,
    ShardFile,
    locate,
    raise_open_file_limit,
    shard_bytes,
)
from lawsuit_tui.store.errors import CacheError, CacheReadOnly
from lawsuit_tui.store.fileio import (
    ensure_private_dir,
    fsync_dir,
    remove_leftover_tmp,
)
from lawsuit_tui.store.keysets import KeySets
from lawsuit_tui.store.lawsuits import (
    LawsuitChange,
    LawsuitEntry,
    LawsuitState,
    code_key,
    diff,
    document_key,
    fold,
    instance_of,
    lawsuit_key,
    party_documents,
    recency,
    search_text,
    version_stamp,
)
from lawsuit_tui.store.lock import WriterLock, checkpoint_lock
from lawsuit_tui.store.sanitize import Sanitizer
from lawsuit_tui.store.schema import (
    DEFAULT_SHARDS,
    SCHEMA_FILE,
    SCHEMA_VERSION,
    migrate,
    new_schema,
    read_schema,
    write_schema,
)
from lawsuit_tui.store.storage import AtomicOrjsonStorage, DamagedFile, parse_tinydb

Doc = dict[str, Any]
Clock = Callable[[], datetime]

TINYDB_TABLE = "records"
DEFAULT_CHECKPOINT_BYTES = 16 * 1024 * 1024
RECENT_KEY = "recent_searches"
RECENT_KEEP = 50
QUARANTINE_MAX_BYTES = 256 * 1024
PRUNED_TABLES = ("requests", "responses", "lawsuits", "deliveries", "quarantine", "count_requests")
# Tables whose checkpointed records are held on disk, their index fields in memory (cold.py).
COLD_TABLES = frozenset({"responses", "lawsuits"})
# A record in memory: whole (written since the last checkpoint, or of a small table) or cold.
Held = Doc | ColdDoc
# The index fields a cold record keeps in memory: those the indexes, orderings, searches and
# prune read. The others (a lawsuit's code, a response's type) stay in the file with it.
COLD_FIELDS = frozenset({"r", "c", "at", "docs", "o", "s", "inst"})


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _unreadable(path: Path, error: Exception) -> str:
    return _("{name}: unreadable ({problem})").format(name=path.name, problem=error)


def _instance_rank(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


def _is_provisional(response: dict[str, Any]) -> bool:
    tags = response.get("tags")
    cached_tag = isinstance(tags, dict) and tags.get("cached_response") is True
    return cached_tag or response.get("cached") is True


def _cold(doc: Doc | ColdDoc, file: ShardFile, offset: int, length: int) -> ColdDoc:
    """``doc`` held cold, its text at ``offset`` in ``file``."""
    if isinstance(doc, ColdDoc):
        return ColdDoc(doc.k, doc.i, file, offset, length, provisional=doc.provisional)
    index = doc.get("i")
    kept = {k: v for k, v in index.items() if k in COLD_FIELDS} if isinstance(index, dict) else {}
    return ColdDoc(
        doc["k"],
        Fields.of(kept),
        file,
        offset,
        length,
        provisional=doc.get("d") is None,
    )


def _provisional_held(doc: Held) -> bool:
    """A lawsuit record with no definitive version."""
    return doc.provisional if isinstance(doc, ColdDoc) else doc.get("d") is None


def _packed(doc: Any) -> Any:
    """A journal document with its bodies packed (lines written by schema 1 hold text)."""
    if not isinstance(doc, dict):
        return doc
    for field in ("b", "d", "p"):
        text = doc.get(field)
        if isinstance(text, str) and not is_packed(text):
            doc[field] = pack(text.encode())
    if isinstance(doc.get("c"), dict):
        doc["c"] = pack_value(doc["c"])
    return doc


class Store:
    """The cache. Create with :meth:`open`; close with :meth:`close` or a ``with`` block."""

    def __init__(
        self,
        directory: Path,
        *,
        read_only: bool,
        clock: Clock,
        checkpoint_bytes: int,
        secrets: Iterable[str],
    ) -> None:
        self.path = Path(directory)
        self.read_only = read_only
        self.problems: list[str] = []
        self._clock = clock
        self._checkpoint_bytes = checkpoint_bytes
        self._shard_bytes: dict[tuple[str, int], int] = {}
        self._san = Sanitizer(secrets)
        self._lock = threading.RLock()
        # Writers, one at a time: held across building a batch, its journal append and fdatasync;
        # ``_lock`` is taken only to apply the batch in memory, so readers never wait for a disk.
        self._wlock = threading.RLock()
        self._ckpt_mutex = threading.Lock()
        self._closed = False
        self._writer_lock: WriterLock | None = None
        self._journal: jr.JournalWriter | None = None
        self._thread: threading.Thread | None = None
        self._wake = threading.Event()
        self._stopping = False
        self._schema: dict[str, Any] = new_schema()
        self._nshards: dict[str, int] = dict(DEFAULT_SHARDS)
        self._shards: dict[str, list[dict[str, Held]]] = {}
        # The shard files cold records point into, open (see cold.py), by (table, shard).
        self._files_open: dict[tuple[str, int], ShardFile] = {}
        self._dirty: set[tuple[str, int]] = set()
        self._sigs: dict[tuple[str, int], tuple[int, int, int] | None] = {}
        self._offsets: dict[int, int] = {}
        self._bulk = False
        self._reset_memory()

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(
        cls,
        directory: Path,
        *,
        read_only: bool = False,
        clock: Clock | None = None,
        checkpoint_bytes: int = DEFAULT_CHECKPOINT_BYTES,
        secrets: Iterable[str] = (),
    ) -> Store:
        """Open (creating it when writable) the cache in ``directory``.

        Raises CacheLocked when another process writes to it. Damaged files do not raise:
        they are set aside as ``*.damaged-<timestamp>`` and listed in ``problems``.
        ``secrets``: values (the API key, the bearer token) to scrub from anything written.
        """
        raise_open_file_limit()
        store = cls(
            Path(directory),
            read_only=read_only,
            clock=clock or _utcnow,
            checkpoint_bytes=checkpoint_bytes,
            secrets=secrets,
        )
        try:
            if read_only:
                store._open_reader()
            else:
                store._open_writer()
        except BaseException:
            store._release()
            raise
        return store

    def _open_writer(self) -> None:
        ensure_private_dir(self.path)
        self._writer_lock = WriterLock(self.path)
        for sub in (self._tables_dir, self._journal_dir):
            ensure_private_dir(sub)
        for sub in (self.path, self._tables_dir, self._journal_dir):
            remove_leftover_tmp(sub)
        self._load_schema()
        self._load_shards()
        segments = jr.list_segments(self._journal_dir)
        for _num, seg in segments:
            self._replay(seg, 0)
        self._journal = jr.JournalWriter(
            self._journal_dir, (segments[-1][0] + 1) if segments else 1
        )
        self._thread = threading.Thread(
            target=self._checkpoint_loop, name="lawsuit-tui-cache-checkpoint", daemon=True
        )
        self._thread.start()
        if segments:
            self._wake.set()  # fold what the last run left in the journal into the shards

    def _open_reader(self) -> None:
        if not self.path.is_dir():
            return
        with checkpoint_lock(self.path, exclusive=False):
            self._load_schema()
            self._load_shards()
            for number, seg in jr.list_segments(self._journal_dir):
                self._offsets[number] = self._replay(seg, 0)

    def _load_schema(self) -> None:
        try:
            schema = read_schema(self.path)
        except (ValueError, OSError) as exc:
            self._set_aside(self.path / SCHEMA_FILE, exc)
            schema = None
        if schema is None:
            schema = new_schema()
            if not self.read_only:
                write_schema(self.path, schema)
        elif schema["version"] > SCHEMA_VERSION:
            raise CacheError(
                _(
                    "The cache at {path} was written by a newer lawsuit-tui (schema {found}); "
                    "this one reads schema {known}."
                ).format(path=self.path, found=schema["version"], known=SCHEMA_VERSION)
            )
        elif schema["version"] < SCHEMA_VERSION:
            if self.read_only:
                raise CacheError(
                    _("The cache at {path} needs an upgrade; open it writable.").format(
                        path=self.path
                    )
                )
            schema = migrate(self.path, schema)
        self._schema = schema
        self._nshards = {k: max(1, int(v)) for k, v in schema["shards"].items()}
        self._reset_memory()

    def _reset_memory(self) -> None:
        self._shards = {t: [{} for _n in range(n)] for t, n in self._nshards.items()}
        self._reset_indexes()

    def _reset_indexes(self) -> None:
        self._req_order: list[tuple[str, str]] = []
        self._resp_by_req: dict[str, list[tuple[str, str]]] = {}
        self._law_by_code = KeySets()
        self._law_by_doc = KeySets()

    @property
    def _tables_dir(self) -> Path:
        return self.path / "tables"

    @property
    def _journal_dir(self) -> Path:
        return self.path / "journal"

    def _shard_path(self, table: str, index: int) -> Path:
        return self._tables_dir / f"{table}-{index:03d}.json"

    @staticmethod
    def _signature(path: Path) -> tuple[int, int, int] | None:
        try:
            st = path.stat()
        except FileNotFoundError:
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def _load_shards(self) -> None:
        # The cyclic collector would walk every object parsed so far, again and again, while
        # hundreds of MB are parsed (it triples the time to open), and then on every full
        # collection for the life of the app. Nothing here makes cycles: collection is off
        # while loading, and what was loaded is frozen out of the collector's sight (it is
        # still freed by reference counting when replaced).
        collecting = gc.isenabled()
        gc.collect()  # so that only what is loaded here gets frozen, not older garbage
        gc.disable()
        self._bulk = True
        try:
            for table, count in self._nshards.items():
                for index in range(count):
                    self._load_shard(table, index)
        finally:
            self._finish_bulk()
            gc.freeze()
            if collecting:
                gc.enable()

    def _load_shard(self, table: str, index: int) -> None:
        path = self._shard_path(table, index)
        sig = self._signature(path)
        self._sigs[(table, index)] = sig
        self._shard_bytes[(table, index)] = sig[2] if sig else 0
        cold = table in COLD_TABLES
        file: ShardFile | None = None
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
        except (DamagedFile, OSError) as exc:
            if file is not None:
                file.close()
            self._set_aside(path, exc)
            return
        shard: dict[str, Held] = {}
        records = (data or {}).get(TINYDB_TABLE, {})
        bad = 0
        for doc in records.values():
            if isinstance(doc, dict) and isinstance(doc.get("k"), str):
                shard[doc["k"]] = doc
            else:
                bad += 1
        if bad:
            self._problem(
                _("{name}: {n} malformed record(s) skipped").format(name=path.name, n=bad)
            )
        if cold and file is not None and records and not bad:
            spans = locate(raw, records.items())
            if spans is None:
                if not self.read_only:  # rewritten in our form by the next checkpoint
                    self._dirty.add((table, index))
            else:
                for doc, offset, length in spans:
                    shard[doc["k"]] = _cold(doc, file, offset, length)
        if cold and file is not None:
            self._files_open[(table, index)] = file
        elif file is not None:
            file.close()
        previous = self._shards[table][index]
        if previous:
            for key, doc in previous.items():
                self._unindex(table, key, doc)
        self._shards[table][index] = shard
        for key, doc in shard.items():
            self._index(table, key, doc)

    def _set_aside(self, path: Path, error: Exception) -> None:
        """Move an unreadable file out of the way (writer) and say so in ``problems``."""
        what = _unreadable(path, error)
        if self.read_only:
            self._problem(what)
            return
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
        target = path.with_name(f"{path.name}.damaged-{stamp}")
        try:
            path.replace(target)
            fsync_dir(path.parent)
        except OSError as exc:
            self._problem(
                _("{problem}; could not set it aside ({error})").format(problem=what, error=exc)
            )
            return
        self._problem(_("{problem}; set aside as {name}").format(problem=what, name=target.name))

    def _problem(self, text: str) -> None:
        if text not in self.problems:
            self.problems.append(text)

    def _replay(self, segment: Path, offset: int) -> int:
        result = jr.read_segment(segment, offset)
        if result.problem:
            self._problem(result.problem)
        for batch in result.batches:
            for table, key, doc in batch:
                if table in self._shards:
                    self._apply(table, key, _packed(doc))
        return result.consumed

    def refresh(self) -> bool:
        """Read-only stores: pick up what the writer wrote since; True if anything changed."""
        if not self.read_only:
            return False
        with self._lock:
            self._check_open()
            if not self.path.is_dir():
                return False
            with checkpoint_lock(self.path, exclusive=False):
                if not self._sigs:
                    self._load_schema()
                    self._load_shards()
                    reloaded = True
                else:
                    changed = [
                        k
                        for k, sig in self._sigs.items()
                        if self._signature(self._shard_path(*k)) != sig
                    ]
                    collecting = gc.isenabled()
                    gc.disable()
                    self._bulk = True
                    try:
                        for table, index in changed:
                            self._load_shard(table, index)
                    finally:
                        self._finish_bulk()
                        if collecting:
                            gc.enable()
                    reloaded = bool(changed)
                segments = jr.list_segments(self._journal_dir)
                moved = False
                offsets: dict[int, int] = {}
                for number, seg in segments:
                    start = 0 if reloaded else self._offsets.get(number, 0)
                    offsets[number] = self._replay(seg, start)
                    moved = moved or offsets[number] != start
                self._offsets = offsets
                return reloaded or moved

    # ------------------------------------------------------------------ closing

    def close(self) -> None:
        """Fold the journal into the shards (writer), release the lock. Idempotent."""
        if self._closed:
            return
        if not self.read_only and self._journal is not None:
            self._stopping = True
            self._wake.set()
            if self._thread is not None:
                self._thread.join()
            try:
                self.checkpoint()
            except OSError as exc:
                self._problem(_("checkpoint failed: {error}").format(error=exc))
            with self._wlock:
                journal = self._journal
                journal.close()
                if journal.size == 0:
                    with contextlib.suppress(OSError):
                        journal.path.unlink()
        self._closed = True
        self._release()
        with self._lock:
            for file in self._files_open.values():
                file.close()  # a read of a cold record after close() fails, never misreads
            self._files_open.clear()

    def _release(self) -> None:
        if self._writer_lock is not None:
            self._writer_lock.release()
            self._writer_lock = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise CacheError(_("The cache is closed."))

    # ------------------------------------------------------------------ core: memory

    def _shard_index(self, table: str, key: str) -> int:
        count = self._nshards[table]
        return zlib.crc32(key.encode()) % count if count > 1 else 0

    def _get(self, table: str, key: str) -> Held | None:
        return self._shards[table][self._shard_index(table, key)].get(key)

    def _docs(self, table: str) -> Iterable[Held]:
        for shard in self._shards[table]:
            yield from shard.values()

    @staticmethod
    def _full(doc: Held) -> Doc:
        """The whole record: read back from its shard file when it is held cold."""
        return doc.load() if isinstance(doc, ColdDoc) else doc

    def _apply(self, table: str, key: str, doc: Held | None) -> None:
        index = self._shard_index(table, key)
        shard = self._shards[table][index]
        old = shard.get(key)
        if old is not None:
            self._unindex(table, key, old)
        if doc is None:
            shard.pop(key, None)
        else:
            shard[key] = doc
            self._index(table, key, doc)
        self._dirty.add((table, index))

    def _index(self, table: str, key: str, doc: Held) -> None:
        i = doc.get("i") or {}
        if table == "requests":
            entry = (_str(i.get("c")), key)
            if self._bulk:
                self._req_order.append(entry)
            else:
                insort(self._req_order, entry)
        elif table == "responses":
            request_id = _str(i.get("r"))
            entry = (_str(i.get("c")), key)
            entries = self._resp_by_req.get(request_id)
            if entries is None:
                self._resp_by_req[request_id] = [entry]
            elif self._bulk:
                entries.append(entry)
            else:
                insort(entries, entry)
        elif table == "lawsuits":
            self._law_by_code.add(key.split("#", 1)[0], key)
            for document in i.get("docs") or ():
                self._law_by_doc.add(document, key)

    def _unindex(self, table: str, key: str, doc: Held) -> None:
        i = doc.get("i") or {}
        if table == "requests":
            with contextlib.suppress(ValueError):
                self._req_order.remove((_str(i.get("c")), key))
        elif table == "responses":
            request_id = _str(i.get("r"))
            entries = self._resp_by_req.get(request_id)
            if entries is not None:
                with contextlib.suppress(ValueError):
                    entries.remove((_str(i.get("c")), key))
                if not entries:
                    del self._resp_by_req[request_id]
        elif table == "lawsuits":
            self._law_by_code.discard(key.split("#", 1)[0], key)
            for document in i.get("docs") or ():
                self._law_by_doc.discard(document, key)

    def _finish_bulk(self) -> None:
        self._bulk = False
        self._req_order.sort()
        for entries in self._resp_by_req.values():
            entries.sort()

    # ------------------------------------------------------------------ core: writes

    def _now(self) -> float:
        return self._clock().timestamp()

    def _check_writable(self) -> None:
        self._check_open()
        if self.read_only:
            raise CacheReadOnly(_("The cache at {path} is open read-only.").format(path=self.path))

    def _commit(self, ops: list[jr.Operation]) -> None:
        """Make ``ops`` durable (journal + fdatasync), then apply them in memory."""
        if not ops:
            return
        # Only ``_wlock`` is held across the append and its fdatasync: readers keep answering
        # from memory meanwhile, and see the batch only once it is durable, all at once.
        # Writers are serialised by ``_wlock``, so a batch built from the state still applies
        # to that same state.
        with self._wlock:
            self._check_writable()
            assert self._journal is not None
            try:
                self._journal.append(ops)
            except OSError as exc:
                # A partial line may be on disk: continue in a fresh segment after it.
                with contextlib.suppress(OSError):
                    self._journal = self._journal.rotate()
                raise CacheError(
                    _("Could not write to the cache: {error}").format(error=exc)
                ) from exc
            with self._lock:
                for table, key, doc in ops:
                    self._apply(table, key, doc)
            if self._journal.size >= self._checkpoint_threshold():
                self._wake.set()

    def _record_doc(self, key: str, record: Any, index: dict[str, Any]) -> Doc:
        return {"k": key, "i": index, "b": pack_value(record)}

    @classmethod
    def _body(cls, doc: Held | None) -> Any:
        if doc is None:
            return None
        return unpack(cls._full(doc)["b"])

    # ------------------------------------------------------------------ checkpoints

    def checkpoint(self) -> int:
        """Rewrite the dirty shards and drop the journal they cover; returns shards written."""
        if self.read_only:
            return 0
        with self._ckpt_mutex:
            with self._wlock, self._lock:
                if self._closed or self._journal is None:
                    return 0
                if self._journal.size > 0:
                    self._journal = self._journal.rotate()
                current = self._journal.number
                old = [p for n, p in jr.list_segments(self._journal_dir) if n < current]
                if not old and not self._dirty:
                    return 0
                snapshot = [
                    (table, index, list(self._shards[table][index].items()))
                    for table, index in sorted(self._dirty)
                ]
                self._dirty.clear()
            written: list[tuple[str, int, list[tuple[str, Held]], ShardFile, list[Any]]] = []
            try:
                for table, index, items in snapshot:
                    # Cold records are copied from the file they are in, as they are there.
                    texts = (
                        d.raw() if isinstance(d, ColdDoc) else orjson.dumps(d) for _k, d in items
                    )
                    raw, spans = shard_bytes(texts)
                    path = self._shard_path(table, index)
                    AtomicOrjsonStorage(path, sync_dir=False).write_raw(raw)
                    self._shard_bytes[(table, index)] = len(raw)
                    if table in COLD_TABLES:
                        # Only this thread replaces shard files: this is the one just written.
                        written.append((table, index, items, ShardFile.open(path), spans))
                fsync_dir(self._tables_dir)
            except BaseException:
                with self._lock:
                    self._dirty.update((t, i) for t, i, _docs in snapshot)
                raise
            with self._lock:
                # What was written is now on disk: hold it cold, unless a write replaced it
                # meanwhile (that one is whole in memory, its shard dirty again).
                for table, index, items, file, spans in written:
                    shard = self._shards[table][index]
                    for (key, doc), (offset, length) in zip(items, spans, strict=True):
                        if shard.get(key) is doc:
                            shard[key] = _cold(doc, file, offset, length)
                    self._files_open[(table, index)] = file
            with checkpoint_lock(self.path, exclusive=True):
                for seg in old:
                    with contextlib.suppress(FileNotFoundError):
                        seg.unlink()
                fsync_dir(self._journal_dir)
            return len(snapshot)

    def _checkpoint_threshold(self) -> int:
        """Journal size that calls for a checkpoint: an eighth of the data, at least the
        configured bytes, so a long sync rewrites the shards a bounded number of times
        instead of after every few batches (and opening replays at most that much)."""
        return max(self._checkpoint_bytes, sum(self._shard_bytes.values()) // 8)

    def _checkpoint_loop(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            if self._stopping:
                return
            try:
                self.checkpoint()
            except Exception as exc:  # the journal still holds everything; retry next time
                with self._lock:
                    self._problem(_("checkpoint failed: {error}").format(error=exc))

    # ------------------------------------------------------------------ requests

    def _upsert_records(self, table: str, id_field: str, records: Iterable[dict[str, Any]]) -> None:
        """Store records of ``table`` keyed by ``id_field`` (the latest record wins), indexed
        by created_at and status, in one durable batch."""
        with self._wlock:
            self._check_writable()
            now = self._now()
            ops: list[jr.Operation] = []
            for raw in records:
                record, text = self._san.clean_json(raw)
                key = _str(record.get(id_field))
                if not key:
                    raise ValueError(f"a record of {table} needs {id_field}")
                index = {"c": _str(record.get("created_at")), "st": record.get("status"), "at": now}
                ops.append((table, key, {"k": key, "i": index, "b": pack(text)}))
            self._commit(ops)

    def upsert_requests(self, records: Iterable[dict[str, Any]]) -> None:
        """Store request records (keyed by request_id; the latest record wins)."""
        self._upsert_records("requests", "request_id", records)

    def get_request(self, request_id: str) -> dict[str, Any] | None:
        with self._lock:
            body: dict[str, Any] | None = self._body(self._get("requests", request_id))
            return body

    def list_requests(
        self, *, status: str | None = None, limit: int | None = None, offset: int = 0
    ) -> list[dict[str, Any]]:
        """Requests newest first (by created_at), optionally of one status. ``offset`` and
        ``limit`` pick a page of that list; records outside it are not parsed."""
        docs: list[Held] = []
        skip = max(0, offset)
        with self._lock:
            for _created, key in reversed(self._req_order):
                if limit is not None and len(docs) >= limit:
                    break
                doc = self._get("requests", key)
                if doc is None or (status is not None and doc["i"].get("st") != status):
                    continue
                if skip:
                    skip -= 1
                    continue
                docs.append(doc)
        return [self._body(d) for d in docs]

    def count_requests(self, *, status: str | None = None) -> int:
        """How many requests (of ``status``) the cache holds, from the index."""
        with self._lock:
            if status is None:
                return sum(len(s) for s in self._shards["requests"])
            return sum(1 for d in self._docs("requests") if d["i"].get("st") == status)

    # ------------------------------------------------------------------ responses

    def upsert_responses(
        self, records: Iterable[dict[str, Any]], *, meta: dict[str, object] | None = None
    ) -> list[LawsuitChange]:
        """Store response records (keyed by response_id) in one durable batch.

        A response of type lawsuit also feeds the lawsuits table, as provisional when it
        came from the service's cache (tags.cached_response or cached true). Returns the
        changes of the lawsuits it stored (ignored versions are left out).

        ``meta``: values to set as :meth:`set_meta` would, in the same batch, so that
        bookkeeping about these responses (a sync's resume point) can never be durable
        without them, or they without it.
        """
        with self._wlock:
            self._check_writable()
            ops, changes = self._response_ops(records)
            for key, value in (meta or {}).items():
                ops.append(self._meta_op(key, value))
            self._commit(ops)
            return changes

    def iter_responses(self) -> Iterator[dict[str, Any]]:
        """Every cached response, oldest first (by created_at, then response_id).

        A generator: the order is taken from the index fields up front, and each record is
        parsed only when it is reached, so memory stays at one parsed record at a time.
        A record removed meanwhile is skipped; one replaced meanwhile is read as it is now.
        """
        with self._lock:
            order = sorted((_str(d["i"].get("c")), d["k"]) for d in self._docs("responses"))
        for _created, key in order:
            with self._lock:
                doc = self._get("responses", key)
            if doc is not None:
                yield self._body(doc)

    def _response_ops(
        self, records: Iterable[dict[str, Any]]
    ) -> tuple[list[jr.Operation], list[LawsuitChange]]:
        now = self._now()
        ops: list[jr.Operation] = []
        changes: list[LawsuitChange] = []
        pending: dict[str, Doc] = {}
        for raw in records:
            record, text = self._san.clean_json(raw)
            key = _str(record.get("response_id"))
            if not key:
                raise ValueError("a response record needs response_id")
            index = {
                "r": _str(record.get("request_id")),
                "c": _str(record.get("created_at")),
                "t": record.get("response_type"),
                "at": now,
            }
            doc = {"k": key, "i": index, "b": pack(text)}
            held = self._get("responses", key)
            if held is None or self._full(held).get("b") != doc["b"]:
                ops.append(("responses", key, doc))
            data = record.get("response_data")
            if (
                record.get("response_type") == "lawsuit"
                and isinstance(data, dict)
                and isinstance(data.get("code"), str)
                and data["code"]
            ):
                op, change = self._lawsuit_op(
                    data,
                    sanitized=True,
                    provisional=_is_provisional(record),
                    source=key,
                    pending=pending,
                    now=now,
                )
                if op is not None:
                    ops.append(op)
                    changes.append(change)
        return ops, changes

    def responses_of(
        self,
        request_id: str,
        *,
        limit: int | None = None,
        offset: int = 0,
        oldest_first: bool = False,
    ) -> list[dict[str, Any]]:
        """Responses of a request, newest first (by created_at; ``oldest_first``: the other
        way). ``offset``/``limit`` pick a page of that order; only the page is parsed."""
        offset = max(0, offset)
        with self._lock:
            entries = self._resp_by_req.get(request_id, [])
            total = len(entries)
            end = total if limit is None else min(total, offset + max(0, limit))
            if oldest_first:
                chosen = entries[offset:end]
            else:
                chosen = entries[total - end : total - offset][::-1] if offset < total else []
            docs = [self._get("responses", k) for _created, k in chosen]
        return [self._body(d) for d in docs if d is not None]

    def count_responses_of(self, request_id: str) -> int:
        """How many responses of ``request_id`` the cache holds (from the index: no parsing)."""
        with self._lock:
            return len(self._resp_by_req.get(request_id, ()))

    def get_response(self, response_id: str) -> dict[str, Any] | None:
        with self._lock:
            doc = self._get("responses", response_id)
        body: dict[str, Any] | None = self._body(doc)
        return body

    def count_responses(self) -> int:
        with self._lock:
            return sum(len(s) for s in self._shards["responses"])

    # ------------------------------------------------------------------ lawsuits

    def upsert_lawsuit(
        self, lawsuit: dict[str, Any], *, provisional: bool, source: str = ""
    ) -> LawsuitChange:
        """Store a lawsuit version; see LawsuitChange for what comes back.

        A definitive version replaces the provisional one and any older definitive one; a
        provisional version is kept only while no definitive one exists.
        """
        with self._wlock:
            self._check_writable()
            op, change = self._lawsuit_op(
                lawsuit, provisional=provisional, source=source, pending={}, now=self._now()
            )
            if op is not None:
                self._commit([op])
            return change

    def upsert_lawsuits(
        self,
        items: Iterable[tuple[dict[str, Any], bool, str]],
        *,
        meta: dict[str, object] | None = None,
    ) -> list[LawsuitChange]:
        """Store several lawsuit versions, ``(lawsuit, provisional, source)`` each, in one
        durable batch (all or nothing); one LawsuitChange per item, in order, as
        :meth:`upsert_lawsuit` would return it (ignored versions included). Later items see
        the earlier ones of the same batch (two versions of one lawsuit: the rules apply
        between them as between two calls). ``meta``: as in :meth:`upsert_responses`."""
        with self._wlock:
            self._check_writable()
            now = self._now()
            pending: dict[str, Doc] = {}
            ops: dict[str, jr.Operation] = {}
            changes: list[LawsuitChange] = []
            for lawsuit, provisional, source in items:
                op, change = self._lawsuit_op(
                    lawsuit, provisional=provisional, source=source, pending=pending, now=now
                )
                if op is not None:
                    ops[op[1]] = op  # the last version of a key is its final state
                changes.append(change)
            batch = list(ops.values())
            batch.extend(self._meta_op(k, v) for k, v in (meta or {}).items())
            self._commit(batch)
            return changes

    def _lawsuit_op(
        self,
        raw: dict[str, Any],
        *,
        provisional: bool,
        source: str,
        pending: dict[str, Doc],
        now: float,
        sanitized: bool = False,
    ) -> tuple[jr.Operation | None, LawsuitChange]:
        text: bytes | None = None
        if sanitized:
            lawsuit = raw
        else:
            lawsuit, text = self._san.clean_json(raw)
        code = _str(lawsuit.get("code"))
        if not code:
            raise ValueError("a lawsuit needs its code")
        instance = instance_of(lawsuit)
        key = lawsuit_key(code, instance)
        held = pending.get(key) or self._get("lawsuits", key)
        old = None if held is None else self._full(held)
        # The sanitizer's JSON text when it made one: a big lawsuit is serialised once.
        body = pack(text) if text is not None else pack_value(lawsuit)
        stamp = version_stamp(lawsuit)
        ignored = LawsuitChange(
            code=code, instance=instance, provisional=provisional, ignored=True, source=source
        )
        previous: str | None = None
        if old is not None:
            held_def, held_prov = old.get("d"), old.get("p")
            if provisional:
                if held_def is not None:
                    return None, ignored
                if held_prov == body or (stamp and stamp < _str(old.get("pv"))):
                    return None, ignored
                previous = held_prov
            else:
                if held_def == body or (
                    held_def is not None and stamp and stamp < _str(old.get("dv"))
                ):
                    return None, ignored
                previous = held_def if held_def is not None else held_prov
        change = diff(unpack(previous) if previous else None, lawsuit, code=code, instance=instance)
        change.provisional = provisional
        change.source = source
        change.replaced_provisional = bool(
            not provisional and old is not None and old.get("d") is None and old.get("p")
        )
        documents = party_documents(lawsuit)
        index = {
            "code": code,
            "inst": instance,
            "docs": documents,
            "s": search_text(lawsuit, documents),
            "o": recency(lawsuit),
            "at": now,
        }
        if provisional:
            versions = {"d": None, "dv": "", "dat": None, "p": body, "pv": stamp, "pat": now}
        else:
            versions = {"d": body, "dv": stamp, "dat": now, "p": None, "pv": "", "pat": None}
        doc: Doc = {
            "k": key,
            "i": index,
            **versions,
            "c": pack_value(change.to_json()),
            "src": source,
        }
        pending[key] = doc
        return ("lawsuits", key, doc), change

    def _lawsuit_doc(self, code: str, instance: int | None) -> Held | None:
        if instance is not None:
            return self._get("lawsuits", lawsuit_key(code, instance))
        keys = self._law_by_code.get(code_key(code))
        docs = [d for d in (self._get("lawsuits", k) for k in keys) if d is not None]
        if not docs:
            return None
        # Without an instance: the most recently active one.
        return max(docs, key=lambda d: (_str(d["i"].get("o")), d["i"].get("at") or 0))

    def get_lawsuit(self, code: str, instance: int | None = None) -> dict[str, Any] | None:
        """The definitive version if any, else the provisional one (lawsuit_entry tells)."""
        with self._lock:
            held = self._lawsuit_doc(code, instance)
        doc = None if held is None else self._full(held)
        text = None if doc is None else (doc.get("d") or doc.get("p"))
        return None if text is None else dict(unpack(text))

    def lawsuit_entry(self, code: str, instance: int | None = None) -> LawsuitEntry | None:
        found = self._lawsuit_record(code, instance)
        if found is None:
            return None
        doc, text = found
        state = self._state(doc)
        return LawsuitEntry(
            lawsuit=unpack(text),
            provisional=state.provisional,
            stored_at=state.stored_at,
            changes=state.changes,
            source=state.source,
        )

    def lawsuit_state(self, code: str, instance: int | None = None) -> LawsuitState | None:
        """As :meth:`lawsuit_entry` without the lawsuit: for a list of responses, or a
        lawsuit already on screen, it spares unpacking a body of megabytes."""
        found = self._lawsuit_record(code, instance)
        return None if found is None else self._state(found[0])

    def _lawsuit_record(self, code: str, instance: int | None) -> tuple[Doc, str] | None:
        """The whole record of a lawsuit and the body of its version held, if any."""
        with self._lock:
            held = self._lawsuit_doc(code, instance)
        if held is None:
            return None
        doc = self._full(held)
        text = doc.get("p") if doc.get("d") is None else doc.get("d")
        return None if text is None else (doc, text)

    @staticmethod
    def _state(doc: Doc) -> LawsuitState:
        provisional = doc.get("d") is None
        stored = doc.get("pat") if provisional else doc.get("dat")
        changes = doc.get("c")
        if isinstance(changes, str):  # packed (schema 2); a dict in schema 1 records
            changes = unpack(changes)
        return LawsuitState(
            provisional=provisional,
            stored_at=datetime.fromtimestamp(float(stored or doc["i"].get("at") or 0), UTC),
            changes=LawsuitChange.from_json(changes) if isinstance(changes, dict) else None,
            source=_str(doc.get("src")),
        )

    def _lawsuit_bodies(self, docs: Iterable[Held], limit: int | None) -> list[dict[str, Any]]:
        ordered = sorted(
            docs,
            key=lambda d: (_str(d["i"].get("o")), d["i"].get("at") or 0, d["k"]),
            reverse=True,
        )
        texts = [(d.get("d") or d.get("p")) for d in map(self._full, ordered[:limit])]
        return [unpack(t) for t in texts if t]

    def lawsuits_of_document(self, document: str) -> list[dict[str, Any]]:
        """Lawsuits where a party or a lawyer has this CPF, CNPJ or OAB; newest first."""
        with self._lock:
            keys = self._law_by_doc.get(document_key(document))
            docs = [d for d in (self._get("lawsuits", k) for k in keys) if d is not None]
        return self._lawsuit_bodies(docs, None)

    def search_lawsuits(self, text: str, limit: int = 50) -> list[dict[str, Any]]:
        """Lawsuits whose number, name, parties, lawyers or documents hold every word."""
        terms = fold(text).split()
        if not terms:
            return []
        alternatives = [
            {t, document_key(t).lower()} if any(c.isdigit() for c in t) else {t} for t in terms
        ]
        with self._lock:
            found = [
                d
                for d in self._docs("lawsuits")
                if all(any(a in d["i"].get("s", "") for a in alts) for alts in alternatives)
            ]
        return self._lawsuit_bodies(found, limit)

    def iter_lawsuits(self) -> Iterator[dict[str, Any]]:
        """Every cached lawsuit (per instance), by CNJ number then instance: the definitive
        version when there is one, else the provisional one (lawsuit_entry tells which).

        A generator, parsed one record at a time, like :meth:`iter_responses`.
        """
        with self._lock:
            order = sorted(
                (d["k"].split("#", 1)[0], _instance_rank(d["i"].get("inst")), d["k"])
                for d in self._docs("lawsuits")
            )
        for _code, _instance, key in order:
            with self._lock:
                held = self._get("lawsuits", key)
            doc = None if held is None else self._full(held)
            text = None if doc is None else (doc.get("d") or doc.get("p"))
            if text is not None:
                yield dict(unpack(text))

    def count_lawsuits(self) -> int:
        with self._lock:
            return sum(len(s) for s in self._shards["lawsuits"])

    # ------------------------------------------------------------------ trackings

    def upsert_trackings(self, records: Iterable[dict[str, Any]]) -> None:
        """Store tracking records (keyed by tracking_id; the latest record wins)."""
        self._upsert_records("trackings", "tracking_id", records)

    def get_tracking(self, tracking_id: str) -> dict[str, Any] | None:
        with self._lock:
            body: dict[str, Any] | None = self._body(self._get("trackings", tracking_id))
            return body

    def list_trackings(self, status: str | None = None) -> list[dict[str, Any]]:
        """Trackings newest first (by created_at), optionally of one status."""
        with self._lock:
            docs = [
                d for d in self._docs("trackings") if status is None or d["i"].get("st") == status
            ]
        docs.sort(key=lambda d: (_str(d["i"].get("c")), d["k"]), reverse=True)
        return [self._body(d) for d in docs]

    # ------------------------------------------------------------------ webhooks

    def is_delivered(self, callback_id: str) -> bool:
        with self._lock:
            return self._get("deliveries", callback_id) is not None

    def record_delivery(self, envelope: dict[str, Any]) -> bool:
        """Remember a webhook delivery by callback_id: True if new, False for a redelivery."""
        return self.ingest_delivery(envelope)[0]

    def ingest_delivery(
        self,
        envelope: dict[str, Any],
        responses: Iterable[dict[str, Any]] = (),
        *,
        quarantine_reason: str | None = None,
    ) -> tuple[bool, list[LawsuitChange]]:
        """Record a delivery and store the responses it carried, in one durable batch.

        A redelivery (known callback_id) changes nothing and returns (False, []). Doing both
        in one batch means a kill can never keep the delivery mark without its responses.
        ``quarantine_reason``: also keep the envelope in quarantine (a delivery accepted but
        not storable as a record), in the same batch: kept once, however often it comes.
        """
        callback_id = _str(envelope.get("callback_id"))
        if not callback_id:
            raise ValueError("a webhook delivery needs callback_id")
        with self._wlock:
            self._check_writable()
            if self._get("deliveries", callback_id) is not None:
                return False, []
            now = self._now()
            ops, changes = self._response_ops(responses)
            meta = {
                k: envelope.get(k)
                for k in ("callback_id", "event_type", "reference_type", "reference_id", "user_id")
            }
            meta["received_at"] = datetime.fromtimestamp(now, UTC).isoformat()
            meta = self._san.clean(meta)
            index = {"at": now, "e": meta.get("event_type"), "ref": meta.get("reference_id")}
            if quarantine_reason is not None:
                ops.append(self._quarantine_op(orjson.dumps(envelope), quarantine_reason, now))
            ops.append(("deliveries", callback_id, self._record_doc(callback_id, meta, index)))
            self._commit(ops)
            return True, changes

    def quarantine(self, body: bytes, reason: str) -> None:
        """Keep a delivery the receiver could not accept (secrets scrubbed, size capped)."""
        with self._wlock:
            self._check_writable()
            self._commit([self._quarantine_op(body, reason, self._now())])

    def _quarantine_op(self, body: bytes, reason: str, now: float) -> jr.Operation:
        text: str
        try:
            text = _dumps(self._san.clean(orjson.loads(body)))
        except orjson.JSONDecodeError:
            # Scrub the whole text before cutting it: a cut could split a secret in two.
            text = self._san.text(body.decode("utf-8", "replace"))
        record = {
            "received_at": datetime.fromtimestamp(now, UTC).isoformat(),
            "reason": self._san.text(reason),
            "size": len(body),
            "body": text[:QUARANTINE_MAX_BYTES],
        }
        key = f"{now:017.6f}-{uuid.uuid4().hex[:8]}"
        return ("quarantine", key, self._record_doc(key, record, {"at": now}))

    def list_quarantine(self) -> list[dict[str, Any]]:
        """Quarantined deliveries, newest first: received_at, reason, size, body (text)."""
        with self._lock:
            docs = sorted(self._docs("quarantine"), key=lambda d: d["k"], reverse=True)
        return [self._body(d) for d in docs]

    # ------------------------------------------------------------------ count, vault, searches

    def add_count_request(self, record: dict[str, Any]) -> None:
        with self._wlock:
            self._check_writable()
            now = self._now()
            clean = self._san.clean(record)
            rid = clean.get("request_id")
            key = str(rid) if rid is not None else f"local-{uuid.uuid4().hex}"
            old = self._get("count_requests", key)
            at = old["i"]["at"] if old is not None else now
            self._commit([("count_requests", key, self._record_doc(key, clean, {"at": at}))])

    def list_count_requests(self) -> list[dict[str, Any]]:
        """Count requests, newest first (by when they were stored)."""
        with self._lock:
            docs = sorted(self._docs("count_requests"), key=lambda d: (d["i"].get("at", 0), d["k"]))
        return [self._body(d) for d in reversed(docs)]

    def save_vault_snapshot(self, customer_key: str, rows: list[dict[str, Any]]) -> None:
        """Keep the last vault status grid of a customer_key (never a password)."""
        with self._wlock:
            self._check_writable()
            now = self._now()
            clean = self._san.clean(list(rows))
            self._commit(
                [("vault", customer_key, self._record_doc(customer_key, clean, {"at": now}))]
            )

    def vault_snapshot(self, customer_key: str) -> list[dict[str, Any]] | None:
        with self._lock:
            rows: list[dict[str, Any]] | None = self._body(self._get("vault", customer_key))
            return rows

    def vault_snapshot_at(self, customer_key: str) -> datetime | None:
        with self._lock:
            doc = self._get("vault", customer_key)
        return None if doc is None else datetime.fromtimestamp(float(doc["i"]["at"]), UTC)

    def add_recent_search(self, text: str) -> None:
        text = text.strip()
        if not text:
            return
        with self._wlock:
            self._check_writable()
            text = self._san.text(text)
            recent = [t for t in self.recent_searches(RECENT_KEEP) if t != text]
            self._set_internal(RECENT_KEY, [text, *recent][:RECENT_KEEP])

    def recent_searches(self, limit: int = 20) -> list[str]:
        with self._lock:
            value = self._body(self._get("meta", f"internal:{RECENT_KEY}"))
        return [str(v) for v in value][:limit] if isinstance(value, list) else []

    # ------------------------------------------------------------------ meta

    def get_meta(self, key: str) -> object:
        """A value set with set_meta (sync bookkeeping), or None."""
        with self._lock:
            value: object = self._body(self._get("meta", f"user:{key}"))
            return value

    def set_meta(self, key: str, value: object) -> None:
        """Store a JSON value under ``key`` (None deletes it); durable on return."""
        with self._wlock:
            self._check_writable()
            doc_key = f"user:{key}"
            if value is None:
                self._commit([("meta", doc_key, None)] if self._get("meta", doc_key) else [])
                return
            self._commit([self._meta_op(key, value)])

    def _meta_op(self, key: str, value: object) -> jr.Operation:
        doc_key = f"user:{key}"
        if value is None:
            return ("meta", doc_key, None)
        clean = self._san.clean(value)
        return ("meta", doc_key, self._record_doc(doc_key, clean, {"at": self._now()}))

    def _set_internal(self, key: str, value: object) -> None:
        doc_key = f"internal:{key}"
        self._commit([("meta", doc_key, self._record_doc(doc_key, value, {"at": self._now()}))])

    # ------------------------------------------------------------------ maintenance

    def _files(self) -> list[Path]:
        files: list[Path] = []
        for sub in (self.path, self._tables_dir, self._journal_dir):
            if sub.is_dir():
                files.extend(p for p in sub.iterdir() if p.is_file())
        return files

    def stats(self) -> dict[str, Any]:
        """Counts per table and sizes on disk."""
        with self._lock:
            counts = {t: sum(len(s) for s in shards) for t, shards in self._shards.items()}
            provisional = sum(1 for d in self._docs("lawsuits") if _provisional_held(d))
        files = self._files()
        sizes: dict[str, int] = {"tables": 0, "journal": 0, "other": 0}
        for f in files:
            with contextlib.suppress(OSError):
                part = f.parent.name if f.parent != self.path else "other"
                sizes[part if part in sizes else "other"] += f.stat().st_size
        return {
            "path": str(self.path),
            "schema_version": self._schema.get("version", SCHEMA_VERSION),
            "read_only": self.read_only,
            "counts": counts,
            "provisional_lawsuits": provisional,
            "files": len(files),
            "bytes_on_disk": sum(sizes.values()),
            "bytes_tables": sizes["tables"],
            "bytes_journal": sizes["journal"],
            "damaged_files": sorted(f.name for f in files if ".damaged-" in f.name),
            "problems": list(self.problems),
        }

    def prune(self, older_than_days: int) -> int:
        """Forget what was stored more than ``older_than_days`` ago (requests, responses,
        lawsuits, deliveries, quarantine, count requests); trackings, vault snapshots,
        recent searches and sync bookkeeping stay. Returns the number of records removed."""
        if older_than_days < 0:
            raise ValueError("older_than_days must be 0 or more")
        with self._wlock:
            self._check_writable()
            cutoff = self._now() - older_than_days * 86400
            ops: list[jr.Operation] = [
                (table, d["k"], None)
                for table in PRUNED_TABLES
                for d in self._docs(table)
                if float(d.get("i", {}).get("at") or 0) < cutoff
            ]
            self._commit(ops)
        if ops:
            self._wake.set()
        return len(ops)

    def verify(self) -> list[str]:
        """Read every file of the cache; a list of what could not be read (empty: all good)."""
        problems: list[str] = []
        try:
            read_schema(self.path)
        except (ValueError, OSError) as exc:
            problems.append(_unreadable(self.path / SCHEMA_FILE, exc))
        if self._tables_dir.is_dir():
            for path in sorted(self._tables_dir.iterdir()):
                if not path.name.endswith(".json") or not path.is_file():
                    continue
                problems.extend(self._verify_shard(path))
        for _num, seg in jr.list_segments(self._journal_dir):
            result = jr.read_segment(seg)
            if result.problem:
                problems.append(result.problem)
        return problems

    @staticmethod
    def _verify_shard(path: Path) -> list[str]:
        try:
            data = AtomicOrjsonStorage(path, read_only=True).read()
        except (DamagedFile, OSError) as exc:
            return [_unreadable(path, exc)]
        bad = 0
        for doc in ((data or {}).get(TINYDB_TABLE) or {}).values():
            try:
                if not isinstance(doc, dict) or not isinstance(doc.get("k"), str):
                    raise ValueError
                for field in ("b", "d", "p"):
                    if isinstance(doc.get(field), str):
                        unpack(doc[field])
            except (ValueError, zlib.error):
                bad += 1
        if not bad:
            return []
        return [_("{name}: {n} unreadable record(s)").format(name=path.name, n=bad)]

"""The storage engine: tables of JSON records, crash-safe on disk, answered from memory.

It knows records (``records.py``) and the tables declared to it (:meth:`Engine.add_table`),
never what a table holds: the tables (``store/tables/``) build their records and indexes
on the primitives here, and :class:`lawsuit_tui.store.Store` puts them behind one facade.

Durability contract: :meth:`Engine.commit` returns only after its whole batch is in the
journal and fdatasynced. From that moment the write survives a kill -9 and is visible to
the readers of this engine (they never see a write that is not durable). A batch (one call)
is all or nothing. The shard files are rewritten later by a checkpoint (a background thread
once the journal passes ``checkpoint_bytes``, and ``close()``), which costs what changed:
only the dirty shards are rewritten, each atomically. Opening replays the journal on top
of the shards.

Thread safety: writers are serialised by the writer lock (:meth:`Engine.writing`), held
while a batch is built, appended to the journal and fdatasynced; the state lock
:attr:`Engine.lock` is taken by readers and, by the writer, only to apply a batch that is
already durable. So readers never wait for a disk flush, never see a write that is not
durable, and see a batch all at once.

One writer at a time: a second writer gets CacheLocked; a read-only engine works beside
the writer and :meth:`Engine.refresh` picks up what it has written since.

Changes: ``engine.changes`` (changes.py) tells its listeners of every committed batch,
after it is durable and applied, with the records it changed (what a derived index, such
as a full-text index beside the cache, follows to stay in step).
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.store import journal as jr
from lawsuit_tui.store.changes import ChangeFeed
from lawsuit_tui.store.cold import ShardFile, raise_open_file_limit
from lawsuit_tui.store.damage import copy_aside, move_aside, salvage
from lawsuit_tui.store.errors import CacheError, CacheReadOnly, CacheUnavailable, os_problem
from lawsuit_tui.store.fileio import ensure_private_dir, fsync_dir, remove_leftover_tmp
from lawsuit_tui.store.lock import WriterLock, checkpoint_lock
from lawsuit_tui.store.memory import Memory
from lawsuit_tui.store.records import Held, TableIndex, TableSpec
from lawsuit_tui.store.sanitize import Sanitizer
from lawsuit_tui.store.schema import (
    SCHEMA_FILE,
    SCHEMA_VERSION,
    migrate,
    new_schema,
    packed_journal_doc,
    read_schema,
    write_schema,
)
from lawsuit_tui.store.shards import ShardFiles, hold_cold
from lawsuit_tui.store.storage import DamagedFile

__all__ = ["DEFAULT_CHECKPOINT_BYTES", "Clock", "Engine", "unreadable"]

Clock = Callable[[], datetime]

DEFAULT_CHECKPOINT_BYTES = 16 * 1024 * 1024


def unreadable(path: Path, error: Exception) -> str:
    return _("{name}: unreadable ({problem})").format(name=path.name, problem=error)


class Engine:
    """Declare the tables (:meth:`add_table`), then :meth:`open`; :meth:`close` at the end."""

    def __init__(
        self,
        directory: Path,
        *,
        read_only: bool,
        clock: Clock,
        checkpoint_bytes: int = DEFAULT_CHECKPOINT_BYTES,
        secrets: Iterable[str] = (),
    ) -> None:
        self.path = Path(directory)
        self.read_only = read_only
        self.problems: list[str] = []
        # Files this open set aside (paths inside the cache): the run that found damage says
        # so, and they stay listed (damage.py) until acknowledged.
        self.found_now: list[str] = []
        self.clock = clock
        # One sanitizer for every table: nothing secret is written (see sanitize.py).
        self.sanitizer = Sanitizer(secrets)
        self.specs: dict[str, TableSpec] = {}
        self.memory = Memory()
        self.files = ShardFiles(self.tables_dir)
        # The state lock: readers, and the writer only while it applies a durable batch.
        self.lock = threading.RLock()
        # Writers, one at a time: held across building a batch, its journal append and
        # fdatasync; ``lock`` is taken only to apply the batch, so readers never wait for a disk.
        self._wlock = threading.RLock()
        self._ckpt_mutex = threading.Lock()
        self._checkpoint_bytes = checkpoint_bytes
        self._closed = False
        self._writer_lock: WriterLock | None = None
        self._journal: jr.JournalWriter | None = None
        self._thread: threading.Thread | None = None
        self._wake = threading.Event()
        self._stopping = False
        self._schema: dict[str, Any] = new_schema({})
        self._offsets: dict[int, int] = {}
        # Told of every committed batch (what a derived index follows; see changes.py).
        self.changes = ChangeFeed()
        # Reads are the hot path: the memory's own methods, without a call in between.
        self.get = self.memory.get
        self.docs = self.memory.docs
        self.count = self.memory.count

    # ------------------------------------------------------------------ tables

    def add_table(self, spec: TableSpec, index: TableIndex | None = None) -> None:
        """Declare a table (before :meth:`open`), with the in-memory index it answers by."""
        if spec.name in self.specs:
            raise ValueError(f"table {spec.name} declared twice")
        if self.memory.layout:
            raise ValueError(f"table {spec.name} declared after the cache was opened")
        self.specs[spec.name] = spec
        if index is not None:
            self.memory.indexes[spec.name] = index

    @property
    def tables_dir(self) -> Path:
        return self.path / "tables"

    @property
    def journal_dir(self) -> Path:
        return self.path / "journal"

    @property
    def schema_version(self) -> int:
        return int(self._schema.get("version", SCHEMA_VERSION))

    # ------------------------------------------------------------------ opening

    def open(self) -> None:
        """Open (creating it when writable) the cache directory. Raises CacheLocked when
        another process writes to it; damaged files are set aside and listed in ``problems``."""
        raise_open_file_limit()
        # Every declared table, empty, until (and unless) the directory says otherwise.
        layout = {name: spec.shards for name, spec in self.specs.items()}
        self._schema = new_schema(layout)
        self.memory.reset(layout)
        try:
            if self.read_only:
                self._open_reader()
            else:
                self._open_writer()
        except OSError as exc:
            self._release()
            raise CacheUnavailable(os_problem(exc, self.path)) from exc
        except BaseException:
            self._release()
            raise

    def _open_writer(self) -> None:
        ensure_private_dir(self.path)
        self._writer_lock = WriterLock(self.path)
        for sub in (self.tables_dir, self.journal_dir):
            ensure_private_dir(sub)
        for sub in (self.path, self.tables_dir, self.journal_dir):
            remove_leftover_tmp(sub)
        self._load_schema()
        self._load_shards()
        segments = jr.list_segments(self.journal_dir)
        for _num, seg in segments:
            self._replay(seg, 0)
        self._journal = jr.JournalWriter(self.journal_dir, (segments[-1][0] + 1) if segments else 1)
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
            for number, seg in jr.list_segments(self.journal_dir):
                self._offsets[number] = self._replay(seg, 0)

    def _load_schema(self) -> None:
        layout = {name: spec.shards for name, spec in self.specs.items()}
        try:
            schema = read_schema(self.path)
        except (ValueError, OSError) as exc:
            self._set_aside(self.path / SCHEMA_FILE, exc)
            schema = None
        if schema is None:
            schema = new_schema(layout)
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
        stored: dict[str, int] = schema["shards"]
        missing = [name for name in layout if name not in stored]
        # Tables of a cache written by a later release stay, as they are, after ours.
        schema["shards"] = {**layout, **stored}
        if missing and not self.read_only:
            write_schema(self.path, schema)  # a table's layout is fixed from its first use
        self._schema = schema
        self.memory.reset({k: max(1, int(v)) for k, v in schema["shards"].items()})

    def _load_shards(self) -> None:
        # The cyclic collector would walk every object parsed so far, again and again, while
        # hundreds of MB are parsed (it triples the time to open), and then on every full
        # collection for the life of the app. Nothing here makes cycles: collection is off
        # while loading, and what was loaded is frozen out of the collector's sight (it is
        # still freed by reference counting when replaced).
        collecting = gc.isenabled()
        gc.collect()  # so that only what is loaded here gets frozen, not older garbage
        gc.disable()
        self.memory.begin_bulk()
        try:
            for table, count in self.memory.layout.items():
                for number in range(count):
                    self._load_shard(table, number)
        finally:
            self.memory.finish_bulk()
            gc.freeze()
            if collecting:
                gc.enable()

    def _load_shard(self, table: str, number: int) -> None:
        try:
            loaded = self.files.load(table, number, self.specs.get(table))
        except (DamagedFile, OSError) as exc:
            self._salvage_shard(table, number, exc)
            return
        if loaded.malformed:
            self._problem(
                _("{name}: {n} malformed record(s) skipped").format(
                    name=self.files.path(table, number).name, n=loaded.malformed
                )
            )
        if loaded.needs_rewrite and not self.read_only:
            self.memory.dirty.add((table, number))  # rewritten in our form by the next checkpoint
        self.memory.place(table, number, loaded.records)

    def _salvage_shard(self, table: str, number: int, error: Exception) -> None:
        """A shard that does not read: keep every record of it that still does (D140), set
        the file aside (writer), and say so. The writer rewrites the shard from what was
        kept at its next checkpoint."""
        path = self.files.path(table, number)
        spec = self.specs.get(table)
        try:
            found = salvage(path.read_bytes(), spec.bodies if spec else ("b",))
        except OSError:
            found = {}
        # Only what belongs in this shard: a stray copy of another shard's record is not ours.
        records: dict[str, Held] = {
            key: doc for key, doc in found.items() if self.memory.shard_index(table, key) == number
        }
        kept = (
            ngettext(
                "{n} record in it could still be read and was kept",
                "{n} records in it could still be read and were kept",
                len(records),
            ).format(n=len(records))
            if records
            else _("nothing in it could be read")
        )
        self._set_aside(path, error, detail=kept)
        self.memory.place(table, number, records)
        if not self.read_only:
            self.memory.dirty.add((table, number))

    def _set_aside(self, path: Path, error: Exception, *, detail: str = "") -> None:
        """Move an unreadable file out of the way (writer) and say so in ``problems``."""
        what = unreadable(path, error)
        if detail:
            what = f"{what}; {detail}"
        if self.read_only:
            self._problem(what)
            return
        try:
            target = move_aside(path)
        except OSError as exc:
            self._problem(
                _("{problem}; could not set it aside ({error})").format(problem=what, error=exc)
            )
            return
        self.found_now.append(str(target.relative_to(self.path)))
        self._problem(_("{problem}; set aside as {name}").format(problem=what, name=target.name))

    def _problem(self, text: str) -> None:
        if text not in self.problems:
            self.problems.append(text)

    def _replay(self, segment: Path, offset: int) -> int:
        result = jr.read_segment(segment, offset)
        if result.problem:
            problem = result.problem
            if not self.read_only:
                # The checkpoint will delete the segment: a copy keeps the damage on record.
                try:
                    target = copy_aside(segment)
                except OSError as exc:
                    problem = _("{problem}; could not copy it aside ({error})").format(
                        problem=problem, error=exc
                    )
                else:
                    self.found_now.append(str(target.relative_to(self.path)))
                    problem = _("{problem}; a copy was set aside as {name}").format(
                        problem=problem, name=target.name
                    )
            self._problem(problem)
        shards = self.memory.shards
        for batch in result.batches:
            for table, key, doc in batch:
                if table in shards:
                    self.memory.apply(table, key, packed_journal_doc(doc))
        return result.consumed

    def refresh(self) -> bool:
        """Read-only engines: pick up what the writer wrote since; True if anything changed."""
        if not self.read_only:
            return False
        with self.lock:
            self.check_open()
            if not self.path.is_dir():
                return False
            with checkpoint_lock(self.path, exclusive=False):
                if not self.files.signatures:
                    self._load_schema()
                    self._load_shards()
                    reloaded = True
                else:
                    changed = self.files.changed()
                    collecting = gc.isenabled()
                    gc.disable()
                    self.memory.begin_bulk()
                    try:
                        for table, number in changed:
                            self._load_shard(table, number)
                    finally:
                        self.memory.finish_bulk()
                        if collecting:
                            gc.enable()
                    reloaded = bool(changed)
                segments = jr.list_segments(self.journal_dir)
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
        with self.lock:
            self.files.close_all()

    def _release(self) -> None:
        if self._writer_lock is not None:
            self._writer_lock.release()
            self._writer_lock = None

    def check_open(self) -> None:
        if self._closed:
            raise CacheError(_("The cache is closed."))

    # ------------------------------------------------------------------ writes

    def now(self) -> float:
        """The clock's time as a timestamp (what records store under ``i["at"]``)."""
        return self.clock().timestamp()

    def check_writable(self) -> None:
        self.check_open()
        if self.read_only:
            raise CacheReadOnly(_("The cache at {path} is open read-only.").format(path=self.path))

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Hold the writer lock (writable engines only) while a batch is built and committed:
        what the batch was built from stays the state it applies to."""
        with self._wlock:
            self.check_writable()
            yield

    def commit(self, ops: list[jr.Operation]) -> None:
        """Make ``ops`` (``(table, key, record or None)``, each the final state of its key)
        durable (journal + fdatasync), then apply them in memory, then tell ``changes``."""
        if not ops:
            return
        # Only the writer lock is held across the append and its fdatasync: readers keep
        # answering from memory meanwhile, and see the batch only once it is durable, all at
        # once. Writers are serialised by it, so a batch built from the state still applies
        # to that same state.
        with self._wlock:
            self.check_writable()
            assert self._journal is not None
            try:
                self._journal.append(ops)
            except OSError as exc:
                failed = self._journal.path
                # A partial line may be on disk: continue in a fresh segment after it.
                with contextlib.suppress(OSError):
                    self._journal = self._journal.rotate()
                raise CacheError(
                    _("Could not write to the cache: {problem}").format(
                        problem=os_problem(exc, failed)
                    )
                ) from exc
            with self.lock:
                apply = self.memory.apply
                for table, key, doc in ops:
                    apply(table, key, doc)
            if self._journal.size >= self._checkpoint_threshold():
                self._wake.set()
            self.changes.tell(ops)

    # ------------------------------------------------------------------ checkpoints

    def checkpoint(self) -> int:
        """Rewrite the dirty shards and drop the journal they cover; returns shards written."""
        if self.read_only:
            return 0
        memory = self.memory
        with self._ckpt_mutex:
            with self._wlock, self.lock:
                if self._closed or self._journal is None:
                    return 0
                if self._journal.size > 0:
                    self._journal = self._journal.rotate()
                current = self._journal.number
                old = [p for n, p in jr.list_segments(self.journal_dir) if n < current]
                if not old and not memory.dirty:
                    return 0
                snapshot = [
                    (table, number, list(memory.shards[table][number].items()))
                    for table, number in sorted(memory.dirty)
                ]
                memory.dirty.clear()
            written: list[tuple[str, int, list[tuple[str, Held]], ShardFile, list[Any]]] = []
            try:
                for table, number, items in snapshot:
                    spans = self.files.write(table, number, items)
                    spec = self.specs.get(table)
                    if spec is not None and spec.cold:
                        # Only this thread replaces shard files: this is the one just written.
                        file = ShardFile.open(self.files.path(table, number))
                        written.append((table, number, items, file, spans))
                fsync_dir(self.tables_dir)
            except BaseException:
                with self.lock:
                    memory.dirty.update((t, n) for t, n, _docs in snapshot)
                raise
            with self.lock:
                # What was written is now on disk: hold it cold, unless a write replaced it
                # meanwhile (that one is whole in memory, its shard dirty again).
                for table, number, items, file, spans in written:
                    spec = self.specs[table]
                    shard = memory.shards[table][number]
                    for (key, doc), (offset, length) in zip(items, spans, strict=True):
                        if shard.get(key) is doc:
                            shard[key] = hold_cold(doc, spec, file, offset, length)
                    self.files.open_files[(table, number)] = file
            with checkpoint_lock(self.path, exclusive=True):
                for seg in old:
                    with contextlib.suppress(FileNotFoundError):
                        seg.unlink()
                fsync_dir(self.journal_dir)
            return len(snapshot)

    def _checkpoint_threshold(self) -> int:
        """Journal size that calls for a checkpoint: an eighth of the data, at least the
        configured bytes, so a long sync rewrites the shards a bounded number of times
        instead of after every few batches (and opening replays at most that much)."""
        return max(self._checkpoint_bytes, self.files.total_size() // 8)

    def _checkpoint_loop(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            if self._stopping:
                return
            try:
                self.checkpoint()
            except Exception as exc:  # the journal still holds everything; retry next time
                with self.lock:
                    self._problem(_("checkpoint failed: {error}").format(error=exc))

    # ------------------------------------------------------------------ maintenance

    def prune(self, cutoff: float) -> int:
        """Forget the records of the prunable tables stored (``i["at"]``) before ``cutoff``
        (a timestamp), in one durable batch; returns how many."""
        with self.writing():
            ops: list[jr.Operation] = [
                (name, d["k"], None)
                for name, spec in self.specs.items()
                if spec.prunable
                for d in self.docs(name)
                if float(d.get("i", {}).get("at") or 0) < cutoff
            ]
            self.commit(ops)
        if ops:
            self._wake.set()
        return len(ops)

"""A sandbox kept on disk: the state's saved parts as rows of a :class:`StateFile` (D180).

What is saved is declared, not listed here: every attribute annotated in the body of
:class:`~lawsuit_tui.sandbox.state.SandboxState` is a *part*, saved by its annotation:

- ``dict[K, V]`` (held as a :class:`~lawsuit_tui.sandbox.tables.Table`): a row per key;
- ``dict[K, list[X]]``: a row per item of each list (responses are appended, never rewritten);
- anything else (a dataclass, a datetime...): one row.

Values are encoded as JSON by pydantic from the annotation (dataclasses, models, sets, tuples,
datetimes, bytes), so a new field or a new part of plain data is saved with no code here.
Attributes set only in ``__init__`` (the clock, the world, caches, indexes derived from the
parts) are not saved; ``SandboxState.after_load`` rebuilds what derives from the parts.

A transaction (:meth:`Persistence.begin` ... :meth:`Persistence.end`) takes the file's write
lock, first reads what other processes wrote since this one last read (rows of a newer
version), and at its end writes the rows whose encoding changed: only the records the call
reached (the tables remember them), plus the one-row parts. A frozen dataclass found where it
was last saved is not encoded again (it cannot have changed). The file's work runs in a thread
of its own, so the event loop (the app's) goes on meanwhile.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import secrets
import typing
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import orjson
from pydantic import TypeAdapter

from lawsuit_tui.sandbox.state_file import FORMAT, Row, StateFile, StateFileError
from lawsuit_tui.sandbox.tables import Table

__all__ = ["Loaded", "Persistence", "StateMismatch", "saved_parts"]

log = logging.getLogger(__name__)

T = TypeVar("T")

SINGLE = "single"
TABLE = "table"
TABLE_OF_LISTS = "table_of_lists"


class StateMismatch(StateFileError):
    """The file holds a sandbox of another seed."""


@dataclass(frozen=True)
class Part:
    name: str
    shape: str
    value: TypeAdapter[Any]
    key: TypeAdapter[Any] | None = None
    text_keys: bool = False  # str keys are row ids as they are

    def row_id(self, key: Any, index: int | None = None) -> str:
        if self.shape == SINGLE:
            return ""
        plain = key if self.text_keys else _dumps_key(self, key)
        if index is None:
            return str(plain)
        return orjson.dumps([plain, index]).decode()

    def parse_id(self, row_id: str) -> tuple[Any, int | None]:
        if self.shape == TABLE_OF_LISTS:
            plain, index = orjson.loads(row_id)
            return self._key(plain), int(index)
        return self._key(row_id if self.text_keys else orjson.loads(row_id)), None

    def _key(self, plain: Any) -> Any:
        if self.text_keys:
            return str(plain)
        assert self.key is not None
        return self.key.validate_python(plain)


def _dumps_key(part: Part, key: Any) -> Any:
    assert part.key is not None
    return orjson.dumps(part.key.dump_python(key, mode="json")).decode()


def saved_parts(state_type: type) -> dict[str, Part]:
    """The parts of the state: its class-level annotations, by name, with their codecs."""
    hints = typing.get_type_hints(state_type)
    parts: dict[str, Part] = {}
    for name, hint in hints.items():
        if typing.get_origin(hint) is typing.ClassVar:
            continue
        parts[name] = _part(name, hint)
    return parts


def _part(name: str, hint: Any) -> Part:
    origin = typing.get_origin(hint)
    if origin in (dict, Table):
        key_type, value_type = typing.get_args(hint)
        text_keys = key_type is str
        key = None if text_keys else TypeAdapter(key_type)
        if typing.get_origin(value_type) is list:
            (item_type,) = typing.get_args(value_type)
            return Part(name, TABLE_OF_LISTS, TypeAdapter(item_type), key, text_keys)
        return Part(name, TABLE, TypeAdapter(value_type), key, text_keys)
    return Part(name, SINGLE, TypeAdapter(hint))


def _digest(body: bytes) -> bytes:
    return hashlib.blake2b(body, digest_size=16).digest()


_FROZEN: dict[type, bool] = {}


def _frozen(value: Any) -> bool:
    """A frozen dataclass: what was saved is what it holds (never changed in place)."""
    kind = type(value)
    found = _FROZEN.get(kind)
    if found is None:
        params = getattr(kind, "__dataclass_params__", None)
        found = bool(params is not None and params.frozen)
        _FROZEN[kind] = found
    return found


@dataclass
class _Saved:
    """What was last saved of one row: its digest, and the object if it is frozen."""

    digest: bytes
    frozen: Any = None


@dataclass
class Loaded:
    """Rows read from disk, decoded: (part, key, index, value) in the order they were made,
    and (part, key, index) removed. ``full``: the whole state (the parts start empty)."""

    rows: list[tuple[Part, str, Any, int | None, Any, bytes]] = field(default_factory=list)
    removed: list[tuple[Part, str, Any, int | None]] = field(default_factory=list)
    full: bool = False

    def keys_of(self, name: str) -> list[Any]:
        return list(
            dict.fromkeys(
                [key for part, _rid, key, _i, _v, _b in self.rows if part.name == name]
                + [key for part, _rid, key, _i in self.removed if part.name == name]
            )
        )


@dataclass
class _Write:
    rows: list[Row] = field(default_factory=list)
    removed: list[tuple[str, str]] = field(default_factory=list)
    saved: dict[tuple[str, str], _Saved | None] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.rows or self.removed)


class Persistence:
    """The link between a state and its file (see the module)."""

    def __init__(self, state: Any, path: Path, *, seed: int) -> None:
        self.state = state
        self.file = StateFile(path)
        self.seed = seed
        self.parts = saved_parts(type(state))
        self.version = 0
        self.generation = ""
        self._saved: dict[tuple[str, str], _Saved] = {}
        # how many items were saved per key of a table of lists (to remove what a list lost)
        self._list_rows: dict[tuple[str, Any], int] = {}
        self._data_version: int | None = None
        self._executor: ThreadPoolExecutor | None = None

    @property
    def path(self) -> Path:
        return self.file.path

    # ----------------------------------------------------------------- opening (blocking)

    def open(self, on_fresh: Callable[[str], None]) -> bool:
        """Open the file: read the state it holds into ``state``, or, when it holds none,
        call ``on_fresh(generation)`` and write the state as it is. Whether it was fresh."""
        self.file.open()
        self.file.begin_write()
        try:
            meta = self.file.meta()
            fresh = not meta.get("generation")
            if fresh:
                self.generation = secrets.token_hex(8)
                on_fresh(self.generation)
                write = self._changes(everything=True)
                self.version = 1
                self.file.set_meta(
                    {"format": FORMAT, "seed": str(self.seed), "generation": self.generation}
                )
                self.file.write(self.version, write.rows, write.removed)
                self._keep(write)
            else:
                self._check(meta)
                self.generation = meta["generation"]
                self.version = int(meta.get("version", "0"))
                loaded = self._decode(self.file.all_rows(), [], full=True)
                self.apply(loaded)
            self._data_version = self.file.data_version()
            self.file.commit()
        except BaseException:
            self.file.rollback()
            self.file.close()
            raise
        return fresh

    def _check(self, meta: dict[str, str]) -> None:
        if meta.get("format") != FORMAT:
            raise StateFileError(
                f"{self.path}: a sandbox state of format {meta.get('format')!r}, not {FORMAT}"
            )
        if meta.get("seed") != str(self.seed):
            raise StateMismatch(
                f"{self.path} holds the sandbox of seed {meta.get('seed')}, not {self.seed}"
            )

    @property
    def is_open(self) -> bool:
        return self.file.is_open

    def reopen(self) -> None:
        """Open the file again after :meth:`close` (blocking); read it again before use."""
        self.file.open()

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
        self.file.close()

    # ----------------------------------------------------------------- transactions

    async def _in_thread(self, work: Callable[[], T]) -> T:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(1, thread_name_prefix="sandbox-state")
        return await asyncio.get_running_loop().run_in_executor(self._executor, work)

    async def begin(self) -> None:
        """Take the file's write lock and read what other processes wrote meanwhile."""

        def work() -> Loaded | None:
            self.file.begin_write()
            try:
                # Nobody else commits while this lock is held: what is read now is all.
                self._data_version = self.file.data_version()
                version = self.file.version()
                if version == self.version:
                    return None
                rows, removed = self.file.changes_since(self.version)
                self.version = version
                return self._decode(rows, removed)
            except BaseException:
                self.file.rollback()
                raise

        loaded = await self._in_thread(work)
        if loaded is not None:
            self.apply(loaded)

    async def end(self) -> bool:
        """Write what the transaction changed and commit (or just let go of the lock);
        whether anything was written. On a failure the transaction is rolled back and the
        error raised: what memory holds then is not what the file holds (see ``reload``)."""
        reached = self._reached()

        def work() -> _Write:
            try:
                write = self._changes(reached=reached)
                if write:
                    self.file.write(self.version + 1, write.rows, write.removed)
                    self.file.commit()
                    self.version += 1
                else:
                    self.file.rollback()
                return write
            except BaseException:
                self.file.rollback()
                raise

        write = await self._in_thread(work)
        self._keep(write)
        return bool(write)

    async def abandon(self) -> None:
        """Let go of the lock without writing (the transaction failed before its end)."""
        await self._in_thread(self.file.rollback)

    async def refresh(self) -> bool:
        """Read what other processes wrote since (without the write lock); whether any."""

        def work() -> Loaded | None:
            data_version = self.file.data_version()
            if data_version == self._data_version:
                return None
            self.file.begin_read()
            try:
                version = self.file.version()
                loaded = None
                if version != self.version:
                    rows, removed = self.file.changes_since(self.version)
                    self.version = version
                    loaded = self._decode(rows, removed)
            finally:
                self.file.rollback()
            self._data_version = data_version
            return loaded

        loaded = await self._in_thread(work)
        if loaded is None:
            return False
        self.apply(loaded)
        return True

    async def reload(self) -> None:
        """Read the whole state again (after a write that failed: memory went ahead)."""

        def work() -> Loaded:
            self.file.begin_read()
            try:
                self.version = self.file.version()
                return self._decode(self.file.all_rows(), [], full=True)
            finally:
                self.file.rollback()

        loaded = await self._in_thread(work)
        self._saved.clear()
        self._list_rows.clear()
        self.apply(loaded)

    # ----------------------------------------------------------------- encoding

    def _reached(self) -> dict[str, tuple[bool, list[Any]]]:
        """Per table, what the calls since the last save reached (taken on the loop)."""
        found: dict[str, tuple[bool, list[Any]]] = {}
        state = self.state
        for name, part in self.parts.items():
            if part.shape == SINGLE:
                continue
            table = getattr(state, name)
            if not isinstance(table, Table):  # replaced by a plain dict: take it all
                table = Table(table)
                setattr(state, name, table)
                found[name] = (True, [])
                continue
            found[name] = table.take_reached()
        return found

    def _changes(
        self,
        *,
        everything: bool = False,
        reached: dict[str, tuple[bool, list[Any]]] | None = None,
    ) -> _Write:
        write = _Write()
        state = self.state
        for name, part in self.parts.items():
            value = getattr(state, name)
            if part.shape == SINGLE:
                self._encode(write, part, "", value)
                continue
            every, keys = (True, []) if everything or reached is None else reached[name]
            if every:
                keys = list(dict.keys(value))
                keys += [
                    part.parse_id(rid)[0]
                    for (pname, rid) in list(self._saved)
                    if pname == name and part.shape == TABLE
                ]
                keys += [key for (pname, key) in list(self._list_rows) if pname == name]
                keys = list(dict.fromkeys(keys))
            for key in keys:
                if part.shape == TABLE:
                    self._encode_entry(write, part, value, key)
                else:
                    self._encode_list(write, part, value, key)
        return write

    def _encode_entry(self, write: _Write, part: Part, table: dict[Any, Any], key: Any) -> None:
        row_id = part.row_id(key)
        if key in table:
            self._encode(write, part, row_id, dict.__getitem__(table, key))
        elif (part.name, row_id) in self._saved:
            write.removed.append((part.name, row_id))
            write.saved[(part.name, row_id)] = None

    def _encode_list(self, write: _Write, part: Part, table: dict[Any, Any], key: Any) -> None:
        items = dict.get(table, key) or []
        for index, item in enumerate(items):
            self._encode(write, part, part.row_id(key, index), item)
        had = self._list_rows.get((part.name, key), 0)
        for index in range(len(items), had):
            row_id = part.row_id(key, index)
            write.removed.append((part.name, row_id))
            write.saved[(part.name, row_id)] = None
        self._list_rows[(part.name, key)] = len(items)

    def _encode(self, write: _Write, part: Part, row_id: str, value: Any) -> None:
        key = (part.name, row_id)
        before = self._saved.get(key)
        frozen = _frozen(value)
        if before is not None and frozen and before.frozen is value:
            return
        body = part.value.dump_json(value)
        digest = _digest(body)
        if before is not None and before.digest == digest:
            if frozen:
                before.frozen = value
            return
        write.rows.append((part.name, row_id, body))
        write.saved[key] = _Saved(digest, value if frozen else None)

    def _keep(self, write: _Write) -> None:
        for key, saved in write.saved.items():
            if saved is None:
                self._saved.pop(key, None)
            else:
                self._saved[key] = saved

    # ----------------------------------------------------------------- decoding

    def _decode(
        self, rows: Iterable[Row], removed: Iterable[tuple[str, str]], *, full: bool = False
    ) -> Loaded:
        loaded = Loaded(full=full)
        for name, row_id, body in rows:
            part = self.parts.get(name)
            if part is None:  # a part this version does not have: left in the file
                continue
            key, index = part.parse_id(row_id) if part.shape != SINGLE else (None, None)
            loaded.rows.append((part, row_id, key, index, part.value.validate_json(body), body))
        for name, row_id in removed:
            part = self.parts.get(name)
            if part is None or part.shape == SINGLE:
                continue
            key, index = part.parse_id(row_id)
            loaded.removed.append((part, row_id, key, index))
        return loaded

    def apply(self, loaded: Loaded) -> None:
        """Put what was read into the state (in place: tables and dataclasses keep their
        identity, for the objects that hold them), then let the state rebuild what derives."""
        state = self.state
        if loaded.full:
            for name, part in self.parts.items():
                if part.shape != SINGLE:
                    table = getattr(state, name)
                    for key in list(dict.keys(table)):
                        _unload(table, key)
            self._list_rows.clear()
        for part, row_id, key, index, value, body in loaded.rows:
            digest = _digest(body)
            self._saved[(part.name, row_id)] = _Saved(digest, value if _frozen(value) else None)
            if part.shape == SINGLE:
                _set_single(state, part.name, value)
            elif part.shape == TABLE:
                _load(getattr(state, part.name), key, value)
            else:
                assert index is not None
                table = getattr(state, part.name)
                items = dict.get(table, key)
                if items is None:
                    items = []
                    _load(table, key, items)
                while len(items) <= index:
                    items.append(None)
                items[index] = value
                self._list_rows[(part.name, key)] = max(
                    self._list_rows.get((part.name, key), 0), index + 1
                )
        for part, row_id, key, index in loaded.removed:
            self._saved.pop((part.name, row_id), None)
            table = getattr(state, part.name)
            if part.shape == TABLE:
                _unload(table, key)
            elif index is not None:
                items = dict.get(table, key)
                if items is not None:
                    del items[index:]
                self._list_rows[(part.name, key)] = min(
                    self._list_rows.get((part.name, key), 0), index
                )
        # A list that lost items at its end may have holes no more: drop trailing gaps.
        for part in self.parts.values():
            if part.shape == TABLE_OF_LISTS:
                table = getattr(state, part.name)
                for key in list(dict.keys(table)):
                    items = dict.__getitem__(table, key)
                    while items and items[-1] is None:
                        items.pop()
        state.after_load(loaded)


def _load(table: Any, key: Any, value: Any) -> None:
    if isinstance(table, Table):
        table.load(key, value)
    else:
        dict.__setitem__(table, key, value)


def _unload(table: Any, key: Any) -> None:
    if isinstance(table, Table):
        table.unload(key)
    else:
        dict.pop(table, key, None)


def _set_single(state: Any, name: str, value: Any) -> None:
    """Set a one-row part: a mutable dataclass is updated in place (whoever holds it, the
    clock its anchor, sees the new values); anything else is replaced."""
    current = getattr(state, name, None)
    if (
        current is not None
        and type(current) is type(value)
        and dataclasses.is_dataclass(current)
        and not _frozen(current)
    ):
        for item in dataclasses.fields(current):
            setattr(current, item.name, getattr(value, item.name))
        return
    setattr(state, name, value)

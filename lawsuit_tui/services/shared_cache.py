"""One writer, many clients: the process that holds the cache takes in the others' writes.

The cache has one writer at a time (its lock). The process holding it (the app, ``webhooks
serve``, a ``sync`` under way) serves its writes on a local socket (:class:`CacheHost`); a
process that finds the cache held opens it read-only and hands each write to the holder
(:class:`HolderClient`), which commits it to its store and answers once it is durable. The
client then refreshes its read-only view, so it reads what it has just written (D137).

Where: the socket is ``writer.sock`` in the cache directory (0700), or, when that path is
too long for a socket, in a private directory of the user's runtime or temporary directory;
``writer.json`` in the cache directory names it and the holder's pid. Only the same user
may connect (the directories are 0700 and, on Linux, the peer's uid is checked).

The wire: each message is a 4-byte big-endian length and an orjson document. A client sends
``{"op": name, "args": [...], "kwargs": {...}}``, ``name`` one of :data:`FORWARDED_WRITES`
(the Store's write methods); the holder answers ``{"ok": true, "result": ...}`` or
``{"ok": false, "error": "..."}`` (its own cache error: a full disk at the holder).
``{"op": "hello"}`` answers the holder's pid and cache path.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import socket
import struct
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import orjson

from lawsuit_tui.domain.listeners import Listeners
from lawsuit_tui.i18n import _
from lawsuit_tui.store import CacheError, LawsuitChange, Sanitizer, Store
from lawsuit_tui.store.fileio import atomic_write_bytes, ensure_private_dir

__all__ = [
    "FORWARDED_WRITES",
    "WRITER_FILE",
    "CacheHost",
    "HolderClient",
    "HolderGone",
    "connect_to_holder",
]

WRITER_FILE = "writer.json"
SOCKET_NAME = "writer.sock"
# The writes a holder takes in: every write method of Store the services use. A new write
# method of Store that a client may need goes here too (a write not listed is not kept by a
# client, and says so).
FORWARDED_WRITES = frozenset(
    {
        "upsert_requests",
        "upsert_responses",
        "upsert_lawsuit",
        "upsert_lawsuits",
        "upsert_trackings",
        "add_count_request",
        "save_vault_snapshot",
        "add_recent_search",
        "set_meta",
        "keep_datalake_answers",
        "begin_portfolio_import",
        "settle_portfolio_import",
        "mark_inbox",
        "keep_dossier",
    }
)
_HEADER = struct.Struct(">I")
_MAX_MESSAGE = 1 << 30
_MAX_SOCKET_PATH = 100  # sun_path holds 104 (macOS) to 108 (Linux) bytes
_CONNECT_SECONDS = 2.0
_CHANGE = "__lawsuit_change__"


class HolderGone(CacheError):
    """The holder stopped answering (it quit or was killed); the write was not kept."""


def _encode(value: Any) -> Any:
    if isinstance(value, LawsuitChange):
        return {_CHANGE: value.to_json()}
    if isinstance(value, list | tuple):
        return [_encode(v) for v in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and _CHANGE in value and len(value) == 1:
        return LawsuitChange.from_json(value[_CHANGE])
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


async def _send(writer: asyncio.StreamWriter, message: dict[str, Any]) -> None:
    payload = orjson.dumps(message)
    writer.write(_HEADER.pack(len(payload)) + payload)
    await writer.drain()


async def _receive(reader: asyncio.StreamReader) -> dict[str, Any] | None:
    """The next message, or None when the other side closed the connection."""
    try:
        header = await reader.readexactly(_HEADER.size)
    except asyncio.IncompleteReadError:
        return None
    (size,) = _HEADER.unpack(header)
    if size > _MAX_MESSAGE:
        raise ValueError("message too large")
    data = orjson.loads(await reader.readexactly(size))
    if not isinstance(data, dict):
        raise ValueError("not a message")
    return data


def _socket_path(directory: Path) -> Path:
    """Where the holder of ``directory`` listens (see the module docstring)."""
    inside = directory / SOCKET_NAME
    if len(os.fsencode(inside)) <= _MAX_SOCKET_PATH:
        return inside
    digest = hashlib.sha256(os.fsencode(directory.resolve())).hexdigest()[:16]
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    uid = os.geteuid() if hasattr(os, "geteuid") else 0
    bases = [Path(runtime)] if runtime and Path(runtime).is_dir() else []
    bases.append(Path(tempfile.gettempdir()) / f"lawsuit-tui-{uid}")
    for base in bases:
        candidate = base / "lawsuit-tui" / f"w-{digest}.sock"
        if len(os.fsencode(candidate)) <= _MAX_SOCKET_PATH:
            ensure_private_dir(candidate.parent)
            return candidate
    return inside  # binding will fail; the host then says so and serves nobody


def _peer_is_us(sock: socket.socket | None) -> bool:
    """On Linux, whether the peer runs as this user (elsewhere the 0700 directory decides)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if sock is None or option is None or not hasattr(os, "geteuid"):
        return True
    try:
        raw = sock.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    except OSError:
        return False
    _pid, uid, _gid = struct.unpack("3i", raw)
    return int(uid) == os.geteuid()


class CacheHost:
    """Serves the writes of other processes into ``store`` (writable) while it runs."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.directory = store.path
        self.socket_path = _socket_path(self.directory)
        self.taken = 0
        """Writes taken in from other processes."""
        self.problem: str | None = None
        self._server: asyncio.AbstractServer | None = None
        self._listeners: Listeners[Callable[[str], None]] = Listeners()
        self._connections: set[asyncio.Task[None]] = set()

    def subscribe(self, listener: Callable[[str], None]) -> Callable[[], None]:
        """``listener(op)`` after each write taken in is durable (the app refreshes)."""
        return self._listeners.add(listener)

    async def start(self) -> bool:
        """Listen; False (and ``problem``) when the socket cannot be made: other processes
        then wait for the lock instead."""
        path = self.socket_path
        try:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()  # left by a holder that was killed
            self._server = await asyncio.start_unix_server(self._serve, path=str(path))
            path.chmod(0o600)
            info = {"pid": os.getpid(), "socket": str(path)}
            await asyncio.to_thread(
                atomic_write_bytes, self.directory / WRITER_FILE, orjson.dumps(info)
            )
        except OSError as exc:
            self.problem = str(exc.strerror or exc)
            await self.aclose()
            return False
        return True

    async def aclose(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.close()
            for task in list(self._connections):
                task.cancel()
            with contextlib.suppress(Exception):
                await server.wait_closed()
        marker = self.directory / WRITER_FILE
        with contextlib.suppress(OSError, ValueError):
            info = orjson.loads(marker.read_bytes())
            if isinstance(info, dict) and info.get("pid") == os.getpid():
                marker.unlink()
        with contextlib.suppress(OSError):
            self.socket_path.unlink()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._connections.add(task)
        try:
            if not _peer_is_us(writer.get_extra_info("socket")):
                return
            while True:
                try:
                    message = await _receive(reader)
                except (ValueError, orjson.JSONDecodeError, ConnectionError):
                    return
                if message is None:
                    return
                await _send(writer, await self._answer(message))
        except (ConnectionError, asyncio.CancelledError):
            return
        finally:
            if task is not None:
                self._connections.discard(task)
            writer.close()

    async def _answer(self, message: dict[str, Any]) -> dict[str, Any]:
        op = message.get("op")
        if op == "hello":
            return {"ok": True, "pid": os.getpid(), "path": str(self.directory)}
        if not isinstance(op, str) or op not in FORWARDED_WRITES:
            return {"ok": False, "error": f"unknown operation {op!r}"}
        args = message.get("args") or []
        kwargs = message.get("kwargs") or {}
        if not isinstance(args, list) or not isinstance(kwargs, dict):
            return {"ok": False, "error": "malformed arguments"}
        method = getattr(self.store, op)
        try:
            result = await asyncio.to_thread(lambda: method(*args, **kwargs))
        except (CacheError, OSError, ValueError, TypeError) as exc:
            return {"ok": False, "error": str(exc)}
        self.taken += 1
        for listener in self._listeners:
            listener(op)
        return {"ok": True, "result": _encode(result)}


class HolderClient:
    """A connection to the holder of a cache: :meth:`call` hands it one write."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        pid: int,
        secrets: Iterable[str] = (),
    ) -> None:
        self._reader = reader
        self._writer = writer
        self.pid = pid
        self._lock = asyncio.Lock()
        self._sanitizer = Sanitizer(secrets)
        self.handed = 0
        """Writes the holder has kept for us."""

    async def call(self, op: str, args: Iterable[Any], kwargs: dict[str, Any]) -> Any:
        """Hand one write to the holder; its result once durable there. Raises HolderGone
        when the holder is gone, CacheError when it could not keep the write."""
        # Our secrets (the API key of this process) are scrubbed here: the holder scrubs its own.
        clean_args, _raw = self._sanitizer.clean_json(list(args))
        clean_kwargs, _raw = self._sanitizer.clean_json(kwargs)
        async with self._lock:
            try:
                await _send(self._writer, {"op": op, "args": clean_args, "kwargs": clean_kwargs})
                answer = await _receive(self._reader)
            except (OSError, ValueError, orjson.JSONDecodeError) as exc:
                raise HolderGone(self._gone(str(exc))) from exc
        if answer is None:
            raise HolderGone(self._gone(_("it closed the connection")))
        if not answer.get("ok"):
            raise CacheError(
                _("the process holding the cache (pid {pid}) could not keep it: {problem}").format(
                    pid=self.pid, problem=answer.get("error")
                )
            )
        self.handed += 1
        return _decode(answer.get("result"))

    def _gone(self, why: str) -> str:
        return _("the process holding the cache (pid {pid}) stopped answering ({why})").format(
            pid=self.pid, why=why
        )

    async def aclose(self) -> None:
        self._writer.close()
        with contextlib.suppress(Exception):
            await self._writer.wait_closed()


async def connect_to_holder(directory: Path, secrets: Iterable[str] = ()) -> HolderClient | None:
    """A client of the process that holds the cache in ``directory``, or None (no holder
    serving writes: an older release, one still opening the cache, or a stale marker)."""
    try:
        info = orjson.loads((directory / WRITER_FILE).read_bytes())
        path = str(info["socket"])
        pid = int(info["pid"])
    except (OSError, ValueError, KeyError, TypeError, orjson.JSONDecodeError):
        return None
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_unix_connection(path, limit=1 << 20), _CONNECT_SECONDS
        )
    except (OSError, TimeoutError):
        return None
    client = HolderClient(reader, writer, pid, secrets)
    try:
        async with asyncio.timeout(_CONNECT_SECONDS):
            await _send(writer, {"op": "hello"})
            answer = await _receive(reader)
    except (OSError, TimeoutError, ValueError, orjson.JSONDecodeError):
        answer = None
    same = answer is not None and answer.get("ok") and _same_dir(answer.get("path"), directory)
    if not same:
        await client.aclose()
        return None
    assert answer is not None
    client.pid = int(answer.get("pid") or pid)
    return client


def _same_dir(reported: object, directory: Path) -> bool:
    if not isinstance(reported, str):
        return False
    with contextlib.suppress(OSError):
        return Path(reported).resolve() == directory.resolve()
    return False

"""One rate budget per API key for every process of this user on this machine.

The service counts calls per key (D25), not per process: the app, a cron ``sync`` and
``webhooks serve`` on one key share 180 calls a minute. Each process's
:class:`~lawsuit_tui.api.ratelimit.RateLimiter` keeps its own window; a :class:`RateLedger`
makes that window common to all of them. Before a call a process takes a stamp from the
ledger (or learns how long to wait); when the answer arrives the stamp moves to the answer's
time, exactly as the in-process window does, and the answer's ``X-RateLimit-Remaining`` adds
phantom stamps for calls made elsewhere (another machine on the same key).

:class:`RateLedger` is the interface; :class:`FileRateLedger` keeps it in one small file per
key and service. A team store (DESIGN.md, "Beyond one machine") can implement the same
protocol on a database row and every client uses it unchanged.

The file
    ``rate-<digest>.json`` where the digest is a SHA-256 of the service's origin and the API
    key (never the key itself), in ``<runtime dir>/lawsuit-tui`` (``$XDG_RUNTIME_DIR``, or
    ``/run/user/<uid>``) or, when the platform has no private runtime directory, in
    ``<cache_dir>/rate-ledger``; the directory is 0700 and the file 0600. The directory is
    looked up again every few seconds, so processes converge when a login session starts or
    ends. Content (JSON)::

        {"v": 1, "blocked_until": 1732363200.5,
         "answered": [at, ...],
         "in_flight": [[sent_at, pid, owner, seq], ...]}

    Times are wall-clock seconds. ``answered`` holds, in order, when each answer in the
    window arrived (phantoms too); each occupies the window until ``at + window``.
    ``in_flight`` holds the calls sent and not yet answered, each occupying a slot until
    then; ``owner`` tells this process's calls from those of an earlier process that had the
    same pid. Keeping the answered ones as bare numbers makes a transaction a bisection and
    a few C loops (see the benchmark in tests/api/bench_rate_ledger.py).

Locking
    ``fcntl.flock`` on the file itself, taken without blocking: when another process holds it
    (for the tens of microseconds of its read-modify-write) the caller yields to the event loop
    and tries again. The file is rewritten in place under the lock; a write cut short by a
    crash leaves a file that does not parse, which is started afresh (``rebuilt``), never a
    crash: the window is then briefly optimistic, and the service's ``X-RateLimit-Remaining``
    and a waited-out 429 cover it.

Staleness
    A call still in flight whose process is gone (its pid no longer exists, or it is this
    pid under another owner) is treated as answered at the moment that is noticed; one in
    flight for longer than ``in_flight_ttl`` (every time-out of a call put together) as
    answered then. Times more than a second in the future (the clock was set back) are
    brought to now. So a killed process costs at most one window of its calls.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import hashlib
import logging
import math
import os
import secrets
import stat
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar
from urllib.parse import urlsplit

import httpx
import orjson

__all__ = [
    "Answered",
    "Blocked",
    "FileRateLedger",
    "LedgerUnavailable",
    "LedgerUpdate",
    "LedgerView",
    "LedgerWait",
    "RateLedger",
    "Ticket",
    "Unsent",
    "key_digest",
    "ledger_directory",
    "ledger_supported",
    "open_shared",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

APP_NAME = "lawsuit-tui"
LEDGER_VERSION = 1
# Never more than a few hundred stamps; anything this large is not ours.
MAX_LEDGER_BYTES = 1 << 20
# Seconds added to every wait, so that a slot is surely free when the caller wakes up.
MARGIN = 0.002
# How long a caller may spend getting the lock before it gives up on the ledger for now.
LOCK_TIMEOUT = 2.0
# How often the directory is looked up again (a login session may have started or ended).
RELOCATE_EVERY = 5.0


@dataclass(frozen=True)
class Ticket:
    """A call recorded in the ledger."""

    owner: str
    seq: int


@dataclass(frozen=True)
class LedgerWait:
    """No slot now: try again in ``seconds``. ``blocked``: a 429 stopped every caller."""

    seconds: float
    blocked: bool = False


@dataclass(frozen=True)
class Answered:
    """The answer of ``ticket``'s call arrived at ``at`` (ledger clock); ``remaining`` is its
    X-RateLimit-Remaining, ``limit`` the calls allowed per window."""

    ticket: Ticket
    at: float
    remaining: int | None
    limit: int


@dataclass(frozen=True)
class Unsent:
    """``ticket``'s call certainly never reached the service: its stamp is withdrawn."""

    ticket: Ticket


@dataclass(frozen=True)
class Blocked:
    """The service answered 429: nobody on this key calls before ``until`` (ledger clock)."""

    until: float


LedgerUpdate = Answered | Unsent | Blocked


@dataclass(frozen=True)
class LedgerView:
    """The ledger as last seen: when each occupied slot leaves the window (``inf`` while its
    call is in flight) and until when a 429 blocks every caller."""

    frees_at: tuple[float, ...] = ()
    blocked_until: float = 0.0

    def remaining(self, now: float, limit: int) -> int:
        if now < self.blocked_until:
            return 0
        return max(0, limit - sum(1 for t in self.frees_at if t > now))


class LedgerUnavailable(Exception):
    """The ledger cannot be used right now (unwritable directory, lock held too long)."""


class RateLedger(Protocol):
    """A sliding window of calls shared by every client of one key.

    Times are the ledger's own clock (:meth:`now`), which every sharer must agree on; waits
    are plain seconds. Implementations raise :class:`LedgerUnavailable` when they cannot
    answer, and the limiter then goes on with its own window for a while.
    """

    @property
    def view(self) -> LedgerView | None:
        """The state seen by the last operation (None before the first)."""
        ...

    def now(self) -> float:
        """The ledger's clock, in seconds."""
        ...

    async def take(
        self, *, limit: int, window: float, updates: Sequence[LedgerUpdate] = ()
    ) -> Ticket | LedgerWait:
        """Apply ``updates``, then record a call sent now, or say how long to wait."""
        ...

    async def settle(self, updates: Sequence[LedgerUpdate], *, window: float) -> None:
        """Apply ``updates`` (answers, withdrawn calls, 429 blocks)."""
        ...

    def close(self) -> None:
        """Release what the ledger holds open (files, connections)."""
        ...


def ledger_supported() -> bool:
    """Whether this platform has the file locks the file ledger needs (not Windows)."""
    try:
        import fcntl  # noqa: F401
    except ImportError:
        return False
    return True


def key_digest(api_key: str, service_url: str) -> str:
    """The ledger's name for a key at a service: the key cannot be read back from it."""
    parts = urlsplit(service_url)
    origin = f"{parts.scheme}://{parts.netloc}".lower()
    payload = f"lawsuit-tui rate ledger {LEDGER_VERSION}\0{origin}\0{api_key}".encode()
    return hashlib.sha256(payload).hexdigest()[:32]


def ledger_directory(fallback: Path) -> Path:
    """The user's private runtime directory for the app, or ``fallback`` when there is none.

    When the platform has no runtime directory for this user (no ``$XDG_RUNTIME_DIR``, no
    ``/run/user/<uid>``) platformdirs answers one that does not exist, or
    ``<tmp>/runtime-<uid>``, a place another session may not agree on: the fallback is
    used instead.
    """
    import platformdirs

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            runtime = Path(platformdirs.user_runtime_dir(APP_NAME, appauthor=False))
    except (OSError, RuntimeError):
        return fallback
    base = runtime.parent
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    stand_in = Path(tempfile.gettempdir()) / f"runtime-{uid}"
    if base == stand_in or not base.is_dir():
        return fallback
    return runtime


@dataclass
class _State:
    blocked_until: float = 0.0
    answered: list[float] = field(default_factory=list)  # sorted
    in_flight: list[list[Any]] = field(default_factory=list)  # [sent_at, pid, owner, seq]

    def to_bytes(self) -> bytes:
        data = {
            "v": LEDGER_VERSION,
            "blocked_until": self.blocked_until,
            "answered": self.answered,
            "in_flight": self.in_flight,
        }
        return orjson.dumps(data)

    @classmethod
    def parse(cls, raw: bytes) -> _State:
        """The state in ``raw``; ValueError when it is not a ledger of this version."""
        if not raw:
            return cls()
        data = orjson.loads(raw)
        if not isinstance(data, dict) or data.get("v") != LEDGER_VERSION:
            raise ValueError("not a ledger of this version")
        blocked = data.get("blocked_until")
        answered = data.get("answered")
        in_flight = data.get("in_flight")
        if (
            type(blocked) not in _NUMBERS
            or not isinstance(answered, list)
            or not isinstance(in_flight, list)
        ):
            raise ValueError("malformed ledger")
        try:
            # JSON has no infinity or NaN: numbers read are finite. sum() refuses anything
            # else (in C); the list is sorted already, which sort() checks in one pass.
            sum(answered)
        except TypeError:
            raise ValueError("malformed answers") from None
        answered.sort()
        for call in in_flight:
            if not (
                type(call) is list
                and len(call) == 4
                and type(call[0]) in _NUMBERS
                and type(call[1]) is int
                and type(call[2]) is str
                and type(call[3]) is int
            ):
                raise ValueError("malformed call in flight")
        return cls(float(blocked), answered, in_flight)  # type: ignore[arg-type]


_NUMBERS = (int, float)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: not ours to judge, and it exists
    except OSError:
        return True
    return True


class FileRateLedger:
    """The :class:`RateLedger` of one key in one small file, shared through ``flock``."""

    def __init__(
        self,
        locate: Callable[[], Path] | Path,
        *,
        clock: Callable[[], float] = time.time,
        in_flight_ttl: float = 300.0,
        lock_timeout: float = LOCK_TIMEOUT,
    ) -> None:
        self._locate = locate if callable(locate) else (lambda: locate)
        self._clock = clock
        self.in_flight_ttl = in_flight_ttl
        self.lock_timeout = lock_timeout
        self.pid = os.getpid()
        self.owner = f"{self.pid}-{secrets.token_hex(4)}"
        self._seq = 0
        self._fd: int | None = None
        self._path: Path | None = None
        self._located_at = -math.inf
        # The state the last transaction left (never changed afterwards), and its window.
        self._seen: tuple[_State, float] | None = None
        self.rebuilt = 0  # damaged files started afresh
        self.transactions = 0

    @classmethod
    def for_key(
        cls,
        api_key: str,
        service_url: str,
        fallback_dir: Path,
        **options: Any,
    ) -> FileRateLedger:
        """The ledger of ``api_key`` at ``service_url``, in the runtime dir or ``fallback_dir``."""
        name = f"rate-{key_digest(api_key, service_url)}.json"
        return cls(lambda: ledger_directory(fallback_dir) / name, **options)

    # --- RateLedger -----------------------------------------------------------------------

    @property
    def view(self) -> LedgerView | None:
        if self._seen is None:
            return None
        state, window = self._seen
        frees = [at + window for at in state.answered]
        frees.extend(math.inf for _ in state.in_flight)
        return LedgerView(tuple(frees), state.blocked_until)

    @property
    def path(self) -> Path | None:
        """The file in use (None until the first operation)."""
        return self._path

    def now(self) -> float:
        return self._clock()

    async def take(
        self, *, limit: int, window: float, updates: Sequence[LedgerUpdate] = ()
    ) -> Ticket | LedgerWait:
        def step(state: _State, now: float) -> Ticket | LedgerWait:
            self._apply(state, updates, now, window)
            if now < state.blocked_until:
                return LedgerWait(state.blocked_until - now + MARGIN, blocked=True)
            if len(state.answered) + len(state.in_flight) < limit:
                self._seq += 1
                state.in_flight.append([now, self.pid, self.owner, self._seq])
                return Ticket(self.owner, self._seq)
            # Only calls in flight: none frees a slot sooner than a window after its answer.
            delay = state.answered[0] + window - now if state.answered else window / 20
            return LedgerWait(max(delay, 0.0) + MARGIN)

        return await self._locked(step, window)

    async def settle(self, updates: Sequence[LedgerUpdate], *, window: float) -> None:
        if updates:
            await self._locked(lambda state, now: self._apply(state, updates, now, window), window)

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    # --- the window -----------------------------------------------------------------------

    def _apply(
        self, state: _State, updates: Sequence[LedgerUpdate], now: float, window: float
    ) -> None:
        for update in updates:
            if isinstance(update, Blocked):
                state.blocked_until = max(state.blocked_until, update.until)
            elif isinstance(update, Unsent):
                self._withdraw(state, update.ticket)
            else:
                self._answer(state, update, window)

    @staticmethod
    def _withdraw(state: _State, ticket: Ticket) -> bool:
        """Take ``ticket``'s call out of ``in_flight``; whether it was there."""
        for index in range(len(state.in_flight) - 1, -1, -1):  # ours are the recent ones
            call = state.in_flight[index]
            if call[2] == ticket.owner and call[3] == ticket.seq:
                del state.in_flight[index]
                return True
        return False

    def _answer(self, state: _State, update: Answered, window: float) -> None:
        t = update.at
        # Not in flight here when taken in a ledger this process has since moved away from
        # (or released as stale meanwhile): the call was made all the same.
        self._withdraw(state, update.ticket)
        bisect.insort(state.answered, t)
        if update.remaining is None or update.remaining < 0:
            return
        # Calls the service counted at ``t`` that this machine knows nothing of (another
        # machine on the same key) become phantom answers.
        answered = state.answered
        in_window = bisect.bisect_right(answered, t) - bisect.bisect_right(answered, t - window)
        used_here = in_window + sum(1 for call in state.in_flight if call[0] <= t)
        used_there = update.limit - update.remaining
        if used_there > used_here:
            for _ in range(used_there - used_here):
                bisect.insort(answered, t)

    def _prune(self, state: _State, now: float, window: float) -> None:
        """Drop the answers that left the window, release stale calls in flight."""
        answered = state.answered
        if answered and answered[-1] > now + 1.0:
            # Dated in the future: the clock was set back.
            answered[:] = [min(at, now) for at in answered]
        del answered[: bisect.bisect_right(answered, now - window)]
        alive: dict[int, bool] = {}
        still: list[list[Any]] = []
        for call in state.in_flight:
            sent, pid, owner = call[0], call[1], call[2]
            if sent > now + 1.0:
                sent = call[0] = now
            if owner == self.owner:
                still.append(call)
                continue
            if pid == self.pid:
                gone = True  # this pid's earlier process
            else:
                if pid not in alive:
                    alive[pid] = _alive(pid)
                gone = not alive[pid]
            if gone:
                end = now
            elif now - sent > self.in_flight_ttl:
                end = sent + self.in_flight_ttl
            else:
                still.append(call)
                continue
            if end + window > now:
                bisect.insort(answered, end)
        state.in_flight = still
        if state.blocked_until > now + 86_400:
            state.blocked_until = now  # nonsense (or a clock set back a long way)

    # --- the file -------------------------------------------------------------------------

    async def _locked(self, step: Callable[[_State, float], T], window: float) -> T:
        """Run ``step`` on the file's state under the lock, then write the state back."""
        import fcntl

        deadline = time.monotonic() + self.lock_timeout
        pause = 0.0005
        while True:
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise LedgerUnavailable(
                        f"{self._path}: locked by another process for {self.lock_timeout:g} s"
                    ) from None
                await asyncio.sleep(pause)  # held for microseconds: let the holder finish
                pause = min(pause * 2, 0.02)
                continue
            except OSError as exc:
                raise LedgerUnavailable(f"{self._path}: {exc.strerror or exc}") from exc
            try:
                return self._transact(fd, step, window)
            except OSError as exc:
                self.close()
                raise LedgerUnavailable(f"{self._path}: {exc.strerror or exc}") from exc
            finally:
                with contextlib.suppress(OSError):
                    fcntl.flock(fd, fcntl.LOCK_UN)

    def _transact(self, fd: int, step: Callable[[_State, float], T], window: float) -> T:
        size = os.fstat(fd).st_size
        raw = os.pread(fd, min(size, MAX_LEDGER_BYTES + 1), 0)
        now = self._clock()
        try:
            if len(raw) > MAX_LEDGER_BYTES:
                raise ValueError("too large")
            state = _State.parse(raw)
            self._prune(state, now, window)
        except ValueError:
            self.rebuilt += 1
            log.warning("rate ledger %s was damaged and is started afresh", self._path)
            state = _State()
        result = step(state, now)
        payload = state.to_bytes()
        os.pwrite(fd, payload, 0)
        if size > len(payload):
            os.ftruncate(fd, len(payload))
        self.transactions += 1
        self._seen = (state, window)
        return result

    def _open(self) -> int:
        """The open file, opened again when it was removed or the directory moved."""
        mono = time.monotonic()
        if mono - self._located_at >= RELOCATE_EVERY or self._fd is None:
            located = self._locate()
            self._located_at = mono
            if located != self._path:
                self.close()
                self._path = located
        path = self._path
        assert path is not None
        if self._fd is not None:
            try:
                same = path.stat().st_ino == os.fstat(self._fd).st_ino
            except OSError:
                same = False
            if same:
                return self._fd
            self.close()
        try:
            self._fd = _open_private(path)
        except OSError as exc:
            raise LedgerUnavailable(f"{path}: {exc.strerror or exc}") from exc
        return self._fd


def _open_private(path: Path) -> int:
    """Open (creating) ``path`` as 0600 in a 0700 directory, both this user's."""
    directory = path.parent
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = directory.stat()
    if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        raise PermissionError(13, "the directory belongs to another user")
    if stat.S_IMODE(info.st_mode) != 0o700:
        directory.chmod(0o700)  # mkdir's mode is filtered by the umask
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise IsADirectoryError(21, "not a regular file")
        if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
            raise PermissionError(13, "the file belongs to another user")
        if stat.S_IMODE(info.st_mode) != 0o600:
            os.fchmod(fd, 0o600)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_shared(
    api_key: str,
    service_url: str,
    fallback_dir: Path | None,
    transport: httpx.AsyncBaseTransport | None,
    in_flight_ttl: float,
) -> RateLedger | None:
    """The file ledger of ``api_key`` at ``service_url`` when the calls really leave this
    process (no transport, or an HTTP one): any other transport serves an app inside this
    process (the embedded sandbox) or a test, whose window is nobody else's. None where
    ``flock`` does not exist."""
    real = transport is None or isinstance(transport, httpx.AsyncHTTPTransport)
    if not (real and ledger_supported()):
        return None
    if fallback_dir is None:
        import platformdirs

        cache = Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))
        fallback_dir = cache / "rate-ledger"
    return FileRateLedger.for_key(api_key, service_url, fallback_dir, in_flight_ttl=in_flight_ttl)

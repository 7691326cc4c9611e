"""The file ledger that makes one rate window per key for every process of this user.

Real files in a temporary directory; two ledger objects on one file stand for two processes
(each has its own owner and file descriptor, so flock sees two holders). Time is a plain
virtual clock handed to the ledger.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from lawsuit_tui.api.ledger import (
    Answered,
    Blocked,
    FileRateLedger,
    LedgerUnavailable,
    LedgerWait,
    Ticket,
    Unsent,
    key_digest,
    ledger_directory,
    open_shared,
)
from tests.support.clock import VirtualClock


def read_ledger(path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(path.read_bytes())
    assert data["v"] == 1
    return data


def answered(path: Path) -> list[float]:
    result: list[float] = read_ledger(path)["answered"]  # type: ignore[assignment]
    return result


def in_flight(path: Path) -> list[list[object]]:
    result: list[list[object]] = read_ledger(path)["in_flight"]  # type: ignore[assignment]
    return result


def put(
    path: Path,
    content: bytes = b"",
    *,
    done: tuple[float, ...] = (),
    flying: tuple[list[object], ...] = (),
    blocked_until: float = 0,
) -> None:
    """Write a ledger file as another process (or a crash) left it."""
    path.parent.mkdir(mode=0o700, exist_ok=True)
    if not content:
        data = {
            "v": 1,
            "blocked_until": blocked_until,
            "answered": list(done),
            "in_flight": list(flying),
        }
        content = json.dumps(data).encode()
    path.write_bytes(content)


@pytest.fixture
def dead_pid() -> int:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(done.stdout)


def remove(path: Path) -> None:
    path.unlink()


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock(1_700_000_000.0)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "ledger" / "rate-test.json"


async def take(ledger: FileRateLedger, limit: int = 3, window: float = 10.0) -> Ticket:
    answer = await ledger.take(limit=limit, window=window)
    assert isinstance(answer, Ticket), answer
    return answer


async def test_calls_in_flight_fill_the_window_then_a_wait_is_told(
    path: Path, clock: VirtualClock
) -> None:
    ledger = FileRateLedger(path, clock=clock)
    tickets = [await take(ledger) for _ in range(3)]
    assert len({t.seq for t in tickets}) == 3
    full = await ledger.take(limit=3, window=10.0)
    # Only calls in flight: none frees a slot before a window after its answer; poll.
    assert isinstance(full, LedgerWait) and not full.blocked
    assert full.seconds == pytest.approx(10.0 / 20, abs=0.01)
    clock.now += 1.0
    await ledger.settle([Answered(tickets[0], clock(), None, 3)], window=10.0)
    clock.now += 2.0
    later = await ledger.take(limit=3, window=10.0)
    assert isinstance(later, LedgerWait)
    assert later.seconds == pytest.approx(8.0, abs=0.01)  # the answer at +1 s frees at +11 s
    clock.now += 8.0
    await take(ledger)
    assert answered(path) == []  # the answered one left the window
    assert len(in_flight(path)) == 3


async def test_two_processes_share_one_window(path: Path, clock: VirtualClock) -> None:
    first = FileRateLedger(path, clock=clock)
    second = FileRateLedger(path, clock=clock)
    assert first.owner != second.owner
    await take(first)
    await take(first)
    await take(second)
    assert isinstance(await second.take(limit=3, window=10.0), LedgerWait)
    assert isinstance(await first.take(limit=3, window=10.0), LedgerWait)
    assert second.view is not None and second.view.remaining(clock(), 3) == 0


async def test_pruning_drops_answered_calls_a_window_old(path: Path, clock: VirtualClock) -> None:
    ledger = FileRateLedger(path, clock=clock)
    old = await take(ledger, limit=10)
    await ledger.settle([Answered(old, clock(), None, 10)], window=10.0)
    clock.now += 5.0
    recent = await take(ledger, limit=10)
    await ledger.settle([Answered(recent, clock(), None, 10)], window=10.0)
    assert answered(path) == [clock() - 5.0, clock()]
    clock.now += 5.0  # the first answer is exactly a window old
    fresh = await take(ledger, limit=10)
    assert answered(path) == [clock() - 5.0]
    assert in_flight(path) == [[clock(), os.getpid(), ledger.owner, fresh.seq]]


async def test_unsent_call_gives_its_slot_back(path: Path, clock: VirtualClock) -> None:
    ledger = FileRateLedger(path, clock=clock)
    ticket = await take(ledger, limit=1)
    assert isinstance(await ledger.take(limit=1, window=10.0), LedgerWait)
    await ledger.settle([Unsent(ticket)], window=10.0)
    await take(ledger, limit=1)


async def test_a_429_blocks_every_process(path: Path, clock: VirtualClock) -> None:
    first = FileRateLedger(path, clock=clock)
    second = FileRateLedger(path, clock=clock)
    await first.settle([Blocked(clock() + 60.0)], window=10.0)
    answer = await second.take(limit=3, window=10.0)
    assert isinstance(answer, LedgerWait) and answer.blocked
    assert answer.seconds == pytest.approx(60.0, abs=0.01)
    clock.now += 60.0
    await take(second)


async def test_service_remaining_adds_phantoms_for_calls_made_elsewhere(
    path: Path, clock: VirtualClock
) -> None:
    ledger = FileRateLedger(path, clock=clock)
    ticket = await take(ledger, limit=5)
    # The service saw 4 calls on this key (3 from another machine): 1 left.
    await ledger.settle([Answered(ticket, clock(), 1, 5)], window=10.0)
    assert answered(path) == [clock()] * 4  # its own answer and 3 phantoms
    assert in_flight(path) == []
    assert isinstance(await take(ledger, limit=5), Ticket)
    assert isinstance(await ledger.take(limit=5, window=10.0), LedgerWait)


async def test_a_call_in_flight_of_a_dead_process_is_released(
    path: Path, clock: VirtualClock, dead_pid: int
) -> None:
    stale = [clock() - 5.0, dead_pid, f"{dead_pid}-dead", 1]
    mine_before = [clock() - 5.0, os.getpid(), f"{os.getpid()}-earlier", 7]
    put(path, flying=(stale, mine_before))
    ledger = FileRateLedger(path, clock=clock)
    await take(ledger, limit=3)
    # Both now count as answered at this moment: they leave the window a window later,
    # instead of holding their slots for ever.
    assert answered(path) == [clock(), clock()]
    assert isinstance(await ledger.take(limit=3, window=10.0), LedgerWait)
    clock.now += 10.0
    await take(ledger, limit=3)
    assert answered(path) == []
    assert all(call[2] == ledger.owner for call in in_flight(path))


async def test_a_call_in_flight_of_a_live_process_expires_after_the_ttl(
    path: Path, clock: VirtualClock
) -> None:
    live = os.getppid()  # alive, and not us
    put(path, flying=([clock() - 400.0, live, "x", 1],))
    ledger = FileRateLedger(path, clock=clock, in_flight_ttl=300.0)
    # Answered, at the latest, when every time-out had run out: 100 s ago; a window of 50 s
    # has passed since.
    await take(ledger, limit=1, window=50.0)
    put(path, flying=([clock() - 10.0, live, "x", 1],))
    assert isinstance(await ledger.take(limit=1, window=50.0), LedgerWait)  # still in flight


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b'{"v": 1, "blocked_until": 0, "answered": [], "in_flight": [[1, 2, "x"]]}',
        b'{"v": 99, "blocked_until": 0, "answered": [], "in_flight": []}',
        b'{"v": 1, "blocked_until": "soon", "answered": [], "in_flight": []}',
        b'{"v": 1, "blocked_until": 0, "answered": [1, "a"], "in_flight": []}',
        b'{"v": 1, "blocked_until": 0, "answered": [], "in_flight": [["a", 2, "x", 1]]}',
        b'{"v": 1, "blocked_until": 0, "answered": {}, "in_flight": []}',
        b'{"v": 1, "blocked_until": 0, "answered": [], "in_flight": []}cut-short rewrite',
        b"\x00" * 4096,
        b"[" * 100_000,
        b" " * (2 << 20),
    ],
    ids=[
        "broken",
        "short-call",
        "version",
        "blocked",
        "answer-type",
        "call-type",
        "answers-not-a-list",
        "tail",
        "nul",
        "deep",
        "big",
    ],
)
async def test_damaged_file_is_rebuilt_not_crashed_on(
    path: Path, clock: VirtualClock, content: bytes
) -> None:
    put(path, content)
    ledger = FileRateLedger(path, clock=clock)
    ticket = await take(ledger)
    assert ledger.rebuilt == 1
    assert answered(path) == []
    assert in_flight(path) == [[clock(), os.getpid(), ledger.owner, ticket.seq]]


async def test_a_time_dated_in_the_future_is_brought_to_now(
    path: Path, clock: VirtualClock
) -> None:
    live = os.getppid()
    put(
        path,
        done=(clock() - 1.0, clock() + 3600.0),
        flying=([clock() + 7200.0, live, "x", 1],),
        blocked_until=clock() + 10**9,
    )
    ledger = FileRateLedger(path, clock=clock)
    await take(ledger, limit=5)
    assert answered(path) == [clock() - 1.0, clock()]
    assert in_flight(path)[0][0] == clock()
    assert read_ledger(path)["blocked_until"] == clock()


async def test_private_directory_and_file(tmp_path: Path, clock: VirtualClock) -> None:
    old_umask = os.umask(0)
    try:
        path = tmp_path / "fresh" / "rate-x.json"
        await take(FileRateLedger(path, clock=clock))
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        loose = tmp_path / "loose" / "rate-y.json"
        loose.parent.mkdir(mode=0o755)
        loose.write_text("")
        loose.chmod(0o644)
        await take(FileRateLedger(loose, clock=clock))
        assert stat.S_IMODE(loose.parent.stat().st_mode) == 0o700
        assert stat.S_IMODE(loose.stat().st_mode) == 0o600
    finally:
        os.umask(old_umask)


async def test_the_key_is_never_written(tmp_path: Path, clock: VirtualClock) -> None:
    key = "live-key-0123456789-4f2a"
    ledger = FileRateLedger.for_key(key, "https://requests.prod.judit.io/x", tmp_path)
    ledger._clock = clock
    await take(ledger)
    assert ledger.path is not None
    assert key not in str(ledger.path)
    assert key.encode() not in ledger.path.read_bytes()
    assert key_digest(key, "https://REQUESTS.prod.judit.io") == key_digest(
        key, "https://requests.prod.judit.io/requests"
    )  # one service, one ledger, whatever the path
    assert key_digest(key, "http://127.0.0.1:8001") != key_digest(key, "http://127.0.0.1:8002")
    assert key_digest("other", "http://127.0.0.1:8001") != key_digest(key, "http://127.0.0.1:8001")


async def test_a_held_lock_is_waited_for_without_blocking_the_loop(
    path: Path, clock: VirtualClock
) -> None:
    ledger = FileRateLedger(path, clock=clock)
    await take(ledger)
    other = os.open(path, os.O_RDWR)  # another open file: flock sees another holder
    try:
        fcntl.flock(other, fcntl.LOCK_EX)
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0)

        running = asyncio.create_task(ticker())
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, fcntl.flock, other, fcntl.LOCK_UN)
        await take(ledger)
        running.cancel()
        assert ticks > 5  # the loop kept running while the lock was held

        fcntl.flock(other, fcntl.LOCK_EX)
        ledger.lock_timeout = 0.05
        with pytest.raises(LedgerUnavailable, match="locked by another process"):
            await ledger.take(limit=3, window=10.0)
    finally:
        os.close(other)


async def test_an_unusable_directory_is_reported_not_raised_as_os_error(
    tmp_path: Path, clock: VirtualClock
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    ledger = FileRateLedger(blocker / "rate-x.json", clock=clock)
    with pytest.raises(LedgerUnavailable, match=r"rate-x\.json"):
        await ledger.take(limit=3, window=10.0)


async def test_a_removed_file_is_created_again(path: Path, clock: VirtualClock) -> None:
    ledger = FileRateLedger(path, clock=clock)
    await take(ledger)
    remove(path)
    await take(ledger)
    assert len(in_flight(path)) == 1


def test_runtime_directory_or_the_fallback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    fallback = tmp_path / "cache" / "rate-ledger"
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    if sys.platform.startswith("linux"):
        assert ledger_directory(fallback) == runtime / "lawsuit-tui"
    # No runtime directory: platformdirs answers one that does not exist...
    missing = str(tmp_path / "gone" / "lawsuit-tui")
    monkeypatch.setattr(platformdirs, "user_runtime_dir", lambda *a, **k: missing)
    assert ledger_directory(fallback) == fallback
    # ...or its stand-in under the temporary directory, which another session may not share.
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)
    stand_in = tmp_path / f"runtime-{os.geteuid()}"
    stand_in.mkdir()
    monkeypatch.setattr(
        platformdirs, "user_runtime_dir", lambda *a, **k: str(stand_in / "lawsuit-tui")
    )
    assert ledger_directory(fallback) == fallback


def test_only_calls_that_leave_the_process_share_a_window(tmp_path: Path) -> None:
    import httpx

    def shared(transport: httpx.AsyncBaseTransport | None) -> object:
        return open_shared("k", "http://svc", tmp_path, transport, 60.0)

    assert isinstance(shared(None), FileRateLedger)
    assert isinstance(shared(httpx.AsyncHTTPTransport()), FileRateLedger)
    assert shared(httpx.MockTransport(lambda r: httpx.Response(200))) is None

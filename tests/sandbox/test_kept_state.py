"""A sandbox kept on disk (D180-D183): one service whatever the processes, restarts and kills.

Two apps over one file in this process behave as two processes do (each has its own state,
its own connection to the file); the last tests use real processes."""

from __future__ import annotations

import asyncio
import dataclasses
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from lawsuit_tui.sandbox.app import create_app, drain, sandbox_state
from lawsuit_tui.sandbox.clock import DEFAULT_START, SandboxClock
from lawsuit_tui.sandbox.persistence import StateMismatch, saved_parts
from lawsuit_tui.sandbox.state import SandboxState
from lawsuit_tui.sandbox.tables import Table
from lawsuit_tui.sandbox.world import World
from tests.support.sandbox_http import sandbox_http

KEY = "sandbox"

Opened = Callable[..., Awaitable[tuple[Any, httpx.AsyncClient]]]


@pytest.fixture
def state_path(tmp_path: Path) -> Path:
    return tmp_path / "state" / "seed-7.sqlite3"


@pytest.fixture
async def open_app(state_path: Path, world: World) -> AsyncIterator[Opened]:
    """Open a sandbox app over ``state_path`` (a frozen clock unless one is given)."""
    opened: list[tuple[Any, httpx.AsyncClient]] = []

    async def open_one(**options: Any) -> tuple[Any, httpx.AsyncClient]:
        options.setdefault("clock", SandboxClock.frozen())
        options.setdefault("world", world)
        options.setdefault("state_path", state_path)
        app = create_app(**options)
        client = sandbox_http(app, api_key=KEY, base_url="http://sandbox.test")
        opened.append((app, client))
        return app, client

    yield open_one
    for app, client in opened:
        await client.aclose()
        await sandbox_state(app).aclose()


async def close(app: Any, client: httpx.AsyncClient) -> None:
    await client.aclose()
    await sandbox_state(app).aclose()


def cnj(code: str, **extra: Any) -> dict[str, Any]:
    return {"search": {"search_type": "lawsuit_cnj", "search_key": code, **extra}}


# ----------------------------------------------------------------------------- tables


def test_a_table_remembers_what_was_reached() -> None:
    table: Table[str, dict[str, int]] = Table({"a": {"n": 1}, "b": {"n": 2}, "c": {"n": 3}})
    assert table.take_reached() == (False, [])
    table["b"]["n"] = 5  # changed in place: reached through the table
    table["d"] = {"n": 4}
    assert "c" in table and len(table) == 4  # keys alone reach nothing
    assert table.get("zz") is None
    assert table.take_reached() == (False, ["b", "d", "zz"])
    assert table.take_reached() == (False, [])
    for _value in table.values():
        pass
    assert table.take_reached()[0] is True
    table.load("e", {"n": 6})  # what the file says is not a change
    assert table.take_reached() == (False, [])


def test_the_saved_parts_are_the_annotated_fields() -> None:
    parts = saved_parts(SandboxState)
    assert {"requests", "responses", "trackings", "tracked_items", "credentials", "counts"} <= set(
        parts
    )
    assert {"clock_anchor", "ids", "deliveries", "transfer_files", "file_links"} <= set(parts)
    # runtime and derived attributes are not parts
    assert not {"clock", "background", "webhooks", "response_places", "limiter"} & set(parts)
    assert parts["responses"].shape == "table_of_lists"
    assert parts["requests"].shape == "table" and parts["counts"].shape == "single"


# ----------------------------------------------------------------------------- one service


async def test_what_the_service_holds_is_there_after_a_restart(
    open_app: Opened, samples: dict[str, Any]
) -> None:
    app, http = await open_app()
    created = await http.post("/requests/requests", json=cnj(samples["moving_lawsuit"]))
    assert created.status_code == 201
    request_id = created.json()["request_id"]
    tracking = await http.post("/tracking/tracking", json=cnj(samples["lawsuit_cnj"][0]))
    assert tracking.status_code == 201
    vault = await http.post(
        "/vault/credentials",
        json=[{"system_name": "EPROC - TRF4 - 2º grau", "username": "ana", "password": "x1!"}],
    )
    assert vault.status_code in (200, 201), vault.text
    count = await http.post("/miner/requests/count", json={"kind": "judgement-bond"})
    assert count.status_code in (200, 201), count.text
    files = (await http.get("/lawsuits/transfer-file")).json()
    token = (await http.post("/_sandbox/token", json={"api_key": KEY})).json()["access_token"]
    await http.post("/_sandbox/faults", json={"courts_down": ["TJAP"]})
    await http.post("/_sandbox/clock", json={"advance_seconds": 3})
    responses = (await http.get("/requests/responses", params={"request_id": request_id})).json()
    assert responses["all_count"] >= 1
    await close(app, http)

    again, http = await open_app()
    got = await http.get(f"/requests/requests/{request_id}")
    assert got.status_code == 200 and got.json()["status"] == "completed"
    kept = (await http.get("/requests/responses", params={"request_id": request_id})).json()
    assert [r["response_id"] for r in kept["page_data"]] == [
        r["response_id"] for r in responses["page_data"]
    ]
    tracking_id = tracking.json()["tracking_id"]
    assert (await http.get(f"/tracking/tracking/{tracking_id}")).status_code == 200
    items = (await http.get("/tracking/tracked-item", params={"tracking_id": tracking_id})).json()
    assert items["page_data"]
    listed = (await http.get("/vault/credentials")).text
    assert "EPROC - TRF4 - 2º grau" in listed
    miner = await http.get(f"/miner/requests/{count.json()['request_id']}")
    assert miner.status_code == 200
    assert (await http.get("/lawsuits/transfer-file")).json() == files
    async with sandbox_http(again, api_key=None, base_url="http://t") as bare:
        bearer = await bare.post(
            "/requests/lawsuits",
            json=cnj(samples["moving_lawsuit"]),
            headers={"Authorization": f"Bearer {token}"},
        )
    assert bearer.status_code == 200
    assert (await http.get("/_sandbox/faults")).json()["courts_down"] == ["TJAP"]
    clock = (await http.get("/_sandbox/clock")).json()
    assert clock["now"] == "2026-11-20T12:00:03.000Z"
    # ids go on: a new request is not an old one
    fresh = await http.post("/requests/requests", json=cnj(samples["moving_lawsuit"]))
    assert fresh.json()["request_id"] != request_id


async def test_two_sandboxes_on_one_file_are_one_service(
    open_app: Opened, samples: dict[str, Any]
) -> None:
    app_a, a = await open_app()
    app_b, b = await open_app()
    created = await a.post("/requests/requests", json=cnj(samples["moving_lawsuit"]))
    request_id = created.json()["request_id"]
    # B sees A's request at once, and lists it
    assert (await b.get(f"/requests/requests/{request_id}")).json()["status"] == "pending"
    listed = await b.get(
        "/requests/requests",
        params={"created_at_gte": "2000-01-01", "created_at_lte": "2100-01-01"},
    )
    assert [r["request_id"] for r in listed.json()["page_data"]] == [request_id]
    # B moves the clock: it moves for A too
    await b.post("/_sandbox/clock", json={"advance_seconds": 3})
    assert (await a.get("/_sandbox/clock")).json()["now"] == "2026-11-20T12:00:03.000Z"
    # both notice the request is due: its steps happen once
    await drain(app_a)
    await drain(app_b)
    got = (await a.get(f"/requests/requests/{request_id}")).json()
    assert got["status"] == "completed"
    from_a = (await a.get("/requests/responses", params={"request_id": request_id})).json()
    from_b = (await b.get("/requests/responses", params={"request_id": request_id})).json()
    assert from_a == from_b
    assert from_a["all_count"] == got["responses_count"] == 2  # the cached copy, the court's
    # ids made by both never repeat
    more = [
        (await client.post("/requests/requests", json=cnj(samples["moving_lawsuit"]))).json()
        for client in (a, b, a, b)
    ]
    assert len({r["request_id"] for r in more} | {request_id}) == 5


async def test_a_request_left_pending_carries_on_after_a_restart(
    open_app: Opened, samples: dict[str, Any]
) -> None:
    app, http = await open_app()
    created = await http.post("/requests/requests", json=cnj(samples["moving_lawsuit"]))
    request_id = created.json()["request_id"]
    await close(app, http)  # the process ended before the request started
    _again, http = await open_app()
    await http.post("/_sandbox/clock", json={"advance_seconds": 3})
    got = (await http.get(f"/requests/requests/{request_id}")).json()
    assert got["status"] == "completed" and got["responses_count"] == 2


async def test_a_tracking_runs_in_whichever_process_notices(
    open_app: Opened, samples: dict[str, Any]
) -> None:
    app_a, a = await open_app()
    made = await a.post("/tracking/tracking", json=cnj(samples["moving_lawsuit"]))
    tracking_id = made.json()["tracking_id"]
    await close(app_a, a)
    app_b, b = await open_app()
    await b.post("/_sandbox/clock", json={"advance_seconds": 86_400 + 5})
    await drain(app_b)
    tracking = (await b.get(f"/tracking/tracking/{tracking_id}")).json()
    assert tracking["status"] == "updated" and tracking["request_id"]
    run = (await b.get(f"/requests/requests/{tracking['request_id']}")).json()
    assert run["origin"] == "tracking" and run["status"] == "completed"


async def test_a_delivery_of_a_process_that_died_is_posted_again(
    open_app: Opened, samples: dict[str, Any]
) -> None:
    received: list[str] = []

    async def receive(request: httpx.Request) -> httpx.Response:
        received.append(request.headers["content-type"])
        return httpx.Response(200)

    app, http = await open_app()
    await http.post(
        "/requests/requests",
        json={**cnj(samples["moving_lawsuit"], on_demand=True), "callback_url": "http://h.test/"},
    )
    state = sandbox_state(app)
    # The process claims a delivery and dies before posting it: the claim runs out.
    await http.post("/_sandbox/clock", json={"advance_seconds": 1.6})
    async with state.transaction():
        for delivery in state.deliveries.values():
            delivery.claimed_by, delivery.claimed_until = "dead", 1.0
            delivery.outcome, delivery.attempts = "pending", 0
    await close(app, http)
    again, http = await open_app(webhook_transport=httpx.MockTransport(receive))
    state = sandbox_state(again)
    state.background.sweep = state._sweep  # the runner sweeps every 15 s; here at once
    state._sweep()
    await drain(again)
    assert received and all(d.outcome == "delivered" for d in state.deliveries.values())


async def test_a_write_that_fails_is_a_503_and_nothing_is_believed(
    open_app: Opened, samples: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from lawsuit_tui.sandbox.state_file import StateFile

    _app, http = await open_app()
    write = StateFile.write

    def full(self: StateFile, *args: Any, **kwargs: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(StateFile, "write", full)
    refused = await http.post("/requests/requests", json=cnj(samples["moving_lawsuit"]))
    assert refused.status_code == 503
    assert "could not keep its state" in refused.text
    monkeypatch.setattr(StateFile, "write", write)
    # what memory did is gone: the file said it never happened
    listed = await http.get(
        "/requests/requests",
        params={"created_at_gte": "2000-01-01", "created_at_lte": "2100-01-01"},
    )
    assert listed.json()["page_data"] == []
    assert (
        await http.post("/requests/requests", json=cnj(samples["moving_lawsuit"]))
    ).status_code == 201


async def test_a_server_started_again_after_its_shutdown_keeps_serving(
    open_app: Opened, samples: dict[str, Any]
) -> None:
    # An ASGI server may run the lifespan of one app more than once (a test client runs one
    # per call): the shutdown closes the file, the next startup opens it again.
    app, client = await open_app()
    for _ in range(2):
        async with app.router.lifespan_context(app):
            made = await client.post("/requests/requests", json=cnj(samples["lawsuit_cnj"][0]))
            assert made.status_code == 201, made.text
    held = sandbox_state(app)
    held.reopen()
    assert len(held.requests) == 2


async def test_a_file_of_another_seed_is_refused(open_app: Opened, world: World) -> None:
    app, http = await open_app()
    await close(app, http)
    with pytest.raises(StateMismatch):
        create_app(
            seed=8,
            clock=SandboxClock.frozen(),
            world=world,
            state_path=sandbox_state(app).state_path,
        )


async def test_the_configured_speed_wins_and_the_anchor_is_shared(open_app: Opened) -> None:
    app, http = await open_app(clock=SandboxClock(DEFAULT_START, speed=0))
    await http.post("/_sandbox/clock", json={"advance_seconds": 60})
    await close(app, http)
    _again, http = await open_app(clock=SandboxClock(DEFAULT_START + timedelta(days=9), speed=5))
    clock = (await http.get("/_sandbox/clock")).json()
    # the saved time (not the new clock's start), at the speed configured now
    assert clock["speed"] == 5.0
    assert clock["now"].startswith("2026-11-20T12:01")


# ----------------------------------------------------------------------------- new parts


@dataclasses.dataclass
class Note:
    text: str
    seen: set[str] = dataclasses.field(default_factory=set)


class StateWithNotes(SandboxState):
    notes: Table[str, Note]
    motto: Note

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.notes = Table()
        self.motto = Note("first")


async def test_a_new_plain_data_field_is_kept_without_code(state_path: Path, world: World) -> None:
    def make() -> StateWithNotes:
        state = StateWithNotes(
            seed=7, keys={}, clock=SandboxClock.frozen(), rate_limit=(10, 1.0), world=world
        )
        state.keep_on_disk(state_path)
        return state

    state = make()
    async with state.transaction():
        state.notes["a"] = Note("hello", {"x"})
        state.motto.text = "changed in place"
    async with state.transaction():
        state.notes["a"].seen.add("y")
    await state.aclose()
    again = make()
    assert again.notes == {"a": Note("hello", {"x", "y"})}
    assert again.motto == Note("changed in place")
    await again.aclose()


# ----------------------------------------------------------------------------- processes

_CHILD = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path
    import httpx
    from lawsuit_tui.sandbox.app import create_app
    from lawsuit_tui.sandbox.clock import SandboxClock, DEFAULT_START
    from lawsuit_tui.sandbox.world import World

    async def main(path, code, count):
        app = create_app(
            clock=SandboxClock(DEFAULT_START, speed=0), world=World.shared(7), state_path=path
        )
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://s", headers={"api-key": "sandbox"}
        ) as http:
            print("ready", flush=True)
            for _ in range(count):
                answer = await http.post(
                    "/requests/requests",
                    json={"search": {"search_type": "lawsuit_cnj", "search_key": code}},
                )
                assert answer.status_code == 201, answer.text
                print(answer.json()["request_id"], flush=True)

    asyncio.run(main(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])))
    """
)


def _child(path: Path, code: str, count: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(path), code, str(count)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )


@asynccontextmanager
async def _app_on(path: Path, world: World) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(clock=SandboxClock(DEFAULT_START, speed=0), world=world, state_path=path)
    async with sandbox_http(app, api_key=KEY, base_url="http://s") as http:
        yield http
    await sandbox_state(app).aclose()


async def _all_requests(http: httpx.AsyncClient) -> set[str]:
    found: set[str] = set()
    page = 1
    while True:
        answer = (
            await http.get(
                "/requests/requests",
                params={
                    "created_at_gte": "2000-01-01",
                    "created_at_lte": "2100-01-01",
                    "page": page,
                    "page_size": 100,
                },
            )
        ).json()
        found |= {r["request_id"] for r in answer["page_data"]}
        if page >= answer["all_pages_count"]:
            return found
        page += 1


async def test_processes_write_at_once_and_a_kill_mid_write_tears_nothing(
    state_path: Path, world: World, samples: dict[str, Any]
) -> None:
    code = samples["moving_lawsuit"]
    async with _app_on(state_path, world) as http:
        mine = [
            (await http.post("/requests/requests", json=cnj(code))).json()["request_id"]
            for _ in range(3)
        ]
    quiet = _child(state_path, code, 40)
    doomed = _child(state_path, code, 100_000)
    assert doomed.stdout is not None
    assert doomed.stdout.readline().strip() == "ready"
    seen_doomed: list[str] = []
    # This process writes while both children do.
    async with _app_on(state_path, world) as http:
        while len(seen_doomed) < 25:
            mine.append(
                (await http.post("/requests/requests", json=cnj(code))).json()["request_id"]
            )
            seen_doomed.append(await asyncio.to_thread(doomed.stdout.readline))
    doomed.send_signal(signal.SIGKILL)  # in the middle of its stream of writes
    doomed.wait(timeout=30)
    rest, err = doomed.communicate(timeout=30)
    seen_doomed += rest.splitlines()
    out, err = quiet.communicate(timeout=120)
    assert quiet.returncode == 0, err
    from_quiet = [line for line in out.splitlines() if line != "ready"]
    assert len(from_quiet) == 40
    committed = {line.strip() for line in seen_doomed if line.strip()}

    check = sqlite3.connect(state_path)
    try:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        check.close()
    async with _app_on(state_path, world) as http:
        kept = await _all_requests(http)
    # Everything answered 201 is there, each id once; the kill tore nothing.
    assert len(set(mine)) == len(mine) and len(set(from_quiet)) == len(from_quiet)
    assert set(mine) <= kept and set(from_quiet) <= kept and committed <= kept

"""End to end over real loopback ports: the sandbox (a child process, ``sandbox serve``)
delivers to the receiver (uvicorn in a thread of this process) at its account-wide URL.

One sandbox serves the whole module; each test puts a fresh receiver over a fresh cache
behind the same port (the URL the sandbox knows) and follows its own request ids only.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from starlette.types import Receive, Scope, Send

from lawsuit_tui.services.webhooks import DeliverySummary
from lawsuit_tui.store import Store
from lawsuit_tui.webhooks.receiver import Receiver, create_receiver
from lawsuit_tui.webhooks.server import ThreadedServer
from tests.support.waiting import wait_until
from tests.support.webhook_data import TOKEN, Child, child_env

DAY = 86400.0
API = {"api-key": "sandbox"}


async def unavailable(scope: Scope, receive: Receive, send: Send) -> None:
    """Between tests: 503, so the sandbox retries anything late instead of dropping it."""
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 503, "headers": []})
        await send({"type": "http.response.body", "body": b""})


class Switch:
    """The app behind the receiver's port; each test plugs its own receiver in."""

    def __init__(self) -> None:
        self.app: Any = unavailable

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


class FailFirst:
    """Answers 500 to the first delivery it sees (remembering its callback_id), then passes."""

    def __init__(self, inner: Receiver) -> None:
        self.inner = inner
        self.failed_callback_id: str | None = None
        self.seen: list[str] = []
        self._lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.inner(scope, receive, send)
            return
        body = b""
        more = True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        callback_id = orjson.loads(body)["callback_id"]
        with self._lock:
            self.seen.append(callback_id)
            fail = self.failed_callback_id is None
            if fail:
                self.failed_callback_id = callback_id
        if fail:
            await send({"type": "http.response.start", "status": 500, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.inner(scope, replay, send)


@pytest.fixture(scope="module")
def switch() -> Iterator[tuple[Switch, int]]:
    front = Switch()
    server = ThreadedServer(front)
    port = server.start()
    yield front, port
    server.stop()


@pytest.fixture(scope="module")
def sandbox(
    switch: tuple[Switch, int], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[httpx.Client]:
    _front, port = switch
    base = tmp_path_factory.mktemp("sandbox-child")
    child = Child(
        [
            "sandbox",
            "serve",
            "--port",
            "0",
            "--callback-url",
            f"http://127.0.0.1:{port}/{TOKEN}",
        ],
        child_env(base),
    )
    try:
        root = child.line(timeout=60)
        assert root.startswith("http://127.0.0.1:"), root
        with httpx.Client(base_url=root, headers=API, timeout=30) as client:
            yield client
    finally:
        assert child.stop() == 0


@pytest.fixture
def hooked(
    switch: tuple[Switch, int], tmp_path: Path
) -> Iterator[tuple[Store, Receiver, list[DeliverySummary]]]:
    front, _port = switch
    store = Store.open(tmp_path / "cache")
    seen: list[DeliverySummary] = []
    receiver = create_receiver(store, path_token=TOKEN, on_delivery=seen.append)
    front.app = receiver
    yield store, receiver, seen
    front.app = unavailable
    receiver.ingestor.close()
    store.close()


def samples(sandbox: httpx.Client) -> dict[str, Any]:
    answer = sandbox.get("/_sandbox/samples")
    assert answer.status_code == 200
    data: dict[str, Any] = answer.json()
    return data


def create(sandbox: httpx.Client, key: str, **search: Any) -> str:
    body = {"search": {"search_type": "lawsuit_cnj", "search_key": key, **search}}
    answer = sandbox.post("/requests/requests", json=body)
    assert answer.status_code == 201, answer.text  # D82
    request_id: str = answer.json()["request_id"]
    return request_id


def advance(sandbox: httpx.Client, seconds: float) -> None:
    answer = sandbox.post("/_sandbox/clock", json={"advance_seconds": seconds})
    assert answer.status_code == 200, answer.text


def of_request(seen: list[DeliverySummary], request_id: str) -> list[DeliverySummary]:
    return [s for s in list(seen) if s.request_id == request_id]


def completed(seen: list[DeliverySummary], request_id: str) -> bool:
    return any(s.kind == "request" for s in of_request(seen, request_id))


def test_request_with_stored_data_cached_definitive_completed(
    sandbox: httpx.Client, hooked: tuple[Store, Receiver, list[DeliverySummary]]
) -> None:
    store, _receiver, seen = hooked
    code = samples(sandbox)["moving_lawsuit"]
    request_id = create(sandbox, code)
    advance(sandbox, 3)
    wait_until(lambda: completed(seen, request_id), 20, "request_completed")
    mine = of_request(seen, request_id)
    assert [(s.event_type, s.provisional) for s in mine] == [
        ("response_created", True),
        ("response_created", False),
        ("request_completed", None),
    ]
    record = store.get_request(request_id)
    assert record is not None and record["status"] == "completed"
    responses = store.responses_of(request_id)
    assert len(responses) == 2
    entry = store.lawsuit_entry(code)
    assert entry is not None and entry.provisional is False
    assert all(store.is_delivered(s.callback_id) for s in mine)
    # What the service lists is what the receiver stored.
    listed = sandbox.get(
        "/requests/responses", params={"request_id": request_id, "page_size": 100}
    ).json()["page_data"]
    assert {r["response_id"] for r in listed} == {r["response_id"] for r in responses}


def test_on_demand_request_two_deliveries(
    sandbox: httpx.Client, hooked: tuple[Store, Receiver, list[DeliverySummary]]
) -> None:
    store, _receiver, seen = hooked
    code = samples(sandbox)["lawsuit_cnj"][0]
    request_id = create(sandbox, code, on_demand=True)
    advance(sandbox, 3)
    wait_until(lambda: completed(seen, request_id), 20, "request_completed")
    mine = of_request(seen, request_id)
    # No cached delivery (D14): the court's response(s) (one per instance), then completion.
    responses = mine[:-1]
    assert responses and {(s.event_type, s.provisional) for s in responses} == {
        ("response_created", False)
    }
    assert mine[-1].event_type == "request_completed"
    assert len(store.responses_of(request_id)) == len(responses)
    assert store.get_request(request_id)["status"] == "completed"  # type: ignore[index]


def test_a_500_is_retried_with_the_same_callback_id_and_stored_once(
    sandbox: httpx.Client,
    hooked: tuple[Store, Receiver, list[DeliverySummary]],
    switch: tuple[Switch, int],
) -> None:
    store, receiver, seen = hooked
    front, _port = switch
    failing = FailFirst(receiver)
    front.app = failing
    code = samples(sandbox)["lawsuit_cnj"][2]
    request_id = create(sandbox, code, on_demand=True)
    advance(sandbox, 3)
    wait_until(lambda: failing.failed_callback_id is not None, 20, "the first delivery")
    failed = failing.failed_callback_id
    assert failed is not None

    def retried() -> bool:
        if failing.seen.count(failed) >= 2:
            return True
        advance(sandbox, 1)  # the retry comes after 1 s of sandbox time (D44): move the clock
        return False

    wait_until(retried, 20, "the retry")
    wait_until(lambda: completed(seen, request_id), 20, "request_completed")
    # The retry goes to the back of the sender's queue: after request_completed.
    wait_until(lambda: any(s.callback_id == failed for s in list(seen)), 20, "the retry stored")
    assert failing.seen.count(failed) == 2
    assert store.is_delivered(failed)
    assert [s.callback_id for s in seen].count(failed) == 1
    answered = [s for s in of_request(seen, request_id) if s.kind == "response"]
    assert len(store.responses_of(request_id)) == len(answered) >= 1
    assert receiver.stats.repeated == 0  # the 500 stored nothing, so the retry was new
    assert store.stats()["counts"]["deliveries"] == len(seen)


def test_tracking_movement(
    sandbox: httpx.Client, hooked: tuple[Store, Receiver, list[DeliverySummary]]
) -> None:
    store, _receiver, seen = hooked
    code = samples(sandbox)["moving_lawsuit"]
    answer = sandbox.post(
        "/tracking/tracking", json={"search": {"search_type": "lawsuit_cnj", "search_key": code}}
    )
    assert answer.status_code == 201, answer.text  # D66, D82
    tracking_id = answer.json()["tracking_id"]
    advance(sandbox, 3 * DAY + 5)

    def tracked() -> list[DeliverySummary]:
        return [s for s in list(seen) if s.reference_id == tracking_id]

    wait_until(tracked, 20, "a tracking_response")
    event = tracked()[0]
    assert (event.event_type, event.reference_type, event.kind) == (
        "tracking_response",
        "tracking",
        "response",
    )
    run_id = event.request_id
    assert run_id
    wait_until(lambda: completed(seen, run_id), 20, "the run's request_completed")
    response = store.get_response(event.response_id)  # type: ignore[arg-type]
    assert response is not None
    assert (response["origin"], response["origin_id"]) == ("tracking", tracking_id)
    assert store.get_request(run_id)["status"] == "completed"  # type: ignore[index]
    entry = store.lawsuit_entry(code)
    assert entry is not None and not entry.provisional

"""The receiver's rules through httpx.ASGITransport, over a real cache in a temporary directory."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from lawsuit_tui.services.webhooks import DeliverySummary
from lawsuit_tui.store import CacheError, Store
from lawsuit_tui.webhooks.receiver import Receiver, create_receiver
from tests.support.webhook_data import CODE, TOKEN, lawsuit, request_completed, response_created

URL = f"/{TOKEN}"


def client_for(app: Receiver, host: str = "127.0.0.1") -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(host, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://receiver.test")


# --------------------------------------------------------------------- status rules


async def test_stored_answers_200_and_is_in_the_cache(
    client: httpx.AsyncClient, store: Store, notified: list[DeliverySummary]
) -> None:
    envelope = response_created(cached=False)
    answer = await client.post(URL, json=envelope)
    assert answer.status_code == 200
    assert answer.json() == {"status": "stored", "callback_id": envelope["callback_id"]}
    assert store.is_delivered(envelope["callback_id"])
    assert store.get_response(envelope["payload"]["response_id"]) == envelope["payload"]
    assert [s.callback_id for s in notified] == [envelope["callback_id"]]
    summary = notified[0]
    assert (summary.kind, summary.provisional, summary.new) == ("response", False, True)
    assert summary.response_id == envelope["payload"]["response_id"]
    assert summary.reference_id == "req-1"


async def test_wrong_token_is_404_and_stores_nothing(
    client: httpx.AsyncClient, store: Store
) -> None:
    envelope = response_created(cached=False)
    for path in ("/wrong-token", "/", f"/{TOKEN}x", f"/{TOKEN[:-1]}", f"/{TOKEN}/more/parts"):
        answer = await client.post(path, json=envelope)
        assert answer.status_code == 404, path
    assert not store.is_delivered(envelope["callback_id"])
    assert store.list_quarantine() == []


async def test_sender_outside_allow_list_is_403(store: Store) -> None:
    app = create_receiver(store, path_token=TOKEN, allow_from=["10.0.0.0/8", "2001:db8::/32"])
    envelope = response_created(cached=False)
    async with client_for(app, "192.168.1.7") as outside:
        assert (await outside.post(URL, json=envelope)).status_code == 403
        # the allow-list comes before the token: a stranger learns nothing about it
        assert (await outside.post("/guess", json=envelope)).status_code == 403
        assert (await outside.get(f"{URL}/health")).status_code == 403
    assert not store.is_delivered(envelope["callback_id"])
    async with client_for(app, "10.20.30.40") as inside:
        assert (await inside.post(URL, json=envelope)).status_code == 200
    async with client_for(app, "::ffff:10.1.1.1") as mapped:
        assert (await mapped.post(URL, json=response_created(cached=True))).status_code == 200
    async with client_for(app, "2001:db8::5") as v6:
        assert (await v6.post(URL, json=response_created(cached=True))).status_code == 200
    assert app.stats.refused == 3


async def test_body_over_the_limit_is_413_by_length_and_by_stream(store: Store) -> None:
    app = create_receiver(store, path_token=TOKEN, max_body=1000)
    big = response_created(cached=False, data=lawsuit(steps=40))
    body = orjson.dumps(big)
    assert len(body) > 1000
    async with client_for(app) as c:
        answer = await c.post(URL, content=body, headers={"content-type": "application/json"})
        assert answer.status_code == 413

        async def chunks() -> Any:  # no Content-Length: only the streamed size can tell
            for start in range(0, len(body), 300):
                yield body[start : start + 300]

        answer = await c.post(URL, content=chunks())
        assert answer.status_code == 413
        small = response_created(cached=False)
        assert (await c.post(URL, json=small)).status_code == 200
    assert not store.is_delivered(big["callback_id"])


async def test_default_limit_is_five_mib(store: Store) -> None:
    app = create_receiver(store, path_token=TOKEN)
    assert app.max_body == 5 * 1024 * 1024
    async with client_for(app) as c:
        answer = await c.post(
            URL,
            content=b"x",
            headers={"content-length": str(5 * 1024 * 1024 + 1)},
        )
    assert answer.status_code == 413


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"{not json", "not JSON"),
        (b"", "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"event_type": "response_created", "payload": {}}', "callback_id"),
        (b'{"callback_id": "", "event_type": "response_created"}', "callback_id"),
        (b'{"callback_id": 12, "event_type": "response_created"}', "callback_id"),
        (b'{"callback_id": "cb-x"}', "event_type"),
        (
            b'{"callback_id": "cb-y", "event_type": "response_created", "payload": "text"}',
            "payload",
        ),
    ],
)
async def test_not_json_or_not_an_envelope_is_400_and_quarantined(
    client: httpx.AsyncClient, store: Store, body: bytes, reason: str
) -> None:
    answer = await client.post(URL, content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert reason in answer.json()["message"]
    kept = store.list_quarantine()
    assert len(kept) == 1
    assert reason in kept[0]["reason"]
    assert kept[0]["size"] == len(body)


async def test_other_methods_are_405(client: httpx.AsyncClient) -> None:
    answer = await client.get(URL)
    assert answer.status_code == 405
    assert answer.headers["allow"] == "POST"
    assert (await client.put(URL, json={})).status_code == 405
    assert (await client.post(f"{URL}/health", json={})).status_code == 405


async def test_health_page(client: httpx.AsyncClient, store: Store) -> None:
    await client.post(URL, json=response_created(cached=True))
    answer = await client.get(f"{URL}/health")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    assert "deliveries stored: 1" in answer.text
    assert TOKEN not in answer.text
    assert str(store.path) in answer.text
    assert (await client.get("/nope/health")).status_code == 404


# --------------------------------------------------------------------- dedupe


async def test_redelivery_is_200_and_changes_nothing(
    client: httpx.AsyncClient, store: Store, notified: list[DeliverySummary]
) -> None:
    first = response_created(cached=False, callback_id="cb-same", response_id="resp-a")
    assert (await client.post(URL, json=first)).status_code == 200
    files_before = _journal_bytes(store.path)
    # Same callback_id, different content: a redelivery is recognised by its id alone.
    again = response_created(cached=False, callback_id="cb-same", response_id="resp-b")
    answer = await client.post(URL, json=again)
    assert answer.status_code == 200
    assert answer.json()["status"] == "duplicate"
    assert store.get_response("resp-b") is None
    assert _journal_bytes(store.path) == files_before  # nothing written at all
    assert len(notified) == 1


async def test_concurrent_redeliveries_store_once(
    client: httpx.AsyncClient, store: Store, notified: list[DeliverySummary]
) -> None:
    envelope = response_created(cached=False, callback_id="cb-race")
    answers = await asyncio.gather(*(client.post(URL, json=envelope) for _ in range(20)))
    assert [a.status_code for a in answers] == [200] * 20
    assert sorted(a.json()["status"] for a in answers).count("stored") == 1
    assert len(notified) == 1
    assert store.stats()["counts"]["deliveries"] == 1


def patch_writes(monkeypatch: pytest.MonkeyPatch, store: Store, wrap: Any) -> None:
    """Wrap the store's delivery writes (the one-by-one and, when offered, the batch one)."""
    for name in ("ingest_delivery", "ingest_deliveries"):
        real = getattr(store, name, None)
        if real is not None:
            monkeypatch.setattr(store, name, wrap(real))


def _journal_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in (path / "journal").glob("*") if p.is_file())


# --------------------------------------------------------------------- events


async def test_cached_then_definitive(
    client: httpx.AsyncClient, store: Store, notified: list[DeliverySummary]
) -> None:
    cached = response_created(cached=True, data=lawsuit(steps=1))
    assert (await client.post(URL, json=cached)).status_code == 200
    entry = store.lawsuit_entry(CODE, 1)
    assert entry is not None and entry.provisional
    definitive = response_created(cached=False, data=lawsuit(steps=3))
    assert (await client.post(URL, json=definitive)).status_code == 200
    entry = store.lawsuit_entry(CODE, 1)
    assert entry is not None and not entry.provisional
    assert len(entry.lawsuit["steps"]) == 3
    assert entry.changes is not None and entry.changes.replaced_provisional
    assert sorted(entry.changes.new_step_ids) == ["s1", "s2"]
    # a late provisional copy never replaces the definitive one
    late = response_created(cached=True, data=lawsuit(steps=1))
    assert (await client.post(URL, json=late)).status_code == 200
    entry = store.lawsuit_entry(CODE, 1)
    assert entry is not None and not entry.provisional and len(entry.lawsuit["steps"]) == 3
    assert [s.provisional for s in notified] == [True, False, True]
    assert notified[1].lawsuit_changes and notified[1].lawsuit_changes[0].replaced_provisional
    responses = store.responses_of("req-1")
    assert len(responses) == 3


async def test_request_completed_stores_the_final_state(
    client: httpx.AsyncClient, store: Store, notified: list[DeliverySummary]
) -> None:
    store.upsert_requests(
        [
            {
                "request_id": "req-1",
                "status": "started",
                "updated_at": "2026-11-20T12:00:00.200Z",
                "tags": {"case": "x"},
            }
        ]
    )
    envelope = request_completed("req-1")
    assert (await client.post(URL, json=envelope)).status_code == 200
    stored = store.get_request("req-1")
    assert stored is not None
    assert stored["status"] == "completed"
    assert stored["completed_at"] == "2026-11-20T12:00:02.000Z"
    assert stored["tags"] == {"case": "x"}  # a field the payload lacks is kept
    assert notified[-1].kind == "request" and notified[-1].status == "completed"
    assert store.is_delivered(envelope["callback_id"])


async def test_request_completed_never_rolls_back_a_newer_state(
    client: httpx.AsyncClient, store: Store
) -> None:
    newer = {
        "request_id": "req-9",
        "status": "completed",
        "updated_at": "2026-11-21T08:00:00.000Z",
        "deleted_at": "2026-11-21T08:00:00.000Z",
    }
    store.upsert_requests([newer])
    assert (await client.post(URL, json=request_completed("req-9"))).status_code == 200
    assert store.get_request("req-9") == newer


async def test_request_completed_keeps_the_path_token_out_of_the_cache(
    client: httpx.AsyncClient, store: Store
) -> None:
    envelope = request_completed(
        "req-5", callback_url=f"https://hooks.example.com/{TOKEN}", trace_id="t"
    )
    assert (await client.post(URL, json=envelope)).status_code == 200
    stored = store.get_request("req-5")
    assert stored is not None
    assert TOKEN not in stored["callback_url"]
    store.checkpoint()
    for path in store.path.rglob("*"):
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes(), path


async def test_tracking_response(client: httpx.AsyncClient, store: Store) -> None:
    envelope = response_created(
        "run-1",
        cached=False,
        event_type="tracking_response",
        reference_type="tracking",
        reference_id="trk-1",
        origin=None,
    )
    assert (await client.post(URL, json=envelope)).status_code == 200
    stored = store.get_response(envelope["payload"]["response_id"])
    assert stored is not None
    assert (stored["origin"], stored["origin_id"]) == ("tracking", "trk-1")
    assert stored["request_id"] == "run-1"
    assert store.lawsuit_entry(CODE, 1) is not None


async def test_response_created_with_reference_type_tracking(
    client: httpx.AsyncClient, store: Store, notified: list[DeliverySummary]
) -> None:
    envelope = response_created(
        "run-2",
        cached=False,
        reference_type="tracking",
        reference_id="trk-2",
        origin=None,
    )
    envelope["payload"].update(origin=None, origin_id=None)  # present but empty
    assert (await client.post(URL, json=envelope)).status_code == 200
    stored = store.get_response(envelope["payload"]["response_id"])
    assert stored is not None and stored["origin_id"] == "trk-2"
    assert notified[-1].kind == "response" and notified[-1].reference_type == "tracking"


async def test_tracking_keeps_an_origin_it_was_given(
    client: httpx.AsyncClient, store: Store
) -> None:
    envelope = response_created(
        "run-3",
        cached=False,
        event_type="tracking_response",
        reference_type="tracking",
        reference_id="trk-3",
        origin="tracking",
        origin_id="trk-3",
    )
    assert (await client.post(URL, json=envelope)).status_code == 200
    stored = store.get_response(envelope["payload"]["response_id"])
    assert stored is not None and stored["origin_id"] == "trk-3"


async def test_unknown_event_is_kept_as_it_came_and_answered_200(
    client: httpx.AsyncClient, store: Store, notified: list[DeliverySummary]
) -> None:
    envelope = {
        "callback_id": "cb-new-kind",
        "event_type": "lawsuit_archived",
        "reference_type": "lawsuit",
        "reference_id": CODE,
        "payload": {"code": CODE, "archived_at": "2026-11-20T00:00:00Z", "extra": [1, 2]},
        "something_new": True,
    }
    answer = await client.post(URL, json=envelope)
    assert answer.status_code == 200
    assert store.is_delivered("cb-new-kind")
    kept = store.list_quarantine()
    assert len(kept) == 1
    assert "accepted" in kept[0]["reason"] and "lawsuit_archived" in kept[0]["reason"]
    assert orjson.loads(kept[0]["body"]) == envelope
    assert notified[-1].kind == "kept"
    again = await client.post(URL, json=envelope)
    assert again.json()["status"] == "duplicate"
    assert len(store.list_quarantine()) == 1


async def test_known_event_without_a_usable_payload_is_kept(
    client: httpx.AsyncClient, store: Store
) -> None:
    envelope = {"callback_id": "cb-empty", "event_type": "response_created", "payload": {}}
    assert (await client.post(URL, json=envelope)).status_code == 200
    assert store.is_delivered("cb-empty")
    assert len(store.list_quarantine()) == 1


async def test_unknown_fields_are_kept(client: httpx.AsyncClient, store: Store) -> None:
    envelope = response_created(cached=False)
    envelope["payload"]["brand_new_field"] = {"nested": [1, "two"]}
    envelope["payload"]["response_data"]["court_extra"] = "kept"
    assert (await client.post(URL, json=envelope)).status_code == 200
    stored = store.get_response(envelope["payload"]["response_id"])
    assert stored is not None
    assert stored["brand_new_field"] == {"nested": [1, "two"]}
    assert stored["response_data"]["court_extra"] == "kept"


# --------------------------------------------------------------------- failures


async def test_store_failure_is_503_then_the_retry_stores_it(
    client: httpx.AsyncClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    envelope = response_created(cached=False)

    def broken(real: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            raise CacheError("disk full")

        return wrapper

    with monkeypatch.context() as patched:
        patch_writes(patched, store, broken)
        answer = await client.post(URL, json=envelope)
        assert answer.status_code == 503
        assert answer.headers["retry-after"] == "1"
        assert not store.is_delivered(envelope["callback_id"])
    assert (await client.post(URL, json=envelope)).status_code == 200
    assert store.is_delivered(envelope["callback_id"])


async def test_os_error_and_quarantine_failure_are_503(
    client: httpx.AsyncClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(real: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            raise OSError(28, "No space left on device")

        return wrapper

    patch_writes(monkeypatch, store, broken)
    monkeypatch.setattr(store, "quarantine", broken(None))
    assert (await client.post(URL, json=response_created(cached=False))).status_code == 503
    assert (await client.post(URL, content=b"garbage")).status_code == 503


async def test_read_only_cache_is_503(tmp_path: Path) -> None:
    writer = Store.open(tmp_path / "c")
    reader = Store.open(tmp_path / "c", read_only=True)
    try:
        app = create_receiver(reader, path_token=TOKEN)
        async with client_for(app) as c:
            assert (await c.post(URL, json=response_created(cached=False))).status_code == 503
            assert (await c.get(f"{URL}/health")).status_code == 503
    finally:
        reader.close()
        writer.close()


async def test_slow_store_answers_503_in_time_and_the_retry_is_a_duplicate(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()

    def slow(real: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            release.wait(10)
            return real(*args, **kwargs)

        return wrapper

    patch_writes(monkeypatch, store, slow)
    app = create_receiver(store, path_token=TOKEN, answer_within=0.2)
    envelope = response_created(cached=False)
    async with client_for(app) as c:
        answer = await c.post(URL, json=envelope)
        assert answer.status_code == 503
        release.set()
        deadline = asyncio.get_running_loop().time() + 5
        while not store.is_delivered(envelope["callback_id"]):
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.01)
        again = await c.post(URL, json=envelope)
    assert again.status_code == 200 and again.json()["status"] == "duplicate"
    app.ingestor.close()


async def test_failing_notification_does_not_undo_the_delivery(store: Store) -> None:
    def explode(summary: DeliverySummary) -> None:
        raise RuntimeError("ui gone")

    app = create_receiver(store, path_token=TOKEN, on_delivery=explode)
    async with client_for(app) as c:
        envelope = response_created(cached=False)
        assert (await c.post(URL, json=envelope)).status_code == 200
    assert store.is_delivered(envelope["callback_id"])


async def test_async_notification_runs(store: Store) -> None:
    seen: list[str] = []
    done = asyncio.Event()

    async def note(summary: DeliverySummary) -> None:
        seen.append(summary.callback_id)
        done.set()

    app = create_receiver(store, path_token=TOKEN, on_delivery=note)
    async with client_for(app) as c:
        envelope = response_created(cached=True)
        assert (await c.post(URL, json=envelope)).status_code == 200
    await asyncio.wait_for(done.wait(), 5)
    assert seen == [envelope["callback_id"]]

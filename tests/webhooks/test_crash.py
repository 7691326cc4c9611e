"""Crash test: the receiver (``lawsuit-tui webhooks serve``, a child process) is killed with
SIGKILL at random moments while a sender streams deliveries at it, then restarted.

After each kill, every delivery that had been answered 2xx is in the cache; at the end every
delivery is there exactly once (the sender retried the rest, as the service does).
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from lawsuit_tui.store import Store
from tests.support.webhook_data import TOKEN, Child, child_env, response_created

DELIVERIES = 300
KILLS = 10
CONCURRENCY = 10
REQUESTS = 30


def start_receiver(base: Path) -> tuple[Child, str]:
    child = Child(["webhooks", "serve", "--port", "0", "--path-token", TOKEN], child_env(base))
    url = child.line(timeout=30)
    assert url.startswith("http://127.0.0.1:") and url.endswith(f"/{TOKEN}"), url
    return child, url


def check_acknowledged(cache: Path, acked: set[str], envelopes: dict[str, dict[str, Any]]) -> None:
    with Store.open(cache, read_only=True) as store:
        missing = [cid for cid in acked if not store.is_delivered(cid)]
        assert not missing, f"{len(missing)} acknowledged deliveries lost, e.g. {missing[:3]}"
        for cid in acked:
            response_id = envelopes[cid]["payload"]["response_id"]
            assert store.get_response(response_id) is not None, cid


@pytest.mark.slow
async def test_sigkill_never_loses_an_acknowledged_delivery(tmp_path: Path) -> None:
    rng = random.Random(8)
    started = time.monotonic()
    envelopes: dict[str, dict[str, Any]] = {}
    for n in range(DELIVERIES):
        envelope = response_created(
            f"req-{n % REQUESTS}", cached=n % 3 == 0, callback_id=f"crash-{n:04d}"
        )
        envelope["payload"]["response_id"] = f"crash-resp-{n:04d}"
        envelopes[envelope["callback_id"]] = envelope
    pending: asyncio.Queue[str] = asyncio.Queue()
    for cid in envelopes:
        pending.put_nowait(cid)

    acked: set[str] = set()
    progress = asyncio.Condition()
    up = asyncio.Event()
    state: dict[str, object] = {}
    attempts = 0

    child, url = await asyncio.to_thread(start_receiver, tmp_path)
    state["url"] = url
    up.set()

    async def sender(client: httpx.AsyncClient) -> None:
        nonlocal attempts
        while True:
            try:
                cid = pending.get_nowait()
            except asyncio.QueueEmpty:
                return
            while True:
                await up.wait()
                attempts += 1
                try:
                    answer = await client.post(str(state["url"]), json=envelopes[cid])
                except httpx.HTTPError:
                    # Killed mid-answer: the killer has cleared ``up``; wait for the restart,
                    # then retry the same callback_id, as the service does.
                    await asyncio.sleep(0)
                    continue
                if 200 <= answer.status_code < 300:
                    async with progress:
                        acked.add(cid)
                        progress.notify_all()
                    break
                assert answer.status_code >= 500, answer.text  # never a 4xx for these

    async def killer() -> int:
        nonlocal child
        kills = 0
        for k in range(KILLS):
            target = (k + 1) * DELIVERIES // (KILLS + 2) + rng.randint(-5, 5)
            async with progress:
                await progress.wait_for(lambda t=target: len(acked) >= t)  # type: ignore[misc]
            # A random moment inside the stream, not just at a threshold.
            await asyncio.sleep(rng.uniform(0, 0.02))
            up.clear()
            child.kill()
            kills += 1
            snapshot = set(acked)  # every 2xx the sender received came before the kill
            await asyncio.to_thread(check_acknowledged, tmp_path / "cache", snapshot, envelopes)
            child, new_url = await asyncio.to_thread(start_receiver, tmp_path)
            state["url"] = new_url
            up.set()
        return kills

    async with httpx.AsyncClient(timeout=10) as client:
        kill_task = asyncio.create_task(killer())
        await asyncio.gather(*(sender(client) for _ in range(CONCURRENCY)))
        kills = await kill_task

    assert kills == KILLS
    assert acked == set(envelopes)
    assert await asyncio.to_thread(child.stop) == 0  # SIGTERM: a clean stop
    with Store.open(tmp_path / "cache", read_only=True) as store:
        assert all(store.is_delivered(cid) for cid in envelopes)
        counts = store.stats()["counts"]
        assert counts["deliveries"] == DELIVERIES
        assert counts["responses"] == DELIVERIES
        for r in range(REQUESTS):
            ids = [x["response_id"] for x in store.responses_of(f"req-{r}")]
            assert len(ids) == len(set(ids)) == DELIVERIES // REQUESTS
        assert store.list_quarantine() == []
    assert attempts > DELIVERIES  # the kills really interrupted deliveries
    assert time.monotonic() - started < 60

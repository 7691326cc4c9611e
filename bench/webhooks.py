"""Benchmark of the webhook receiver against issue 8.

The receiver (``lawsuit-tui webhooks serve``, a child process, over a fresh cache in a
temporary directory) listens on a loopback port; a sender in this process posts 1,000
deliveries at concurrency 20, 20% of them redeliveries of a callback_id already sent (some
while the original is still in flight). Each delivery is a response_created carrying a
lawsuit of about 3 KB, a third of them cached (provisional) ones. A 503 is retried by the
sender, as the service does.

Figures: p50 and p99 time to answer (from sending the request to reading the answer, over
every attempt), the largest one (the spec allows 10 s), deliveries lost (a unique callback_id
not in the cache with its response at the end: must be 0), stored twice (a callback_id the
receiver answered "stored" more than once, rather than "duplicate": must be 0), and the
throughput. The sender is a minimal keep-alive HTTP/1.1 client over asyncio streams, one
connection per worker, so that its own cost stays small beside the receiver's.

Options: --deliveries=N (default 1000), --concurrency=N (default 20), --redeliveries=F
(default 0.2).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson

from lawsuit_tui.store import Store
from lawsuit_tui.webhooks.token import generate_token

# The spec's only time figure: a receiver answers within 10 s. p50 and p99 have no target.
ANSWER_LIMIT_MS = 10_000.0


def _option(argv: list[str], name: str, default: float) -> float:
    for arg in argv:
        if arg.startswith(f"--{name}="):
            return float(arg.split("=", 1)[1])
    return default


def _lawsuit(n: int, rng: random.Random) -> dict[str, Any]:
    code = f"{n:07d}-{rng.randint(10, 99)}.2024.8.26.{rng.randint(1, 9999):04d}"
    return {
        "code": code,
        "instance": 1,
        "name": f"Autor {n} x Réu {n}",
        "courts": [{"code": "TJSP", "name": "Tribunal de Justiça de São Paulo"}],
        "subjects": [{"code": "1234", "name": "Indenização por dano moral"}],
        "amount": rng.randint(1000, 10**6),
        "parties": [
            {
                "name": f"Parte {n}-{p}",
                "side": "active" if p % 2 == 0 else "passive",
                "main_document": f"{rng.randint(10**10, 10**11 - 1)}",
                "lawyers": [{"name": f"Advogada {p}", "oab": f"{rng.randint(1000, 99999)}SP"}],
            }
            for p in range(4)
        ],
        "steps": [
            {
                "step_id": f"{n}-{s}",
                "step_date": f"2024-{1 + s % 12:02d}-{1 + s % 28:02d}T10:00:00.000Z",
                "content": "Juntada de petição intermediária; conclusos para decisão. " * 2,
            }
            for s in range(12)
        ],
    }


def _envelopes(count: int, redeliveries: float, seed: int = 8) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    unique = round(count * (1 - redeliveries))
    originals: list[dict[str, Any]] = []
    for n in range(unique):
        cached = n % 3 == 0
        originals.append(
            {
                "user_id": "bench",
                "callback_id": f"bench-cb-{n:06d}",
                "event_type": "response_created",
                "reference_type": "request",
                "reference_id": f"bench-req-{n // 4}",
                "payload": {
                    "request_id": f"bench-req-{n // 4}",
                    "response_id": f"bench-resp-{n:06d}",
                    "response_type": "lawsuit",
                    "response_data": _lawsuit(n, rng),
                    "user_id": "bench",
                    "created_at": "2026-11-20T12:00:01.000Z",
                    "request_created_at": "2026-11-20T12:00:00.000Z",
                    "is_scrapper_info": False,
                    "tags": {"dashboard_id": None, "cached_response": cached},
                    "origin": "api",
                    "origin_id": None,
                },
            }
        )
    order = list(originals)
    for _ in range(count - unique):
        # A redelivery of one already queued, placed after it (often within the same window
        # of 20 in flight, so the original may not be stored yet).
        index = rng.randrange(len(order))
        order.insert(min(len(order), index + rng.randint(1, 40)), order[index])
    return order


class _Connection:
    """A keep-alive HTTP/1.1 connection: POST a JSON body, read status and body.

    Deliberately minimal (no httpx): the sender's own cost must not hide the receiver's.
    """

    def __init__(self, host: str, port: int, path: str) -> None:
        self.host, self.port, self.path = host, port, path
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def post(self, body: bytes) -> tuple[int, bytes]:
        if self._writer is None or self._reader is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        head = (
            f"POST {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode()
        self._writer.write(head + body)
        await self._writer.drain()
        status_line = await self._reader.readline()
        status = int(status_line.split()[1])
        length = 0
        close = False
        while True:
            line = await self._reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _sep, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
            elif name.strip().lower() == "connection" and "close" in value.lower():
                close = True
        payload = await self._reader.readexactly(length) if length else b""
        if close:
            await self.aclose()
        return status, payload

    async def aclose(self) -> None:
        writer, self._writer, self._reader = self._writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


async def _send(
    url: str, envelopes: list[dict[str, Any]], concurrency: int
) -> tuple[list[float], Counter[int], int, Counter[str]]:
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    stored: Counter[str] = Counter()
    retries = 0
    parts = urlsplit(url)
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    for envelope in envelopes:
        queue.put_nowait(envelope)

    async def worker() -> None:
        nonlocal retries
        connection = _Connection(parts.hostname or "127.0.0.1", parts.port or 80, parts.path)
        try:
            while True:
                try:
                    envelope = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                body = orjson.dumps(envelope)
                for _attempt in range(10):
                    started = time.perf_counter()
                    status, answer = await connection.post(body)
                    latencies.append((time.perf_counter() - started) * 1000)
                    statuses[status] += 1
                    if status < 500:
                        if status == 200 and orjson.loads(answer).get("status") == "stored":
                            stored[envelope["callback_id"]] += 1
                        break
                    retries += 1
        finally:
            await connection.aclose()

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return latencies, statuses, retries, stored


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _start_receiver(base: Path, token: str) -> tuple[subprocess.Popen[str], str]:
    """``lawsuit-tui webhooks serve`` in a child process, as an analyst would run it."""
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("LAWSUIT_TUI_")}
    env.update(
        LAWSUIT_TUI_CONFIG=str(base / "config.toml"),
        LAWSUIT_TUI_CACHE_DIR=str(base / "cache"),
        LAWSUIT_TUI_LANGUAGE="en",
        PYTHONUNBUFFERED="1",
    )
    command = ["webhooks", "serve", "--port", "0", "--path-token", token]
    child = subprocess.Popen(
        [sys.executable, "-m", "lawsuit_tui", *command],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    url = child.stdout.readline().strip()
    if not url.startswith("http://"):
        child.kill()
        raise SystemExit(f"the receiver did not start (exit {child.wait()})")
    return child, url


def main(argv: list[str]) -> int:
    count = int(_option(argv, "deliveries", 1000))
    concurrency = int(_option(argv, "concurrency", 20))
    share = _option(argv, "redeliveries", 0.2)
    envelopes = _envelopes(count, share)
    unique = {e["callback_id"]: e for e in envelopes}

    with tempfile.TemporaryDirectory(prefix="bench-webhooks-") as tmp:
        base = Path(tmp)
        child, url = _start_receiver(base, generate_token())
        try:
            wall = time.perf_counter()
            latencies, statuses, retries, stored = asyncio.run(_send(url, envelopes, concurrency))
            wall = time.perf_counter() - wall
        finally:
            child.send_signal(signal.SIGTERM)
            code = child.wait(60)
        with Store.open(base / "cache", read_only=True) as store:
            lost = [
                cid
                for cid, e in unique.items()
                if not store.is_delivered(cid)
                or store.get_response(e["payload"]["response_id"]) is None
            ]
            counts = store.stats()["counts"]
        twice = [cid for cid, n in stored.items() if n > 1]

    p50, p99 = _percentile(latencies, 0.5), _percentile(latencies, 0.99)
    worst = max(latencies)
    print(
        f"(info) {count} deliveries ({len(unique)} unique, {count - len(unique)} redeliveries) "
        f"at concurrency {concurrency}; answers {dict(sorted(statuses.items()))}, "
        f"retries after 5xx {retries}; receiver exit status {code}"
    )
    print(f"(info) throughput: {count / wall:.0f} deliveries/s ({wall:.2f} s in all)")
    print(f"(info) mean time to answer: {statistics.fmean(latencies):.1f} ms")
    print(f"p50 time to answer: {p50:.1f} ms")
    print(f"p99 time to answer: {p99:.1f} ms")
    ok = worst < ANSWER_LIMIT_MS and code == 0
    print(
        f"slowest answer: {worst:.1f} ms (spec: < {ANSWER_LIMIT_MS:g} ms) "
        f"{'met' if worst < ANSWER_LIMIT_MS else 'MISSED'}"
    )
    for name, value in (("deliveries lost", len(lost)), ("stored twice", len(twice))):
        met = value == 0
        ok &= met
        print(f"{name}: {value} (target 0) {'met' if met else 'MISSED'}")
    if counts.get("deliveries", 0) != len(unique) or counts.get("responses", 0) != len(unique):
        ok = False
        print(f"cache counts do not match the unique deliveries: {counts} MISSED")
    return 0 if ok else 1

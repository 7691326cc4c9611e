"""What issue 18's safety costs: a write handed to the process holding the cache, and a line
of the record of paid calls, against a write made by the holder itself.

A child process holds the cache (its store and a ``CacheHost``, as the app does); this process
opens the cache read-only and hands writes to it through ``services.cache.Cache``, which also
refreshes its read-only view after each. Figures are medians of several runs, each against a
baseline taken in the same run (the same writes made directly on a writable store):

- one response handed to the holder, durable there and read back here (info; the baseline is
  one durable upsert, target < 20 ms in bench/cache.py)
- a page of 1,000 responses (a sync's page) handed over (info, against the same page local)
- one line of the record of paid calls, appended and fsynced (target < 20 ms: it stands
  between the service's answer and everything else)

Options: --runs=N (default 5).
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

from lawsuit_tui.services.cache import Cache
from lawsuit_tui.services.shared_cache import connect_to_holder
from lawsuit_tui.store import Store
from lawsuit_tui.store.paid_calls import PaidCallRecord

HOLDER = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path
    from lawsuit_tui.services.shared_cache import CacheHost
    from lawsuit_tui.store import Store

    async def main():
        store = Store.open(Path(sys.argv[1]))
        host = CacheHost(store)
        assert await host.start(), host.problem
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.read)
        await host.aclose()
        store.close()

    asyncio.run(main())
    """
)


def response(n: int, request: str) -> dict[str, Any]:
    return {
        "response_id": f"{request}-{n}",
        "request_id": request,
        "response_type": "lawsuit",
        "created_at": f"2026-01-01T00:00:{n % 60:02d}Z",
        "tags": {"cached_response": False},
        "response_data": {
            "code": f"{n:07d}-00.2024.8.26.0100",
            "instance": 1,
            "steps": [
                {"step_id": f"{n}-{j}", "content": "juntada de peticao " * 8} for j in range(6)
            ],
        },
    }


def timed(work: Any) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


async def handed(directory: Path, figures: dict[str, float]) -> None:
    """Writes handed to the process holding ``directory``, timed."""
    reader = Store.open(directory, read_only=True)
    client = await connect_to_holder(directory)
    assert client is not None
    cache = Cache(reader, holder=client)
    await cache.upsert_responses([response(9, "warm")])  # threads started on both sides
    started = time.perf_counter()
    await cache.upsert_responses([response(0, "h1")])
    figures["handed one"] = time.perf_counter() - started
    page = [response(n, "h2") for n in range(1000)]
    started = time.perf_counter()
    await cache.upsert_responses(page)
    figures["handed page"] = time.perf_counter() - started
    assert reader.count_responses() == 1002  # read back here
    await cache.aclose()
    reader.close()


def one_run(base: Path, run: int) -> dict[str, float]:
    figures: dict[str, float] = {}
    with Store.open(base / f"local-{run}") as local:
        local.upsert_responses([response(9, "warm")])
        figures["local one"] = timed(lambda: local.upsert_responses([response(0, "l1")]))
        page = [response(n, "l2") for n in range(1000)]
        figures["local page"] = timed(lambda: local.upsert_responses(page))
    shared_dir = base / f"shared-{run}"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(shared_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
    try:
        asyncio.run(handed(shared_dir, figures))
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(30)
    record = PaidCallRecord(base / f"record-{run}")
    entry = {"route": "create_request", "kind": "request", "ids": ["x"], "answer": response(0, "p")}
    record.append(entry)  # the file exists, as it does after the first paid call
    figures["record line"] = timed(lambda: record.append(entry))
    return figures


def main(argv: list[str]) -> int:
    runs = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--runs=")), 5)
    samples: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-shared-") as tmp:
        for run in range(runs):
            for name, value in one_run(Path(tmp), run).items():
                samples.setdefault(name, []).append(value)
    med = {name: statistics.median(values) for name, values in samples.items()}
    ms = {name: value * 1000 for name, value in med.items()}
    print(
        f"one response handed to the holder: {ms['handed one']:.1f} ms "
        f"(written by the holder itself: {ms['local one']:.1f} ms, "
        f"x{med['handed one'] / med['local one']:.1f}) (info)"
    )
    print(
        f"a page of 1,000 responses handed over: {ms['handed page']:.0f} ms "
        f"(written locally: {ms['local page']:.0f} ms, "
        f"x{med['handed page'] / med['local page']:.2f}) (info)"
    )
    ok = ms["record line"] < 20
    print(
        f"one line of the record of paid calls: {ms['record line']:.2f} ms "
        f"(target < 20 ms: {'met' if ok else 'MISSED'})"
    )
    print(f"medians of {runs} runs")
    return 0 if ok else 1

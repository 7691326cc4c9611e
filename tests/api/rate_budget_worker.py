"""One process of the two-process rate-budget test (test_api_rate_budget_processes.py).

Reads the settings from the environment like any command, prints "ready", waits for a line on
stdin (so that both processes start together), makes ``calls`` calls of a limited route with
``concurrency`` tasks and prints one JSON line: attempts made, 429s received, the ledger file.
"""

from __future__ import annotations

import asyncio
import json
import sys

from lawsuit_tui.api.client import ApiClient, ClientConfig
from lawsuit_tui.api.ledger import FileRateLedger
from lawsuit_tui.config import load_settings


async def run(calls: int, concurrency: int) -> dict[str, object]:
    config = ClientConfig.from_settings(load_settings())
    api = ApiClient(config)
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    todo = iter(range(calls))
    done = 0

    async def worker() -> None:
        nonlocal done
        for _ in todo:
            await api.list_requests(1, 20)
            done += 1

    async with api:
        await asyncio.gather(*(worker() for _ in range(concurrency)))
    ledger = api.limiter.ledger
    return {
        "done": done,
        "attempts": api.stats.calls,
        "rate_limited": api.stats.rate_limited,
        "ledger": str(ledger.path) if isinstance(ledger, FileRateLedger) else None,
        "ledger_problem": api.limiter.ledger_problem,
    }


if __name__ == "__main__":
    result = asyncio.run(run(int(sys.argv[1]), int(sys.argv[2])))
    print(json.dumps(result), flush=True)

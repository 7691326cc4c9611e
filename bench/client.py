"""Benchmark of the client and the sync (issue 4), over the in-process sandbox.

The sandbox's clock runs ``--speed`` times real time (default 30: its 60 s rate window takes
2 s) and the client's rate limiter reads that same clock, so both sides agree on the window.
The sandbox holds 20,000 responses (a few real ones from requests, the rest copies with their
own ids: one in twenty a lawsuit, the others application errors).

Figures:
- sync of 20,000 responses with page_size 1000 (the default): calls made, 429s received,
  share of the allowance used (calls in the busiest sliding window / the limit), time;
- 200 pages of 5 small responses read through the client alone (no cache, sandbox at 10x):
  more calls than one window allows, so the limiter sets the pace: 429s (target 0) and the
  share of the allowance reached in the busiest window (target >= 90%);
- time to parse one 1000-item responses page into models (lawsuit-heavy page), against the
  raw JSON parse used by the sync.

Options: --quick (2,000 responses), --speed=N.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from bench._fast_service import FastService
from lawsuit_tui.api.models import RawPage
from lawsuit_tui.config import Settings
from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.domain.responses import ResponsesPage
from lawsuit_tui.services.context import ServiceContext

LIMITED = {"create_request", "get_request", "list_requests", "list_responses", "list_trackings"}
LIMIT, WINDOW = 180, 60.0


def _line(label: str, value: str, target: str | None = None, met: bool | None = None) -> None:
    tail = ""
    if target is not None:
        tail = f"  (target {target}: {'met' if met else 'MISSED'})"
    print(f"{label:<54}{value}{tail}")


def busiest_window(times: list[float], window: float) -> int:
    """The largest number of calls inside any ``window`` seconds."""
    best, start = 0, 0
    ordered = sorted(times)
    for end, t in enumerate(ordered):
        while ordered[start] <= t - window:
            start += 1
        best = max(best, end - start + 1)
    return best


class Bench(FastService):
    """The fast sandbox with the service's own window, and its held responses multiplied."""

    def __init__(self, speed: float, cache_dir: Path) -> None:
        super().__init__(speed, Settings(cache_dir=cache_dir), limit=LIMIT, window=WINDOW)

    def held(self) -> list[dict[str, Any]]:
        return [orjson.loads(orjson.dumps(s.json)) for s in self.state.responses.get("sandbox", [])]

    def seed(self, total: int, *, lawsuits: bool = True) -> int:
        held = self.held()
        lawsuit_items = [r for r in held if r.get("response_type") == "lawsuit"] if lawsuits else []
        base = held[0]
        n = len(held)
        i = 0
        while n < total:
            if lawsuit_items and i % 20 == 0:
                item = dict(lawsuit_items[i % len(lawsuit_items)])
            else:
                item = {
                    **{k: base.get(k) for k in ("request_id", "origin", "origin_id", "user_id")},
                    "response_type": "application_error",
                    "response_data": {
                        "code": "CRAWLER_ERROR",
                        "message": "court down",
                        "details": f"copy {i}",
                    },
                    "cached": False,
                    "tags": {"cached_response": False},
                    "created_at": base.get("created_at"),
                }
            item["response_id"] = f"bench-{i:07d}"
            self.state.add_response("sandbox", item)
            n += 1
            i += 1
        return n


async def prepare(bench: Bench, ctx: ServiceContext) -> None:
    samples = bench.state.world.samples()
    keys = [("lawsuit_cnj", k) for k in samples["lawsuit_cnj"]] + [
        ("cpf", k) for k in samples["cpf"]
    ]
    for kind, key in keys:
        [record] = await ctx.requests.create(
            CreateRequestBody(search=SearchBody(search_type=kind, search_key=key))
        )
        async for _event in ctx.requests.follow(record.request_id):
            pass


async def timed_sync(bench: Bench, page_size: int, label: str) -> tuple[int, int, float]:
    with tempfile.TemporaryDirectory() as tmp:
        bench.settings = Settings(cache_dir=Path(tmp) / "cache")
        ctx = await bench.open()
        try:
            times: list[float] = []
            ctx.api.on_call(
                lambda route, _s: times.append(bench.now()) if route in LIMITED else None
            )
            ctx.sync.page_size = page_size
            started = time.perf_counter()
            report = await ctx.sync.sync()
            wall = time.perf_counter() - started
            stored = ctx.store.count_responses()
        finally:
            await ctx.aclose()
    share = busiest_window(times, WINDOW) / LIMIT
    _line(f"{label}: responses stored", f"{stored}")
    _line(f"{label}: calls made", f"{report.calls} ({report.pages} pages)")
    _line(f"{label}: 429s received", f"{report.rate_limited}", "0", report.rate_limited == 0)
    _line(f"{label}: share of the allowance used", f"{share:.0%} of {LIMIT} per {WINDOW:g} s")
    _line(f"{label}: time", f"{wall:.2f} s real ({wall * bench.speed:.0f} s sandbox)")
    return report.rate_limited, stored, share


async def paced_read(speed: float, calls: int) -> tuple[int, float]:
    """``calls`` pages of 5 small responses read through the client alone (no cache): more
    calls than one window allows, each cheap, so the limiter, not the CPU, sets the pace."""
    with tempfile.TemporaryDirectory() as tmp:
        bench = Bench(speed, Path(tmp) / "paced")
        ctx = await bench.open()
        try:
            samples = bench.state.world.samples()
            [record] = await ctx.requests.create(
                CreateRequestBody(
                    search=SearchBody(search_type="cpf", search_key=samples["cpf"][0])
                )
            )
            async for _event in ctx.requests.follow(record.request_id):
                pass
            bench.seed(calls * 5, lawsuits=False)
            times: list[float] = []
            ctx.api.on_call(
                lambda route, _s: times.append(bench.now()) if route in LIMITED else None
            )
            started = bench.now()
            read = 0
            async for page in ctx.api.iter_response_pages_raw(page_size=5):
                read += len(page.page_data)
            elapsed = bench.now() - started
            limited = ctx.api.stats.rate_limited + int(
                bench.state.stats.snapshot()["rate_limited_total"]
            )
        finally:
            await ctx.aclose()
    share = busiest_window(times, WINDOW) / LIMIT
    label = "paced read, page_size 5"
    _line(f"{label}: responses read", f"{read}")
    _line(f"{label}: calls made", f"{len(times)}")
    _line(f"{label}: 429s received", f"{limited}", "0", limited == 0)
    _line(f"{label}: time", f"{elapsed:.0f} s sandbox ({elapsed / speed:.1f} s real)")
    return limited, share


def held_small(held: list[dict[str, Any]], i: int) -> dict[str, Any]:
    base = held[0]
    return {
        **{k: base.get(k) for k in ("request_id", "origin", "origin_id", "user_id")},
        "response_type": "application_error",
        "response_data": {"code": "CRAWLER_ERROR", "message": "court down", "details": str(i)},
        "cached": False,
        "tags": {"cached_response": False},
        "created_at": base.get("created_at"),
    }


def parse_times(page: bytes, runs: int) -> tuple[float, float]:
    models, raw = [], []
    for _ in range(runs):
        t = time.perf_counter()
        ResponsesPage.model_validate_json(page)
        models.append(time.perf_counter() - t)
        t = time.perf_counter()
        RawPage.parse(page, id_field="response_id")
        raw.append(time.perf_counter() - t)
    return statistics.median(models), statistics.median(raw)


async def run(argv: list[str]) -> int:
    quick = "--quick" in argv
    speed = 30.0
    for arg in argv:
        if arg.startswith("--speed="):
            speed = float(arg.split("=", 1)[1])
    total = 2_000 if quick else 20_000
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        bench = Bench(speed, Path(tmp) / "prep")
        ctx = await bench.open()
        try:
            await prepare(bench, ctx)
        finally:
            await ctx.aclose()
        held = bench.held()
        lawsuit_items = [r for r in held if r.get("response_type") == "lawsuit"]
        bench.seed(total)
        _line("responses held by the sandbox", f"{len(bench.state.responses['sandbox'])}")

        limited, stored, _share = await timed_sync(bench, 1000, "sync, page_size 1000")
        if limited or stored != total:
            status = 1
        limited, share = await paced_read(10.0, 200)
        ok = limited == 0 and share >= 0.9
        _line("paced read: busiest window / allowance, no 429", f"{share:.0%}", ">= 90%", ok)
        if not ok:
            status = 1

    mixed_items = [
        {
            **(lawsuit_items[i % len(lawsuit_items)] if i % 20 == 0 else small),
            "response_id": f"m-{i}",
        }
        for i in range(1000)
        for small in [held_small(held, i)]
    ]
    for label, items in (
        (
            "page of 1000 lawsuit responses",
            [
                {**lawsuit_items[i % len(lawsuit_items)], "response_id": f"p-{i:05d}"}
                for i in range(1000)
            ],
        ),
        ("page of 1000 responses as synced (1 in 20 a lawsuit)", mixed_items),
    ):
        page = orjson.dumps(
            {
                "request_status": None,
                "page": 1,
                "page_count": 1000,
                "all_pages_count": 20,
                "all_count": 20_000,
                "page_data": items,
            }
        )
        model_s, raw_s = parse_times(page, 3 if quick else 5)
        _line(label, f"{len(page) / 1e6:.1f} MB")
        _line("  parsed into models (ResponsesPage)", f"{model_s * 1000:.0f} ms per page")
        _line("  parsed raw (RawPage, what the sync uses)", f"{raw_s * 1000:.0f} ms per page")
    return status


def main(argv: list[str]) -> int:
    return asyncio.run(run(argv))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Benchmark of the portfolio import (issue 16), over the in-process sandbox.

Figures:
- **preview of 10,000 rows**: a semicolon CSV in Windows-1252 (as a Brazilian Excel saves it) of
  10,000 distinct keys in mixed formatting plus invalid and repeated rows, read, every row
  checked (identifier and check digits, duplicates, tier), checked against a cache holding
  10,000 trackings, and the runs a month per tier computed; median of ``--runs`` runs (target
  under 2 s), with the ratio to a baseline taken in the same run: reading the same file with
  the standard library's ``csv`` alone. The same rows as an ``.xlsx`` sheet (no target).
- **creation of 10,000 trackings** in chunks of 100 (100 bulk calls) against a sandbox whose
  window allows 20 calls per 60 s, its clock at ``--speed`` times real time (the client's rate
  limiter reads the same clock): 429s received (target 0) and the share of the allowance used
  (the span a perfect pacer would need for the import's calls, the list read by the preview
  included, over the span they took; target at least 90%),
  with the busiest window's share beside it. Then the same 10,000 in chunks of 1000 (10 calls,
  well inside one window): the time the creation itself takes.

- **the look of every minute** at 10,000 trackings: the app reads the service's whole list
  every minute (the movement watch) and keeps it in the cache. Median of ``--runs`` refreshes
  of an unchanged list (``TrackingService.refresh``), the longest the event loop was held
  during one (a 5 ms ticker's worst lateness; target under 100 ms), and the ratio to the
  baseline taken in the same run: reading the list alone (``iter_trackings``). Beside it, the
  cost of writing every tracking again, as each look did before only the changed ones were
  written.

Options: --only=preview|creation|looks; --runs=N (default 5); --speed=N (default 6: the 60 s
window takes 10 s, so the window, not the CPU, sets the pace); --quick (2,000 rows, 2,000
trackings).
"""

from __future__ import annotations

import asyncio
import csv
import io
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import openpyxl

from bench._fast_service import FastService
from bench.client import _line, busiest_window
from lawsuit_tui.config import Settings
from lawsuit_tui.domain.identifiers import (
    format_cnj,
    format_cnpj,
    format_cpf,
    make_cnj,
    make_cnpj,
    make_cpf,
)
from lawsuit_tui.domain.portfolio import check_rows
from lawsuit_tui.domain.tiers import DEFAULT_TIERS, TIER_ALIASES
from lawsuit_tui.services.portfolio_files import decode_text, read_portfolio_file
from lawsuit_tui.store import Store

LIMIT, WINDOW = 20, 60.0
LIMITED = {"list_trackings", "create_trackings_bulk"}
TIERS = ["quente", "morno", "morno", "frio", ""]


def synthetic_keys(count: int, seed: int = 16) -> list[tuple[str, str]]:
    """``count`` distinct valid keys (display text, normalized), a third each CNJ, CPF, CNPJ."""
    r = random.Random(seed)
    seen: set[str] = set()
    keys: list[tuple[str, str]] = []
    while len(keys) < count:
        kind = len(keys) % 3
        if kind == 0:
            code = make_cnj(r.randint(1, 9_999_999), r.randint(2000, 2025), 8, 26, "0100")
            digits = "".join(ch for ch in code if ch.isdigit())
            text, normal = (format_cnj(digits) if r.random() < 0.6 else digits), code
        elif kind == 1:
            cpf = make_cpf(f"{r.randint(1, 999_999_999):09d}")
            text, normal = (format_cpf(cpf) if r.random() < 0.5 else cpf), cpf
        else:
            cnpj = make_cnpj(f"{r.randint(1, 99_999_999):08d}0001")
            text, normal = (format_cnpj(cnpj) if r.random() < 0.6 else cnpj), cnpj
        if normal not in seen:
            seen.add(normal)
            keys.append((text, normal))
    return keys


def portfolio_rows(count: int) -> list[list[str]]:
    r = random.Random(7)
    keys = synthetic_keys(count)
    rows = [[text, r.choice(TIERS), r.choice(["", "vip", "cobrança|SP"]), ""] for text, _ in keys]
    for n in range(count // 100):  # 1% wrong check digits
        text = rows[n * 97 % count][0]
        rows.append([text[:-1] + str((int(text[-1]) + 1) % 10), "", "", ""])
    for n in range(count // 100):  # 1% repeated
        rows.append([keys[n * 89 % count][1], "frio", "", ""])
    r.shuffle(rows)
    return [["CPF/CNPJ/Processo", "Nível", "Etiquetas", "Nome"], *rows]


def write_csv(path: Path, rows: list[list[str]]) -> None:
    path.write_bytes("\r\n".join(";".join(row) for row in rows).encode("cp1252"))


def write_xlsx(path: Path, rows: list[list[str]]) -> None:
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet()
    for row in rows:
        sheet.append(row)
    book.save(path)


def seed_cache(directory: Path, count: int) -> None:
    """A cache holding ``count`` trackings (of other keys), as a portfolio's cache would."""
    records = [
        {
            "tracking_id": f"t-{n:06d}",
            "status": "updated",
            "recurrence": 7,
            "search": {"search_type": "cpf", "search_key": make_cpf(f"{n + 1:09d}")},
            "tags": {"tier": "warm"},
            "created_at": "2026-11-20T12:00:00.000Z",
        }
        for n in range(count)
    ]
    with Store.open(directory) as store:
        store.upsert_trackings(records)


def preview_once(path: Path, store: Store) -> tuple[float, int]:
    from lawsuit_tui.domain.portfolio import TierChoice, key_identity

    choice = TierChoice({t.name: t for t in DEFAULT_TIERS}, "warm", TIER_ALIASES)
    started = time.perf_counter()
    check = check_rows(read_portfolio_file(path), choice)
    tracked = set()
    for record in store.list_trackings():
        search = record.get("search") or {}
        tracked.add(key_identity(search.get("search_type", ""), search.get("search_key", "")))
    new = [row for row in check.valid if row.identity not in tracked]
    check.monthly_runs(new)
    return time.perf_counter() - started, len(check.rows)


def baseline_once(path: Path) -> float:
    started = time.perf_counter()
    list(csv.reader(io.StringIO(decode_text(path.read_bytes())), delimiter=";"))
    return time.perf_counter() - started


def previews(count: int, runs: int) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        rows = portfolio_rows(count)
        csv_path, xlsx_path = base / "carteira.csv", base / "carteira.xlsx"
        write_csv(csv_path, rows)
        write_xlsx(xlsx_path, rows)
        seed_cache(base / "cache", count)
        with Store.open(base / "cache", read_only=True) as store:
            preview_once(csv_path, store)  # warm: imports, schemas
            times, baselines, read = [], [], 0
            for _ in range(runs):
                seconds, read = preview_once(csv_path, store)
                times.append(seconds)
                baselines.append(baseline_once(csv_path))
            xlsx = [preview_once(xlsx_path, store)[0] for _ in range(max(1, runs // 2))]
    median, baseline = statistics.median(times), statistics.median(baselines)
    label = f"preview of {count:,} rows (CSV, cache of {count:,})"
    _line(f"{label}", f"{median:.2f} s median of {runs}", "< 2 s", median < 2.0)
    _line("  rows read and checked", f"{read:,}")
    _line("  baseline: csv module alone", f"{baseline * 1000:.0f} ms ({median / baseline:.0f}x)")
    _line(f"preview of {count:,} rows (.xlsx)", f"{statistics.median(xlsx):.2f} s median")
    return median < 2.0


def fast_service(speed: float, cache_dir: Path) -> FastService:
    """The sandbox on a fast clock with a small window (bulk creation is paced by it), and a
    cache of this process alone."""
    settings = Settings(cache_dir=cache_dir, rate_limit={"shared": False})
    return FastService(speed, settings, limit=LIMIT, window=WINDOW)


async def creation(count: int, chunk: int, speed: float) -> dict[str, Any]:
    rows = portfolio_rows(count)
    with tempfile.TemporaryDirectory() as tmp:
        service = fast_service(speed, Path(tmp) / "cache")
        ctx = await service.open()
        try:
            importer = ctx.portfolio_importer(chunk_size=chunk)
            check = check_rows(rows, importer.tiers)
            # Every call of the import that takes a slot: the list the preview reads, then
            # the bulk calls.
            times: list[float] = []
            ctx.api.on_call(
                lambda route, _s: times.append(service.now()) if route in LIMITED else None
            )
            plan = await importer.plan(check)
            started = time.perf_counter()
            outcome = await importer.run(plan)
            wall = time.perf_counter() - started
            limited = ctx.api.stats.rate_limited + int(
                service.state.stats.snapshot()["rate_limited_total"]
            )
            made = service.state.stats.snapshot()["tracking_creations"]["created"]
        finally:
            await ctx.aclose()
            await service.state.aclose()
    calls = len(times)
    span = max(times) - min(times) if calls > 1 else 0.0
    ideal = ((calls - 1) // LIMIT) * WINDOW
    return {
        "created": len(outcome.created),
        "made": made,
        "calls": calls,
        "limited": limited,
        "share": ideal / span if span else 1.0,
        "busiest": busiest_window(times, WINDOW) / LIMIT,
        "span": span,
        "wall": wall,
    }


def creations(count: int, speed: float) -> bool:
    paced = asyncio.run(creation(count, 100, speed))
    label = f"creation of {count:,} trackings, chunks of 100"
    _line(label, f"{paced['created']:,} created ({paced['made']:,} at the sandbox)")
    _line("  calls in the window", f"{paced['calls']} ({LIMIT} allowed per {WINDOW:g} s)")
    ok_429 = paced["limited"] == 0
    _line("  429s received", f"{paced['limited']}", "0", ok_429)
    ok_share = paced["share"] >= 0.9
    _line("  share of the allowance used", f"{paced['share']:.0%}", ">= 90%", ok_share)
    _line("  busiest window", f"{paced['busiest']:.0%} of {LIMIT} calls")
    _line(
        "  time",
        f"{paced['span']:.0f} s sandbox between first and last call; {paced['wall']:.1f} s real",
    )
    whole = asyncio.run(creation(count, 1000, speed))
    _line(
        f"creation of {count:,} trackings, chunks of 1000",
        f"{whole['calls']} calls, {whole['limited']} x 429, {whole['wall']:.2f} s real",
    )
    return ok_429 and ok_share and whole["limited"] == 0


async def _held(task: Any) -> tuple[Any, float]:
    """``task``'s result and the longest the event loop was held meanwhile (a ticker's worst
    lateness)."""
    worst = 0.0
    done = False

    async def tick() -> None:
        nonlocal worst
        while not done:
            before = time.perf_counter()
            await asyncio.sleep(0.005)
            worst = max(worst, time.perf_counter() - before - 0.005)

    ticker = asyncio.create_task(tick())
    try:
        result = await task
    finally:
        done = True
        await ticker
    return result, worst


async def looks(count: int, runs: int) -> dict[str, float]:
    rows = portfolio_rows(count)
    with tempfile.TemporaryDirectory() as tmp:
        service = fast_service(1000.0, Path(tmp) / "cache")
        ctx = await service.open()
        try:
            importer = ctx.portfolio_importer(chunk_size=1000)
            await importer.run(await importer.plan(check_rows(rows, importer.tiers)))
            await ctx.trackings.refresh()  # the cache holds the list as the service has it
            reads, refreshes, held = [], [], []
            for _ in range(runs):
                started = time.perf_counter()
                found = [t async for t in ctx.api.iter_trackings()]
                reads.append(time.perf_counter() - started)
                started = time.perf_counter()
                _, worst = await _held(ctx.trackings.refresh())
                refreshes.append(time.perf_counter() - started)
                held.append(worst)
            started = time.perf_counter()
            await ctx.cache.upsert_trackings(t.to_json_dict() for t in found)
            rewrite = time.perf_counter() - started
        finally:
            await ctx.aclose()
            await service.state.aclose()
    return {
        "trackings": float(len(found)),
        "read": statistics.median(reads),
        "refresh": statistics.median(refreshes),
        "held": max(held),
        "rewrite": rewrite,
    }


def minute_looks(count: int, runs: int) -> bool:
    figures = asyncio.run(looks(count, runs))
    label = f"the look of every minute, {figures['trackings']:,.0f} trackings"
    ratio = figures["refresh"] / figures["read"]
    _line(label, f"{figures['refresh']:.2f} s median ({ratio:.2f}x reading the list alone)")
    ok = figures["held"] < 0.1
    _line("  event loop held at most", f"{figures['held'] * 1000:.0f} ms", "< 100 ms", ok)
    _line("  writing every tracking again (before)", f"{figures['rewrite']:.2f} s")
    return ok


def main(argv: list[str]) -> int:
    runs, speed, count = 5, 6.0, 10_000
    only: str | None = None
    for arg in argv:
        if arg.startswith("--runs="):
            runs = int(arg.split("=", 1)[1])
        elif arg.startswith("--speed="):
            speed = float(arg.split("=", 1)[1])
        elif arg.startswith("--only="):
            only = arg.split("=", 1)[1]
        elif arg == "--quick":
            count = 2_000
    cases = {
        "preview": lambda: previews(count, runs),
        "creation": lambda: creations(count, speed),
        "looks": lambda: minute_looks(count, runs),
    }
    ok = True
    for name, case in cases.items():
        if only is None or only == name:
            ok = case() and ok
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

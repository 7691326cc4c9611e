"""Benchmark of the local cache against the targets of issue 5.

Builds a cache of 50,000 responses and 20,000 lawsuits (a lawsuit about 3 KB with steps,
parties, lawyers and attachments; every response of type lawsuit carries one) in a temporary
directory, then measures, as the median of several runs:

- open and ready: Store.open() until the first answer (target < 1.5 s)
- a lawsuit by code, and the responses of a request (target < 1 ms each)
- one upsert durable: upsert_responses() of one lawsuit response, journal fdatasynced
  (target < 20 ms)
- a batch of 1,000 upserts durable (target < 0.5 s)
- resident memory of a fresh process holding the open cache, against the data on disk
  (target < 3x); bodies are held packed (zlib, see lawsuit_tui/store/codec.py)
- (info) a lookup's 193 lawsuits as one durable batch against one durable write each

Options: --quick (a tenth of the size, for a smoke run), --runs=N (default 5).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from lawsuit_tui.store import Store

LAWSUITS = 20_000
RESPONSES = 50_000
REQUESTS = 5_000

WORDS = [
    "juntada",
    "de",
    "peticao",
    "intermediaria",
    "conclusos",
    "para",
    "despacho",
    "decisao",
    "interlocutoria",
    "publicado",
    "no",
    "diario",
    "de",
    "justica",
    "eletronico",
    "certidao",
    "de",
    "decurso",
    "de",
    "prazo",
    "expedicao",
    "de",
    "mandado",
    "de",
    "citacao",
    "audiencia",
    "de",
    "conciliacao",
    "designada",
    "sentenca",
    "de",
    "procedencia",
]


def lawsuit(n: int, version: int, rng: random.Random) -> dict[str, Any]:
    code = f"{n:07d}-{n % 97:02d}.2024.8.26.{n % 10000:04d}"
    steps = [
        {
            "step_id": f"{n}-{j}",
            "lawsuit_cnj": code,
            "lawsuit_instance": 1,
            "step_date": f"2025-{1 + j % 12:02d}-{1 + j % 28:02d}T10:00:00Z",
            "step_type": "movement",
            "content": " ".join(rng.choice(WORDS) for _ in range(10)),
            "private": False,
            "tags": {},
        }
        for j in range(6 + version)
    ]
    parties = [
        {
            "name": f"PARTE {n} {side.upper()}",
            "side": side,
            "person_type": "Autor" if side == "Active" else "Reu",
            "entity_type": "person",
            "main_document": f"{(n * 7919 + k) % 10**11:011d}",
            "documents": [{"document": f"{(n * 7919 + k) % 10**11:011d}", "document_type": "cpf"}],
            "lawyers": [
                {
                    "name": f"ADVOGADO {n % 500}",
                    "main_document": f"{n % 500:06d}SP",
                    "documents": [{"document": f"{n % 500:06d}SP", "document_type": "oab"}],
                }
            ],
        }
        for k, side in enumerate(("Active", "Passive"))
    ]
    return {
        "code": code,
        "instance": 1,
        "name": "Procedimento Comum Civel",
        "tribunal_acronym": "TJSP",
        "justice": "8",
        "tribunal": "26",
        "county": "Sao Paulo",
        "state": "SP",
        "judge": "Juiz de Direito",
        "status": "Ativo",
        "area": "Civel",
        "distribution_date": "2024-03-01T00:00:00Z",
        "updated_at": f"2025-12-{1 + version:02d}T00:00:00Z",
        "amount": 1000.0 + n,
        "crawler": {"source_name": "TJSP", "crawl_id": f"c{n}-{version}", "weight": 1},
        "classifications": [{"code": "7", "name": "Procedimento Comum Civel"}],
        "subjects": [{"code": "10433", "name": "Indenizacao por Dano Moral"}],
        "parties": parties,
        "steps": steps,
        "last_step": {**steps[-1], "steps_count": len(steps)},
        "attachments": [
            {
                "attachment_id": f"{n}-a{j}",
                "attachment_name": f"peca-{j}.pdf",
                "step_id": f"{n}-{j}",
            }
            for j in range(2 + version)
        ],
        "tags": {"possible_homonym": False},
    }


def response(i: int, rng: random.Random) -> dict[str, Any]:
    n = i % LAWSUITS
    version = i // LAWSUITS  # 0, 1, 2: later responses of the same lawsuit are newer
    return {
        "response_id": f"resp-{i:06d}",
        "request_id": f"req-{i % REQUESTS:05d}",
        "response_type": "lawsuit",
        "response_data": lawsuit(n, version, rng),
        "created_at": f"2025-12-{1 + version:02d}T00:{i % 60:02d}:00Z",
        "request_created_at": "2025-12-01T00:00:00Z",
        "cached": version == 0,
        "tags": {"cached_response": version == 0, "dashboard_id": None},
        "origin": "api",
        "user_id": "u1",
    }


def disk_bytes(directory: Path) -> int:
    return sum(p.stat().st_size for p in directory.rglob("*") if p.is_file())


def report(name: str, value: float, unit: str, target: float) -> bool:
    met = value < target
    shown = f"{value:.3f}" if value < 10 else f"{value:.1f}"
    print(f"{name}: {shown} {unit} (target < {target:g} {unit}) {'met' if met else 'MISSED'}")
    return met


def median_time(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


PROBE = """
import sys, time, psutil
from pathlib import Path
from lawsuit_tui.store import Store
before = psutil.Process().memory_info().rss
start = time.perf_counter()
cpu = time.process_time()
store = Store.open(Path(sys.argv[1]), read_only=sys.argv[2] == "ro")
assert store.get_lawsuit(sys.argv[3]) and store.responses_of(sys.argv[4])
ready = time.perf_counter() - start
cpu = time.process_time() - cpu
after = psutil.Process().memory_info().rss
store.close()
print(before, after, ready, cpu)
"""


def probe(directory: Path, mode: str, code: str, request: str) -> tuple[int, int, float, float]:
    """Open the cache in a fresh process, as the app does at start."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(directory), mode, code, request],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return int(out[0]), int(out[1]), float(out[2]), float(out[3])


def raw_fdatasync_ms(directory: Path, runs: int = 20) -> float:
    """What the disk alone costs for one small durable append (the floor of any upsert)."""
    path = directory / "fdatasync-probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    times = []
    try:
        for _ in range(runs):
            t = time.perf_counter()
            os.write(fd, b"x" * 4096)
            os.fdatasync(fd)
            times.append(time.perf_counter() - t)
    finally:
        os.close(fd)
        path.unlink()
    return statistics.median(times) * 1000


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    runs = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--runs=")), 5)
    scale = 10 if quick else 1
    global LAWSUITS, REQUESTS
    n_responses = RESPONSES // scale
    LAWSUITS, REQUESTS = LAWSUITS // scale, REQUESTS // scale
    rng = random.Random(5)
    ok = True
    with tempfile.TemporaryDirectory(prefix="lawsuit-tui-bench-") as tmp:
        directory = Path(tmp) / "cache"
        start = time.perf_counter()
        batch_times = []
        with Store.open(directory) as store:
            for first in range(0, n_responses, 1000):
                records = [response(i, rng) for i in range(first, min(first + 1000, n_responses))]
                t = time.perf_counter()
                store.upsert_responses(records)
                batch_times.append(time.perf_counter() - t)
            counts = store.stats()["counts"]
            t = time.perf_counter()
            store.checkpoint()
            checkpoint_all = time.perf_counter() - t
        built = time.perf_counter() - start
        size = disk_bytes(directory)
        sample = len(orjson.dumps(lawsuit(1, 0, rng)))
        print(
            f"built {counts['responses']} responses, {counts['lawsuits']} lawsuits "
            f"in {built:.1f} s; {size / 2**20:.1f} MB on disk; lawsuit ~{sample / 1024:.1f} KB"
        )
        print(f"(info) checkpoint of every shard: {checkpoint_all:.2f} s (in the background)")

        code, request = lawsuit(1, 0, rng)["code"], "req-00001"
        probes = [probe(directory, "rw", code, request) for _ in range(runs)]
        open_times = [p[2] for p in probes]
        ok &= report("open and ready (fresh process)", statistics.median(open_times), "s", 1.5)
        print(
            f"(info) open times: {', '.join(f'{t:.2f}' for t in open_times)} s; CPU time "
            f"{statistics.median(p[3] for p in probes):.2f} s (wall minus CPU: waiting for a "
            "core or the disk)"
        )
        with Store.open(directory) as store:
            codes = [lawsuit(n, 0, rng)["code"] for n in rng.sample(range(LAWSUITS), 200)]
            requests = [f"req-{n:05d}" for n in rng.sample(range(REQUESTS), 200)]

            def per_call(fn: Any, keys: list[str]) -> float:
                times = []
                for key in keys:
                    t = time.perf_counter()
                    result = fn(key)
                    times.append(time.perf_counter() - t)
                    assert result
                return statistics.median(times) * 1000

            ok &= report("lawsuit by code", per_call(store.get_lawsuit, codes), "ms", 1)
            ok &= report("responses of a request", per_call(store.responses_of, requests), "ms", 1)
            print(f"(info) responses per request: {n_responses // REQUESTS}")

            counter = iter(range(10**6, 2 * 10**6))

            def one() -> None:
                i = next(counter)
                store.upsert_responses([response(i, rng) | {"response_id": f"one-{i}"}])

            print(
                f"(info) raw fdatasync of a 4 KB append here: {raw_fdatasync_ms(Path(tmp)):.1f} ms"
            )
            ok &= report("one upsert durable", median_time(one, 50) * 1000, "ms", 20)

            looked_up = [lawsuit(n, 3, rng) for n in range(193)]
            t = time.perf_counter()
            for item in looked_up[:50]:
                store.upsert_lawsuit(item, provisional=True, source="one-by-one")
            singles = (time.perf_counter() - t) / 50 * 193
            t = time.perf_counter()
            store.upsert_lawsuits((item | {"name": "batch"}, True, "lookup") for item in looked_up)
            print(
                f"(info) a lookup of 193 lawsuits: one batch (upsert_lawsuits) "
                f"{(time.perf_counter() - t) * 1000:.0f} ms; one durable write each "
                f"{singles * 1000:.0f} ms (extrapolated from 50)"
            )

            batches = [
                [response(i, rng) | {"response_id": f"batch-{b}-{i}"} for i in range(1000)]
                for b in range(runs)
            ]
            batch_iter = iter(batches)
            cpu = time.process_time()
            ok &= report(
                "batch of 1,000 upserts durable",
                median_time(lambda: store.upsert_responses(next(batch_iter)), runs),
                "s",
                0.5,
            )
            print(f"(info) CPU time per batch: {(time.process_time() - cpu) / runs:.3f} s")
            ok &= report(
                "batch of 1,000 durable during a 50,000-response sync (checkpoints running)",
                statistics.median(batch_times),
                "s",
                0.5,
            )
        size = disk_bytes(directory)
        before, after, _ready, _cpu = probe(directory, "ro", code, request)
        print(
            f"(info) rss {after / 2**20:.0f} MB for {size / 2**20:.0f} MB on disk "
            f"(interpreter alone {before / 2**20:.0f} MB)"
        )
        ok &= report("resident memory / data on disk", after / size, "x", 3)
    return 0 if ok else 1

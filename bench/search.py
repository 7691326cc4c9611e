"""Benchmark of full-text search over the cache (issue 17's targets).

Builds the cache benchmark's 20,000 lawsuits (``bench/cache.py``: parties, lawyers, documents,
classes, 6+ steps of text each) in a temporary directory, then measures:

- the index built from scratch (``FullTextIndex.catch_up`` on an empty index: every lawsuit
  read from the cache and indexed), target < 60 s;
- a search, p50 and p95 over a mix of what people type (a name, a name cut short, a document
  as written and bare, a CNJ number, two words of a step, a word every lawsuit holds), target
  p95 < 100 ms; the baseline in the same run is the cache's own word scan
  (``store.lawsuits.search``, every record's folded text in memory), which finds less (no
  ranking, no step texts, no prefixes) and is quoted as a ratio;
- one lawsuit updated: a new version stored by the writer until the indexing thread has it,
  median and p95, target < 50 ms.

Options: --quick (a tenth of the lawsuits), --runs=N (index builds, default 3).
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from bench.cache import LAWSUITS, lawsuit
from lawsuit_tui.services.search import SearchService
from lawsuit_tui.store import Store
from lawsuit_tui.store.indexes.fulltext import INDEX_FILE, FullTextIndex


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def report(name: str, value: float, unit: str, target: float) -> bool:
    met = value < target
    print(f"{name}: {value:.1f} {unit} (target < {target:g} {unit}) {'met' if met else 'MISSED'}")
    return met


def queries(total: int, rng: random.Random) -> list[str]:
    picked = [rng.randrange(total) for _ in range(40)]
    made = []
    for n in picked:
        item = lawsuit(n, 0, rng)
        party = item["parties"][0]
        made += [
            party["name"].lower(),
            party["name"].split()[0][:4].lower() + " " + str(n)[:3],
            party["main_document"],
            f"{party['main_document'][:3]}.{party['main_document'][3:6]}",
            item["code"],
            "juntada peticao",
            "conclusos despacho " + str(n)[:2],
            "procedimento",
        ]
    return made


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    runs = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--runs=")), 3)
    total = LAWSUITS // (10 if quick else 1)
    rng = random.Random(17)
    ok = True
    with tempfile.TemporaryDirectory(prefix="lawsuit-tui-bench-search-") as tmp:
        directory = Path(tmp) / "cache"
        with Store.open(directory) as store:
            for first in range(0, total, 1000):
                store.upsert_lawsuits(
                    (lawsuit(n, 0, rng), False, "bench")
                    for n in range(first, min(first + 1000, total))
                )
            stamps = store.lawsuits.stamps()
            print(f"cache of {len(stamps)} lawsuits")

            builds = []
            for _ in range(runs):
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{directory / INDEX_FILE}{suffix}").unlink(missing_ok=True)
                index = FullTextIndex.open(directory)
                start = time.perf_counter()
                index.catch_up(stamps, store.lawsuits.by_key)
                builds.append(time.perf_counter() - start)
                index.close()
            size = (directory / INDEX_FILE).stat().st_size
            print(
                f"(info) builds: {', '.join(f'{b:.1f}' for b in builds)} s; {size / 2**20:.0f} MB"
            )
            ok &= report("index built from scratch", statistics.median(builds), "s", 60)

            service = SearchService(store)
            service.search_now("warm up")
            typed = queries(total, rng)
            times, baseline = [], []
            found = 0
            for text in typed:
                t = time.perf_counter()
                found += bool(service.search_now(text, 20))
                times.append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                store.lawsuits.search(text, 20)
                baseline.append((time.perf_counter() - t) * 1000)
            p50, p95 = statistics.median(times), percentile(times, 0.95)
            b50, b95 = statistics.median(baseline), percentile(baseline, 0.95)
            print(
                f"(info) {len(typed)} searches, {found} with results; p50 {p50:.1f} ms; "
                f"baseline word scan p50 {b50:.1f} ms, p95 {b95:.1f} ms "
                f"(ratio p95 {p95 / b95:.2f})"
            )
            ok &= report("search p95", p95, "ms", 100)

            updates = []
            for n in rng.sample(range(total), 40):
                newer = lawsuit(n, 1, rng)
                start = time.perf_counter()
                store.lawsuits.upsert(newer, provisional=False)
                assert service.wait_idle()
                updates.append((time.perf_counter() - start) * 1000)
            print(
                f"(info) one lawsuit stored and indexed: median {statistics.median(updates):.1f}"
                f" ms, p95 {percentile(updates, 0.95):.1f} ms (the durable store write included)"
            )
            ok &= report("one lawsuit updated (p95)", percentile(updates, 0.95), "ms", 50)
            service.close()
    return 0 if ok else 1

"""Child process for the cache tests: ``python tests/support/store_child.py MODE DIR [ARG]``.

writer-loop DIR START  write records START, START+1, ... forever; print "ack N" after each
                       write returns (it is durable then); a checkpoint follows every write, so
                       most kills land in the middle of shard rewrites.
try-lock DIR           try to open for writing; print "locked: <message>" or "opened".
write DIR N            open, write requests w0..wN-1, print "done", wait for stdin to close.
datalake DIR           keep datalake answers q0, q1, ... forever; print "ack N" after each.
"""

from __future__ import annotations

import sys
from pathlib import Path

from lawsuit_tui.store import CacheLocked, Store


def record(i: int) -> dict[str, object]:
    lawsuit = {
        "code": f"{i:07d}-00.2024.8.26.0100",
        "instance": 1,
        "steps": [{"step_id": f"{i}-{j}", "content": "x" * 200} for j in range(8)],
        "parties": [{"name": f"PARTE {i}", "main_document": f"{i:011d}"}],
    }
    return {
        "response_id": f"resp-{i}",
        "request_id": f"req-{i % 7}",
        "response_type": "lawsuit",
        "created_at": f"2026-01-01T00:00:{i % 60:02d}Z",
        "tags": {"cached_response": i % 3 == 0},
        "response_data": lawsuit,
    }


def main(argv: list[str]) -> int:
    mode, directory = argv[0], Path(argv[1])
    if mode == "writer-loop":
        i = int(argv[2])
        store = Store.open(directory, checkpoint_bytes=16 * 1024)
        while True:
            if i % 2:
                store.upsert_responses([record(i)])
            else:
                store.upsert_responses([record(i), record(i + 100_000)])
            store.set_meta("last", i)
            print(f"ack {i}", flush=True)
            store.checkpoint()  # most of the loop's time: kills land in shard rewrites
            i += 1
    if mode == "try-lock":
        try:
            store = Store.open(directory)
        except CacheLocked as exc:
            print(f"locked: {exc}", flush=True)
            return 0
        print("opened", flush=True)
        store.close()
        return 0
    if mode == "write":
        with Store.open(directory) as store:
            store.upsert_requests([{"request_id": f"w{i}"} for i in range(int(argv[2]))])
            print("done", flush=True)
            sys.stdin.read()
        return 0
    if mode == "datalake":
        from datetime import UTC, datetime

        store = Store.open(directory, checkpoint_bytes=16 * 1024)
        i = 0
        while True:
            store.datalake.put(
                "count",
                f"q{i}",
                document="52998224725",
                query={"search": {"search_key": "52998224725", "n": i}},
                answer={"total": i},
                fetched_at=datetime(2026, 1, 1, tzinfo=UTC),
            )
            print(f"ack {i}", flush=True)
            i += 1
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

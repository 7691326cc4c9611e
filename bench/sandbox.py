"""Sandbox figures: start time, resident memory of the default world, calls per second.

``uv run python -m bench sandbox``. Start and memory are measured in fresh subprocesses so
imports and the world are cold; calls per second over loopback against ``lawsuit-tui sandbox
serve --port 0`` (uvicorn in a subprocess).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import Any

import httpx

START_TARGET_S = 1.0
MEMORY_TARGET_MB = 150.0

_START_PROBE = """
import json, time
t0 = time.perf_counter()
from lawsuit_tui.sandbox.app import create_app
t1 = time.perf_counter()
app = create_app()
t2 = time.perf_counter()
app.state.sandbox.world
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "create": t2 - t1, "world": t3 - t2}))
"""

_MEMORY_PROBE = """
import json, psutil
from lawsuit_tui.sandbox.app import create_app
app = create_app()
state = app.state.sandbox
world = state.world
keys = world.lawsuit_keys()
share = keys[:: max(1, len(keys) // 200)]  # about 200 instances across the world
now = state.clock.now()
for code, instance in share:
    world.court_view(code, instance, now)
    world.stored_view(code, instance)
print(json.dumps({"rss_mb": psutil.Process().memory_info().rss / 2**20, "touched": len(share),
                  "lawsuits": len(keys)}))
"""


def _probe(code: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _line(label: str, value: str, target: str | None = None, met: bool | None = None) -> None:
    tail = ""
    if target is not None:
        tail = f"  (target {target}: {'met' if met else 'MISSED'})"
    print(f"{label:<44}{value}{tail}")


def _rate(client: httpx.Client, call: Any, seconds: float = 3.0) -> tuple[float, int]:
    count = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        answer = call(client)
        answer.raise_for_status()
        count += 1
    return count / (time.perf_counter() - start), count


def main(argv: list[str]) -> int:
    status = 0
    start = _probe(_START_PROBE)
    startup = start["import"] + start["create"]
    _line("import of the sandbox app", f"{start['import']:.3f} s")
    _line("create_app()", f"{start['create']:.3f} s")
    _line(
        "in-process start (import + create_app)",
        f"{startup:.3f} s",
        "< 1 s",
        startup < START_TARGET_S,
    )
    _line(
        "world build (lazy, on first use)",
        f"{start['world']:.3f} s",
        "< 0.5 s",
        start["world"] < 0.5,
    )
    if startup >= START_TARGET_S:
        status = 1

    memory = _probe(_MEMORY_PROBE)
    rss = float(memory["rss_mb"])
    _line(
        f"resident memory ({memory['touched']} of {memory['lawsuits']} instances touched)",
        f"{rss:.1f} MB",
        "< 150 MB",
        rss < MEMORY_TARGET_MB,
    )
    if rss >= MEMORY_TARGET_MB:
        status = 1

    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "lawsuit_tui",
            "sandbox",
            "serve",
            "--port",
            "0",
            "--rate-limit",
            "100000/60",
            "--datalake-rate-limit",
            "100000/60",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        root = server.stdout.readline().strip()
        with httpx.Client(base_url=root, headers={"api-key": "sandbox"}, timeout=60) as client:
            samples = client.get("/_sandbox/samples").json()
            cnj = samples["two_instance_lawsuit"]
            lookup = {"search": {"search_type": "lawsuit_cnj", "search_key": cnj}}
            rate, n = _rate(client, lambda c: c.post("/lawsuits/lawsuits", json=lookup))
            _line("lookup calls per second (loopback)", f"{rate:.0f}/s over {n} calls")
            # fill the responses with more than 1000 items
            for doc in (samples["busy_person"], samples["busy_firm_oab"], *samples["oab"]) * 2:
                kind = "oab" if doc[-2:].isalpha() else "cpf"
                client.post(
                    "/requests/requests",
                    json={"search": {"search_type": kind, "search_key": doc, "on_demand": True}},
                ).raise_for_status()
            # the clock route answers once what fell due has been computed
            client.post("/_sandbox/clock", json={"advance_seconds": 5}).raise_for_status()
            page = client.get("/requests/responses", params={"page_size": 1000}).json()
            size = page["page_count"]
            body_bytes = len(client.get("/requests/responses", params={"page_size": 1000}).content)
            rate, n = _rate(
                client, lambda c: c.get("/requests/responses", params={"page_size": 1000})
            )
            _line(
                f"responses page of {size} items ({body_bytes / 2**20:.1f} MB)",
                f"{rate:.1f}/s over {n} calls",
            )
    finally:
        server.terminate()
        server.wait(timeout=15)
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Run lawsuit-tui while logging how late its event loop answers, to find frames blocked.

Used by ``bench tui`` for the scale cases (issue 9: "no frame blocked for more than 100 ms
by any single call"). A thread asks the app's event loop, every ``INTERVAL``, to run a
callback (``call_soon_threadsafe``) and the callback notes how long it waited: while a call
holds the loop (or a worker holds the interpreter), every probe sent waits, and the longest
wait is the longest stall. Waits of 20 ms or more are written as ``<time.monotonic() when
sent> <seconds waited>`` lines to the file named by ``BENCH_TUI_LAG_LOG`` (the clock is the
system's, so the harness can tell which of its steps a stall fell in).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from typing import Any

from _tui_importlog import run_app  # a sibling: this file runs as a script

INTERVAL = 0.01
NOTED = 0.02


def install(path: str) -> None:
    log = open(path, "w", buffering=1, encoding="utf-8")  # noqa: SIM115 - lives as long as the app
    loops: list[asyncio.AbstractEventLoop] = []
    policy = asyncio.get_event_loop_policy()
    make = policy.new_event_loop

    def new_event_loop() -> asyncio.AbstractEventLoop:
        loop = make()
        loops.append(loop)
        return loop

    policy.new_event_loop = new_event_loop  # type: ignore[method-assign]

    def arrived(sent: float) -> None:
        waited = time.monotonic() - sent
        if waited >= NOTED:
            log.write(f"{sent:.6f} {waited:.6f}\n")

    def probe() -> None:
        while True:
            time.sleep(INTERVAL)
            if not loops or not loops[-1].is_running():
                continue
            try:
                loops[-1].call_soon_threadsafe(arrived, time.monotonic())
            except RuntimeError:  # the loop closed: the app is ending
                return

    threading.Thread(target=probe, name="bench-lag-probe", daemon=True).start()


def run(*_args: Any) -> int:
    install(os.environ["BENCH_TUI_LAG_LOG"])
    return run_app()


if __name__ == "__main__":
    raise SystemExit(run())

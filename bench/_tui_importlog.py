"""Run lawsuit-tui while logging every module it imports, in order, one name a line.

Used by ``bench tui`` to tell what the app imports before its first frame from what it
imports after: the harness notes the log's length when the ready marker shows. An audit hook
(not ``-X importtime``, whose stderr is where Textual draws) writes ``<time.monotonic()>
<module>`` lines to the file named by ``BENCH_TUI_IMPORT_LOG``, line-buffered.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def install(path: str) -> None:
    log = open(path, "w", buffering=1, encoding="utf-8")  # noqa: SIM115 - lives as long as the app
    seen = set(sys.modules)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "import" and args and isinstance(args[0], str) and args[0] not in seen:
            seen.add(args[0])
            log.write(f"{time.monotonic():.6f} {args[0]}\n")

    sys.addaudithook(hook)


def run_app() -> int:
    """lawsuit-tui itself, from the tree being measured (the working directory)."""
    if sys.path and os.path.abspath(sys.path[0]) == os.path.join(ROOT, "bench"):
        sys.path[0] = os.getcwd()  # the tree being measured (see bench tui --app-root)
    from lawsuit_tui.cli import main

    return main([])


def run() -> int:
    install(os.environ["BENCH_TUI_IMPORT_LOG"])
    return run_app()


if __name__ == "__main__":
    raise SystemExit(run())

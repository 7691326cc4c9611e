"""Run benchmarks by name: `uv run python -m bench cache sandbox` (every benchmark if none).

Each module bench/<name>.py defines ``main(argv: list[str]) -> int`` and prints one line per
figure: the figure, its target where there is one, and whether it is met.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def available() -> list[str]:
    here = Path(__file__).parent
    return sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))


def main(argv: list[str]) -> int:
    # Names come first; everything from the first option on goes to the benchmarks, so that
    # `python -m bench tui --runs 9` passes "9" along instead of taking it for a name.
    first_option = next((i for i, a in enumerate(argv) if a.startswith("-")), len(argv))
    names = argv[:first_option] or available()
    extra = argv[first_option:]
    unknown = [n for n in names if n not in available()]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(available())}")
        return 2
    status = 0
    for name in names:
        print(f"== {name}")
        module = importlib.import_module(f"bench.{name}")
        status |= int(module.main(extra))
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

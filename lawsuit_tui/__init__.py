"""lawsuit-tui: a terminal workstation for a Brazilian court lawsuit data service."""

import sys

__version__ = "0.1.0"

# httpx imports its command-line client when it is imported and click and pygments are
# installed (they are, through uvicorn): 6 MiB and about 55 ms in a process that never runs
# it. A None entry makes that import fail, and httpx takes its own fallback for a missing CLI.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

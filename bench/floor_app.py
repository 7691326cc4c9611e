"""The floor of the TUI benchmark: a minimal Textual app (Header, a 20-row DataTable, Footer).

`bench tui` launches it as a script (``python bench/floor_app.py``) beside lawsuit-tui, with the
same harness in the same run, and reports lawsuit-tui's figures as ratios to it. Ready marker:
the text of the last row, ``floor row 20``. Through the bench runner (``python -m bench``) it
is not a benchmark of its own: ``main`` says so, and runs the app only with ``--run``.
"""

from __future__ import annotations

import sys
from typing import ClassVar

READY_MARKER = "floor row 20"
PALETTE_MARKER = "Search for commands"


def build_app() -> object:
    from textual.app import App, ComposeResult
    from textual.widgets import DataTable, Footer, Header

    class FloorApp(App[None]):
        TITLE = "floor"
        BINDINGS: ClassVar = [("ctrl+q", "quit", "Quit")]

        def compose(self) -> ComposeResult:
            yield Header()
            yield DataTable(cursor_type="row")
            yield Footer()

        def on_mount(self) -> None:
            table: DataTable[str] = self.query_one(DataTable)
            table.add_columns("number", "name", "value")
            for n in range(1, 21):
                table.add_row(str(n), f"floor row {n}", f"{n * 1.5:.1f}")
            table.focus()

    return FloorApp()


def run() -> int:
    app = build_app()
    app.run()  # type: ignore[attr-defined]
    return 0


def main(argv: list[str]) -> int:
    if "--run" in argv:
        return run()
    print("floor_app: the floor of `bench tui` (measured there); --run starts it")
    return 0


if __name__ == "__main__":
    raise SystemExit(run() if len(sys.argv) == 1 else main(sys.argv[1:]))

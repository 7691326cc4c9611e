"""Save SVG screenshots of the main screens into ``screenshots/``, from the app itself.

    uv run python scripts/export_screenshots.py [--size 120x40] [--out screenshots]

The app runs on the in-process sandbox with a frozen clock (the same harness as the UI
tests), in a temporary config and cache directory, so the pictures are the same on every
machine and never go stale: run this again after changing a screen.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

Shot = Callable[[Any, Any], Awaitable[None]]


def _size(text: str) -> tuple[int, int]:
    width, _sep, height = text.lower().partition("x")
    return int(width), int(height)


async def _shots(out: Path, size: tuple[int, int]) -> list[Path]:
    from textual.widgets import Input

    from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
    from lawsuit_tui.ui.lawsuit.screen import LawsuitTreeScreen
    from lawsuit_tui.ui.lawsuit.tree import LawsuitTree
    from lawsuit_tui.ui.requests.request_form import RequestFormScreen
    from lawsuit_tui.ui.requests.responses import ResponsesScreen
    from tests.support.ui_harness import Harness, ready, samples, settle, wait_for

    sample = samples()
    harness = Harness()
    app = harness.app
    saved: list[Path] = []
    async with app.run_test(size=size) as pilot:

        async def save(name: str) -> None:
            await settle(pilot)
            path = out / f"{name}.svg"
            app.save_screenshot(filename=path.name, path=str(out))
            saved.append(path)

        await ready(pilot)
        await save("lookup")

        app.screen.query_one("#search", Input).value = sample["cpf"][0]
        await pilot.press("enter")
        await save("lookup-results")

        await harness.advance(30 * 86_400.0)
        app.screen.query_one("#search", Input).value = sample["moving_lawsuit"]
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("enter")
        await wait_for(lambda: isinstance(app.screen, LawsuitTreeScreen), pilot.pause)
        await settle(pilot)
        tree = app.screen.query_one(LawsuitTree)
        for node in tree.root.children[:2]:
            node.expand()
        await settle(pilot)
        tree.root.children[0].children[0].expand()
        await save("lawsuit-tree")

        await pilot.press("r")  # fresh data: cached copy first, then the court's answer
        screen = app.screen
        assert isinstance(screen, LawsuitTreeScreen)
        await wait_for(lambda: screen.followed_request is None, pilot.pause)
        await save("lawsuit-fresh-steps-marked")

        await pilot.press("f3")
        await save("requests")
        await pilot.press("enter")
        await wait_for(lambda: isinstance(app.screen, ResponsesScreen), pilot.pause)
        responses = app.screen
        assert isinstance(responses, ResponsesScreen)
        await wait_for(lambda: responses.completed, pilot.pause)
        await settle(pilot)
        responses.table.move_cursor(row=len(responses.rows) - 1)
        await save("responses-provisional-replaced")

        context = await app.context()
        secret = sample["secret_lawsuit"]["code"]
        records = await context.requests.create(
            CreateRequestBody(search=SearchBody(search_type="lawsuit_cnj", search_key=secret))
        )
        app.open_request(records[0].request_id)
        await wait_for(
            lambda: isinstance(app.screen, ResponsesScreen) and app.screen is not responses,
            pilot.pause,
        )
        secret_screen = app.screen
        assert isinstance(secret_screen, ResponsesScreen)
        await wait_for(lambda: secret_screen.completed, pilot.pause)
        await save("responses-secrecy-explained")

        app.push_screen(RequestFormScreen())
        await wait_for(lambda: isinstance(app.screen, RequestFormScreen), pilot.pause)
        await save("request-form")

        await pilot.press("escape", "escape", "escape", "f2")
        await settle(pilot)
        await pilot.press("f1")
        await save("help")
    saved.extend(await _feature_shots(out, size))
    return saved


async def _feature_shots(out: Path, size: tuple[int, int]) -> list[Path]:
    """Trackings, the inbox, a dossier, the vault grid and a count: the scenarios the snapshot
    tests of those screens use too (``scripts/screenshot_scenarios.py``,
    ``scripts/inbox_scenarios.py``), each on a fresh sandbox (they build their own data)."""
    from scripts.inbox_scenarios import inbox_morning
    from scripts.screenshot_scenarios import (
        Scenario,
        count_accepted,
        login_with_two_factor,
        portfolio_import_preview,
        tracking_detail,
        trackings_list,
        vault_default,
    )
    from tests.support.ui_harness import ContextClockHarness, ready, run_dossier, samples, settle

    async def vault_register(_sandbox: ContextClockHarness, pilot: Any) -> None:
        await login_with_two_factor(pilot)

    def dossier_on(tab: str) -> Scenario:
        async def shot(_sandbox: ContextClockHarness, pilot: Any) -> None:
            await ready(pilot)
            await run_dossier(pilot, samples()["busy_person"])
            await pilot.press(tab)
            await settle(pilot)

        return shot

    shots: list[tuple[str, Scenario]] = [
        ("trackings", trackings_list),
        ("portfolio-import", portfolio_import_preview),
        ("tracking-detail", tracking_detail),
        ("vault", vault_default),
        ("vault-register", vault_register),
        ("count-result", count_accepted),
        ("inbox", inbox_morning),
        ("dossier-overview", dossier_on("1")),
        ("dossier-exposure", dossier_on("3")),
    ]
    saved: list[Path] = []
    for name, scenario in shots:
        sandbox = ContextClockHarness()
        app = sandbox.app
        async with app.run_test(size=size) as pilot:
            await scenario(sandbox, pilot)
            path = out / f"{name}.svg"
            app.save_screenshot(filename=path.name, path=str(out))
            saved.append(path)
    return saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=_size, default=(120, 40), help="WIDTHxHEIGHT")
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory(prefix="lawsuit-tui-shots-") as scratch:
        # A fresh config and cache: no developer setting or cached data in the pictures.
        os.environ["LAWSUIT_TUI_CONFIG"] = str(Path(scratch) / "config.toml")
        os.environ["LAWSUIT_TUI_CACHE_DIR"] = str(Path(scratch) / "cache")
        os.environ["LAWSUIT_TUI_LANGUAGE"] = "en"
        for name in list(os.environ):
            if name.upper().startswith("LAWSUIT_TUI_") and name.upper() not in (
                "LAWSUIT_TUI_CONFIG",
                "LAWSUIT_TUI_CACHE_DIR",
                "LAWSUIT_TUI_LANGUAGE",
            ):
                del os.environ[name]
        saved = asyncio.run(_shots(out, args.size))
    for path in saved:
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

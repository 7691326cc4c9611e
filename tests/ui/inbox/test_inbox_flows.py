"""The inbox by keyboard: search and filters, Enter to the lawsuit at its new steps, marks,
export, one tracking's movements (Pilot, on the in-process sandbox)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from textual.widgets import Input, Select

from lawsuit_tui.domain.inbox import InboxFilter
from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.inbox.dialogs import InboxExportDialog, InboxFilterDialog
from lawsuit_tui.ui.inbox.screen import InboxScreen
from lawsuit_tui.ui.lawsuit.screen import LawsuitTreeScreen
from lawsuit_tui.ui.lawsuit.tree import LawsuitTree, StepItem
from scripts.inbox_scenarios import a_morning, open_inbox
from tests.support.store_data import make_movement
from tests.support.ui_harness import ContextClockHarness, screen_on_top, settle, type_text, wait_for

TIERS = ("hot", "warm", "cold")
COURTS = ("TJSP", "TJRJ", "TRT2")
STEPS = (
    ("Sentença", "SENTENÇA - Julgo procedente o pedido."),
    ("Mandado", "Expedição de mandado de penhora e avaliação"),
    ("Conclusão", "Conclusos para decisão"),
)


def movements(count: int, **extra: Any) -> list[dict[str, Any]]:
    """``count`` movements, newest first one minute apart, tiers, courts and steps in turn."""
    made = []
    for n in range(count):
        step = STEPS[n % len(STEPS)]
        made.append(
            make_movement(
                f"m{n:05d}",
                tracking_id=f"trk-{n % 4}",
                received_at=f"2026-11-20T{(n // 60) % 24:02d}:{n % 60:02d}:00.000Z",
                tier=TIERS[n % len(TIERS)],
                court=COURTS[n % len(COURTS)],
                code=f"{n:07d}-00.2024.8.26.0100",
                steps=[step],
                terms=["sentença"] if step[0] == "Sentença" else [],
                **extra,
            )
        )
    return made


async def inbox_with(pilot: Any, rows: list[dict[str, Any]]) -> InboxScreen:
    app: Any = pilot.app
    await wait_for(lambda: app.services is not None, pilot.pause)
    context = await app.context()
    context.store.inbox.add(rows)
    return await open_inbox(pilot)


async def test_search_as_you_type_filters_and_unread() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        screen = await inbox_with(pilot, movements(300))
        listed = screen.movement_list
        assert len(listed.ids) == 300 and listed.ids[0] == "m00299"  # newest first
        await pilot.press("slash")
        await type_text(pilot, "PENHORA")  # the step text says "penhora": case ignored
        await settle(pilot)
        assert len(listed.ids) == 100
        assert all(int(i[1:]) % 3 == 1 for i in listed.ids)
        await pilot.press("enter")  # back to the list
        assert listed.has_focus
        await pilot.press("x")  # clears
        await settle(pilot)
        assert len(listed.ids) == 300
        assert screen.query_one("#inbox-search", Input).value == ""

        await pilot.press("f")
        dialog = await screen_on_top(pilot, InboxFilterDialog)
        dialog.query_one("#if-tier", Select).value = "warm"
        dialog.query_one("#if-court", Select).value = "TJRJ"
        await pilot.press("f10")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)
        await settle(pilot)
        # warm is n % 3 == 1 and TJRJ is n % 3 == 1: the same hundred
        assert len(listed.ids) == 100
        summary = str(screen.query_one("#inbox-summary").render())
        assert "100 of 300 movements" in summary and "warm" in summary and "TJRJ" in summary

        await pilot.press("r")  # the highlighted one is read
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        assert len(listed.ids) == 99
        assert "299 unread" in str(pilot.app.status_snapshot.unread) or (
            pilot.app.status_snapshot.unread == 299
        )


async def test_enter_opens_the_lawsuit_at_its_new_steps_and_marks_it_read() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(120, 40)) as pilot:
        context = await a_morning(sandbox, pilot, count=4)
        screen = await open_inbox(pilot)
        listed = screen.movement_list
        assert listed.ids
        first = listed.ids[0]
        movement = context.inbox.get(first)
        assert movement is not None and movement.unread and movement.steps
        before = pilot.app.status_snapshot.unread
        await pilot.press("enter")
        lawsuit = await screen_on_top(pilot, LawsuitTreeScreen)
        assert lawsuit.movement_steps == tuple(movement.step_ids)
        tree = lawsuit.query_one(LawsuitTree)

        def on_a_new_step() -> bool:
            data = tree.cursor_data()
            return isinstance(data, StepItem) and data.step.step_id == movement.step_ids[0]

        await wait_for(on_a_new_step, pilot.pause)
        assert tree.cursor_data().new  # type: ignore[union-attr]
        read = context.inbox.get(first)
        assert read is not None and not read.unread
        await settle(pilot)
        assert pilot.app.status_snapshot.unread == before - 1
        await pilot.press("escape")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)


async def test_mark_read_the_selection_and_all_shown() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        screen = await inbox_with(pilot, movements(120))
        context = await pilot.app.context()
        listed = screen.movement_list
        await pilot.press("space", "space", "space")
        assert len(listed.selection) == 3
        await pilot.press("r")
        await settle(pilot)
        assert context.inbox.unread_count() == 117
        assert listed.selection == set()
        await pilot.press("a")  # every movement shown
        assert len(listed.selection) == 120
        await pilot.press("r")
        await wait_for(lambda: isinstance(pilot.app.screen, ConfirmScreen), pilot.pause)
        await pilot.press("y")
        await wait_for(lambda: context.inbox.unread_count() == 0, pilot.pause)
        await settle(pilot)
        assert pilot.app.status_snapshot.unread == 0
        await pilot.press("home", "R")  # the top one unread again
        await settle(pilot)
        assert context.inbox.select(InboxFilter(unread=True)) == [listed.ids[0]]


async def test_export_the_shown_movements_for_a_brazilian_spreadsheet(tmp_path: Path) -> None:
    sandbox = ContextClockHarness()
    rows = movements(6)
    rows[0]["steps"][0]["content"] = '=HYPERLINK("http://x","y")'
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        await inbox_with(pilot, rows)
        await pilot.press("e")
        await wait_for(lambda: isinstance(pilot.app.screen, InboxExportDialog), pilot.pause)
        pilot.app.screen.query_one("#ie-folder", Input).value = str(tmp_path)
        await pilot.press("f10")
        await wait_for(lambda: list(tmp_path.glob("inbox-*.csv")), pilot.pause)
        await settle(pilot)
    check_spreadsheet(tmp_path)


def check_spreadsheet(folder: Path) -> None:
    """The CSV as a Brazilian spreadsheet reads it: BOM, semicolons, decimal comma."""
    [path] = folder.glob("inbox-*.csv")
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw
    with path.open(encoding="utf-8-sig", newline="") as handle:
        table = list(csv.reader(handle, delimiter=";"))
    header, *lines = table
    assert header[0] == "Received" and "Amount (R$)" in header
    assert len(lines) == 6
    amount = header.index("Amount (R$)")
    assert {line[amount] for line in lines} == {"12345,67"}
    assert lines[0][0] == "19/11/2026 21:05"  # 20/11 00:05 UTC, in São Paulo
    step = header.index("Step")
    assert lines[-1][step] == "'" + '=HYPERLINK("http://x","y")'
    assert path.stat().st_mode & 0o777 == 0o600


async def test_one_trackings_movements() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        screen = await inbox_with(pilot, movements(40))
        pilot.app.goto("inbox", tracking_id="trk-2")
        await wait_for(lambda: len(screen.movement_list.ids) == 10, pilot.pause)
        await settle(pilot)
        assert "CNJ 0000038-00.2024.8.26.0100" in str(screen.query_one("#inbox-summary").render())
        await pilot.press("x")
        await wait_for(lambda: len(screen.movement_list.ids) == 40, pilot.pause)


async def test_the_sandbox_demo_a_portfolio_and_the_next_morning() -> None:
    """P tracks the sandbox's 10,000-lawsuit portfolio, N moves a day on: a morning's inbox."""
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        screen = await inbox_with(pilot, [])
        context = await pilot.app.context()
        await pilot.press("P")
        await wait_for(lambda: len(sandbox.sandbox.state.sandbox.trackings) == 10_000, pilot.pause)
        await settle(pilot)
        await pilot.press("N")
        await wait_for(lambda: len(screen.movement_list.ids) >= 20, pilot.pause, limit=60)
        await settle(pilot)  # the poll's last batches, and the reload after it
        tiers = {m.tier for m in context.inbox.movements(screen.movement_list.ids[:40])}
        assert "hot" in tiers

        def agreed() -> bool:  # the list, the status line and the inbox say the same
            unread = context.inbox.unread_count()
            return pilot.app.status_snapshot.unread == len(screen.movement_list.ids) == unread

        await wait_for(agreed, pilot.pause)


async def test_new_movements_arriving_keep_the_cursor_where_a_reader_wants_it() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        screen = await inbox_with(pilot, movements(30))
        context = await pilot.app.context()
        listed = screen.movement_list
        # written as a poll would: the inbox tells the app, the app the screen
        context.store.inbox.add([make_movement("n1", received_at="2026-11-21T12:00:00.000Z")])
        await wait_for(lambda: listed.ids[:1] == ["n1"], pilot.pause)
        await settle(pilot)
        assert listed.current_id == "n1"  # at the top: on the newest
        await pilot.press("down", "down", "down")
        here = listed.current_id
        context.store.inbox.add([make_movement("n2", received_at="2026-11-21T13:00:00.000Z")])
        await wait_for(lambda: listed.ids[:1] == ["n2"], pilot.pause)
        await settle(pilot)
        assert listed.current_id == here  # further down: on the movement being read

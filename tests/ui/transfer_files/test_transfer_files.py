"""The transfer files screen: list, download, mark, report (real sandbox, frozen clock), and
its look at 80x24 and 120x40."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from lawsuit_tui.ui.dialogs.folder_prompt import FolderPrompt
from lawsuit_tui.ui.transfer_files.error_report import ErrorReportDialog
from lawsuit_tui.ui.transfer_files.screen import TransferFilesScreen
from tests.support.ui_harness import (
    SIZES,
    Harness,
    open_requests,
    ready,
    screen_on_top,
    settle,
    snap,
    wait_for,
)


async def open_files(pilot: Any) -> TransferFilesScreen:
    await open_requests(pilot)
    await pilot.press("t")
    screen = await screen_on_top(pilot, TransferFilesScreen)
    await wait_for(lambda: bool(screen.files), pilot.pause)
    await settle(pilot)
    return screen


def row_of(screen: TransferFilesScreen, status: str) -> int:
    return next(i for i, item in enumerate(screen.files) if item.status == status)


async def test_download_mark_and_report(tmp_path: Path) -> None:
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await open_files(pilot)
        assert len(screen.files) == 8
        screen.table.move_cursor(row=row_of(screen, "pending"))
        await pilot.pause()
        assert not screen.check_action("download", ())  # nothing to download yet
        index = row_of(screen, "completed")
        screen.table.move_cursor(row=index)
        await pilot.pause()
        item = screen.files[index]
        await pilot.press("enter")
        await wait_for(lambda: isinstance(pilot.app.screen, FolderPrompt), pilot.pause)
        pilot.app.screen.query_one(Input).value = str(tmp_path)
        await pilot.press("enter")
        await wait_for(lambda: (tmp_path / str(item.name)).exists(), pilot.pause)
        await settle(pilot)
        assert (tmp_path / str(item.name)).stat().st_size == item.size_bytes or item.size_bytes
        await pilot.press("m")
        await wait_for(lambda: screen.files[index].status == "downloaded", pilot.pause)
        await pilot.press("e")
        await wait_for(lambda: isinstance(pilot.app.screen, ErrorReportDialog), pilot.pause)
        await pilot.press("f10")  # empty: says what is missing, stays open
        await pilot.pause()
        assert isinstance(pilot.app.screen, ErrorReportDialog)
        pilot.app.screen.query_one("#message", Input).value = "faltam colunas"
        await pilot.press("f10")
        await wait_for(lambda: screen.files[index].status == "error", pilot.pause)
        assert screen.files[index].error_message == "faltam colunas"


async def test_files_being_prepared_become_ready_on_refresh() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        screen = await open_files(pilot)
        before = sum(1 for item in screen.files if item.ready)
        await harness.advance(31 * 60)
        await pilot.press("r")
        await wait_for(lambda: sum(1 for i in screen.files if i.ready) == before + 2, pilot.pause)


@pytest.mark.parametrize("size", SIZES)
def test_transfer_files_look(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        screen = await open_files(pilot)
        screen.table.move_cursor(row=row_of(screen, "error"))

    assert snap(snap_compare, size, steps)

"""Every form dialog ends the same way: Cancel, then the form's action at the right edge.

The decision and error-report dialogs once put their action first, the other dialogs last:
a user who had learnt one reached for the wrong button in the other."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button

from lawsuit_tui.ui.count.find_dialog import FindDialog
from lawsuit_tui.ui.dossier.dialogs import DecisionDialog
from lawsuit_tui.ui.inbox.dialogs import InboxExportDialog
from lawsuit_tui.ui.trackings.tracking_form import TrackingFormScreen
from lawsuit_tui.ui.transfer_files.error_report import ErrorReportDialog
from lawsuit_tui.ui.vault.credential_form import CredentialFormScreen
from lawsuit_tui.ui.widgets.form import FormDialog
from tests.support.ui_harness import Harness, ready, settle

DIALOGS: dict[str, Callable[[], FormDialog[Any]]] = {
    "find": lambda: FindDialog(120, "TJSP"),
    "decision": lambda: DecisionDialog("Ana", "analyst"),
    "error report": lambda: ErrorReportDialog("peticao.pdf"),
    "tracking": lambda: TrackingFormScreen(),
    "credential": lambda: CredentialFormScreen(["*"], system_name="*"),
    "inbox export": lambda: InboxExportDialog({"shown": 3, "today": 1}, Path("exports")),
}


@pytest.mark.parametrize("name", list(DIALOGS))
async def test_cancel_comes_first_and_the_action_last(name: str) -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        pilot.app.push_screen(DIALOGS[name]())
        await settle(pilot)
        buttons = list(pilot.app.screen.query_one("#form-buttons").query(Button))
        assert [button.has_class("form-cancel") for button in buttons] == [True, False]
        assert buttons[-1].has_class("form-submit")
        assert buttons[0].region.right <= buttons[1].region.x

"""A steady cursor for snapshots: a blinking one is drawn or not by the time of the picture."""

from __future__ import annotations

import pytest
from textual.reactive import reactive
from textual.widgets import Input, TextArea

__all__ = ["hold_cursors_steady"]


def hold_cursors_steady(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inputs and text areas keep a steady cursor for the rest of the test."""
    for widget in (Input, TextArea):
        steady: reactive[bool] = reactive(False, init=False)
        steady.__set_name__(widget, "cursor_blink")
        monkeypatch.setattr(widget, "cursor_blink", steady)

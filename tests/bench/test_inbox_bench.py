"""Smoke tests of the inbox benchmark's machinery (bench/inbox.py, bench/_inbox_fill.py):
no timed assertions."""

from __future__ import annotations

from pathlib import Path

from bench._inbox_fill import MARKER, InboxPlan, fill
from bench.inbox import everything, narrowed, summary_of
from lawsuit_tui.domain.inbox import InboxFilter
from lawsuit_tui.store import Store

SCREEN = """ lawsuit-tui › Inbox                                        SANDBOX
 Search: number, party, court, step text (/)
 12.026 of 100.000 movements · 33.334 unread
● 21/11 09:00 TJSP   hot    0000001-00.2024.8.26.0100 Penhora: Bloqueio
"""


def test_the_summary_line_and_the_states_it_tells() -> None:
    assert summary_of(SCREEN) == " 12.026 of 100.000 movements · 33.334 unread"
    assert narrowed(SCREEN) and not everything(SCREEN)
    assert everything(SCREEN.replace("12.026 of ", "")) and MARKER in SCREEN


def test_the_fill_writes_what_the_inbox_reads(tmp_path: Path) -> None:
    plan = InboxPlan().scaled(1000)  # 100 movements
    assert fill(tmp_path / "cache", plan) == 100
    with Store.open(tmp_path / "cache") as store:
        assert len(store.inbox.select(InboxFilter())) == 100
        assert 0 < store.inbox.unread_count() < 100
        assert store.inbox.select(InboxFilter(text="sisbajud"))

"""Snapshots of the lawsuit tree, expanded and filtered, at 80x24 and 120x40 (real sandbox,
frozen clock). Behaviour is in test_lawsuit_flows.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input

from lawsuit_tui.ui.lawsuit.tree import LawsuitTree
from tests.support.ui_harness import (
    SIZES,
    Harness,
    open_from_lookup,
    samples,
    settle,
    snap,
)


@pytest.mark.parametrize("size", SIZES)
def test_lawsuit_tree_expanded(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        screen = await open_from_lookup(pilot, samples()["two_instance_lawsuit"])
        tree = screen.query_one(LawsuitTree)
        for node in tree.root.children[:2]:  # parties and steps
            node.expand()
        await settle(pilot)
        tree.root.children[0].children[0].expand()  # the active side's parties
        await settle(pilot)

    assert snap(snap_compare, size, steps)


@pytest.mark.parametrize("size", SIZES)
def test_lawsuit_steps_filtered(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await open_from_lookup(pilot, samples()["big_lawsuit"])
        await pilot.press("slash")
        pilot.app.screen.query_one("#filter", Input).value = "credores"
        await settle(pilot)

    assert snap(snap_compare, size, steps)

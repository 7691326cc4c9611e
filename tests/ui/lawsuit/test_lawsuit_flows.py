"""Pilot flows of the lawsuit tree: filtering steps, related lawsuits, attachments (real
in-process sandbox, frozen clock, virtual waits).
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

from lawsuit_tui.ui.lawsuit.screen import LawsuitTreeScreen
from lawsuit_tui.ui.lawsuit.tree import PAGE, Group, LawsuitTree, MoreItem, StepItem
from tests.support.ui_harness import (
    Harness,
    open_from_lookup,
    ready,
    related_sample,
    samples,
    settle,
    type_text,
    wait_for,
)


def _steps_node(tree: LawsuitTree) -> Any:
    for node in tree.root.children:
        if str(node.label).startswith("Steps"):
            return node
    raise AssertionError("no steps node")


async def test_filter_steps_of_a_big_lawsuit() -> None:
    harness = Harness()
    big = samples()["big_lawsuit"]
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await open_from_lookup(pilot, big)
        tree = screen.query_one(LawsuitTree)
        steps = _steps_node(tree)
        total = len(tree._index.steps)
        assert total > 5_000  # a big lawsuit, opened at once
        steps.expand()
        await settle(pilot)
        # Grouped by year, newest first; a year shows a page and a "more" node.
        years = [node.data for node in steps.children]
        assert all(isinstance(item, Group) and item.kind == "year" for item in years)
        first_year = steps.children[0]
        first_year.expand()
        await settle(pilot)
        page = [node.data for node in first_year.children]
        assert 0 < len(page) <= PAGE + 1
        if len(page) == PAGE + 1:
            assert isinstance(page[-1], MoreItem)
        await pilot.press("slash")
        # The big lawsuit is a reorganisation: it has no sentence yet, it has creditors.
        await type_text(pilot, "credores")
        await pilot.press("enter")
        await settle(pilot)
        matching = tree._step_items()
        assert 0 < len(matching) < total
        shown = [node.data for node in steps.children if not isinstance(node.data, MoreItem)]
        assert len(shown) == min(PAGE, len(matching))
        for item in shown:
            assert isinstance(item, StepItem)
            text = f"{item.step.content or ''} {item.step.step_type or ''}".casefold()
            assert "credores" in text
        # Escape clears the filter and brings the year groups back.
        await pilot.press("escape")
        await settle(pilot)
        assert tree.step_filter == ""
        assert len(steps.children) == len(years)


async def test_follow_a_related_lawsuit() -> None:
    harness = Harness()
    code, related = related_sample()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await open_from_lookup(pilot, code)
        tree = screen.query_one(LawsuitTree)
        group = next(n for n in tree.root.children if str(n.label).startswith("Related"))
        group.expand()
        await pilot.pause()
        target = next(n for n in group.children if n.data is not None)
        tree.move_cursor(target)
        await pilot.press("enter")
        await wait_for(
            lambda: (
                isinstance(pilot.app.screen, LawsuitTreeScreen) and pilot.app.screen is not screen
            ),
            pilot.pause,
        )
        await settle(pilot)
        opened = pilot.app.screen
        assert isinstance(opened, LawsuitTreeScreen)
        assert opened.code == related
        assert opened.view is not None and opened.view.lawsuit.code == related
        await pilot.press("escape")
        await settle(pilot)
        assert pilot.app.screen is screen


async def test_download_and_view_an_attachment(tmp_path: Any) -> None:
    from lawsuit_tui.ui.dialogs.folder_prompt import FolderPrompt
    from lawsuit_tui.ui.dialogs.text_view import TextViewScreen
    from lawsuit_tui.ui.lawsuit.tree import AttachmentItem

    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await open_from_lookup(pilot, samples()["lawsuit_cnj"][0])
        tree = screen.query_one(LawsuitTree)
        group = next(n for n in tree.root.children if str(n.label).startswith("Attachments"))
        group.expand()
        await settle(pilot)
        node = next(
            n
            for n in group.children
            if isinstance(n.data, AttachmentItem)
            and not n.data.attachment.private
            and not n.data.attachment.corrupted
        )
        tree.move_cursor(node)
        await pilot.press("d")
        await wait_for(lambda: isinstance(pilot.app.screen, FolderPrompt), pilot.pause)
        await settle(pilot)
        pilot.app.screen.query_one(Input).value = str(tmp_path / "downloads")
        await pilot.press("enter")
        await wait_for(lambda: any((tmp_path / "downloads").glob("*")), pilot.pause)
        saved = list((tmp_path / "downloads").iterdir())
        assert len(saved) == 1 and saved[0].stat().st_size > 0
        await pilot.press("v")
        await wait_for(lambda: isinstance(pilot.app.screen, TextViewScreen), pilot.pause)
        await pilot.press("escape")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)

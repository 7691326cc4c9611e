"""Pilot flows of the dossier on the real in-process sandbox (frozen clock, virtual waits):
the company and the busy person, asking once, a lawsuit opened from the table, a partner's
dossier, the decision, the tracking, the HTML export, and reopening offline."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual.widgets import Input, OptionList, TabbedContent

from lawsuit_tui.domain.dossier import StepStatus, Verdict
from lawsuit_tui.domain.identifiers import parse_search_key
from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.dialogs.folder_prompt import FolderPrompt
from lawsuit_tui.ui.dialogs.tier_picker import TierPickerScreen
from lawsuit_tui.ui.dossier.dialogs import DecisionDialog, ReportFormatDialog
from lawsuit_tui.ui.dossier.list_screen import DossierListScreen
from lawsuit_tui.ui.dossier.screen import DossierScreen
from lawsuit_tui.ui.lawsuit.screen import LawsuitTreeScreen
from lawsuit_tui.ui.lawsuit.tree import LawsuitTree, PartyItem
from lawsuit_tui.ui.widgets.paged_table import PagedTable
from tests.support.ui_harness import (
    Harness,
    look_up,
    ready,
    run_dossier,
    samples,
    settle,
    type_text,
    wait_for,
)


def calls(app: Any) -> int:
    return sum(app.services.api.stats.by_route.values())


async def test_the_company_from_f9_asks_once_and_jumps_to_a_partner() -> None:
    harness = Harness()
    company = samples()["company"]
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("f9")
        await wait_for(lambda: isinstance(pilot.app.screen, DossierListScreen), pilot.pause)
        await settle(pilot)
        await type_text(pilot, company)
        await pilot.press("enter")
        await wait_for(lambda: isinstance(pilot.app.screen, ConfirmScreen), pilot.pause)
        question = str(pilot.app.screen._question)
        assert "Arrest warrants" not in question  # D68: no warrant search by CNPJ
        assert "In all: at least 8 billable calls" in question and "1 paid request" in question
        assert calls(pilot.app) == 0  # nothing asked before the answer
        await pilot.press("y")
        screen = pilot.app.screen
        assert isinstance(screen, DossierScreen)
        await wait_for(lambda: screen.dossier is not None and not screen.running, pilot.pause)
        await settle(pilot)
        assert screen.dossier is not None
        assert all(r.status == StepStatus.DONE for r in screen.dossier.steps.values())

        await pilot.press("2")  # identity
        await settle(pilot)
        partners = screen.query_one("#partners", OptionList)
        entity = screen.dossier.entity
        assert entity is not None
        index = next(i for i, p in enumerate(entity.partner_links) if p.entity_type == "company")
        partner_cnpj = entity.partner_links[index].main_document
        partners.focus()
        partners.highlighted = index
        await pilot.press("enter")

        def partner_dossier() -> DossierScreen | None:
            stack = pilot.app.screen_stack
            return next(
                (s for s in stack if isinstance(s, DossierScreen) and s is not screen), None
            )

        await wait_for(lambda: partner_dossier() is not None, pilot.pause)
        partner_screen = partner_dossier()
        assert partner_screen is not None
        assert partner_screen.key_text == partner_cnpj
        await wait_for(lambda: partner_screen.loaded, pilot.pause)
        await settle(pilot)
        assert isinstance(pilot.app.screen, ConfirmScreen)  # a new dossier: asked once too
        await pilot.press("n")
        await settle(pilot)
        assert partner_screen.dossier is None and not partner_screen.running


async def test_the_busy_person_from_the_lookup_table_sort_filter_and_open(tmp_path: Path) -> None:
    harness = Harness()
    busy = samples()["busy_person"]
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await look_up(pilot, busy)
        await pilot.press("i")  # the lookup's dossier key
        screen = await run_dossier(pilot, busy)
        assert isinstance(screen, DossierScreen) and screen.dossier is not None
        total = len(screen.dossier.lawsuits or [])
        assert total > 100
        header = str(screen.query_one("#dossier-header").content)
        assert "open arrest warrant" in header

        await pilot.press("4")
        await settle(pilot)
        assert screen.query_one("#dossier-tabs", TabbedContent).active == "tab-lawsuits"
        table: PagedTable[Any] = screen.query_one("#lawsuits", PagedTable)
        first = table.selected_item()
        await pilot.press("o")  # largest amount first
        await settle(pilot)
        amounts = [row.amount for row in table.items[:5] if row.amount is not None]
        assert amounts == sorted(amounts, reverse=True)
        assert table.selected_item() != first

        await pilot.press("slash")
        await type_text(pilot, "tjsp")
        await settle(pilot)
        shown = len(table.items)
        assert 0 < shown < total and all("TJSP" in row.court for row in table.items)
        await pilot.press("enter")  # back to the table
        await settle(pilot)
        row = table.selected_item()
        await pilot.press("enter")
        await wait_for(lambda: isinstance(pilot.app.screen, LawsuitTreeScreen), pilot.pause)
        assert pilot.app.screen.code == row.code


async def test_decide_track_export_and_reopen_offline(tmp_path: Path) -> None:
    busy = samples()["busy_person"]
    first = Harness()
    async with first.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        screen = await run_dossier(pilot, busy)
        await pilot.press("a")
        await wait_for(lambda: isinstance(pilot.app.screen, DecisionDialog), pilot.pause)
        await pilot.press("f10")  # approve (the default) needs no note
        await settle(pilot)
        assert screen.dossier is not None and screen.dossier.decision is not None
        assert screen.dossier.decision.verdict == Verdict.APPROVE

        await pilot.press("t")
        await wait_for(lambda: isinstance(pilot.app.screen, TierPickerScreen), pilot.pause)
        await pilot.press("enter")  # the default tier, warm
        await settle(pilot)
        assert screen.dossier.tracking is not None and screen.dossier.tracking.tier == "warm"

        await pilot.press("x")
        await wait_for(lambda: isinstance(pilot.app.screen, ReportFormatDialog), pilot.pause)
        await pilot.press("enter")  # HTML, the first
        await wait_for(lambda: isinstance(pilot.app.screen, FolderPrompt), pilot.pause)
        field = pilot.app.screen.query_one(Input)
        field.value = str(tmp_path)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.last_export is not None
        saved = Path(screen.last_export)
        page = await asyncio.to_thread(lambda: saved.read_text(encoding="utf-8"))
        assert page.startswith("<!DOCTYPE html>") and "Osvaldo" in page and "approved" in page

    again = Harness()  # the next day's session: the same cache
    async with again.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("f9")
        await wait_for(lambda: isinstance(pilot.app.screen, DossierListScreen), pilot.pause)
        listing = pilot.app.screen
        await wait_for(lambda: listing.loaded, pilot.pause)
        await settle(pilot)
        before = calls(pilot.app)
        await pilot.press("down", "enter")
        await wait_for(lambda: isinstance(pilot.app.screen, DossierScreen), pilot.pause)
        reopened = pilot.app.screen
        await wait_for(lambda: reopened.loaded, pilot.pause)
        await settle(pilot)
        assert calls(pilot.app) == before  # offline: from the cache alone
        assert reopened.dossier is not None and reopened.dossier.decision is not None
        assert len(reopened.dossier.lawsuits or []) > 100


async def test_a_party_of_a_lawsuit_opens_its_dossier() -> None:
    harness = Harness()
    busy = samples()["busy_person"]
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await look_up(pilot, busy)
        await pilot.press("enter")
        await wait_for(lambda: isinstance(pilot.app.screen, LawsuitTreeScreen), pilot.pause)
        await settle(pilot)
        tree = pilot.app.screen.query_one(LawsuitTree)
        node = next(
            n for n in _walk(tree.root) if isinstance(n.data, PartyItem) and n.data.document == busy
        )
        tree.select_node(node)
        tree.move_cursor(node)
        await settle(pilot)
        await pilot.press("i")
        await wait_for(
            lambda: isinstance(pilot.app.screen, (DossierScreen, ConfirmScreen)), pilot.pause
        )
        dossier = next(s for s in pilot.app.screen_stack if isinstance(s, DossierScreen))
        assert parse_search_key(dossier.key_text).key == busy


def _walk(node: Any) -> Any:
    for child in node.children:
        if not child.is_expanded and child.allow_expand:
            child.expand()
        yield child
        yield from _walk(child)


async def test_words_in_the_lookup_search_the_cache_without_accents() -> None:
    harness = Harness()
    busy = samples()["busy_person"]
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await look_up(pilot, busy)  # the busy person's lawsuits come into the cache
        context = await pilot.app.context()
        context.search.wait_idle()
        before = calls(pilot.app)
        search = pilot.app.screen.query_one("#search", Input)
        search.focus()
        search.value = ""
        await type_text(pilot, "osvaldo brandao")  # typed without the accent of Brandão
        hint = str(pilot.app.screen.query_one("#search-hint").content)
        assert "searches everything cached" in hint
        await pilot.press("enter")
        await settle(pilot)
        hits: PagedTable[Any] = pilot.app.screen.query_one("#hits", PagedTable)
        assert hits.display and len(hits.items) > 0
        assert calls(pilot.app) == before  # offline
        title = str(pilot.app.screen.query_one("#results-title").content)
        assert "match “osvaldo brandao”" in title
        hit = hits.selected_item()
        await pilot.press("enter")
        await wait_for(lambda: isinstance(pilot.app.screen, LawsuitTreeScreen), pilot.pause)
        assert pilot.app.screen.code == hit.code

"""Warrant, execution and entity answers in the app, and the form's other search types
(real in-process sandbox, frozen clock, virtual waits)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.widgets import Collapsible, Input, Select, Static

from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.services.request_responses import ResponseRow
from lawsuit_tui.ui.dialogs.folder_prompt import FolderPrompt
from lawsuit_tui.ui.lawsuit.screen import LawsuitTreeScreen
from lawsuit_tui.ui.requests.cards import EntityCardScreen, WarrantCardScreen
from lawsuit_tui.ui.requests.request_form import RequestFormScreen
from lawsuit_tui.ui.requests.responses import ResponsesScreen, detail_renderable
from lawsuit_tui.ui.widgets.download_bar import BIG_FILE, DownloadBar
from tests.support.samples import ENTITY_EXAMPLE
from tests.support.ui_harness import (
    Harness,
    ready,
    responses_completed,
    samples,
    settle,
    wait_for,
)

ENTITY = ENTITY_EXAMPLE


def plain(widget: Static) -> str:
    """What a Static shows, as text (a card is a group of renderables)."""
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


async def open_form(pilot: Any) -> RequestFormScreen:
    pilot.app.open_request_form()
    await wait_for(lambda: isinstance(pilot.app.screen, RequestFormScreen), pilot.pause)
    await settle(pilot)
    form = pilot.app.screen
    assert isinstance(form, RequestFormScreen)
    return form


async def send(
    pilot: Any, form: RequestFormScreen, search_type: str, key: str, response: str
) -> ResponsesScreen:
    form.query_one("#rf-search_type", Select).value = search_type
    await pilot.pause()
    form.query_one("#rf-response_type", Select).value = response
    form.query_one("#rf-search_key", Input).value = key
    await pilot.press("f10")
    screen: ResponsesScreen = await responses_completed(pilot)
    return screen


async def test_an_open_warrant_is_said_and_its_document_saved(tmp_path: Path) -> None:
    harness = Harness()
    busy = samples()["busy_person"]
    async with harness.app.run_test(size=(100, 32)) as pilot:
        await ready(pilot)
        form = await open_form(pilot)
        screen = await send(pilot, form, "cpf", busy, "warrant")
        assert form.sent_body is not None
        assert form.sent_body["search"]["response_type"] == "warrant"
        assert len(screen.rows) >= 2
        detail = plain(screen.query_one("#detail", Static))
        assert "OPEN ARREST WARRANT" in detail  # the first is the open one
        await pilot.press("enter")
        await wait_for(lambda: isinstance(pilot.app.screen, WarrantCardScreen), pilot.pause)
        card = pilot.app.screen
        assert isinstance(card, WarrantCardScreen)
        text = plain(card.query_one("#card", Static))
        assert "Código Penal" in text and "Vara Criminal" in text
        await pilot.press("d")
        await wait_for(lambda: isinstance(pilot.app.screen, FolderPrompt), pilot.pause)
        pilot.app.screen.query_one(Input).value = str(tmp_path / "bnmp")
        await pilot.press("enter")
        await wait_for(lambda: any((tmp_path / "bnmp").glob("*.pdf")), pilot.pause)
        [saved] = (tmp_path / "bnmp").glob("*.pdf")
        assert saved.read_bytes().startswith(b"%PDF")
        await settle(pilot)
        await pilot.press("o")  # the criminal action that issued it
        await wait_for(lambda: isinstance(pilot.app.screen, LawsuitTreeScreen), pilot.pause)
        lawsuit = pilot.app.screen
        assert isinstance(lawsuit, LawsuitTreeScreen)
        assert lawsuit.code == card.warrant.code


async def test_an_execution_opens_as_a_lawsuit() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(100, 32)) as pilot:
        await ready(pilot)
        form = await open_form(pilot)
        screen = await send(pilot, form, "cpf", samples()["busy_person"], "execution")
        detail = plain(screen.query_one("#detail", Static))
        assert "PENAL EXECUTION" in detail
        await pilot.press("enter")
        await wait_for(lambda: isinstance(pilot.app.screen, LawsuitTreeScreen), pilot.pause)
        await settle(pilot)
        lawsuit = pilot.app.screen
        assert isinstance(lawsuit, LawsuitTreeScreen)
        assert lawsuit.code == samples()["penal_execution"]
        assert lawsuit.view is not None and not lawsuit.view.provisional


async def test_no_warrant_is_said_plainly() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(100, 32)) as pilot:
        await ready(pilot)
        form = await open_form(pilot)
        screen = await send(pilot, form, "cpf", samples()["cpf"][0], "warrant")
        detail = plain(screen.query_one("#detail", Static))
        assert "WARRANT_NOT_FOUND" in detail


async def test_the_form_asks_what_each_search_needs() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        form = await open_form(pilot)
        row = form.query_one("#attachment-row")
        assert not row.display
        form.query_one("#rf-search_type", Select).value = "lawsuit_attachment"
        await pilot.pause()
        assert row.display
        form.query_one("#rf-search_key", Input).value = samples()["lawsuit_cnj"][0]
        await pilot.press("f10")
        await pilot.pause()
        assert form.sent_body is None
        assert form.query_one("#box-attachment_id").has_class("-invalid")
        # A custom search has no key; it needs a filter, and says where.
        form.query_one("#rf-search_type", Select).value = "custom"
        await pilot.pause()
        assert "filters" in form.query_one("#rf-search_key", Input).placeholder
        await pilot.press("f10")
        await pilot.pause()
        assert form.sent_body is None
        assert not form.query_one("#filters", Collapsible).collapsed
        assert "filter" in str(form.query_one("#form-error", Static).render())
        # An RJI is digits.
        form.query_one("#rf-search_type", Select).value = "rji"
        await pilot.pause()
        assert [v for _l, v in form._response_choices("rji")] == ["warrant"]
        form.query_one("#rf-search_key", Input).value = "RJI-ABC"
        await pilot.pause()
        assert form.query_one("#box-search_key").has_class("-invalid")


async def test_attachments_are_offered_for_warrants() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        form = await open_form(pilot)
        form.query_one("#rf-search_type", Select).value = "cpf"
        await pilot.pause()
        form.query_one("#rf-response_type", Select).value = "execution"
        form.query_one("#rf-with_attachments").value = True  # type: ignore[attr-defined]
        await pilot.pause()
        assert form._checkbox_problems()
        form.query_one("#rf-response_type", Select).value = "warrant"
        await pilot.pause()
        assert form._checkbox_problems() == []


async def test_registration_data_has_its_card() -> None:
    response = ResponseRecord.model_validate(
        {"response_id": "r1", "response_type": "entity", "response_data": ENTITY}
    )
    summary = str(detail_renderable(ResponseRow(1, response), "k", "Enter"))
    assert "CONSTRUTORA EXEMPLO LTDA" in summary and "11.222.333/0001-81" in summary
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        pilot.app.push_screen(EntityCardScreen(ENTITY))
        await wait_for(lambda: isinstance(pilot.app.screen, EntityCardScreen), pilot.pause)
        await settle(pilot)
        text = plain(pilot.app.screen.query_one("#card", Static))
        for shown in (
            "active registration",
            "Sociedade Empresária Limitada",
            "MARIA SILVA",
            "Rua Augusta",
        ):
            assert shown in text
        assert "R$ 150.000,00" in text


async def test_the_download_bar_shows_for_big_files_only() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        bar = DownloadBar()
        await pilot.app.screen.mount(bar)
        bar.start("small.pdf")
        bar.progress(0, 10_000)
        bar.progress(10_000, 10_000)
        assert not bar.shown
        bar.start("big.json")
        bar.progress(0, BIG_FILE * 3)
        assert bar.shown
        bar.progress(BIG_FILE * 3, BIG_FILE * 3)
        bar.finish()
        assert not bar.shown

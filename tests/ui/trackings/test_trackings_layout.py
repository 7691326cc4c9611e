"""The trackings screens at 80 columns, in English and in pt-BR: the Footer's key hints and
the list's headers read whole; the keys left out of the Footer are still in the help."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from rich.cells import cell_len
from textual.screen import Screen
from textual.widgets import Footer, Input
from textual.widgets._footer import FooterKey

from lawsuit_tui.domain.bodies import TrackingCreateBody
from lawsuit_tui.i18n import current_language
from lawsuit_tui.ui.dialogs.help import HelpScreen, binding_rows
from lawsuit_tui.ui.language import interface_language
from lawsuit_tui.ui.trackings import tracking_list as trackings_module
from lawsuit_tui.ui.trackings.tracking_detail import TrackingDetailScreen
from lawsuit_tui.ui.trackings.tracking_list import (
    SEARCH_LEAST,
    TrackingsScreen,
    search_room,
    table_columns,
    wide_fits,
)
from tests.support.ui_harness import ContextClockHarness, open_trackings, samples, settle, wait_for

LANGUAGES = ["en", "pt-BR"]


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    with interface_language(request.param) as applied:
        yield applied


def footer_overflow(screen: Screen[Any]) -> list[str]:
    """The key hints of ``screen``'s Footer that run under the command palette's key or past
    the right edge (the Footer scrolls them out of sight rather than wrapping)."""
    footer = screen.query_one(Footer)
    keys = list(footer.query(FooterKey))
    palette = [key for key in keys if key.has_class("-command-palette")]
    limit = palette[0].region.x if palette else screen.size.width
    return [
        f"{key.key_display} {key.description} at {key.region.x}..{key.region.right}"
        for key in keys
        if key not in palette and key.region.right > limit
    ]


def footer_descriptions(screen: Screen[Any]) -> list[str]:
    return [key.description for key in screen.query_one(Footer).query(FooterKey)]


async def some_trackings(sandbox: ContextClockHarness) -> None:
    context = await sandbox.app.context()
    sample = samples()
    for key, extra in (
        (sample["moving_lawsuit"], {"recurrence": 30}),
        (sample["cpf"][0], {"recurrence": 30, "fixed_time": True, "hour_range": 8}),
        (sample["lawsuit_cnj"][2], {}),
    ):
        search_type = "lawsuit_cnj" if "." in key else "cpf"
        body = TrackingCreateBody.model_validate(
            {"search": {"search_type": search_type, "search_key": key}, **extra}
        )
        await context.trackings.create(body)


def headers_cut(screen: TrackingsScreen) -> list[str]:
    """Headers wider than their column, and the room the columns need beyond the screen."""
    table = screen.table
    cut = [
        str(column.label)
        for column in table.columns.values()
        if cell_len(str(column.label)) > column.width
    ]
    used = sum(column.width + 2 * table.cell_padding for column in table.columns.values())
    if used > screen.size.width:
        cut.append(f"{used} columns used of {screen.size.width}")
    return cut


async def test_the_footer_and_headers_fit_80_columns(language: str) -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        await wait_for(lambda: app.services is not None, pilot.pause)
        screen = await open_trackings(pilot)
        assert footer_overflow(screen) == []  # the empty list
        assert current_language() == language

        await some_trackings(sandbox)
        screen.action_refresh()
        await wait_for(lambda: len(screen.table.items) == 3, pilot.pause)
        screen.table.focus()
        await settle(pilot)
        assert footer_overflow(screen) == []
        assert headers_cut(screen) == []
        shown = footer_descriptions(screen)
        help_text = app.get_key_display(app._bindings.key_to_bindings["f1"][0])
        assert any(key.key_display == help_text for key in screen.query(FooterKey)), shown
        assert len(shown) >= 6, "the main operations stay in the Footer"

        await pilot.press("slash")  # the filter field
        assert isinstance(app.focused, Input)
        await settle(pilot)
        assert footer_overflow(screen) == []

        screen.table.focus()
        await pilot.press("enter")
        await wait_for(lambda: isinstance(app.screen, TrackingDetailScreen), pilot.pause)
        detail = app.screen
        await wait_for(lambda: detail.loaded, pilot.pause)
        await settle(pilot)
        assert footer_overflow(detail) == []


async def test_what_the_footer_leaves_out_the_help_lists(language: str) -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        await wait_for(lambda: app.services is not None, pilot.pause)
        screen = await open_trackings(pilot)
        listed = {key for _where, key, _description in binding_rows(screen)}
        for binding_id in ("trackings.filter", "trackings.refresh", "trackings.status"):
            assert app.binding_key(binding_id) in listed
        await pilot.press("f1")
        await wait_for(lambda: isinstance(app.screen, HelpScreen), pilot.pause)


async def test_every_header_reads_whole_whatever_its_translation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A translator may write the whole word: the columns make room, the search gives it."""
    monkeypatch.setattr(trackings_module, "steps_header", lambda: "Movimentações")
    with interface_language("pt-BR"):
        sandbox = ContextClockHarness()
        async with sandbox.app.run_test(size=(80, 24)) as pilot:
            app: Any = pilot.app
            await wait_for(lambda: app.services is not None, pilot.pause)
            await some_trackings(sandbox)
            screen = await open_trackings(pilot)
            assert screen.narrow
            assert "Movimentações" in [str(c.label) for c in screen.table.columns.values()]
            assert headers_cut(screen) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_column_sets_and_the_width_they_need(language: str) -> None:
    with interface_language(language):
        narrow = table_columns(wide=False)
        wide = table_columns(wide=True)
        for key, label, width in narrow + wide:
            assert width is None or cell_len(label) <= width, (key, label)
        assert [key for key, _label, _width in narrow] == [
            "status",
            "search",
            "recurrence",
            "steps",
            "updated",
        ]
        assert "items" in [key for key, _label, _width in wide]
        # 80 columns: the narrow set, with a CNJ number and its type whole
        assert not wide_fits(80)
        assert search_room(narrow, 80) >= len("CNJ 0001234-56.2023.8.26.0100")
        assert wide_fits(120)
        assert search_room(wide, 120) >= SEARCH_LEAST


async def test_the_table_swaps_column_sets_on_resize() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        await wait_for(lambda: app.services is not None, pilot.pause)
        await some_trackings(sandbox)
        screen = await open_trackings(pilot)
        assert len(screen.table.columns) == 5
        await pilot.resize_terminal(130, 40)
        await wait_for(lambda: len(screen.table.columns) == 6, pilot.pause)
        await settle(pilot)
        assert headers_cut(screen) == []
        await pilot.resize_terminal(80, 24)
        await wait_for(lambda: len(screen.table.columns) == 5, pilot.pause)
        assert len(screen.table.items) == 3

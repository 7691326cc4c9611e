"""The portfolio screens at 80 columns, in English and in pt-BR: the Footer's key hints and
the list's headers read whole; the keys left out of the Footer are still in the help."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from rich.cells import cell_len
from textual.screen import Screen
from textual.widgets import Footer, Input
from textual.widgets._footer import FooterKey

from lawsuit_tui.i18n import current_language
from lawsuit_tui.ui.dialogs.help import HelpScreen, binding_rows
from lawsuit_tui.ui.language import interface_language
from lawsuit_tui.ui.trackings.portfolio_import import PortfolioImportScreen
from lawsuit_tui.ui.trackings.portfolio_screen import PortfolioScreen
from lawsuit_tui.ui.trackings.portfolio_text import KEY_WIDTH, portfolio_columns
from lawsuit_tui.ui.trackings.tracking_detail import TrackingDetailScreen
from tests.support.ui_harness import (
    ContextClockHarness,
    open_trackings,
    samples,
    screen_on_top,
    services_open,
    settle,
    track,
    wait_for,
)

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
    sample = samples()
    for key, extra in (
        (sample["moving_lawsuit"], {"recurrence": 30}),
        (sample["cpf"][0], {"recurrence": 30, "fixed_time": True, "hour_range": 8}),
        (sample["lawsuit_cnj"][2], {}),
    ):
        await track(sandbox, key, **extra)


def headers_cut(screen: PortfolioScreen) -> list[str]:
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
        screen = await open_trackings(pilot)  # once the services are open and it has loaded
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
        detail = await screen_on_top(pilot, TrackingDetailScreen)
        await wait_for(lambda: detail.loaded, pilot.pause)
        await settle(pilot)
        assert footer_overflow(detail) == []
        await pilot.press("escape")
        await wait_for(lambda: app.screen is screen, pilot.pause)

        await pilot.press("i")
        await wait_for(lambda: isinstance(app.screen, PortfolioImportScreen), pilot.pause)
        await settle(pilot)
        assert footer_overflow(app.screen) == []


async def test_what_the_footer_leaves_out_the_help_lists(language: str) -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        screen = await open_trackings(pilot)  # once the services are open and it has loaded
        listed = {key for _where, key, _description in binding_rows(screen)}
        for binding_id in (
            "trackings.filter",
            "trackings.refresh",
            "trackings.status",
            "trackings.new",
            "trackings.mark_all",
            "trackings.mark",
            "trackings.edit",
        ):
            assert app.binding_key(binding_id) in listed
        await pilot.press("f1")
        await wait_for(lambda: isinstance(app.screen, HelpScreen), pilot.pause)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_column_sets_and_the_width_they_need(language: str) -> None:
    with interface_language(language):
        narrow = portfolio_columns(80)
        wide = portfolio_columns(120)
        for key, label, width in narrow + wide:
            assert width is None or width < 0 or cell_len(label) <= width, (key, label)
        assert [key for key, _label, _width in narrow] == [
            "mark",
            "status",
            "key",
            "tier",
            "court",
            "every",
            "labels",
        ]
        assert {"name", "updated"} <= {key for key, _label, _width in wide}
        # 80 columns: a CNJ number whole, and room left for the labels
        fixed = sum(width for _k, _l, width in narrow if width and width > 0)
        assert dict((k, w) for k, _l, w in narrow)["key"] == KEY_WIDTH
        assert 80 - fixed - 2 * len(narrow) - 2 >= 8


async def test_the_table_swaps_column_sets_on_resize() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        await services_open(pilot)
        await some_trackings(sandbox)
        screen = await open_trackings(pilot)
        assert len(screen.table.columns) == 7
        assert headers_cut(screen) == []
        await pilot.resize_terminal(130, 40)
        await wait_for(lambda: len(screen.table.columns) == 9, pilot.pause)
        await settle(pilot)
        assert headers_cut(screen) == []
        await pilot.resize_terminal(80, 24)
        await wait_for(lambda: len(screen.table.columns) == 7, pilot.pause)
        assert len(screen.table.items) == 3

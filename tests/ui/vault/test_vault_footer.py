"""The vault screen's Footer fits 80 columns in both languages; hidden keys stay in the help."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from textual.widgets import Footer

from lawsuit_tui.ui.dialogs.help import HelpScreen, binding_rows
from lawsuit_tui.ui.language import interface_language
from lawsuit_tui.ui.vault.screen import VaultScreen
from tests.support.ui_harness import Harness, ready, settle, wait_for

# Vault bindings the help screen must list, shown in the Footer or not (Enter on the grid is
# the table's own select, which registers too).
VAULT_KEYS = {"n", "d", "k", "/", "^r", "Esc"}


def footer_keys(footer: Footer) -> list[Any]:
    return [child for child in footer.children if child.display]


@pytest.mark.parametrize("language", ["en", "pt-BR"])
async def test_vault_footer_fits_80_columns(language: str) -> None:
    with interface_language(language):
        harness = Harness()
        async with harness.app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            app: Any = pilot.app
            app.goto("vault")
            await wait_for(lambda: isinstance(app.screen, VaultScreen), pilot.pause)
            await settle(pilot)
            screen = app.screen
            footer = screen.query_one(Footer)
            keys = footer_keys(footer)
            assert footer.virtual_size.width <= footer.size.width == 80
            spans = sorted((key.region.x, key.region.right) for key in keys)
            assert spans[-1][1] <= 80
            for (_start, end), (next_start, _end) in itertools.pairwise(spans):
                assert end <= next_start, f"footer keys overlap in {language}: {spans}"
            shown = {key.key_display for key in keys}
            assert {"n", "d", "k", "/"} <= shown
            assert "^r" not in shown  # secondary: in the help screen and the palette

            rows = binding_rows(screen)
            assert {key for _where, key, _what in rows} >= VAULT_KEYS
            await pilot.press("f1")
            await wait_for(lambda: isinstance(app.screen, HelpScreen), pilot.pause)

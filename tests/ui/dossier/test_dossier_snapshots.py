"""The dossier's look at 80x24 and 120x40, in English and in Portuguese: the overview after a
run, the exposure charts, the lawsuits table, the identity with its partners, the list (F9).

The app runs on the in-process sandbox with a frozen clock, so the data, the charts and every
time shown are the same on each run."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.ui_harness import (
    SIZES,
    Harness,
    run_dossier,
    samples,
    settle,
    snap,
    snap_in_language,
    wait_for,
)


def _busy_on(tab: str) -> Any:
    async def steps(pilot: Any, harness: Harness) -> None:
        await run_dossier(pilot, samples()["busy_person"])
        await pilot.press(tab)
        await settle(pilot)

    return steps


@pytest.mark.parametrize("size", SIZES)
def test_overview_after_a_run(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap(snap_compare, size, _busy_on("1"))


@pytest.mark.parametrize("size", SIZES)
def test_exposure_charts_in_portuguese(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_in_language(snap_compare, size, _busy_on("3"), "pt-BR")


@pytest.mark.parametrize("size", SIZES)
def test_lawsuits_table(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap(snap_compare, size, _busy_on("4"))


@pytest.mark.parametrize("size", SIZES)
def test_company_identity_in_portuguese(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        await run_dossier(pilot, samples()["company"])
        await pilot.press("2")
        await settle(pilot)

    assert snap_in_language(snap_compare, size, steps, "pt-BR")


@pytest.mark.parametrize("size", SIZES)
def test_the_list_in_portuguese(snap_compare: Any, size: tuple[int, int]) -> None:
    async def steps(pilot: Any, harness: Harness) -> None:
        from lawsuit_tui.ui.dossier.list_screen import DossierListScreen

        await run_dossier(pilot, samples()["company"])
        await pilot.press("escape")
        await pilot.press("f9")
        await wait_for(lambda: isinstance(pilot.app.screen, DossierListScreen), pilot.pause)
        screen = pilot.app.screen
        await wait_for(lambda: screen.loaded, pilot.pause)

    assert snap_in_language(snap_compare, size, steps, "pt-BR")

"""The dossier's look at 80x24 and 120x40, in English and in Portuguese: the overview after a
run, the exposure charts, the lawsuits table, the identity with its partners, the list (F9).

The dossier is run first in a session of its own; the picture is of the next session, which
reopens it from the cache (offline): the two followed requests of a run share the frozen
clock, so how many polls the rate counter shows may differ by one from run to run."""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.support.ui_harness import (
    SIZES,
    Harness,
    ready,
    run_dossier,
    samples,
    settle,
    snap,
    snap_in_language,
    wait_for,
)

# document -> a copy of the cache a session that ran its dossier left behind (per process).
_RUN_CACHES: dict[str, Path] = {}


def _run_before(document: str) -> None:
    """The dossier of ``document`` run in a session of its own (this test's cache). The run
    is made once per process and its cache copied into each later test's: every picture is
    of a session that reopens the same run."""
    cache = Path(os.environ["LAWSUIT_TUI_CACHE_DIR"])
    made = _RUN_CACHES.get(document)
    if made is not None:
        shutil.rmtree(cache, ignore_errors=True)
        shutil.copytree(made, cache)
        return

    async def run() -> None:
        harness = Harness()
        async with harness.app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            await run_dossier(pilot, document)

    asyncio.run(run())
    kept = Path(tempfile.mkdtemp(prefix="dossier-run-")) / "cache"
    atexit.register(shutil.rmtree, kept.parent, ignore_errors=True)
    shutil.copytree(cache, kept)
    _RUN_CACHES[document] = kept


def _busy_on(tab: str) -> Any:
    _run_before(samples()["busy_person"])

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


def test_lawsuits_table_in_portuguese_at_80_columns(snap_compare: Any) -> None:
    # Headers whole ("Distribuição", "Valor da causa"), amounts whole, the side in a word
    # ("passivo"): the class gives way. Before, "Distribuiçã" and "polo pas" were cut.
    assert snap_in_language(snap_compare, (80, 24), _busy_on("4"), "pt-BR")


@pytest.mark.parametrize("size", SIZES)
def test_company_identity_in_portuguese(snap_compare: Any, size: tuple[int, int]) -> None:
    _run_before(samples()["company"])

    async def steps(pilot: Any, harness: Harness) -> None:
        await run_dossier(pilot, samples()["company"])
        await pilot.press("2")
        await settle(pilot)

    assert snap_in_language(snap_compare, size, steps, "pt-BR")


@pytest.mark.parametrize("size", SIZES)
def test_the_list_in_portuguese(snap_compare: Any, size: tuple[int, int]) -> None:
    _run_before(samples()["company"])

    async def steps(pilot: Any, harness: Harness) -> None:
        from lawsuit_tui.ui.dossier.list_screen import DossierListScreen

        await pilot.press("f9")
        await wait_for(lambda: isinstance(pilot.app.screen, DossierListScreen), pilot.pause)
        screen = pilot.app.screen
        await wait_for(lambda: screen.loaded, pilot.pause)

    assert snap_in_language(snap_compare, size, steps, "pt-BR")

"""`lawsuit-tui search`: offline, beside a process that holds the cache."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from lawsuit_tui.store import Store
from tests.support.cli_run import run_cli as run
from tests.support.store_data import make_lawsuit

CNJ = "0001234-56.2023.8.26.0100"


@pytest.fixture
def holder() -> Iterator[Store]:
    """The cache of the sandbox mode, held for writing as a running app would hold it."""
    store = Store.open(Path(os.environ["LAWSUIT_TUI_CACHE_DIR"]) / "sandbox")
    store.lawsuits.upsert(
        make_lawsuit(CNJ, parties=(("JOÃO DA CONCEIÇÃO", "123.456.789-09"),)), provisional=False
    )
    yield store
    store.close()


def test_search_beside_the_writer_plain_and_json(
    holder: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "search", "joao conceicao")
    assert code == 0, err
    assert out.splitlines()[0] == "1 lawsuit matches “joao conceicao”"
    assert CNJ in out and "JOÃO DA CONCEIÇÃO" in out
    code, out, err = run(capsys, "search", "123.456.789-09", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["count"] == 1
    assert data["results"][0]["code"] == CNJ
    assert data["results"][0]["matched"]


def test_reindex_says_how_many(holder: Store, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "search", "maria", "--reindex")
    assert code == 4  # D135: no hit, as an export that matched nothing
    assert "index rebuilt: 1 lawsuit" in err
    assert out.startswith("0 lawsuits match")


def test_nothing_cached_yet(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "search", "maria", "--json")
    assert code == 4
    assert json.loads(out)["results"] == []
    assert "nothing is cached yet" in err


@pytest.mark.parametrize("limit", ["0", "1001", "x"])
def test_a_bad_limit_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], limit: str) -> None:
    code, out, err = run(capsys, "search", "maria", "--limit", limit)
    assert code == 2 and out == ""
    assert "--limit" in err

"""The intents of a portfolio import (D161): durable before the call, settled with the
trackings in one batch, open ones found again after a kill."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lawsuit_tui.store import CacheReadOnly, Store

SERVICE = "http://svc.test/tracking#abc"
KEYS = [("cpf", "24030501052"), ("lawsuit_cnj", "0084542-06.2024.4.04.4803")]


def test_begin_then_settle_with_the_trackings(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c") as store:
        intents = store.portfolio_imports
        first = intents.begin(SERVICE, KEYS)
        second = intents.begin("http://other/tracking#x", KEYS[:1])
        assert [i["intent_id"] for i in intents.open_intents(SERVICE)] == [first]
        assert len(intents.open_intents()) == 2
        record = {"tracking_id": "t1", "status": "created", "search": {"search_type": "cpf"}}
        intents.settle(first, "answered", {"cpf 24030501052": "t1"}, [record])
        assert intents.open_intents(SERVICE) == []
        settled = intents.get(first)
        assert settled is not None and settled["state"] == "settled"
        assert settled["outcome"] == "answered" and settled["tracking_ids"] == {
            "cpf 24030501052": "t1"
        }
        assert store.get_tracking("t1") == record
        assert [i["intent_id"] for i in intents.open_intents()] == [second]
        with pytest.raises(KeyError):
            intents.settle("nope", "answered", {})


def test_an_intent_outlives_a_kill(tmp_path: Path) -> None:
    directory = tmp_path / "c"
    code = (
        "import os, sys\n"
        "from lawsuit_tui.store import Store\n"
        f"store = Store.open(__import__('pathlib').Path({str(directory)!r}))\n"
        f"store.portfolio_imports.begin({SERVICE!r}, {KEYS!r})\n"
        "print('begun', flush=True)\n"
        "os.kill(os.getpid(), 9)\n"
    )
    child = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert child.stdout.strip() == "begun" and child.returncode == -9
    with Store.open(directory) as store:
        opened = store.portfolio_imports.open_intents(SERVICE)
        assert [tuple(key) for key in opened[0]["keys"]] == KEYS


def test_read_only_refuses_to_begin(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c"):
        pass
    with Store.open(tmp_path / "c", read_only=True) as store, pytest.raises(CacheReadOnly):
        store.portfolio_imports.begin(SERVICE, KEYS)

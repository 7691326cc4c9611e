"""``lawsuit-tui inbox`` end to end: formats, filters, --mark-read, WHEN, exit codes (D175)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from lawsuit_tui.config import load_settings
from lawsuit_tui.services import context
from lawsuit_tui.services.paths import cache_path
from lawsuit_tui.store import Store
from tests.support.cli_run import run_cli as run
from tests.support.store_data import make_movement


@pytest.fixture
def morning(capsys: pytest.CaptureFixture[str]) -> list[str]:
    """Three movements in the cache the commands open (the sandbox's), written after a first
    command started the sandbox kept beside it: a cache filled before its sandbox existed
    would be emptied as another sandbox's (D183)."""
    assert run(capsys, "inbox", "--no-check")[0] == 4  # an empty inbox, its sandbox started
    rows = [
        make_movement("m1", received_at="2026-11-21T12:00:00Z", tier="hot", court="TJSP"),
        make_movement(
            "m2",
            received_at="2026-11-21T13:00:00Z",
            tier="warm",
            court="TJRJ",
            steps=[("Despacho", "Intime-se a parte autora.")],
            terms=[],
            amount=None,
        ),
        make_movement("m3", received_at="2026-11-10T13:00:00Z", tier="cold", read_at="x"),
    ]
    with Store.open(cache_path(load_settings())) as store:
        store.inbox.add(rows)
    return ["m2", "m1", "m3"]


def test_the_table_newest_first_and_nothing_when_nothing_matched(
    capsys: pytest.CaptureFixture[str], morning: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, "inbox", "--no-check")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Received")
    assert lines[1].startswith("* 21/11/2026 10:00  TJRJ")  # unread, in São Paulo time
    assert lines[2].startswith("* 21/11/2026 09:00  TJSP")
    assert lines[3].startswith("  10/11/2026 10:00  TJSP")  # read
    assert "Despacho: Intime-se a parte autora." in lines[1]
    assert lines[-1] == "3 movements · 2 unread"
    code, out, err = run(capsys, "inbox", "--no-check", "--tier", "nobody")
    assert (code, out) == (4, "")  # nothing matched: cron mails only when something moved
    monkeypatch.setenv("LAWSUIT_TUI_LANGUAGE", "pt-BR")
    code, out, err = run(capsys, "inbox", "--no-check", "--tier", "morno")
    assert code == 0 and "TJRJ" in out and "TJSP" not in out  # the tier as the user reads it


def test_json_and_csv_with_filters(capsys: pytest.CaptureFixture[str], morning: list[str]) -> None:
    code, out, err = run(capsys, "inbox", "--no-check", "--unread", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["count"] == 2
    assert [m["movement_id"] for m in data["movements"]] == ["m2", "m1"]
    code, out, err = run(
        capsys, "inbox", "--no-check", "--since", "2026-11-21", "--court", "TJSP", "--format", "csv"
    )
    assert code == 0, err
    assert out.startswith("\ufeff")
    header, *rows = list(csv.reader(io.StringIO(out.lstrip("\ufeff")), delimiter=";"))
    assert len(rows) == 1 and rows[0][header.index("Lawsuit")] == "0001234-56.2023.8.26.0100"
    assert rows[0][header.index("Amount (R$)")] == "12345,67"


def test_mark_read_marks_what_was_printed(
    capsys: pytest.CaptureFixture[str], morning: list[str]
) -> None:
    code, out, err = run(capsys, "inbox", "--no-check", "--unread", "--tier", "hot", "--mark-read")
    assert code == 0, err
    assert "1 movement marked read." in err
    code, out, err = run(capsys, "inbox", "--no-check", "--unread", "--format", "json")
    assert [m["movement_id"] for m in json.loads(out)["movements"]] == ["m2"]


def test_a_poll_first_then_the_list(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --no-check it asks the service (a fresh sandbox: nothing ran) and lists."""
    code, out, err = run(capsys, "inbox", "--format", "json")
    assert code == 4, err  # nothing matched, and still the (empty) document
    assert json.loads(out)["count"] == 0


@pytest.mark.parametrize("when", ["tomorrow", "32/13/2026", "7 days"])
def test_a_bad_when_is_one_line_and_exit_2_before_any_call(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    async def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("no call may be made for bad input")

    monkeypatch.setattr(context.ServiceContext, "open", refuse)
    code, out, err = run(capsys, "inbox", "--since", when)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--since" in err


def test_when_as_people_write_it() -> None:
    from datetime import UTC, datetime

    from lawsuit_tui.domain.formatting import sao_paulo_tz
    from lawsuit_tui.domain.inbox import parse_when

    now = datetime(2026, 11, 21, 14, 30, tzinfo=UTC)  # 11:30 in São Paulo
    zone = sao_paulo_tz()
    assert parse_when("today", now=now, zone=zone) == datetime(2026, 11, 21, 3, 0, tzinfo=UTC)
    assert parse_when("ontem", now=now, zone=zone) == datetime(2026, 11, 20, 3, 0, tzinfo=UTC)
    assert parse_when("24h", now=now, zone=zone) == datetime(2026, 11, 20, 14, 30, tzinfo=UTC)
    assert parse_when("2w", now=now, zone=zone) == datetime(2026, 11, 7, 14, 30, tzinfo=UTC)
    assert parse_when("20/11/2026", now=now, zone=zone) == datetime(2026, 11, 20, 3, 0, tzinfo=UTC)
    assert parse_when("2026-11-21T08:00", now=now, zone=zone) == datetime(
        2026, 11, 21, 11, 0, tzinfo=UTC
    )

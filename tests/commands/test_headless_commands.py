"""The headless commands end to end (cli.main -> commands -> services -> sandbox)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from lawsuit_tui.commands.output import ProgressPrinter
from lawsuit_tui.sandbox.keys import parse_keys
from lawsuit_tui.services.requests import RequestService
from lawsuit_tui.services.results import Completed, FollowEvent, Progress, StatusChanged
from tests.support.cli_run import change_sandbox
from tests.support.cli_run import run_cli as run


def test_lookup_plain_and_json(capsys: pytest.CaptureFixture[str], samples: dict[str, Any]) -> None:
    code_number = samples["lawsuit_cnj"][0]
    code, out, err = run(capsys, "lookup", code_number)
    assert code == 0, err
    assert code_number in out
    code, out, err = run(capsys, "lookup", samples["cpf"][0], "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["search_type"] == "cpf" and data["lawsuits"]


def test_bad_key_is_one_line_before_any_call(
    capsys: pytest.CaptureFixture[str], no_calls: None
) -> None:
    code, out, err = run(capsys, "lookup", "123.456.789-00")
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "CPF" in err or "check" in err.lower()
    code, _out, err = run(capsys, "request", "12345678900")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_request_options_checked_before_any_call(
    capsys: pytest.CaptureFixture[str], no_calls: None, samples: dict[str, Any]
) -> None:
    cpf = samples["cpf"][0]
    code, _out, err = run(capsys, "request", cpf, "--with-attachments")
    assert code == 2 and "with_attachments" in err
    code, _out, err = run(capsys, "request", cpf, "--cache-ttl-days", "0")
    assert code == 2 and "cache_ttl_in_days" in err
    code, _out, err = run(capsys, "request", cpf, "--response-type", "step")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_service_refusal_is_exit_1_with_one_line(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    def without_lookup(state: Any, settings: Any) -> None:
        # The sandbox's key may not use the lookup: the service refuses with 403.
        state.keys = parse_keys([f"{settings.sandbox.api_key}:no-lookup"])

    change_sandbox(monkeypatch, without_lookup)
    code, out, err = run(capsys, "lookup", samples["lawsuit_cnj"][0])
    assert code == 1
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "403" in err


def test_request_wait_json(capsys: pytest.CaptureFixture[str], samples: dict[str, Any]) -> None:
    code, out, err = run(capsys, "request", samples["moving_lawsuit"], "--wait", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert [r["status"] for r in data["requests"]] == ["completed"]
    assert data["responses"]
    assert any(
        r.get("cached") or (r.get("tags") or {}).get("cached_response") for r in data["responses"]
    )
    assert "completed" in err  # progress went to standard error


def test_request_wait_says_its_completion_once(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A poll that sees the status "completed" before the request's end is reported says it
    once, not twice (as on real time: one line from the status, one from the end)."""
    real = RequestService.follow

    async def follow(self: RequestService, request_id: str) -> AsyncIterator[FollowEvent]:
        async for event in real(self, request_id):
            if isinstance(event, Completed):
                yield StatusChanged(event.record)
            yield event

    monkeypatch.setattr(RequestService, "follow", follow)
    code, _out, err = run(capsys, "request", samples["moving_lawsuit"], "--wait")
    assert code == 0, err
    assert sum("  completed  " in line for line in err.splitlines()) == 1, err


def test_request_without_wait_prints_the_record(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    code, out, err = run(capsys, "request", samples["cpf"][1], "--on-demand")
    assert code == 0, err
    assert "pending" in out


def test_sync_then_export(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any], tmp_path: Path
) -> None:
    code, _out, err = run(capsys, "request", samples["cpf"][0], "--wait")
    assert code == 0, err
    code, out, err = run(capsys, "sync")
    assert code == 0, err
    assert "responses:" in out
    code, out, err = run(capsys, "export", "responses", "--format", "jsonl")
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines and all("response_id" in line for line in lines)
    code, out, _err = run(capsys, "export", "requests", "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows and rows[0]["search_key"]
    target = tmp_path / "out" / "lawsuits.json"
    code, out, _err = run(capsys, "export", "lawsuits", "--out", str(target))
    assert code == 0 and out == ""
    lawsuits = json.loads(target.read_text())
    assert lawsuits and all("code" in x for x in lawsuits)


def test_export_of_an_empty_cache(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "export", "requests")
    assert code == 0
    assert json.loads(out) == []


def test_count(capsys: pytest.CaptureFixture[str]) -> None:
    """Courts by acronym or Miner id (D127); 826 (CNJ digits) is no court of the Miner."""
    command = "count --kind judgement-bond --tribunal TJSP --tribunal 1 --json"
    code, out, err = run(capsys, *command.split())
    assert code == 0, err
    answer = json.loads(out)
    assert isinstance(answer["request_id"], int) and answer["status"] == "completed"
    assert answer["filter"]["tribunals"] == [10, 1]
    code, _out, err = run(capsys, "count", "--kind", "judgement-bond", "--tribunal", "XYZ")
    assert code == 2 and "XYZ" in err and len(err.strip().splitlines()) == 1
    code, _out, err = run(capsys, "count", "--kind", "judgement-bond", "--tribunal", "826")
    assert code == 1 and "826" in err


def test_miner_find_is_paid_and_asks_for_yes(
    capsys: pytest.CaptureFixture[str], no_calls: None
) -> None:
    code, out, err = run(capsys, "miner", "find", "--kind", "judgement-bond", "--limit", "3")
    assert code == 2 and out == "" and "--yes" in err


def test_miner_find_waits_and_lists_its_lawsuits(capsys: pytest.CaptureFixture[str]) -> None:
    command = "miner find --kind sentence-execution --tribunal TRT2 --limit 3 --yes --wait --json"
    code, out, err = run(capsys, *command.split())
    assert code == 0, err
    answer = json.loads(out)
    assert answer["request"]["status"] == "completed" and answer["cost"] > 0
    assert len(answer["lawsuits"]) == 3
    assert {item["tribunal_id"] for item in answer["lawsuits"]} == {150610}
    assert "credits debited" in err  # the human line goes to stderr with --json


def test_miner_refusals_are_one_line_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "miner", "responses", "4242")
    assert (code, out) == (4, "")  # D135: no request by that number
    assert err.strip() == "lawsuit-tui: The Miner has no request with this number."
    code, out, _err = run(capsys, "miner", "tribunals", "--json")
    assert code == 0 and len(json.loads(out)) == 62


def test_count_rules_before_any_call(capsys: pytest.CaptureFixture[str], no_calls: None) -> None:
    code, _out, err = run(
        capsys, "count", "--kind", "judgement-bond", "--tag", "possible_precatory"
    )
    assert code == 2 and "tags" in err
    code, _out, err = run(
        capsys, "count", "--kind", "sentence-execution", "--amount-min", "5", "--amount-max", "1"
    )
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_progress_is_plain_lines_off_a_terminal() -> None:
    stream = io.StringIO()
    clock = iter([0.0, 0.5, 1.0, 5.0])
    printer = ProgressPrinter(stream, every=2.0, clock=lambda: next(clock))
    printer(Progress(0, None, 1, False, "reading requests"))
    printer(Progress(1, 10, 2, False, "reading responses"))
    printer(Progress(2, 10, 3, True, "reading responses"))  # too soon: skipped
    printer(Progress(9, 10, 4, True, "reading responses"))
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3
    assert "\r" not in stream.getvalue()
    assert "9/10" in lines[-1] and "rate limit" in lines[-1]


def test_export_reaches_what_no_cached_request_holds(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    # A lookup stores lawsuits without any request or response in the cache.
    code_number = samples["lawsuit_cnj"][0]
    code, _out, err = run(capsys, "lookup", code_number)
    assert code == 0, err
    code, out, err = run(capsys, "export", "lawsuits", "--format", "jsonl")
    assert code == 0, err
    codes = [json.loads(line)["code"] for line in out.splitlines()]
    assert code_number in codes
    code, out, _err = run(capsys, "export", "requests", "--format", "jsonl")
    assert code == 0 and out == ""

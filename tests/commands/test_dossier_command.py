"""`lawsuit-tui dossier KEY` end to end: asking once, the formats, offline, exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lawsuit_tui.commands.output import EXIT_APPLICATION_ERROR, EXIT_NOTHING_MATCHED
from tests.support.cli_run import change_sandbox, run_cli, sandbox_cache


def paid_call_record() -> list[dict[str, Any]]:
    path = sandbox_cache() / "paid-calls.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_a_paid_run_without_a_terminal_needs_yes(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    code, out, err = run_cli(capsys, "dossier", samples["company"])
    assert code == 2 and out == ""
    assert "will cost" in err and "add --yes" in err
    assert "Gate: any lawsuit at all?: 1 billable call to the datalake" in err
    code, out, err = run_cli(capsys, "dossier", samples["company"], "--offline")
    assert code == EXIT_NOTHING_MATCHED and "no dossier" in err  # nothing run, nothing kept


def test_the_json_report_has_one_key_per_section(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    code, out, err = run_cli(capsys, "dossier", samples["busy_person"], "--format", "json", "--yes")
    assert code == 0, err
    data = json.loads(out)
    for key in ("entity", "counts", "aggregations", "lawsuits", "warrants", "executions"):
        assert data[key], key
    assert data["decision"] is None
    assert data["steps"]["warrants"]["cost"]["requests"] == 1
    assert data["steps"]["count"]["cost"]["calls"] == 4
    assert all(step["fetched_at"] for step in data["steps"].values())
    assert len(data["lawsuits"]) == data["counts"][0]["total"]
    assert "Arrest warrants: done" in err
    # Its two searches are paid: named as they are made and in the record of paid calls
    # (D136), as every command's are.
    created = {line["ids"][0] for line in paid_call_record() if line["kind"] == "request"}
    assert len(created) == 2
    assert all(f"created request {request_id}" in err for request_id in created)

    # Again, offline: the same dossier from the cache, no question.
    code, again, err = run_cli(
        capsys, "dossier", samples["busy_person"], "--format", "json", "--offline"
    )
    assert code == 0, err
    kept = json.loads(again)
    assert kept["counts"] == data["counts"] and len(kept["lawsuits"]) == len(data["lawsuits"])


def test_steps_markdown_and_a_file_never_replaced(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any], tmp_path: Path
) -> None:
    out_file = tmp_path / "company.md"
    code, out, err = run_cli(
        capsys,
        "dossier",
        samples["company"],
        "--steps",
        "gate,entity",
        "--out",
        str(out_file),
        "--yes",
    )
    assert code == 0, err
    assert out == "" and "report saved" in err
    text = out_file.read_text(encoding="utf-8")
    assert text.startswith("# Dossier: ") and "## Identity (registration data)" in text
    assert "Partners and administrators (QSA):" in text
    assert (out_file.stat().st_mode & 0o777) == 0o600
    code, _out, err = run_cli(capsys, "dossier", samples["company"], "--out", str(out_file))
    assert code == 2 and "already exists" in err
    assert out_file.read_text(encoding="utf-8") == text


def test_a_search_answered_only_with_errors_is_no_clean_record(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    def bnmp_down(state: Any, settings: Any) -> None:
        state.faults.courts_down = {"BNMP"}

    change_sandbox(monkeypatch, bnmp_down)
    busy = samples["busy_person"]
    argv = ["dossier", busy, "--steps", "warrants,executions", "--format", "json", "--yes"]
    code, out, err = run_cli(capsys, *argv)
    # D199: before, the CRAWLER_ERROR was read as "no warrant" and the run exited 0.
    assert code == EXIT_APPLICATION_ERROR, err
    data = json.loads(out)
    assert data["warrants"] is None and data["executions"]  # unknown, not none
    warrants = data["steps"]["warrants"]
    assert warrants["status"] == "failed" and warrants["error_codes"] == ["CRAWLER_ERROR"]
    assert "BNMP" in warrants["problem"]
    code, out, err = run_cli(capsys, "dossier", busy, "--offline")
    assert code == 0, err
    assert "could not search" in out and "none found at the BNMP" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["311007/SP"], "CPF or a CNPJ"),
        (["{company}", "--steps", "gate,nope"], "unknown step"),
        (["{company}", "--profile", "nope"], "no dossier profile"),
        (["{company}", "--format", "pdf"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any], argv: list[str], message: str
) -> None:
    args = [a.format(company=samples["company"]) for a in argv]
    code, out, err = run_cli(capsys, "dossier", *args)
    assert code == 2 and out == ""
    assert message in err

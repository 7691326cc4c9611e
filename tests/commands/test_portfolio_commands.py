"""``lawsuit-tui portfolio``: import (preview, --dry-run, --json, exit codes), status and
bulk changes from the command line (D161, D165)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli_run import run_cli as run


@pytest.fixture
def carteira(tmp_path: Path, samples: dict[str, Any]) -> Path:
    """A Brazilian Excel's CSV: semicolons, Windows-1252, a header in Portuguese."""
    lines = ["Processo;Nível;Etiquetas"]
    lines += [f"{key};quente;vip" for key in samples["lawsuit_cnj"][:2]]
    lines += [f"{key};;cobrança" for key in samples["cpf"][:2]]
    lines.append(f"{samples['cpf'][0]};frio;")  # a duplicate
    lines.append("123.456.789-00;;")  # wrong check digits
    path = tmp_path / "carteira.csv"
    path.write_bytes("\r\n".join(lines).encode("cp1252"))
    return path


def test_dry_run_json_sends_nothing(capsys: pytest.CaptureFixture[str], carteira: Path) -> None:
    code, out, err = run(capsys, "portfolio", "import", str(carteira), "--dry-run", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["dry_run"] is True
    assert report["rows"] == 6 and report["valid"] == 4
    assert report["invalid"] == [
        {
            "row": 7,
            "key": "123.456.789-00",
            "code": "check_digits",
            "error": report["invalid"][0]["error"],
        }
    ]
    assert "09" in report["invalid"][0]["error"]
    assert report["duplicates"] == [{"row": 6, "key": report["duplicates"][0]["key"], "same_as": 4}]
    assert report["already_tracked"] == [] and report["created"] == []
    assert report["to_create"] == 4
    assert report["by_tier"] == {"hot": 2, "warm": 2}
    assert report["monthly_runs"]["hot"] == 60 and report["monthly_runs"]["total"] > 60


def test_import_prints_the_preview_and_creates(
    capsys: pytest.CaptureFixture[str], carteira: Path
) -> None:
    code, out, err = run(capsys, "portfolio", "import", str(carteira), "--tier", "cold")
    assert code == 0, err
    assert "6 rows · 4 valid · 1 invalid · 1 repeated" in out
    assert "row 7: 123.456.789-00" in out
    assert "To create: 4" in out and "cold 2" in out  # --tier: the rows that name none
    assert "Created 4 · tracked already 0 · refused 0" in out


def test_import_json_lists_what_was_created(
    capsys: pytest.CaptureFixture[str], carteira: Path
) -> None:
    code, out, err = run(
        capsys, "portfolio", "import", str(carteira), "--json", "--chunk-size", "3"
    )
    assert code == 0, err
    report = json.loads(out)
    assert len(report["created"]) == 4 and report["failed"] == []
    assert all(item["tracking_id"] for item in report["created"])
    assert report["calls"] >= 2 and report["rate_limited"] == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["portfolio", "import", "missing.csv"], "no such file"),
        (["portfolio", "import", "{carteira}", "--tier", "tepid"], "not a tier"),
        (["portfolio", "import", "{carteira}", "--chunk-size", "1001"], "at most 1000"),
        (["portfolio", "pause"], "say which trackings"),
        (["portfolio", "set-tier", "hot", "--tier", "cold"], "--yes"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], carteira: Path, argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *(a.format(carteira=carteira) for a in argv))
    assert code == 2
    assert message in err
    assert out == ""


def test_a_configuration_without_the_default_tier_is_exit_2(
    capsys: pytest.CaptureFixture[str], carteira: Path, isolated_config: Path
) -> None:
    isolated_config.parent.mkdir(parents=True, exist_ok=True)
    isolated_config.write_text('[portfolio]\ndefault_tier = "tepid"\n', encoding="utf-8")
    code, _out, err = run(capsys, "portfolio", "import", str(carteira), "--dry-run")
    assert code == 2 and "portfolio.default_tier" in err


def test_status_and_a_bulk_change_in_json(
    capsys: pytest.CaptureFixture[str], carteira: Path
) -> None:
    code, out, err = run(capsys, "portfolio", "status", "--json")
    assert code == 0, err
    assert json.loads(out) == {
        "tracked_items": 0,
        "total": 0,
        "by_tier": {},
        "by_status": {},
        "monthly_runs": 0,
    }
    code, out, err = run(capsys, "portfolio", "pause", "--tier", "hot", "--yes", "--json")
    assert code == 4, err  # D135: the selection matched no tracking
    report = json.loads(out)
    assert report["operation"] == "pause" and report["affected"] == 0

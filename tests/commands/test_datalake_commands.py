"""`lawsuit-tui datalake ...` end to end (cli.main -> commands -> services -> sandbox), D111."""

from __future__ import annotations

import json
from typing import Any

import pytest

from lawsuit_tui import cli


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(["datalake", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_entity_as_text_and_json(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    code, out, err = run(capsys, "entity", samples["company"])
    assert code == 0, err
    assert "Partners:" in out and "Sócio-Administrador" in out and "Receita Federal: active" in out
    assert "1 billable call to the datalake" in err
    code, out, err = run(capsys, "entity", samples["busy_person"], "--json", "--max-age", "24")
    assert code == 0, err
    data = json.loads(out)
    (person,) = data["entities"]
    assert person["main_document"] == samples["busy_person"]
    assert data["cost"]["calls"] == 1 and data["cost"]["from_cache"] is False
    code, out, _err = run(capsys, "entity", samples["busy_person"], "--json", "--max-age", "24")
    again = json.loads(out)
    assert again["cost"] == {**data["cost"], "calls": 0, "from_cache": True}  # kept, no call
    code, out, _err = run(capsys, "entity", samples["homonym_name"], "--json")
    assert code == 0 and len(json.loads(out)["entities"]) >= 2  # a name: every homonym
    # D135: nothing by the key named (the answer is still shown, and paid)
    code, out, err = run(capsys, "entity", samples["no_data"]["cpf"])
    assert code == 4 and out.startswith("No registration data for") and "billable" in err
    code, out, _err = run(capsys, "entity", samples["no_data"]["cpf"], "--json")
    assert code == 4 and json.loads(out)["entities"] == []


def test_count_and_synthetic_agree(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    busy = samples["busy_person"]
    code, out, err = run(capsys, "count", busy, "--side", "passive", "--json")
    assert code == 0, err
    counted = json.loads(out)
    assert counted["filter"] == {"side": "Passive"} and counted["total"] > 0
    code, out, err = run(capsys, "synthetic", busy, "--side", "passive", "--json")
    assert code == 0, err
    assert json.loads(out)["aggregations"]["lawsuits_count"] == counted["total"]
    code, out, err = run(capsys, "synthetic", busy, "--tribunal", "TJSP")
    assert code == 0, err
    assert out.splitlines()[1].startswith("Sides: ") and "Courts: TJSP" in out
    code, out, err = run(capsys, "count", busy, "--distributed-from", "01/01/2020")
    assert code == 0 and "lawsuits for 371.324.922-92" in out


def test_steps_and_the_stored_copy(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    two = samples["two_instance_lawsuit"]
    code, out, err = run(capsys, "steps", two, samples["no_data"]["lawsuit_cnj"], "--json")
    assert code == 0, err
    items = json.loads(out)["items"]
    assert [i["instance"] for i in items if i["code"] == two] == [1, 2]
    assert any(i.get("error_message", "").startswith("LAWSUIT_NOT_FOUND") for i in items)
    code, out, err = run(capsys, "lawsuit", two)
    assert code == 0 and out.startswith(two) and "stored copy updated" in out
    code, out, err = run(capsys, "lawsuit", samples["never_captured_lawsuit"])
    assert code == 4 and out == "" and len(err.strip().splitlines()) == 1  # D135


def test_offline_answers_only_what_is_kept(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    cpf = samples["cpf"][0]
    code, _out, err = run(capsys, "count", cpf, "--offline")
    assert code == 4 and "without --offline" in err  # D135: nothing kept by that name
    assert run(capsys, "count", cpf)[0] == 0
    code, out, err = run(capsys, "count", cpf, "--offline", "--json")
    assert code == 0 and json.loads(out)["cost"]["calls"] == 0
    code, _out, err = run(capsys, "steps", samples["lawsuit_cnj"][0], "--offline")
    assert code == 4


@pytest.mark.parametrize(
    "argv",
    [
        ("entity", "123456SP"),
        ("entity", "12"),
        ("count", "529.982.247-00"),
        ("count", "52998224725", "--tribunal", "XYZ"),
        ("count", "52998224725", "--tribunal", "TJSP", "--exclude-tribunal", "TRT2"),
        ("count", "52998224725", "--distributed-from", "31/02/2024"),
        ("count", "52998224725", "--amount-min", "500", "--amount-max", "10"),
        ("steps", "123"),
        ("lawsuit", "52998224725"),
    ],
)
def test_bad_input_is_one_line_and_exit_2_before_any_call(
    capsys: pytest.CaptureFixture[str], no_calls: None, argv: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2, err
    assert out == "" and len(err.strip().splitlines()) == 1

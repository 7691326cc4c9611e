"""`request` with warrant, execution and the other search types, and `transfer-files`, end to
end (cli.main -> commands -> services -> sandbox)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lawsuit_tui.commands.output import EXIT_NOTHING_MATCHED
from lawsuit_tui.services import context
from tests.support.cli_run import run_cli as run


@pytest.fixture
def no_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    async def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("no call may be made for bad input")

    monkeypatch.setattr(context.ServiceContext, "open", refuse)


def test_a_warrant_search(capsys: pytest.CaptureFixture[str], samples: dict[str, Any]) -> None:
    code, out, err = run(
        capsys, "request", samples["busy_person"], "--response-type", "warrant", "--wait", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    kinds = {r["response_type"] for r in data["responses"]}
    assert kinds == {"warrant"}
    assert data["requests"][0]["search"]["response_type"] == "warrant"


def test_an_execution_search_by_name(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    from tests.support.samples import shared_world

    name = shared_world().pop.entities[samples["busy_person"]].name
    code, out, err = run(
        capsys,
        "request",
        name,
        "--search-type",
        "name",
        "--response-type",
        "execution",
        "--wait",
    )
    assert code == 0, err
    assert samples["penal_execution"] in out
    assert "execution" in out


def test_search_types_checked_before_any_call(
    capsys: pytest.CaptureFixture[str], no_calls: None, samples: dict[str, Any]
) -> None:
    code, out, err = run(capsys, "request", "RJI-ABC", "--search-type", "rji")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    cnj = samples["lawsuit_cnj"][0]
    code, _out, err = run(capsys, "request", cnj, "--search-type", "lawsuit_attachment")
    assert code == 2 and "attachment_id" in err
    code, _out, err = run(capsys, "request", samples["cpf"][0], "--search-type", "cnpj")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_transfer_files_list_get_download_mark(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run(capsys, "transfer-files", "list")
    assert code == 0, err
    assert len(out.strip().splitlines()) == 8
    code, out, err = run(capsys, "transfer-files", "list", "--status", "completed", "--json")
    assert code == 0, err
    ready = json.loads(out)["transfer_files"]
    assert ready and {f["status"] for f in ready} == {"completed"}
    first = ready[0]
    code, out, err = run(capsys, "transfer-files", "get", first["transfer_file_id"], "--json")
    assert code == 0, err
    assert json.loads(out)["pre_signed_url"]
    code, out, err = run(
        capsys,
        "transfer-files",
        "download",
        first["transfer_file_id"],
        "--to",
        str(tmp_path),
        "--mark",
        "--json",
    )
    assert code == 0, err
    saved = json.loads(out)
    assert Path(saved["path"]).read_bytes() and Path(saved["path"]).parent == tmp_path
    assert Path(saved["path"]).name == first["name"]
    assert saved["marked"] is True
    # Each command runs its own in-process sandbox (kept in memory): a mark is seen in its
    # own answer; the sandbox kept on disk will carry it to the next command.
    code, out, err = run(
        capsys, "transfer-files", "mark", first["transfer_file_id"], "error", "--message", "vazio"
    )
    assert code == 0, err
    assert "reported error" in out


def test_transfer_files_refusals(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "transfer-files", "list", "--status", "pending", "--json")
    pending = json.loads(out)["transfer_files"][0]["transfer_file_id"]
    code, out, err = run(capsys, "transfer-files", "download", pending, "--to", str(tmp_path))
    assert code == 1 and out == "" and len(err.strip().splitlines()) == 1
    code, out, err = run(capsys, "transfer-files", "get", "no-such-file")
    # D135: an id the service does not know is "nothing matched", as a request not cached
    assert code == EXIT_NOTHING_MATCHED and len(err.strip().splitlines()) == 1


def test_an_error_needs_a_message(capsys: pytest.CaptureFixture[str], no_calls: None) -> None:
    code, out, err = run(capsys, "transfer-files", "mark", "some-id", "error")
    assert code == 2 and out == "" and "--message" in err

"""`lawsuit-tui response ID [--json]` (D90): one response by its id, from a script."""

from __future__ import annotations

import json
from typing import Any

import pytest

from lawsuit_tui.services import context
from tests.support.cli_run import run_cli as run


def test_a_response_by_its_id_plain_and_json(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    code, out, err = run(capsys, "request", samples["moving_lawsuit"], "--wait", "--json")
    assert code == 0, err
    first = json.loads(out)["responses"][0]
    code, out, err = run(capsys, "response", first["response_id"])
    assert code == 0, err
    assert first["response_id"] in out and first["request_id"] in out
    assert samples["moving_lawsuit"] in out
    code, out, err = run(capsys, "response", first["response_id"], "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["response_id"] == first["response_id"]
    assert shown["response_data"]["code"] == first["response_data"]["code"]


def test_an_unknown_id_is_one_line_and_exit_4(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "response", "00000000-0000-0000-0000-000000000000")
    assert code == 4 and out == ""  # D135: nothing by that id
    assert len(err.strip().splitlines()) == 1 and "RESPONSE_NOT_FOUND" in err


def test_an_id_with_spaces_is_refused_before_any_call(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("no call may be made for bad input")

    monkeypatch.setattr(context.ServiceContext, "open", refuse)
    code, out, err = run(capsys, "response", "two words")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1

"""Damage is never silent (D139-D142), and exit codes tell what a bare "failed" would hide
(D135; issue 18).

The measured failures, each reproduced: the writing command after damage exited 0 and hid
it; `cache verify` then said all was well; `export` exported what was left (exit 0), or
failed whole on one bad record with a traceback; `request --wait` answered only by
SECRECY_RESTRICTED exited 0; `export --request-id nope` printed [] with exit 0; `export
--out` replaced an existing file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest

from lawsuit_tui import cli
from lawsuit_tui.commands.output import (
    EXIT_APPLICATION_ERROR,
    EXIT_BAD_INPUT,
    EXIT_DAMAGED,
    EXIT_NOTHING_MATCHED,
    EXIT_OK,
    EXIT_REFUSED,
)
from tests.support.cli_run import run_cli as run
from tests.support.cli_run import sandbox_cache


def two_requests(capsys: pytest.CaptureFixture[str], samples: dict[str, Any]) -> list[str]:
    ids = []
    for cpf in samples["cpf"][:2]:
        code, out, err = run(capsys, "request", cpf, "--json")
        assert code == EXIT_OK, err
        ids.append(json.loads(out)["requests"][0]["request_id"])
    return ids


def shard_of(request_id: str) -> Path:
    for path in (sandbox_cache() / "tables").glob("requests-*.json"):
        if request_id.encode() in path.read_bytes():
            return path
    raise AssertionError(f"no shard holds {request_id}")


def test_damage_stays_reported_until_acknowledged(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    lost, kept = two_requests(capsys, samples)
    victim = shard_of(lost)
    victim.write_bytes(victim.read_bytes()[:40])  # cut short: the record is gone
    code, out, _err = run(capsys, "cache", "verify")
    assert code == EXIT_REFUSED and victim.name in out

    # The next writing command sets the file aside, and says so: not exit 0. The request the
    # file held was paid for: the record of paid calls brings it back at once.
    code, out, err = run(capsys, "lookup", samples["lawsuit_cnj"][0])
    assert code == EXIT_DAMAGED, err
    assert victim.name in err and "set aside" in err and "--acknowledge" in err
    assert "nothing in it could be read" in err
    assert f"brought into the cache from the record of paid calls: request {lost}" in err
    assert samples["lawsuit_cnj"][0] in out  # the lookup itself was done

    # From then on verify still reports it, and the export says it may lack something.
    code, out, _err = run(capsys, "cache", "verify")
    assert code == EXIT_REFUSED
    assert "every file could be read" not in out and f"{victim.name}.damaged-" in out
    code, out, err = run(capsys, "export", "requests", "--format", "jsonl")
    assert code == EXIT_DAMAGED and "not yet acknowledged" in err
    assert {json.loads(line)["request_id"] for line in out.splitlines()} == {lost, kept}
    code, _out, err = run(capsys, "lookup", samples["lawsuit_cnj"][0])
    assert code == EXIT_OK and "not yet acknowledged" in err  # said every time, until...

    code, out, _err = run(capsys, "cache", "verify", "--acknowledge")
    assert code == EXIT_OK and "Acknowledged" in out
    code, _out, err = run(capsys, "export", "requests")
    assert code == EXIT_OK and err == ""
    assert list(victim.parent.glob(f"{victim.name}.damaged-*"))  # kept for inspection
    code, out, err = run(capsys, "cache", "recover", "--all")
    assert code == EXIT_OK, err
    assert "0 brought into the cache, 2 already there" in out


def test_an_unreadable_record_is_skipped_and_named(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    bad, good = two_requests(capsys, samples)
    victim = shard_of(bad)
    data = orjson.loads(victim.read_bytes())
    for doc in data["records"].values():
        if doc["k"] == bad:
            doc["b"] = "z:this is not what a body looks like"
    victim.write_bytes(orjson.dumps(data))
    code, out, err = run(capsys, "export", "requests", "--format", "jsonl")
    assert code == EXIT_REFUSED
    assert "Traceback" not in err and f"requests {bad}" in err
    assert [json.loads(line)["request_id"] for line in out.splitlines()] == [good]


def test_a_request_answered_only_by_an_application_error_is_not_a_success(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    secret = samples["secret_lawsuit"]["code"]
    code, out, err = run(capsys, "request", secret, "--wait", "--json")
    assert code == EXIT_APPLICATION_ERROR, err
    responses = json.loads(out)["responses"]
    assert responses and all(r["response_type"] == "application_error" for r in responses)


def test_an_export_of_a_request_the_cache_does_not_hold_matches_nothing(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    [known, _other] = two_requests(capsys, samples)
    code, out, err = run(capsys, "export", "requests", "--request-id", "nope")
    assert code == EXIT_NOTHING_MATCHED and "nope" in err
    assert json.loads(out) == []
    code, out, _err = run(capsys, "export", "requests", "--request-id", known)
    assert code == EXIT_OK and json.loads(out)[0]["request_id"] == known


def test_export_out_never_replaces_a_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "mine.json"
    target.write_text("the user's own file")
    code, out, err = run(capsys, "export", "requests", "--out", str(target))
    assert code == EXIT_BAD_INPUT and "exists" in err and out == ""
    assert target.read_text() == "the user's own file"
    fresh = tmp_path / "new" / "requests.json"
    code, _out, err = run(capsys, "export", "requests", "--out", str(fresh))
    assert code == EXIT_OK, err
    assert json.loads(fresh.read_text()) == []


def test_help_lists_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["request", "--help"], ["cache", "verify", "--help"]):
        assert cli.main(argv) == 0
        out = capsys.readouterr().out
        assert "exit codes:" in out
        for code in ("0", "1", "2", "3", "4", "5", "6", "141"):
            assert f"\n  {code}  " in out

"""A paid call is recorded before anything else can fail (issue 18, D136).

The failures are real: a child process on a full disk (a 4 KiB tmpfs over the cache's
journal, in its own mount namespace) or under a file size limit (RLIMIT_FSIZE).
"""

from __future__ import annotations

import json
import os
import re
import stat
from typing import Any

import pytest

from lawsuit_tui.commands.output import EXIT_NOT_KEPT, EXIT_REFUSED
from lawsuit_tui.store import Store
from tests.support.cli_run import run_cli as run
from tests.support.cli_run import sandbox_cache
from tests.support.confined import cannot_mount, lawsuit_tui, shell_quote

CREATED = re.compile(r"created request ([0-9a-f-]{36})")


def record_lines() -> list[dict[str, Any]]:
    path = sandbox_cache() / "paid-calls.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def cached_request(request_id: str) -> dict[str, Any] | None:
    with Store.open(sandbox_cache(), read_only=True) as store:
        return store.get_request(request_id)


def child_env() -> dict[str, str]:
    return {**os.environ, "LAWSUIT_TUI_SANDBOX__SPEED": "50"}


def test_every_created_request_is_named_and_recorded(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    code, out, err = run(capsys, "request", samples["cpf"][0], "--json")
    assert code == 0, err
    request_id = json.loads(out)["requests"][0]["request_id"]
    assert f"created request {request_id}" in err
    [line] = record_lines()
    assert line["kind"] == "request" and line["ids"] == [request_id]
    assert line["answer"]["request_id"] == request_id
    assert stat.S_IMODE((sandbox_cache() / "paid-calls.jsonl").stat().st_mode) == 0o600
    # The next run finds it in the cache: nothing to bring back, no call made for it.
    code, out, err = run(capsys, "cache", "recover")
    assert code == 0, err
    assert "0 brought into the cache, 1 already there" in out


def test_on_a_full_disk_nothing_is_sent(samples: dict[str, Any]) -> None:
    reason = cannot_mount()
    if reason:
        pytest.skip(reason)
    journal = sandbox_cache() / "journal"
    journal.mkdir(parents=True)
    # The journal lives on a 4 KiB file system, already full; the rest of the cache does not.
    mounts = (
        f"mount -t tmpfs -o size=4k,mode=0700 tmpfs {shell_quote(journal)}\n"
        f"dd if=/dev/zero of={shell_quote(journal / 'filler')} bs=1k count=64 2>/dev/null"
        " || true"
    )
    result = lawsuit_tui(["request", samples["cpf"][0], "--wait"], child_env(), mounts=mounts)
    assert result.returncode == EXIT_REFUSED, result.stderr
    assert "Traceback" not in result.stderr
    assert "the disk is full" in result.stderr and str(journal) in result.stderr
    assert "Nothing was sent" in result.stderr
    assert not CREATED.search(result.stderr)
    assert not (sandbox_cache() / "paid-calls.jsonl").exists()


@pytest.mark.parametrize("wait", [False, True], ids=["request", "request --wait"])
def test_under_a_file_size_limit_the_id_is_still_shown(wait: bool, samples: dict[str, Any]) -> None:
    args = ["request", samples["cpf"][0]] + (["--wait"] if wait else [])
    # Enough for the lock and the schema, not for a journal entry nor a line of the record.
    result = lawsuit_tui(args, child_env(), file_size_limit=400)
    assert result.returncode == EXIT_NOT_KEPT, result.stderr
    assert "Traceback" not in result.stderr
    found = CREATED.search(result.stderr)
    assert found, result.stderr
    # Not even the record could hold it: the message says so, and to keep the id.
    assert "NOT recorded" in result.stderr and found.group(1) in result.stderr.split("NOT")[1]

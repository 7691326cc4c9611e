"""OS errors on the cache are sentences (D143) naming the path and what to do, never tracebacks
(issue 18): a read-only file system, a directory not writable, a file in the way, a
closed standard output. Real processes, real mounts (a read-only bind in a private mount
namespace) and real modes (a child without capabilities, so root obeys them too)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from lawsuit_tui import cli
from lawsuit_tui.commands.output import EXIT_NOT_KEPT, EXIT_OK, EXIT_REFUSED
from tests.support.confined import (
    ROOT,
    cannot_drop_privileges,
    cannot_mount,
    lawsuit_tui,
    shell_quote,
)


def cache_base() -> Path:
    return Path(os.environ["LAWSUIT_TUI_CACHE_DIR"])


def a_cache_with_a_lookup(capsys: pytest.CaptureFixture[str], key: str) -> None:
    assert cli.main(["lookup", key]) == EXIT_OK
    capsys.readouterr()


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr and "Error:" not in result.stderr, result.stderr


def test_a_read_only_file_system(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    reason = cannot_mount()
    if reason:
        pytest.skip(reason)
    key = samples["lawsuit_cnj"][0]
    a_cache_with_a_lookup(capsys, key)
    base = shell_quote(cache_base())
    read_only = f"mount --bind {base} {base}\nmount -o remount,ro,bind {base} {base}"
    result = lawsuit_tui(["lookup", key], dict(os.environ), mounts=read_only)
    no_traceback(result)
    assert result.returncode == EXIT_NOT_KEPT
    assert key in result.stdout  # read and shown all the same
    assert "read-only file system" in result.stderr and str(cache_base()) in result.stderr
    assert "not kept in the cache" in result.stderr
    result = lawsuit_tui(["request", samples["cpf"][0]], dict(os.environ), mounts=read_only)
    no_traceback(result)
    assert result.returncode == EXIT_REFUSED and "Nothing was sent" in result.stderr


def test_a_cache_directory_that_is_not_writable(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    reason = cannot_drop_privileges()
    if reason or os.geteuid() != 0:
        pytest.skip(reason or "giving a directory to another user needs root")
    key = samples["lawsuit_cnj"][0]
    a_cache_with_a_lookup(capsys, key)
    cache = cache_base() / "sandbox"
    # Made by someone else (a `sudo lawsuit-tui` once): not ours to write, nor to chmod.
    os.chown(cache, 65534, 65534)
    cache.chmod(0o755)
    try:
        result = lawsuit_tui(["lookup", key], dict(os.environ), unprivileged=True)
        no_traceback(result)
        assert result.returncode == EXIT_NOT_KEPT
        assert "permission denied" in result.stderr and "chmod" in result.stderr
        result = lawsuit_tui(["cache", "stats"], dict(os.environ), unprivileged=True)
        no_traceback(result)
        assert result.returncode == EXIT_OK  # reading needs no more than reading
    finally:
        os.chown(cache, os.getuid(), os.getgid())
        cache.chmod(0o700)


def test_a_cache_path_under_a_file(
    capsys: pytest.CaptureFixture[str], samples: dict[str, Any]
) -> None:
    cache_base().parent.mkdir(parents=True, exist_ok=True)
    cache_base().write_text("a file where the cache directory should be")
    code = cli.main(["lookup", samples["lawsuit_cnj"][0]])
    err = capsys.readouterr().err
    assert code == EXIT_NOT_KEPT
    assert "is a file, not a directory" in err and str(cache_base()) in err
    code = cli.main(["request", samples["cpf"][0]])
    assert code == EXIT_REFUSED and "Nothing was sent" in capsys.readouterr().err


def test_a_reader_that_stopped_reading_is_no_traceback() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # `| head` has already gone: every write meets a closed pipe
    try:
        result = subprocess.run(
            [sys.executable, "-m", "lawsuit_tui", "cache", "stats"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)
    assert result.returncode == 141
    assert result.stderr == ""


def test_a_search_in_a_cache_that_is_a_file_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    cache = cache_base() / "sandbox"
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text("a file where the cache directory should be")
    code = cli.main(["search", "anything"])
    err = capsys.readouterr().err
    assert code == EXIT_REFUSED
    assert "Traceback" not in err and str(cache) in err

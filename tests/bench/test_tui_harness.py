"""Smoke tests of the TUI benchmark's machinery (bench/tui.py and its helpers).

No timed assertions: these check that the parsing of what tmux, /proc and ``-X importtime``
print works on canned input, that the command answers, and that a tmux session can be
driven and cleaned up.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench import _tui_parse as tp
from bench._tui_fill import FillPlan, big_request_codes, lawsuit_code
from lawsuit_tui.domain.identifiers import make_cnj as cnj

ROOT = Path(__file__).resolve().parents[2]

PROC_STATUS = """Name:\tpython3.11
Umask:\t0022
State:\tS (sleeping)
Pid:\t4242
PPid:\t4200
VmPeak:\t  412000 kB
VmSize:\t  400000 kB
VmHWM:\t   68352 kB
VmRSS:\t   61440 kB
RssAnon:\t   40000 kB
Threads:\t3
"""


def test_proc_status_memory_fields_in_bytes() -> None:
    fields = tp.parse_proc_status(PROC_STATUS)
    assert fields["VmHWM"] == 68352 * 1024
    assert fields["VmRSS"] == 61440 * 1024
    assert fields["RssAnon"] == 40000 * 1024
    assert "Threads" not in fields


def test_ppid_survives_a_command_name_with_spaces_and_parens() -> None:
    assert tp.parse_ppid("4242 (python (bench) x) S 4200 4242 4200 0 -1") == 4200
    assert tp.parse_ppid("garbage") is None


def test_descendants_walk_the_whole_tree_only() -> None:
    parents = {10: 1, 11: 10, 12: 11, 13: 10, 20: 1, 21: 20}
    assert sorted(tp.descendants(10, parents)) == [10, 11, 12, 13]
    assert tp.descendants(99, parents) == [99]


def test_control_parser_keeps_command_output_and_drops_notifications() -> None:
    parser = tp.ControlParser()
    lines = [
        "%begin 1700000000 5 1",
        "%end 1700000000 5 1",
        "%session-changed $1 bench-1-ctl",
        "%output %1 \\033[0mhello",
        "%begin 1700000001 6 1",
        " lawsuit-tui › Lookup",
        "  CNJ number, CPF, CNPJ or OAB — then Enter",
        "%end 1700000001 6 1",
        "%begin 1700000002 7 1",
        "can't find session: nope",
        "%error 1700000002 7 1",
    ]
    blocks = [b for b in (parser.feed(line) for line in lines) if b is not None]
    assert [b.number for b in blocks] == [5, 6, 7]
    assert blocks[0].lines == []
    assert blocks[1].ok and blocks[1].lines[1].endswith("then Enter")
    assert not blocks[2].ok and blocks[2].lines == ["can't find session: nope"]


IMPORTTIME = """import time: self [us] | cumulative | imported package
import time:       120 |        120 |   _io
import time:      3000 |       3000 |       pydantic_core._pydantic_core
import time:      1500 |       4500 |     pydantic_core
import time:       800 |       5300 |   pydantic
import time:     40000 |      45300 | lawsuit_tui.config
import time:      9000 |       9000 | textual.app
something else on stderr
"""


def test_importtime_parsing_and_rankings() -> None:
    entries = tp.parse_importtime(IMPORTTIME)
    assert [e.module for e in entries] == [
        "_io",
        "pydantic_core._pydantic_core",
        "pydantic_core",
        "pydantic",
        "lawsuit_tui.config",
        "textual.app",
    ]
    assert [e.depth for e in entries] == [1, 3, 2, 1, 0, 0]
    assert tp.heaviest_modules(entries, 2)[0].module == "lawsuit_tui.config"
    assert tp.heaviest_packages(entries, 3)[0] == ("lawsuit_tui", 40000)
    assert dict(tp.heaviest_packages(entries))["pydantic_core"] == 4500
    assert [e.module for e in tp.heaviest_chains(entries)] == ["lawsuit_tui.config", "textual.app"]


def test_statistics_and_report_lines() -> None:
    values = [0.05 + n / 1000 for n in range(20)]
    summary = tp.summarize(values)
    assert summary.count == 20
    assert summary.low == values[0] and summary.high == values[-1]
    assert summary.p95 == values[18]  # nearest rank: ceil(0.95 * 20) = 19th
    assert tp.percentile([3.0], 0.95) == 3.0
    with pytest.raises(ValueError):
        tp.percentile([], 0.5)
    assert tp.figure_line("x", "1 ms", "< 2 ms", True) == "x: 1 ms (target < 2 ms) met"
    assert tp.figure_line("x", "3 ms", "< 2 ms", False).endswith("MISSED")
    assert tp.figure_line("x", "3 ms") == "x: 3 ms"
    assert tp.not_measured_line("y", "why") == "y: not measured: why"
    assert tp.mib(70 * 2**20) == "70.0 MiB"
    assert tp.ms(0.1504) == "150 ms"


def test_import_log_lines() -> None:
    from bench.tui import parse_import_log

    entries = parse_import_log("12.5 textual.app\n13.0 pydantic\nnot a line\n")
    assert entries == [(12.5, "textual.app"), (13.0, "pydantic")]


def test_stalls_are_read_and_told_by_step() -> None:
    stalls = tp.parse_stalls("10.0 0.030\n10.5 0.150\nbroken\n12.0 0.090\n12.1 0.120\n20.0 1.0\n")
    assert stalls == [(10.0, 0.03), (10.5, 0.15), (12.0, 0.09), (12.1, 0.12), (20.0, 1.0)]
    phases = [(9.0, "opening"), (11.0, "list"), (15.0, "lawsuit")]
    assert tp.worst_by_phase(stalls, phases) == [
        ("opening", 0.15, 1),
        ("list", 0.12, 1),
        ("lawsuit", 1.0, 1),
    ]
    assert tp.worst_by_phase([], phases[:1]) == [("opening", 0.0, 0)]


def test_the_lag_probe_notes_how_long_the_loop_was_held(tmp_path: Path) -> None:
    """The probe thread sees a loop held by a blocking call, and stays quiet otherwise."""
    log = tmp_path / "lag.log"
    script = f"""
import asyncio, sys, time
sys.path.insert(0, {str(ROOT / "bench")!r})
import _tui_lagprobe
_tui_lagprobe.install({str(log)!r})

async def main():
    await asyncio.sleep(0.2)   # idle: nothing to note
    time.sleep(0.3)            # a call that holds the loop
    await asyncio.sleep(0.2)

asyncio.run(main())
"""
    subprocess.run([sys.executable, "-c", script], check=True, timeout=30)
    stalls = tp.parse_stalls(log.read_text())
    assert stalls, "the held loop was not noticed"
    assert max(waited for _sent, waited in stalls) >= 0.2


def test_fill_plan_codes_are_valid_cnj_numbers() -> None:
    from lawsuit_tui.domain.identifiers import parse_search_key

    for n in (0, 1, 9_999, 19_999):
        code = lawsuit_code(n)
        assert parse_search_key(code).key == code
    assert cnj(1, 2020, 8, 26, 100).endswith(".2020.8.26.0100")
    plan = FillPlan().scaled(10)
    assert plan == FillPlan(5_000, 2_000, 500, 1_000)
    assert len(big_request_codes(plan)) == plan.big_request_responses


def _bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bench", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_bench_tui_help_answers() -> None:
    proc = _bench("tui", "--help")
    assert proc.returncode == 0, proc.stderr
    assert "--runs" in proc.stdout and "--quick" in proc.stdout


def test_floor_app_is_not_a_benchmark_of_its_own() -> None:
    proc = _bench("floor_app")
    assert proc.returncode == 0, proc.stderr
    assert "floor of `bench tui`" in proc.stdout


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_tmux_session_is_driven_and_cleaned_up(tmp_path: Path) -> None:
    from bench._tui_tmux import Tmux

    with Tmux() as tmux:
        launch = tmux.launch(
            ["/bin/sh", "-c", 'echo "bench-$0-ready"; exec sleep 30', "smoke"],
            env={"LANG": "C.UTF-8"},
            unset=[],
            size=(80, 24),
            cwd=str(tmp_path),
        )
        start = launch.go()
        found = launch.poll(lambda s: "bench-smoke-ready" in s, start=start, timeout=10)
        assert found is not None
        pid = launch.app_pid()
        assert pid is not None
        assert launch.memory().get("VmRSS", 0) > 0
        launch.stop()
        assert not Path(f"/proc/{pid}").exists() or "Z" in _state(pid)
        socket = tmux.socket
        socket_path = tmux._socket_path
        assert socket_path.exists()
    assert not socket_path.exists()
    listed = subprocess.run(
        ["tmux", "-L", socket, "list-sessions"], capture_output=True, text=True, timeout=10
    )
    assert listed.returncode != 0  # the private server is gone


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "Z"


def test_environment_of_the_launched_apps_is_isolated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bench.tui import Setup

    monkeypatch.setenv("LAWSUIT_TUI_API_KEY", "a-key-that-must-not-reach-the-app")
    setup = Setup(tmp_path)
    env = setup.env(tmp_path / "cache")
    assert env["LAWSUIT_TUI_CONFIG"].startswith(str(tmp_path))
    assert env["LAWSUIT_TUI_CACHE_DIR"] == str(tmp_path / "cache")
    assert "LAWSUIT_TUI_API_KEY" in setup.unset
    assert "LAWSUIT_TUI_API_KEY" not in env

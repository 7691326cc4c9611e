"""Drive apps in tmux for the TUI benchmark: a private tmux server, one control-mode client.

Every command goes through one ``tmux -C`` client on a private socket (``-L bench-<pid>``,
no user config), so polling the screen every 10 ms costs a line written to a pipe instead
of a process spawned (which, on two cores, would steal time from the app being measured).
Every wait is bounded; ``close()`` kills each session and then the private server.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench._tui_parse import ControlBlock, ControlParser, descendants, parse_ppid, parse_proc_status


class TmuxError(RuntimeError):
    pass


class Tmux:
    """A private tmux server and a control-mode client talking to it."""

    def __init__(self, *, command_timeout: float = 5.0) -> None:
        self.socket = f"bench-{os.getpid()}"
        self.command_timeout = command_timeout
        self._workdir = Path(tempfile.mkdtemp(prefix="lawsuit-tui-bench-tmux-"))
        self._sessions: set[str] = set()
        self._counter = 0
        self._blocks: queue.Queue[ControlBlock | None] = queue.Queue()
        self._lock = threading.Lock()
        control = f"{self.socket}-ctl"
        self._proc = subprocess.Popen(
            [
                "tmux",
                "-L",
                self.socket,
                "-f",
                "/dev/null",
                "-C",
                "new-session",
                "-s",
                control,
                "-x",
                "80",
                "-y",
                "24",
                "exec sleep 86400",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
        )
        self._reader = threading.Thread(target=self._read, name="tmux-control", daemon=True)
        self._reader.start()
        # The first block is the attach itself; then make the server ours.
        self._wait_block()
        self._socket_path = Path(self.command("display-message -p '#{socket_path}'")[0])
        self.command("set-option -g default-shell /bin/sh")
        self.command("set-option -g remain-on-exit off")
        self.command("set-option -g status off")

    # --- the control client ----------------------------------------------------------------

    def _read(self) -> None:
        parser = ControlParser()
        assert self._proc.stdout is not None
        for raw in self._proc.stdout:
            block = parser.feed(raw.rstrip("\n").removesuffix("\r"))
            if block is not None:
                self._blocks.put(block)
        self._blocks.put(None)

    def _wait_block(self) -> ControlBlock:
        try:
            block = self._blocks.get(timeout=self.command_timeout)
        except queue.Empty:
            raise TmuxError("tmux did not answer in time") from None
        if block is None:
            raise TmuxError("the tmux control client ended")
        return block

    def command(self, line: str, *, check: bool = True) -> list[str]:
        """Run one tmux command; its output lines."""
        with self._lock:
            assert self._proc.stdin is not None
            try:
                self._proc.stdin.write(line + "\n")
                self._proc.stdin.flush()
            except (BrokenPipeError, ValueError):
                raise TmuxError("the tmux control client ended") from None
            block = self._wait_block()
        if check and not block.ok:
            raise TmuxError(f"tmux {line!r}: {' '.join(block.lines)}")
        return block.lines

    # --- sessions ----------------------------------------------------------------------------

    def new_name(self) -> str:
        self._counter += 1
        return f"{self.socket}-{self._counter}"

    def launch(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str],
        unset: Sequence[str],
        size: tuple[int, int],
        cwd: str,
        stderr_path: Path | None = None,
    ) -> Launch:
        """A session whose pane waits for Enter and then execs ``argv`` (see ``Launch.go``)."""
        name = self.new_name()
        pidfile = self._workdir / f"{name}.pid"
        script = self._workdir / f"{name}.sh"
        lines = ["IFS= read -r _line", f"cd {shlex.quote(cwd)}"]
        lines += [f"unset {shlex.quote(v)}" for v in unset]
        lines += [f"export {k}={shlex.quote(v)}" for k, v in env.items()]
        lines.append(f"echo $$ > {shlex.quote(str(pidfile))}")
        redirect = f" 2>{shlex.quote(str(stderr_path))}" if stderr_path else ""
        lines.append(f"exec {shlex.join(argv)}{redirect}")
        script.write_text("\n".join(lines) + "\n")
        width, height = size
        self._sessions.add(name)
        self.command(f"new-session -d -s {name} -x {width} -y {height} 'exec /bin/sh {script}'")
        launch = Launch(self, name, pidfile)
        launch.wait_reading()
        return launch

    def kill_session(self, name: str) -> None:
        if name in self._sessions:
            self._sessions.discard(name)
            with contextlib.suppress(TmuxError):
                self.command(f"kill-session -t {name}", check=False)

    def capture(self, name: str, *, styled: bool = False) -> str:
        flags = "-p -e" if styled else "-p"
        return "\n".join(self.command(f"capture-pane {flags} -t {name}"))

    def send_keys(self, name: str, *keys: str) -> None:
        self.command(f"send-keys -t {name} {' '.join(keys)}")

    def send_text(self, name: str, text: str) -> None:
        self.command(f"send-keys -t {name} -l {_tmux_quote(text)}")

    def pane_pid(self, name: str) -> int:
        return int(self.command(f"display-message -p -t {name} '#{{pane_pid}}'")[0])

    def close(self) -> None:
        for name in list(self._sessions):
            self.kill_session(name)
        with contextlib.suppress(TmuxError):
            self.command("kill-server", check=False)
        try:
            self._proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait(timeout=3)
        subprocess.run(
            ["tmux", "-L", self.socket, "kill-server"],
            capture_output=True,
            timeout=5,
            check=False,
        )
        self._socket_path.unlink(missing_ok=True)  # tmux leaves it behind after kill-server
        for path in self._workdir.iterdir():
            path.unlink(missing_ok=True)
        self._workdir.rmdir()

    def __enter__(self) -> Tmux:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def _tmux_quote(text: str) -> str:
    # tmux's parser: inside single quotes nothing is special but the quote itself.
    return "'" + text.replace("'", "'\\''") + "'"


@dataclass
class Poll:
    """What a bounded poll found: when (seconds after the start) and the screen text."""

    elapsed: float
    screen: str
    before_mono: float | None = None
    """``time.monotonic()`` just before the last capture that did not match, if any: what
    happened before it (in any process) happened before the change showed."""


class Launch:
    """One app in one tmux session."""

    def __init__(self, tmux: Tmux, name: str, pidfile: Path) -> None:
        self.tmux = tmux
        self.name = name
        self._pidfile = pidfile
        self.pid: int | None = None

    def wait_reading(self, timeout: float = 5.0) -> None:
        """Wait until the pane's shell sits in ``read`` (so Enter starts the clock cleanly)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                pid = self.tmux.pane_pid(self.name)
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
                if state == "S":
                    return
            except (TmuxError, OSError, IndexError, ValueError):
                pass
            time.sleep(0.01)
        raise TmuxError(f"the pane of {self.name} did not get ready")

    def go(self) -> float:
        """Press Enter in the waiting pane: the app starts. Returns the start time."""
        start = time.perf_counter()
        self.tmux.send_keys(self.name, "Enter")
        return start

    def poll(
        self,
        predicate: Callable[[str], bool],
        *,
        start: float,
        timeout: float,
        styled: bool = False,
        interval: float = 0.01,
    ) -> Poll | None:
        """Capture every ``interval`` until ``predicate(screen)``; None after ``timeout``."""
        deadline = start + timeout
        missed: float | None = None
        while True:
            asked = time.monotonic()
            screen = self.tmux.capture(self.name, styled=styled)
            now = time.perf_counter()
            if predicate(screen):
                return Poll(now - start, screen, missed)
            missed = asked
            if now >= deadline:
                return None
            time.sleep(max(0.0, interval - (time.perf_counter() - now)))

    def settle(
        self, *, quiet: float = 0.2, timeout: float = 5.0, styled: bool = True
    ) -> str | None:
        """Wait until the screen stays the same for ``quiet`` seconds; its text, or None."""
        deadline = time.perf_counter() + timeout
        last = self.tmux.capture(self.name, styled=styled)
        since = time.perf_counter()
        while time.perf_counter() < deadline:
            time.sleep(0.02)
            screen = self.tmux.capture(self.name, styled=styled)
            if screen != last:
                last, since = screen, time.perf_counter()
            elif time.perf_counter() - since >= quiet:
                return screen
        return None

    def app_pid(self, timeout: float = 5.0) -> int | None:
        """The pid of the app's process (the script wrote it just before exec)."""
        if self.pid is not None:
            return self.pid
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                self.pid = int(self._pidfile.read_text().strip())
                return self.pid
            except (OSError, ValueError):
                time.sleep(0.01)
        return None

    def memory(self) -> dict[str, int]:
        """Memory fields (bytes) of the app's process, the largest over its process tree."""
        pid = self.app_pid()
        if pid is None:
            return {}
        best: dict[str, int] = {}
        for member in descendants(pid, _parents()):
            try:
                fields = parse_proc_status(Path(f"/proc/{member}/status").read_text())
            except OSError:
                continue
            for key, value in fields.items():
                best[key] = max(best.get(key, 0), value)
        return best

    def stop(self) -> None:
        """Kill the session, then make sure the app's own process is gone."""
        pid = self.pid
        self.tmux.kill_session(self.name)
        if pid is None:
            return
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.02)
        if _alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _parents() -> dict[int, int]:
    parents: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            ppid = parse_ppid(Path(entry.path, "stat").read_text())
        except OSError:
            continue
        if ppid is not None:
            parents[int(entry.name)] = ppid
    return parents

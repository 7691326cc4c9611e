"""The sandbox over a real port: ``python -m lawsuit_tui sandbox serve --port 0``.

A webhook receiver listens on another loopback port; its first answer is a 500, so the
delivery must come again with the same callback_id. Waits are bounded polls, not sleeps.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from tests.support.served_sandbox import SERVE, served_sandbox
from tests.support.waiting import wait_until


class _Hooks:
    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.answers = [500]
        self.lock = threading.Lock()


@pytest.fixture
def hook_server() -> Iterator[tuple[str, _Hooks]]:
    hooks = _Hooks()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            body = json.loads(self.rfile.read(length))
            with hooks.lock:
                hooks.received.append(body)
                status = hooks.answers.pop(0) if hooks.answers else 200
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook", hooks
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def _serving(
    *args: str, stop: signal.Signals, env: dict[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``sandbox serve`` (``args``) in a child process, with its first line (the root URL)
    read; at the end it is sent ``stop`` and must exit 0 within 15 s."""
    process = subprocess.Popen(
        [*SERVE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        assert process.stdout is not None
        root = process.stdout.readline().strip()
        assert root.startswith("http://127.0.0.1:"), (
            root,
            process.stderr and process.stderr.read(),
        )
        yield process, root
    finally:
        process.send_signal(stop)
        try:
            code = process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert code == 0, process.stderr.read() if process.stderr else ""


def test_serve_on_a_port_with_a_webhook_redelivered_after_500(
    hook_server: tuple[str, _Hooks], tmp_path: Any
) -> None:
    hook_url, hooks = hook_server
    # The sandbox's clock at 5x: the request completes and the redelivery (1 s of sandbox
    # time after the 500) comes within a fraction of a second of real time.
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "LAWSUIT_TUI_SANDBOX__SPEED": "5"}
    with _serving("--callback-url", hook_url, env=env, stop=signal.SIGINT) as (process, root):
        assert int(root.rsplit(":", 1)[1]) > 0
        assert process.stdout.readline().strip() == "accepting api-key 'sandbox'"
        with httpx.Client(base_url=root, headers={"api-key": "sandbox"}, timeout=10) as client:
            samples = client.get("/_sandbox/samples").json()
            assert "openapi" in client.get("/openapi.json").json()
            created = client.post(
                "/requests/requests",
                json={
                    "search": {
                        "search_type": "lawsuit_cnj",
                        "search_key": samples["moving_lawsuit"],
                        "on_demand": True,
                    }
                },
            )
            assert created.status_code == 201  # D82
            assert created.headers["x-ratelimit-limit"] == "180"
            request_id = created.json()["request_id"]

            def redelivered() -> bool:
                with hooks.lock:
                    firsts = [d for d in hooks.received if d["event_type"] == "response_created"]
                    return len(firsts) >= 2 and any(
                        d["event_type"] == "request_completed" for d in hooks.received
                    )

            wait_until(redelivered, what="a redelivery")
            with hooks.lock:
                firsts = [d for d in hooks.received if d["event_type"] == "response_created"]
            assert firsts[0]["callback_id"] == firsts[1]["callback_id"]
            assert firsts[0]["reference_id"] == request_id
            got = client.get(f"/requests/requests/{request_id}").json()
            assert got["status"] == "completed"
            stats = client.get("/_sandbox/stats").json()["webhooks"]
            assert stats["retries"] >= 1


def test_serve_refuses_a_bad_key_option() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "lawsuit_tui", "sandbox", "serve", "--api-key", "k:no-bananas"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert "no-bananas" in result.stderr


def test_sigterm_stops_cleanly() -> None:
    arguments = ("--api-key", "k3y-secret:no-miner")
    with _serving(*arguments, stop=signal.SIGTERM) as (process, root):
        said = process.stdout.readline()
        assert "k3y-secret" not in said and "no-miner" in said
        answer = httpx.get(f"{root}/requests/responses", headers={"api-key": "k3y-secret"})
        assert answer.status_code == 200


def test_serve_keeps_its_state_in_a_file_across_restarts(tmp_path: Any) -> None:
    state = tmp_path / "kept" / "sandbox.sqlite3"
    search = {"search_type": "lawsuit_cnj", "search_key": ""}

    def client(root: str) -> httpx.Client:
        return httpx.Client(base_url=root, headers={"api-key": "sandbox"}, timeout=30)

    with served_sandbox("--state", str(state)) as root, client(root) as http:
        search["search_key"] = http.get("/_sandbox/samples").json()["moving_lawsuit"]
        created = http.post("/requests/requests", json={"search": search})
        assert created.status_code == 201
        request_id = created.json()["request_id"]
    assert state.exists()
    with served_sandbox("--state", str(state)) as root, client(root) as http:
        again = http.get(f"/requests/requests/{request_id}")
        assert again.status_code == 200
        # on real time: a request created now says now (D181)
        assert again.json()["created_at"].startswith(datetime.now(UTC).strftime("%Y-%m-%d"))
    # without --state: a fresh sandbox, in memory
    with served_sandbox() as root, client(root) as http:
        assert http.get(f"/requests/requests/{request_id}").status_code == 404


def test_serve_refuses_a_state_file_it_cannot_use(tmp_path: Any) -> None:
    bad = tmp_path / "not-a-state.sqlite3"
    bad.write_bytes(b"this is not a database, " * 100)
    result = subprocess.run(
        [*SERVE, "--state", str(bad)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    assert "--state" in result.stderr and "Traceback" not in result.stderr

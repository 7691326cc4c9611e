"""Envelopes as the service (and the sandbox) sends them, and small helpers for the tests."""

from __future__ import annotations

import itertools
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lawsuit_tui.config import Settings, load_settings

TOKEN = "t0k3n-for-the-tests-AbCdEfGh123"
CODE = "1234567-89.2024.8.26.0100"
_ids = itertools.count(1)


def lawsuit(code: str = CODE, steps: int = 1) -> dict[str, Any]:
    return {
        "code": code,
        "instance": 1,
        "name": "Autor x Réu",
        "steps": [
            {
                "step_id": f"s{n}",
                "step_date": f"2024-01-{n + 1:02d}T00:00:00.000Z",
                "content": f"passo {n}",
            }
            for n in range(steps)
        ],
        "parties": [],
    }


def response_created(
    request_id: str = "req-1",
    *,
    cached: bool,
    response_id: str | None = None,
    callback_id: str | None = None,
    data: dict[str, Any] | None = None,
    event_type: str = "response_created",
    reference_type: str = "request",
    reference_id: str | None = None,
    origin: str | None = "api",
    origin_id: str | None = None,
) -> dict[str, Any]:
    n = next(_ids)
    payload: dict[str, Any] = {
        "request_id": request_id,
        "response_id": response_id or f"resp-{n}",
        "response_type": "lawsuit",
        "response_data": data if data is not None else lawsuit(),
        "user_id": "user-1",
        "created_at": "2026-11-20T12:00:01.000Z",
        "request_created_at": "2026-11-20T12:00:00.000Z",
        "is_scrapper_info": False,
        "tags": {"dashboard_id": None, "cached_response": cached},
    }
    if origin is not None:
        payload["origin"] = origin
        payload["origin_id"] = origin_id
    return {
        "user_id": "user-1",
        "callback_id": callback_id or f"cb-{n}",
        "event_type": event_type,
        "reference_type": reference_type,
        "reference_id": reference_id or request_id,
        "payload": payload,
    }


def tracking_response(
    tracking_id: str, response: dict[str, Any], callback_id: str
) -> dict[str, Any]:
    """What the service sends for a tracking's response (D43): ``response`` as the payload."""
    return {
        "user_id": "user-1",
        "callback_id": callback_id,
        "event_type": "tracking_response",
        "reference_type": "tracking",
        "reference_id": tracking_id,
        "payload": response,
    }


def request_completed(
    request_id: str = "req-1", *, callback_id: str | None = None, **extra: Any
) -> dict[str, Any]:
    n = next(_ids)
    record = {
        "request_id": request_id,
        "search": {"search_type": "lawsuit_cnj", "search_key": CODE},
        "origin": "api",
        "status": "completed",
        "created_at": "2026-11-20T12:00:00.000Z",
        "updated_at": "2026-11-20T12:00:02.000Z",
        "completed_at": "2026-11-20T12:00:02.000Z",
        "responses_count": 2,
        **extra,
    }
    return {
        "user_id": "user-1",
        "callback_id": callback_id or f"cb-{n}",
        "event_type": "request_completed",
        "reference_type": "request",
        "reference_id": request_id,
        "payload": record,
    }


def completion_notice(
    request_id: str = "req-1",
    *,
    callback_id: str | None = None,
    code: int | str = 600,
    message: str = "REQUEST_COMPLETED",
) -> dict[str, Any]:
    """D69: the completion as the Portuguese callbacks page shows it, a ``response_created``
    whose response is ``application_info`` ``{code: 600, message: REQUEST_COMPLETED}``."""
    n = next(_ids)
    return {
        "user_id": "user-1",
        "callback_id": callback_id or f"cb-{n}",
        "event_type": "response_created",
        "reference_type": "request",
        "reference_id": request_id,
        "payload": {
            "request_id": request_id,
            "response_id": f"resp-{n}",
            "origin": "api",
            "origin_id": request_id,
            "request_created_at": "2026-11-20T12:00:00.000Z",
            "response_type": "application_info",
            "response_data": {"code": code, "message": message},
            "user_id": "user-1",
            "created_at": "2026-11-20T12:00:03.000Z",
            "tags": {"dashboard_id": None},
        },
    }


# --------------------------------------------------------------------- processes and polling


def receiver_settings() -> Settings:
    """The test's settings with the app's receiver on a port the OS picks (tests run side by
    side)."""
    settings = load_settings()
    webhooks = settings.webhooks.model_copy(update={"port": 0})
    return settings.model_copy(update={"webhooks": webhooks})


def child_env(base: Path, **extra: str) -> dict[str, str]:
    """The environment of a child lawsuit-tui: no developer config, its own cache and config."""
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("LAWSUIT_TUI_")}
    env["LAWSUIT_TUI_CONFIG"] = str(base / "config.toml")
    env["LAWSUIT_TUI_CACHE_DIR"] = str(base / "cache")
    env["LAWSUIT_TUI_LANGUAGE"] = "en"
    # A key makes it live mode, whose cache is cache_dir itself (sandbox mode uses a
    # subdirectory); the receiver never calls the service, so the key is never used.
    env["LAWSUIT_TUI_API_KEY"] = "webhook-tests-key-0000"
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


class Child:
    """A ``python -m lawsuit_tui ...`` child whose output lines are read by a thread."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "lawsuit_tui", *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.stderr: list[str] = []
        self._threads = [
            threading.Thread(
                target=self._pump, args=(self.proc.stdout, self.lines.put), daemon=True
            ),
            threading.Thread(
                target=self._pump, args=(self.proc.stderr, self.stderr.append), daemon=True
            ),
        ]
        for thread in self._threads:
            thread.start()

    @staticmethod
    def _pump(stream: object, put: Callable[[str], object]) -> None:
        assert stream is not None
        for line in stream:  # type: ignore[attr-defined]
            put(line.rstrip("\n"))

    def line(self, timeout: float = 20.0) -> str:
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(
                f"no output within {timeout} s; stderr: {''.join(self.stderr)[-2000:]}"
            ) from None

    def output(self) -> list[str]:
        out: list[str] = []
        while True:
            try:
                out.append(self.lines.get_nowait())
            except queue.Empty:
                return out

    def stop(self, timeout: float = 20.0) -> int:
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait(timeout)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        for thread in self._threads:
            thread.join(5)

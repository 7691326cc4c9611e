"""Record factories and child processes for the cache tests (plain JSON dicts, as services pass)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHILD = ROOT / "tests" / "support" / "store_child.py"


def abandon(store: Any) -> None:
    """End a writer abruptly (as a kill would): release its lock, skip the final checkpoint."""
    store._engine._stopping = True
    store._engine._wake.set()
    store._engine._release()


def spawn(*args: str, stdin: int | None = None) -> subprocess.Popen[str]:
    """Run store_child.py in a fresh interpreter (a separate process holding its own locks)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, str(CHILD), *args], stdout=subprocess.PIPE, stdin=stdin, text=True, env=env
    )


def make_lawsuit(
    code: str = "0001234-56.2023.8.26.0100",
    *,
    instance: int = 1,
    steps: Sequence[str] = ("s1", "s2"),
    parties: Sequence[tuple[str, str]] = (("MARIA DA SILVA", "123.456.789-09"),),
    attachments: Sequence[str] = (),
    updated_at: str = "2026-01-01T10:00:00Z",
    lawyer_oab: str | None = "123456SP",
    name: str = "Procedimento Comum Cível",
) -> dict[str, Any]:
    return {
        "code": code,
        "instance": instance,
        "name": name,
        "tribunal_acronym": "TJSP",
        "updated_at": updated_at,
        "steps": [
            {
                "step_id": s,
                "content": f"Movimento {s}",
                "step_date": f"2025-12-{i + 1:02d}T00:00:00Z",
            }
            for i, s in enumerate(steps)
        ],
        "last_step": {"step_id": steps[-1] if steps else None, "step_date": updated_at},
        "parties": [
            {
                "name": n,
                "main_document": d,
                "side": "Active",
                "lawyers": [
                    {
                        "name": "Dr. Advogado",
                        "documents": [{"document": lawyer_oab, "document_type": "oab"}],
                    }
                ]
                if lawyer_oab
                else [],
            }
            for n, d in parties
        ],
        "attachments": [{"attachment_id": a, "attachment_name": f"{a}.pdf"} for a in attachments],
        "an_unknown_field": {"kept": True},
    }


def make_response(
    response_id: str,
    request_id: str = "req-1",
    *,
    lawsuit: dict[str, Any] | None = None,
    cached: bool = False,
    created_at: str = "2026-01-10T10:00:00Z",
) -> dict[str, Any]:
    return {
        "response_id": response_id,
        "request_id": request_id,
        "response_type": "lawsuit",
        "response_data": lawsuit if lawsuit is not None else make_lawsuit(),
        "created_at": created_at,
        "tags": {"cached_response": cached},
        "cached": cached,
    }


def make_movement(
    movement_id: str,
    *,
    tracking_id: str = "trk-1",
    received_at: str = "2026-11-21T09:00:00.000Z",
    code: str = "0001234-56.2023.8.26.0100",
    court: str = "TJSP",
    tier: str = "hot",
    steps: Sequence[tuple[str, str]] = (("Sentença", "SENTENÇA - Julgo procedente o pedido."),),
    terms: Sequence[str] = ("sentença",),
    name: str = "BANCO EXEMPLO S.A. X MARIA DA SILVA",
    read_at: str | None = None,
    amount: float | None = 12345.67,
) -> dict[str, Any]:
    """A movement of the inbox as services/inbox.py stores it: new steps ``(type, text)``."""
    return {
        "movement_id": movement_id,
        "tracking_id": tracking_id,
        "request_id": f"run-{movement_id}",
        "response_id": movement_id,
        "kind": "steps",
        "received_at": received_at,
        "stored_at": received_at,
        "source": "poll",
        "code": code,
        "instance": 1,
        "name": name,
        "court": court,
        "county": "São Paulo",
        "amount": amount,
        "tier": tier,
        "search_type": "lawsuit_cnj",
        "search_key": code,
        "steps": [
            {
                "step_id": f"{movement_id}-{n}",
                "step_date": received_at,
                "step_type": step_type,
                "content": content,
            }
            for n, (step_type, content) in enumerate(steps)
        ],
        "terms": list(terms),
        "error_code": "",
        "read_at": read_at,
    }

"""The requests-service items of the provider's Postman collection, replayed against the
sandbox served on a loopback port, are answered with the documented status and shape.

The collection's placeholder keys are filled from the sandbox's samples (a real CPF of its
world, formatted as the collection writes it) and from earlier answers (the request_id)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from lawsuit_tui.domain.formatting import format_document
from tests.support.conformance import postman_items, problems, served_sandbox, substitute

FAMILY = "requests"


def test_the_collection_items_are_answered_as_documented(tmp_path: Path) -> None:
    items = postman_items(FAMILY)
    assert len(items) == 4
    with served_sandbox(tmp_path) as sandbox:
        names: dict[str, str] = dict(sandbox.urls)
        names["cpf"] = format_document(str(sandbox.samples()["cpf"][0]), "cpf")
        results: list[tuple[str, int, Any]] = []
        with httpx.Client(headers={"api-key": "sandbox"}, timeout=30) as client:
            for item in items:
                answer = client.request(
                    item.method,
                    substitute(item.url, names),
                    json=substitute(item.body, names) if item.body is not None else None,
                )
                body = answer.json()
                results.append((item.name, answer.status_code, body))
                for field, placeholder in item.keep.items():
                    if answer.status_code < 300:
                        names[placeholder] = str(body[field])
    pending = []
    for item, (name, status, body) in zip(items, results, strict=True):
        if item.pending is not None and status != item.status:
            pending.append(f"{name}: {status} ({item.pending})")
            continue
        assert item.pending is None, f"{name} passes now: take its pending mark away"
        assert status == item.status, (name, body)
        assert problems(FAMILY, item.answer, body) == [], name
    # Items another family serves: they must start to pass when it is merged (then the
    # "pending" mark goes from postman/requests.json).
    if pending:
        pytest.xfail("; ".join(pending))

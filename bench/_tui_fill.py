"""A cache for the TUI's scale cases, written through the store's own API.

50,000 responses and 20,000 lawsuits over 5,000 requests; one request (``BIG_REQUEST_ID``,
the newest, so first in the requests list) holds 10,000 of the responses. ``--quick`` passes
a smaller ``scale``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.cache import WORDS
from lawsuit_tui.domain.identifiers import make_cnj

BIG_REQUEST_ID = "bigreq00-0000-4000-8000-000000000001"
BIG_SEARCH_KEY = "37132492292"  # the sandbox's busy person: a request that plausibly has many
BIG_SEARCH_SHOWN = "371.324.922-92"


@dataclass(frozen=True)
class FillPlan:
    responses: int = 50_000
    lawsuits: int = 20_000
    requests: int = 5_000
    big_request_responses: int = 10_000

    def scaled(self, divisor: int) -> FillPlan:
        return FillPlan(
            self.responses // divisor,
            self.lawsuits // divisor,
            self.requests // divisor,
            self.big_request_responses // divisor,
        )


def lawsuit_code(n: int) -> str:
    return make_cnj(1_000_000 + n, 2020 + n % 6, 8, 26, n % 10_000)


def lawsuit(n: int, rng: random.Random) -> dict[str, Any]:
    code = lawsuit_code(n)
    steps = [
        {
            "step_id": f"{n}-{j}",
            "lawsuit_cnj": code,
            "lawsuit_instance": 1,
            "step_date": f"2025-{1 + j % 12:02d}-{1 + j % 28:02d}T10:00:00Z",
            "step_type": "movement",
            "content": " ".join(rng.choice(WORDS) for _ in range(10)),
            "private": False,
        }
        for j in range(6)
    ]
    parties = [
        {
            "name": f"PARTE {n} {side.upper()}",
            "side": side,
            "person_type": "Autor" if side == "Active" else "Reu",
            "entity_type": "person",
            "main_document": f"{(n * 7919 + k) % 10**11:011d}",
            "lawyers": [{"name": f"ADVOGADO {n % 500}", "main_document": f"{n % 500:06d}SP"}],
        }
        for k, side in enumerate(("Active", "Passive"))
    ]
    return {
        "code": code,
        "instance": 1,
        "name": "Procedimento Comum Civel",
        "tribunal_acronym": "TJSP",
        "justice": "8",
        "tribunal": "26",
        "county": "Sao Paulo",
        "state": "SP",
        "status": "Ativo",
        "distribution_date": "2024-03-01T00:00:00Z",
        "updated_at": "2025-12-01T00:00:00Z",
        "amount": 1000.0 + n,
        "classifications": [{"code": "7", "name": "Procedimento Comum Civel"}],
        "parties": parties,
        "steps": steps,
        "last_step": {**steps[-1], "steps_count": len(steps)},
    }


def big_request_codes(plan: FillPlan) -> list[str]:
    """The lawsuit codes of the big request's responses, in the order they were created."""
    return [lawsuit_code(i % plan.lawsuits) for i in range(plan.big_request_responses)]


def fill(directory: Path, plan: FillPlan, *, now: datetime | None = None) -> dict[str, int]:
    """Write the plan into a new cache at ``directory``; the counts the store reports."""
    from lawsuit_tui.store import Store

    rng = random.Random(9)
    now = now or datetime.now(UTC)
    stamp = now.strftime("%Y-%m-%dT%H:%M:%SZ")
    old = (now - timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")

    def request(request_id: str, count: int, created: str, key: str) -> dict[str, Any]:
        return {
            "request_id": request_id,
            "search": {
                "search_type": "cpf",
                "search_key": key,
                "response_type": "lawsuit",
            },
            "origin": "api",
            "status": "completed",
            "created_at": created,
            "updated_at": created,
            "completed_at": created,
            "responses_count": count,
        }

    others = max(1, plan.requests - 1)
    rest = plan.responses - plan.big_request_responses
    with Store.open(directory) as store:
        requests = [request(BIG_REQUEST_ID, plan.big_request_responses, stamp, BIG_SEARCH_KEY)]
        requests += [
            request(
                f"req{r:05d}-0000-4000-8000-000000000000",
                rest // others,
                old,
                f"{(r * 7919) % 10**11:011d}",
            )
            for r in range(others)
        ]
        store.upsert_requests(requests)
        batch: list[dict[str, Any]] = []
        for i in range(plan.responses):
            big = i < plan.big_request_responses
            other = (i - plan.big_request_responses) % others
            request_id = BIG_REQUEST_ID if big else f"req{other:05d}-0000-4000-8000-000000000000"
            second = i % 86_400
            batch.append(
                {
                    "response_id": f"resp-{i:06d}",
                    "request_id": request_id,
                    "response_type": "lawsuit",
                    "response_data": lawsuit(i % plan.lawsuits, rng),
                    "created_at": (now - timedelta(seconds=86_400 - second)).strftime(
                        "%Y-%m-%dT%H:%M:%SZ"
                    )
                    if big
                    else old,
                    "request_created_at": stamp if big else old,
                    "cached": False,
                    "tags": {"cached_response": False},
                    "origin": "api",
                }
            )
            if len(batch) >= 2_000:
                store.upsert_responses(batch)
                batch = []
        if batch:
            store.upsert_responses(batch)
        store.checkpoint()
        return {
            "requests": len(requests),
            "responses": store.count_responses(),
            "lawsuits": store.count_lawsuits(),
        }

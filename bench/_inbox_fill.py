"""A cache holding an inbox of 100,000 movements, written through the store's own API.

The movements look like a big portfolio's months: 3,000 trackings in three tiers, the state
courts, the steps of a collection portfolio with their texts, matched terms on some, two
movements in three read. A handful of lawsuits are cached too, so that Enter has a lawsuit to
open. Deterministic from ``seed``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from lawsuit_tui.domain.identifiers import make_cnj

STEPS = (
    ("Juntada", "Juntada de Petição de manifestação (protocolo 2026.{n}-3) por {name}"),
    ("Conclusão", "Conclusos para despacho"),
    ("Conclusão", "Conclusos para decisão"),
    ("Publicação", "Publicado no DJe em {date} - Disponibilizado no Diário da Justiça Eletrônico"),
    ("Intimação", "Expedida intimação eletrônica para {name} - prazo: 15 dias"),
    ("Despacho", "Mero expediente: Manifeste-se a parte exequente no prazo de 5 dias."),
    ("Penhora", "Bloqueio de valores via SISBAJUD - resultado positivo: R$ {n},00 bloqueados"),
    ("Mandado", "Mandado de citação devolvido - cumprido (citação positiva)"),
    ("Sentença", "Sentença proferida - Procedente: julgo procedente o pedido."),
    ("Recurso", "Interposto Recurso de Apelação por {name}"),
    ("Trânsito em julgado", "Certidão de trânsito em julgado expedida em {date}"),
    ("Arquivamento", "Arquivado definitivamente"),
)
TERMS = ("sentença", "recurso", "trânsito", "arquivamento")
COURTS = (("TJSP", 26, 45), ("TJRJ", 19, 10), ("TJMG", 13, 10), ("TJPR", 16, 6), ("TJRS", 21, 6))
NAMES = ("Maria da Silva", "João Pereira", "Ana Souza", "Carlos Lima", "Fernanda Alves")
MARKER = "100.000 movements"
"""What the inbox's summary line shows once the 100,000 are listed (English)."""


@dataclass(frozen=True)
class InboxPlan:
    movements: int = 100_000
    trackings: int = 3_000
    days: int = 90

    def scaled(self, divisor: int) -> InboxPlan:
        return InboxPlan(self.movements // divisor, self.trackings // divisor, self.days)


def movement(n: int, plan: InboxPlan, start: datetime, r: random.Random) -> dict[str, Any]:
    tracking = n % plan.trackings
    court, tr, _w = COURTS[tracking % len(COURTS)]
    code = make_cnj(2_000_000 + tracking, 2020 + tracking % 6, 8, tr, f"{tracking % 9000:04d}")
    when = start + timedelta(seconds=n * plan.days * 86_400 // plan.movements)
    steps = []
    for k in range(1 + (n % 3 == 0) + (n % 7 == 0)):
        step_type, template = STEPS[r.randrange(len(STEPS))]
        steps.append(
            {
                "step_id": f"bench-{n}-{k}",
                "step_date": when.isoformat(),
                "step_type": step_type,
                "content": template.format(
                    n=r.randint(100, 99_999), name=NAMES[n % len(NAMES)], date="21/11/2026"
                ),
            }
        )
    text = " ".join(f"{s['step_type']} {s['content']}".lower() for s in steps)
    return {
        "movement_id": f"bench-movement-{n:06d}",
        "response_id": f"bench-movement-{n:06d}",
        "tracking_id": f"bench-tracking-{tracking:05d}",
        "request_id": f"bench-run-{n:06d}",
        "kind": "steps",
        "received_at": when.isoformat(),
        "stored_at": when.isoformat(),
        "source": "webhook" if n % 2 else "poll",
        "tier": ("hot", "warm", "cold")[tracking % 3],
        "labels": ["bench"],
        "search_type": "lawsuit_cnj",
        "search_key": code,
        "code": code,
        "instance": 1,
        "name": f"Banco Meridional do Brasil S.A. x {NAMES[tracking % len(NAMES)]}",
        "class_name": "Execução de Título Extrajudicial",
        "court": court,
        "county": "Comarca de São Paulo",
        "amount": round(r.lognormvariate(9.6, 1.1), 2),
        "steps": steps,
        "terms": [t for t in TERMS if t in text],
        "error_code": "",
        "read_at": None if n % 3 == 0 else when.isoformat(),
    }


def fill(directory: Path, plan: InboxPlan, seed: int = 16) -> int:
    """Write ``plan``'s movements into the cache at ``directory``; how many."""
    from lawsuit_tui.store import Store

    r = random.Random(seed)
    start = datetime(2026, 8, 22, 12, 0, tzinfo=UTC)
    with Store.open(directory) as store:
        batch: list[dict[str, Any]] = []
        for n in range(plan.movements):
            batch.append(movement(n, plan, start, r))
            if len(batch) == 5_000:
                store.inbox.add(batch)
                batch = []
        if batch:
            store.inbox.add(batch)
        return store.inbox.count()

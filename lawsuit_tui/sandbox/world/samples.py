"""Keys worth trying in the sandbox, by kind (GET /_sandbox/samples)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from lawsuit_tui.sandbox.world.lawsuits import LawsuitRec
from lawsuit_tui.sandbox.world.people import Population
from lawsuit_tui.sandbox.world.systems import DOWN_COURTS, RATE_LIMITED_COURTS

__all__ = ["SAMPLES_VERSION", "SampleSource", "build_samples"]

# The version of the samples a world of a given seed and epoch gives (D185). A sandbox keeps
# its samples with its state; kept ones of another version are made again. Raise it whenever a
# change of the generator changes them (tests/sandbox/test_samples_kept.py says when).
SAMPLES_VERSION = 1


class SampleSource(Protocol):
    """What the samples are picked from: the world (which calls :func:`build_samples`)."""

    pop: Population
    epoch: datetime

    def records(self) -> list[LawsuitRec]: ...

    def find(self, search_type: str, key: str) -> list[tuple[str, int]]: ...

    def court_system(self, code: str, instance: int) -> str | None: ...

    def absent_keys(self) -> dict[str, str]: ...


def _plain(rec: LawsuitRec) -> bool:
    """An ordinary lawsuit: public, court up, captured, a handful of steps."""
    return (
        rec.secrecy == 0
        and rec.court.acronym not in DOWN_COURTS | RATE_LIMITED_COURTS
        and all(i.stored_at is not None for i in rec.instances)
        and all(i.n_steps < 300 for i in rec.instances)
        and rec.miner is None
    )


def build_samples(world: SampleSource) -> dict[str, Any]:
    recs = world.records()
    pop = world.pop
    epoch = world.epoch
    plain = [r for r in recs if _plain(r)]
    two = next(r for r in plain if len(r.instances) == 2)
    moving = next(r for r in plain if r.instances[-1].period_hours > 0 and len(r.instances) == 1)
    archived = next(r for r in plain if r.instances[-1].archived)
    cnjs = list(
        dict.fromkeys([two.code, moving.code, archived.code, *(r.code for r in plain[7:40:11])])
    )
    big = max(recs, key=lambda r: r.instances[0].n_steps)
    secret = next(
        r
        for r in recs
        if r.secrecy > 0
        and r.court.acronym not in DOWN_COURTS
        and r.court.segment == 8
        # a court with a documented vault system: its own credential can open it (D83)
        and world.court_system(r.code, r.instances[0].instance) is not None
    )
    down = next(r for r in recs if r.court.acronym == sorted(DOWN_COURTS)[0])
    limited = next(r for r in recs if r.court.acronym in RATE_LIMITED_COURTS)
    never = next(
        r
        for r in recs
        if r.secrecy == 0
        and all(i.stored_at is None for i in r.instances)
        and r.court.acronym not in DOWN_COURTS | RATE_LIMITED_COURTS
    )
    stale = next(r for r in plain if (epoch - (r.instances[0].stored_at or epoch)).days > 60)

    def party_docs(kind: str, n: int) -> list[str]:
        out: list[str] = []
        for r in plain:
            if r.kind == "criminal":  # an ordinary person or company: no one accused
                continue
            for p in r.parties:
                ent = pop.entities[p.document]
                if p.document in out or p.document in (pop.busy_person, pop.bank):
                    continue
                if ent.name in pop.homonym_names or ent.is_public or not ent.head_office:
                    continue
                if (kind == "cpf") == (ent.kind == "person"):
                    out.append(p.document)
                    break
            if len(out) >= n:
                break
        return out

    cpfs = party_docs("cpf", 3)
    cnpjs = party_docs("cnpj", 2)
    alnum = next(
        (doc for doc in world.pop.companies if not doc.isdigit() and world.find("cnpj", doc)), None
    )
    if alnum:
        cnpjs.append(alnum)
    oabs: list[str] = []
    for r in plain:
        for p in r.parties:
            for o in p.lawyers:
                if o != pop.busy_lawyer and o not in oabs and len(oabs) < 3:
                    oabs.append(o)
    name_list = [pop.entities[d].name for d in cpfs[:2]]
    absent = world.absent_keys()
    return {
        "lawsuit_cnj": cnjs,
        "cpf": cpfs,
        "cnpj": cnpjs,
        "cnpj_with_branches": pop.bank,
        "oab": oabs,
        "name": name_list,
        "secret_lawsuit": {
            "code": secret.code,
            "instance": secret.instances[0].instance,
            "system_name": world.court_system(secret.code, secret.instances[0].instance),
        },
        "no_data": absent,
        "court_down_lawsuit": down.code,
        "rate_limited_lawsuit": limited.code,
        "big_lawsuit": big.code,
        "busy_person": pop.busy_person,
        "busy_firm_oab": pop.busy_lawyer,
        "homonym_name": pop.homonym_names[0],
        "moving_lawsuit": moving.code,
        "two_instance_lawsuit": two.code,
        "never_captured_lawsuit": never.code,
        "stale_lawsuit": stale.code,
        "alphanumeric_cnpj": alnum,
    }

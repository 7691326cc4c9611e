"""Who may be a party to what (D184): each class's roles and who holds them.

A lawsuit's parties are first drawn by its kind (sandbox/world/lawsuits.py), then *cast* for
its class (``casts`` in assets/sandbox/courts.json): the roles become the class's own
(ALIMENTANDO and ALIMENTANTE, RECLAMANTE and RECLAMADO, IMPETRANTE and IMPETRADO...), and a
party the class does not admit on its side (a company owing alimony, a Ltda. sued for divorce,
a person prosecuting a crime) is drawn again, from the cast's own generator, among those the
class admits. The generator of the lawsuit draws exactly what it drew before, so the rest of
the world (codes, dates, timelines) does not move. A *closed* class takes no one else (the
busy person joins no divorce).
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any, NamedTuple

from lawsuit_tui.domain.courts import Court
from lawsuit_tui.sandbox.world import names
from lawsuit_tui.sandbox.world.people import (
    CAIXA,
    FAZENDA_NACIONAL,
    INSS,
    MPE,
    MPF,
    MPM,
    MPT,
    UNIAO,
    Population,
)

__all__ = [
    "ACTIVE",
    "INTERESTED",
    "PASSIVE",
    "Cast",
    "Caster",
    "PartyRef",
    "Place",
    "cast_of",
    "is_prosecutor",
]

ACTIVE = "Active"
PASSIVE = "Passive"
INTERESTED = "Interested"  # a third party (D184: a reorganisation's administrator, creditors)

_TRIES = 12


@dataclass(slots=True)
class PartyRef:
    side: str  # Active | Passive | Interested
    role: str
    document: str
    lawyers: tuple[str, ...]  # OAB keys


@dataclass(frozen=True, slots=True)
class Cast:
    roles: tuple[str, str | None]
    active: str = "any"
    passive: str = "any"
    active_count: int | None = None
    passive_count: int | None = None
    closed: bool = False

    def role(self, side: str) -> str | None:
        return self.roles[0] if side == ACTIVE else self.roles[1]

    def who(self, side: str) -> str:
        return self.active if side == ACTIVE else self.passive

    def count(self, side: str) -> int | None:
        return self.active_count if side == ACTIVE else self.passive_count


def _cast(fields: dict[str, Any]) -> Cast:
    active, passive = fields["roles"]
    return Cast(
        roles=(str(active), None if passive is None else str(passive)),
        active=str(fields.get("active", "any")),
        passive=str(fields.get("passive", "any")),
        active_count=fields.get("active_count"),
        passive_count=fields.get("passive_count"),
        closed=bool(fields.get("closed", False)),
    )


CASTS: dict[str, Cast] = {key: _cast(fields) for key, fields in names.CASTS.items()}


@functools.cache
def cast_of(class_code: int, area: str = "", kind: str = "") -> Cast | None:
    """The cast of a class: the one of its area (``7/Previdenciária``) or kind
    (``985/execution``) first, else the class's own; None for a class the table lacks."""
    for key in (f"{class_code}/{area}", f"{class_code}/{kind}", str(class_code)):
        found = CASTS.get(key)
        if found is not None:
            return found
    return None


class Place(NamedTuple):
    """Where a lawsuit runs: what decides which public body or Ministério Público is party."""

    court: Court
    state: str
    city_idx: int
    area: str


def prosecutor(pop: Population, place: Place) -> str:
    """The Ministério Público that acts before the court."""
    segment = place.court.segment
    if segment == 5:
        return pop.federal_bodies[MPT]
    if segment == 7:
        return pop.federal_bodies[MPM]
    if segment == 6:
        return pop.federal_bodies[MPE]
    if segment in (1, 2, 3, 4):
        return pop.federal_bodies[MPF]
    return pop.state_bodies[place.state][1]


def is_prosecutor(pop: Population, document: str) -> bool:
    return pop.entities[document].name.startswith("Ministério Público")


class Caster:
    """Casts the parties of every lawsuit of one world (see the module's note): what it asks
    of the population is kept (a document's kind, who it is, the public bodies of a place),
    and what it draws comes from one generator of its own, in the order the world is built."""

    def __init__(self, pop: Population, seed: int) -> None:
        self.pop = pop
        self._seed = seed
        self._stream: random.Random | None = None
        self._facts: dict[str, tuple[str, str, bool]] = {}
        self._public: dict[tuple[int, str], frozenset[str]] = {}

    @property
    def r(self) -> random.Random:
        # Seeded on first use: most lawsuits draw nothing here.
        if self._stream is None:
            self._stream = random.Random(f"{self._seed}:cast")
        return self._stream

    def facts(self, document: str) -> tuple[str, str, bool]:
        """(kind: person, company or public; identity: a company's branches are the company,
        by its CNPJ's root; whether it is a Ministério Público)."""
        found = self._facts.get(document)
        if found is None:
            entity = self.pop.entities[document]
            if entity.is_public:
                kind = "public"
            else:
                kind = "person" if entity.kind == "person" else "company"
            who = document[:8] if kind == "company" else document
            found = (kind, who, entity.name.startswith("Ministério Público"))
            self._facts[document] = found
        return found

    def public_bodies(self, place: Place) -> frozenset[str]:
        """The public bodies that may be sued (or sue) before the court: no Ministério
        Público."""
        segment = place.court.segment
        group = 4 if segment == 4 else 1 if segment in (1, 2, 3) else 8
        if segment == 2 or place.court.code == 90:
            group = 2  # a council of the judiciary: the Union's administration answers
        key = (group, place.state)
        found = self._public.get(key)
        if found is None:
            pop = self.pop
            if group == 2:
                bodies = [pop.federal_bodies[UNIAO]]
            elif group == 4:
                bodies = [pop.federal_bodies[i] for i in (UNIAO, INSS, CAIXA, FAZENDA_NACIONAL)]
            elif group == 1:
                bodies = [pop.federal_bodies[UNIAO], pop.state_bodies[place.state][0]]
            else:
                state = pop.state_bodies[place.state]
                bodies = [state[0], state[2], *pop.municipalities[place.state]]
            found = self._public[key] = frozenset(bodies)
        return found

    def fits(self, who: str, document: str, place: Place) -> bool:
        """Whether ``document`` may hold a side that ``who`` describes (the ``casts`` note)."""
        pop = self.pop
        kind = self.facts(document)[0]
        if who in ("any", "employer"):
            return kind != "public" or document in self.public_bodies(place)
        if who == "private":
            return kind != "public"
        if who in ("public", "authority", "treasury"):
            if place.area == "Previdenciária" and place.court.segment == 4:
                return document == pop.federal_bodies[INSS]
            if who == "treasury" and place.court.segment == 4:
                return document == pop.federal_bodies[FAZENDA_NACIONAL]
            return document in self.public_bodies(place)
        if who == "prosecutor":
            return document == prosecutor(pop, place)
        if who == "electoral_accuser":
            return kind == "person" or document == prosecutor(pop, place)
        if who == "lender":
            return document == pop.bank or document in pop.branches.get(pop.bank, ())
        if who == "inss":
            return document == pop.federal_bodies[INSS]
        return kind == who

    def draw(self, who: str, place: Place) -> str:
        """A party that ``who`` describes, for a lawsuit at ``place``."""
        pop, r = self.pop, self.r
        if who == "person":
            return r.choice(pop.persons)
        if who == "company":
            return r.choice(pop.companies) if r.random() < 0.8 else r.choice(pop.big_companies)
        if who in ("private", "any"):
            return r.choice(pop.persons) if r.random() < 0.6 else r.choice(pop.companies)
        if who == "employer":
            roll = r.random()
            if roll < 0.05:
                return r.choice(pop.persons)  # a household's employee
            return r.choice(pop.companies) if roll < 0.9 else r.choice(pop.big_companies)
        if who == "lender":
            branches = pop.branches.get(pop.bank) or [pop.bank]
            return pop.bank if r.random() < 0.5 else r.choice(branches)
        if who == "inss":
            return pop.federal_bodies[INSS]
        if who in ("prosecutor", "electoral_accuser"):
            if who == "electoral_accuser" and r.random() < 0.5:
                return r.choice(pop.persons)
            return prosecutor(pop, place)
        segment = place.court.segment
        if place.area == "Previdenciária" and segment == 4:
            return pop.federal_bodies[INSS]
        if segment == 2 or place.court.code == 90:
            return pop.federal_bodies[UNIAO]  # before a council of the judiciary
        if who == "treasury" and segment == 4:
            return pop.federal_bodies[FAZENDA_NACIONAL]
        if segment in (1, 2, 3, 4):
            return pop.federal_bodies[UNIAO]
        # the State or the municipality of the lawsuit's city
        if r.random() < 0.5:
            return pop.state_bodies[place.state][0]
        return pop.municipalities[place.state][place.city_idx]

    def cast(self, cast: Cast, parties: list[PartyRef], place: Place) -> list[PartyRef]:
        """``parties`` made fit for ``cast``: its roles, only those it admits on each side
        (others drawn again), no more than it counts, someone on each side it has, nobody
        twice. Interested third parties keep their roles. The parties were drawn for this
        lawsuit alone: they are fitted in place. (Written for speed: it runs for every
        lawsuit of the world.)"""
        out: list[PartyRef] = []
        seen: set[str] = set()  # identities: no company on both sides through a branch
        roles = {ACTIVE: cast.roles[0], PASSIVE: cast.roles[1]}
        wanted = {ACTIVE: cast.active, PASSIVE: cast.passive}
        limits = {ACTIVE: cast.active_count, PASSIVE: cast.passive_count}
        held = {ACTIVE: 0, PASSIVE: 0}
        known = self._facts

        def admit(side: str, document: str) -> tuple[str, tuple[str, str, bool]] | None:
            who = wanted[side]
            for _ in range(_TRIES):
                facts = known.get(document) or self.facts(document)
                kind = facts[0]
                if facts[1] not in seen and (
                    (kind == who and kind != "public")
                    or (who in ("any", "private") and kind != "public")
                    or self.fits(who, document, place)
                ):
                    return document, facts
                document = self.draw(who, place)
            return None

        for party in parties:
            side = party.side
            if side == INTERESTED:
                facts = known.get(party.document) or self.facts(party.document)
                if facts[1] not in seen:
                    seen.add(facts[1])
                    out.append(party)
                continue
            role, limit = roles[side], limits[side]
            if role is None or (limit is not None and held[side] >= limit):
                continue
            found = admit(side, party.document)
            if found is None:
                continue
            document, facts = found
            seen.add(facts[1])
            held[side] += 1
            if facts[2]:
                party.lawyers = ()  # the Ministério Público's agent signs
            party.role, party.document = role, document
            out.append(party)
        for side in (ACTIVE, PASSIVE):
            role = roles[side]
            if role is None or held[side]:
                continue
            found = admit(side, self.draw(wanted[side], place))
            if found is None:
                continue
            document, facts = found
            seen.add(facts[1])
            lawyers = () if facts[2] else self._a_lawyer(place.state)
            made = PartyRef(side, role, document, lawyers)
            out.insert(0 if side == ACTIVE else len(out), made)
        return out

    def _a_lawyer(self, state: str) -> tuple[str, ...]:
        pool = self.pop.lawyers_by_state[state]
        return (pool[1 + self.r.randrange(len(pool) - 1)],)

    def admits(
        self, cast: Cast | None, side: str, document: str, place: Place, parties: list[PartyRef]
    ) -> bool:
        """Whether ``document`` may join ``parties`` on ``side`` (the busy person, the bank)."""
        who = self.facts(document)[1]
        if any(self.facts(p.document)[1] == who for p in parties):
            return False
        if cast is None:
            return True
        limit = cast.count(side)
        if cast.closed or cast.role(side) is None:
            return False
        if limit is not None and sum(p.side == side for p in parties) >= limit:
            return False
        return self.fits(cast.who(side), document, place)

"""The people, companies, public bodies and lawyers of the world, built eagerly and cheaply.

Only what the index needs is kept (name, documents, place); the registration data (the full
entity record, partners included) come on demand from :mod:`lawsuit_tui.sandbox.world.registry`.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

from lawsuit_tui.domain.courts import BR_STATES, court_for
from lawsuit_tui.domain.identifiers import make_cnpj, make_cpf
from lawsuit_tui.sandbox.world import names
from lawsuit_tui.sandbox.world.rand import rng

N_PERSONS = 3000
N_COMPANIES = 600
N_ALNUM_COMPANIES = 12
BANK_BRANCHES = 40

LAWYERS_PER_STATE = {"SP": 60, "RJ": 25, "MG": 25, "RS": 15, "PR": 15, "BA": 10, "PE": 10}
DEFAULT_LAWYERS = 6

# The federal bodies by their place in PUBLIC_BODIES_FEDERAL (assets/sandbox/companies.json).
UNIAO, INSS, CAIXA, FAZENDA_NACIONAL, MPF, IBAMA, MPT, MPM, MPE = range(9)

HOMONYMS = names.HOMONYMS
BUSY_PERSON_NAME = names.BUSY_PERSON_NAME
BUSY_LAWYER_NAME = names.BUSY_LAWYER_NAME
_PUBLIC_NATURES = names.PUBLIC_NATURES


@dataclass(slots=True)
class Entity:
    document: str
    name: str
    kind: str  # person | company
    state: str
    city: str
    gender: str | None = None
    profession: str | None = None
    activity: tuple[str, str] | None = None
    legal_nature: tuple[str, str] | None = None
    size: str | None = None
    is_public: bool = False
    head_office: bool = True
    oab: str | None = None
    firm: str | None = None


@dataclass
class Population:
    seed: int
    entities: dict[str, Entity] = field(default_factory=dict)
    by_oab: dict[str, Entity] = field(default_factory=dict)
    lawyers_by_state: dict[str, list[str]] = field(default_factory=dict)
    persons: list[str] = field(default_factory=list)
    companies: list[str] = field(default_factory=list)
    big_companies: list[str] = field(default_factory=list)
    branches: dict[str, list[str]] = field(default_factory=dict)  # head cnpj -> branch cnpjs
    state_bodies: dict[str, list[str]] = field(default_factory=dict)
    municipalities: dict[str, list[str]] = field(default_factory=dict)
    federal_bodies: list[str] = field(default_factory=list)
    busy_person: str = ""
    bank: str = ""
    busy_lawyer: str = ""
    homonym_names: tuple[str, ...] = HOMONYMS
    _used: set[str] = field(default_factory=set)

    def add(self, entity: Entity) -> str:
        self.entities[entity.document] = entity
        return entity.document

    def new_cpf(self, r: random.Random) -> str:
        while True:
            cpf = make_cpf(f"{r.randint(10_000_000, 999_999_999):09d}")
            if cpf not in self._used and len(set(cpf)) > 1:
                self._used.add(cpf)
                return cpf

    def new_root(self, r: random.Random, alnum: bool = False) -> str:
        alphabet = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"
        while True:
            if alnum:
                root = "".join(r.choice(alphabet) for _ in range(8))
                if root.isdigit():
                    continue
            else:
                root = f"{r.randint(1_000_000, 99_999_999):08d}"
            if root not in self._used:
                self._used.add(root)
                return root


def person_name(r: random.Random) -> tuple[str, str]:
    gender = r.choice(("male", "female"))
    first = r.choice(names.MALE_FIRST if gender == "male" else names.FEMALE_FIRST)
    parts = [first]
    if r.random() < 0.35:
        parts.append(r.choice(names.MIDDLE_MALE if gender == "male" else names.MIDDLE_FEMALE))
    surnames: list[str] = []
    for _ in range(r.choice((1, 2, 2, 3))):
        s = r.choice(names.SURNAMES)
        if s not in surnames:
            surnames.append(s)
    for s in surnames:
        link = names.particle(s)
        if link and r.random() < 0.5:
            parts.append(link)
        parts.append(s)
    return " ".join(parts), gender


_PLACE_STATES = list(BR_STATES)
_PLACE_WEIGHTS = list(
    itertools.accumulate(
        6 if s == "SP" else 2 if s in ("RJ", "MG", "RS", "PR") else 1 for s in BR_STATES
    )
)


def _place(r: random.Random, state: str | None = None) -> tuple[str, str]:
    uf = state or r.choices(_PLACE_STATES, cum_weights=_PLACE_WEIGHTS)[0]
    return uf, r.choice(names.CITIES[uf])[0]


def state_entity_name(uf: str) -> str:
    if uf == "DF":
        return "Distrito Federal"
    court = court_for(8, list(BR_STATES).index(uf) + 1)
    assert court is not None
    return court.name.removeprefix("Tribunal de Justiça do ")


def build_population(seed: int) -> Population:
    pop = Population(seed)
    # ordinary people
    # one stream per population (built eagerly, in one order): cheaper than one per person
    r = rng(seed, "persons")
    for _i in range(N_PERSONS):
        name, gender = person_name(r)
        uf, city = _place(r)
        pop.persons.append(
            pop.add(
                Entity(
                    pop.new_cpf(r), name, "person", uf, city, gender, r.choice(names.PROFESSIONS)
                )
            )
        )
    # homonyms: three different people per name
    for h, name in enumerate(HOMONYMS):
        for k in range(3):
            r = rng(seed, "homonym", h, k)
            uf, city = _place(r)
            gender = "male" if name.split()[0] in names.MALE_FIRST else "female"
            pop.persons.append(
                pop.add(
                    Entity(
                        pop.new_cpf(r),
                        name,
                        "person",
                        uf,
                        city,
                        gender,
                        r.choice(names.PROFESSIONS),
                    )
                )
            )
    r = rng(seed, "busy-person")
    pop.busy_person = pop.add(
        Entity(pop.new_cpf(r), BUSY_PERSON_NAME, "person", "SP", "São Paulo", "male", "Comerciante")
    )
    # companies
    r = rng(seed, "companies")
    for i in range(N_COMPANIES):
        business = r.choice(names.COMPANY_BUSINESS)
        suffix = r.choice(names.COMPANY_SUFFIX)
        stem = r.choice(names.COMPANY_STEMS)
        if r.random() < 0.3:
            stem = f"{stem} {r.choice(names.SURNAMES)}"
        name = (
            f"{business[0]} {stem} {suffix}"
            if r.random() < 0.5
            else f"{stem} {business[0]} {suffix}"
        )
        uf, city = _place(r)
        root = pop.new_root(r, alnum=i < N_ALNUM_COMPANIES)
        doc = make_cnpj(root + "0001")
        pop.companies.append(
            pop.add(
                Entity(
                    doc,
                    name,
                    "company",
                    uf,
                    city,
                    activity=(business[1], business[2]),
                    legal_nature=names.LEGAL_NATURES[suffix],
                    size=r.choice(names.COMPANY_SIZES),
                )
            )
        )
    # big litigants, with branches (the first, a bank, with dozens)
    for i, (name, nat_code, nat_name, activity) in enumerate(names.BIG_COMPANIES):
        r = rng(seed, "big-company", i)
        root = pop.new_root(r)
        head = pop.add(
            Entity(
                make_cnpj(root + "0001"),
                name,
                "company",
                "SP",
                "São Paulo",
                activity=activity,
                legal_nature=(nat_code, nat_name),
                size="DEMAIS",
            )
        )
        pop.big_companies.append(head)
        count = BANK_BRANCHES if i == 0 else r.randint(2, 8)
        branch_docs = []
        for b in range(2, count + 2):
            uf, city = _place(r)
            branch_docs.append(
                pop.add(
                    Entity(
                        make_cnpj(f"{root}{b:04d}"),
                        name,
                        "company",
                        uf,
                        city,
                        activity=activity,
                        legal_nature=(nat_code, nat_name),
                        size="DEMAIS",
                        head_office=False,
                    )
                )
            )
        pop.branches[head] = branch_docs
    pop.bank = pop.big_companies[0]
    # public bodies
    for uf in BR_STATES:
        r = rng(seed, "public", uf)
        state_name = state_entity_name(uf)
        bodies = [
            f"{'Distrito Federal' if uf == 'DF' else state_name}",
            f"Ministério Público do {state_name}"
            if uf != "DF"
            else "Ministério Público do Distrito Federal e Territórios",
            f"Departamento Estadual de Trânsito - DETRAN/{uf}",
        ]
        pop.state_bodies[uf] = [
            pop.add(
                Entity(
                    make_cnpj(pop.new_root(r) + "0001"),
                    b,
                    "company",
                    uf,
                    names.CITIES[uf][0][0],
                    legal_nature=_PUBLIC_NATURES["state"],
                    is_public=True,
                )
            )
            for b in bodies
        ]
        pop.municipalities[uf] = [
            pop.add(
                Entity(
                    make_cnpj(pop.new_root(r) + "0001"),
                    f"Município de {city}",
                    "company",
                    uf,
                    city,
                    legal_nature=_PUBLIC_NATURES["municipal"],
                    is_public=True,
                )
            )
            for city, _code in names.CITIES[uf]
        ]
    r = rng(seed, "public", "federal")
    for i, body_name in enumerate(names.PUBLIC_BODIES_FEDERAL):
        nature = _PUBLIC_NATURES[
            "autarchy" if i in (1, 5) else "public_company" if i == 2 else "federal"
        ]
        pop.federal_bodies.append(
            pop.add(
                Entity(
                    make_cnpj(pop.new_root(r) + "0001"),
                    body_name,
                    "company",
                    "DF",
                    "Brasília",
                    legal_nature=nature,
                    is_public=True,
                )
            )
        )
    # lawyers, registered in the OAB section of the state where they practise
    for uf in BR_STATES:
        n = LAWYERS_PER_STATE.get(uf, DEFAULT_LAWYERS)
        pop.lawyers_by_state[uf] = []
        used_numbers: set[int] = set()
        for k in range(n):
            r = rng(seed, "lawyer", uf, k)
            if uf == "SP" and k == 0:
                name, gender = BUSY_LAWYER_NAME, "female"
            else:
                name, gender = person_name(r)
            top = 499_999 if uf == "SP" else 99_999 if uf in LAWYERS_PER_STATE else 29_999
            number = r.randint(1_000, top)
            while number in used_numbers:
                number += 1
            used_numbers.add(number)
            oab = f"{number}{uf}"
            surname = name.split()[-1]
            firm = (
                f"{surname} & {r.choice(names.SURNAMES)} Advogados Associados"
                if r.random() < 0.6
                else None
            )
            lawyer = Entity(
                pop.new_cpf(r),
                name,
                "person",
                uf,
                names.CITIES[uf][0][0],
                gender,
                "Advogado(a)",
                oab=oab,
                firm=firm,
            )
            pop.add(lawyer)
            pop.by_oab[oab] = lawyer
            pop.lawyers_by_state[uf].append(oab)
    pop.busy_lawyer = pop.lawyers_by_state["SP"][0]
    return pop

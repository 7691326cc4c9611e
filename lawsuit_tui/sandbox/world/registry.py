"""Registration data of the world's people and companies, as the Receita Federal keeps them.

What ``POST /entities`` and ``response_type: entity`` answer (D78, D103-D105): names and
aliases, birth or opening date, revenue-service status with its date and reason, addresses,
phones and e-mails, CNAE activities and legal nature, and the partnership links (the QSA).

Built on first use, never with the world's index (the world must not get slower to build):
:class:`Registry` draws every company's partners once (a few milliseconds), so the links are
the same seen from either end: a person who is a partner of a company appears in that
company's QSA, and the company among that person's ``partners`` (D104). Everything else of an
entity is drawn from the entity's own seeded stream when it is asked for.

Two entities are richer than the rest, for the dossier's demonstrations: the **showcase
company** (sample ``company``: several addresses and contacts, a former name, secondary
activities, a corporate partner whose own partners are people: partners of partners) and the
**person with many lawsuits** (sample ``busy_person``: several addresses, aliases, partner of
the showcase company, of its corporate partner and of one more company).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from lawsuit_tui.assets_dir import read_asset_json
from lawsuit_tui.domain.identifiers import make_cnpj
from lawsuit_tui.sandbox.world import names
from lawsuit_tui.sandbox.world.people import Entity, Population
from lawsuit_tui.sandbox.world.rand import iso, normalize_name, rng, short_id

__all__ = ["Link", "Registry", "mask_partner_document", "pick_showcase"]

_ADULT = timedelta(days=18 * 365 + 5)
# CNAE divisions (first two digits) -> section letter (IBGE's CNAE 2.0 structure).
_SECTIONS = (
    (3, "A"),
    (9, "B"),
    (33, "C"),
    (35, "D"),
    (39, "E"),
    (43, "F"),
    (47, "G"),
    (53, "H"),
    (56, "I"),
    (63, "J"),
    (66, "K"),
    (68, "L"),
    (75, "M"),
    (82, "N"),
    (84, "O"),
    (85, "P"),
    (88, "Q"),
    (93, "R"),
    (96, "S"),
    (97, "T"),
    (99, "U"),
)


@cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = read_asset_json("sandbox/registry.json")
    return data


def mask_partner_document(document: str) -> str:
    """D78: a partner's CPF as ``***`` + its digits 4-9 + ``**``; a CNPJ stays public (D104)."""
    return f"***{document[3:9]}**" if len(document) == 11 else document


def pick_showcase(
    pop: Population, lawsuit_count: Callable[[str], int], excluded: set[str]
) -> tuple[str, str]:
    """The showcase company (a limited company with a handful of lawsuits) and the company
    that will be its corporate partner; cheap, so the samples name it without the registry."""
    limited = [
        doc
        for doc in sorted(pop.companies)
        if doc.isdigit()
        and doc not in excluded
        and (pop.entities[doc].legal_nature or ("",))[0] == "206-2"
    ]
    showcase = next(d for d in limited if 3 <= lawsuit_count(d) <= 40)
    holding = next(d for d in limited if d != showcase and lawsuit_count(d) <= 2)
    return showcase, holding


def _weighted(r: random.Random, pairs: list[list[Any]]) -> str:
    values = [str(p[0]) for p in pairs]
    weights = [int(p[1]) for p in pairs]
    return r.choices(values, weights=weights)[0]


def cnae_tree(code: str) -> str:
    """``4711-3/02`` -> ``G > 47 > 47.1 > 4711-3 > 4711-3/02`` (section, division, group,
    class, subclass)."""
    digits = "".join(ch for ch in code if ch.isdigit())
    if len(digits) < 5:
        return code
    division = int(digits[:2])
    section = next(letter for top, letter in _SECTIONS if division <= top)
    return (
        f"{section} > {digits[:2]} > {digits[:2]}.{digits[2]} > {digits[:4]}-{digits[4]} > {code}"
    )


@dataclass(frozen=True, slots=True)
class Link:
    """One line of a company's QSA: ``partner`` (CPF or CNPJ) holds ``qualification`` (a
    Receita code) in ``company`` (the head office CNPJ) since ``since``."""

    company: str
    partner: str
    qualification: str
    since: datetime


class Registry:
    """The registration data of a world's population: who owns what, drawn when made."""

    def __init__(
        self,
        seed: int,
        epoch: datetime,
        pop: Population,
        lawsuit_count: Callable[[str], int],
        reorganisations: dict[str, datetime],
    ) -> None:
        self.seed = seed
        self.epoch = epoch
        self.pop = pop
        self._lawsuit_count = lawsuit_count
        # Company (head office) -> its special status: judicial reorganisation, from the world.
        self._reorganisations = reorganisations
        self._qsa: dict[str, list[Link]] = {}
        self._holdings: dict[str, list[Link]] = {}
        self.showcase = ""
        self.holding = ""
        self._draw_links()

    # ------------------------------------------------------------------ who is who

    def head_of(self, document: str) -> str:
        """The head office CNPJ of a company (itself when it is one)."""
        if len(document) != 14 or document[8:12] == "0001":
            return document
        head = make_cnpj(document[:8] + "0001")
        return head if head in self.pop.entities else document

    def qsa(self, company: str) -> list[Link]:
        return list(self._qsa.get(self.head_of(company), ()))

    def holdings(self, partner: str) -> list[Link]:
        """The companies ``partner`` (a CPF or a CNPJ) is a partner of."""
        return list(self._holdings.get(partner, ()))

    # ------------------------------------------------------------------ dates of a life

    def birth(self, person: str) -> datetime:
        r = rng(self.seed, "birth", person)
        return datetime(r.randint(1945, 2002), r.randint(1, 12), r.randint(1, 28), tzinfo=UTC)

    def opened(self, company: str) -> datetime:
        r = rng(self.seed, "opened", self.head_of(company))
        ent = self.pop.entities[company]
        first = 1950 if ent.size == "DEMAIS" or ent.is_public else 1975
        return datetime(r.randint(first, 2020), r.randint(1, 12), r.randint(1, 28), tzinfo=UTC)

    # ------------------------------------------------------------------ the QSA

    def _link(self, company: str, partner: str, code: str, r: random.Random) -> None:
        start = self.opened(company)
        if len(partner) == 11:
            start = max(start, self.birth(partner) + _ADULT)
        if start < self.epoch - timedelta(days=60):
            start += timedelta(days=r.randint(0, max(0, (self.epoch - start).days - 30)) // 3)
        link = Link(company, partner, code, min(start, self.epoch - timedelta(days=30)))
        if any(x.partner == partner for x in self._qsa.get(company, ())):
            return
        self._qsa.setdefault(company, []).append(link)
        self._holdings.setdefault(partner, []).append(link)

    def _draw_links(self) -> None:
        pop = self.pop
        persons = pop.persons
        companies = [*pop.companies, *pop.big_companies]
        for company in companies:
            ent = pop.entities[company]
            if ent.is_public:
                continue
            r = rng(self.seed, "qsa", company)
            nature = (ent.legal_nature or ("206-2", ""))[0]
            if nature in ("204-6", "205-4"):  # a corporation: a board, not partners
                plan = ["16"] + ["10"] * r.randint(1, 2) + ["08"] * r.randint(1, 3)
            elif nature == "230-5":
                plan = ["65"]
            elif nature == "213-5":
                plan = ["50"]
            else:
                plan = ["49"] * (1 if r.random() < 0.7 else 2) + ["22"] * r.choice((0, 1, 1, 2))
            for code in plan:
                self._link(company, r.choice(persons), code, r)
            if nature == "206-2" and r.random() < 0.1:
                self._link(company, r.choice(pop.companies), "22", r)
        self._wire_showcase()

    def _wire_showcase(self) -> None:
        """The showcase company, its corporate partner (a holding) and the busy person."""
        pop = self.pop
        self.showcase, self.holding = pick_showcase(
            pop, self._lawsuit_count, set(self._reorganisations)
        )
        for company in (self.showcase, self.holding):
            for link in self._qsa.pop(company, []):
                self._holdings[link.partner].remove(link)
        r = rng(self.seed, "showcase")
        busy = pop.busy_person
        others = [p for p in pop.persons if p != busy]
        self._link(self.holding, busy, "49", r)
        self._link(self.holding, r.choice(others), "49", r)
        self._link(self.showcase, busy, "49", r)
        self._link(self.showcase, self.holding, "22", r)
        self._link(self.showcase, r.choice(others), "22", r)
        self._link(self.showcase, r.choice(others), "05", r)
        third = next(
            d
            for d in sorted(pop.companies)
            if d not in (self.showcase, self.holding) and self._qsa.get(d)
        )
        self._link(third, busy, "22", r)

    # ------------------------------------------------------------------ payloads

    def payload(
        self,
        document: str,
        *,
        reveal_partners: bool = False,
        read_at: datetime | None = None,
    ) -> dict[str, Any] | None:
        """The entity record of ``document`` (CPF or CNPJ, normalized), None when unknown.

        ``read_at``: a live read at the Receita (``on_demand``) at that moment; else the
        datalake's copy, read some days before the world's epoch."""
        ent = self.pop.entities.get(document)
        if ent is None:
            return None
        r = rng(self.seed, "registry", document)
        read = read_at or self.epoch - timedelta(days=r.randint(3, 120), hours=r.randint(0, 23))
        base: dict[str, Any] = {
            "entity_id": short_id(self.seed, "entity-id", document),
            "entity_type": "person" if ent.kind == "person" else "company",
            "name": ent.name,
            "main_document": document,
            "tags": {"revenue_update_date": iso(read)},
            "revenue_service_updated_at": iso(read),
            "is_public": ent.is_public,
            "created_at": iso(self.epoch - timedelta(days=r.randint(200, 2000))),
            "updated_at": iso(read),
        }
        if ent.kind == "person":
            base.update(self._person(ent, r))
        else:
            base.update(self._company(ent, r, reveal_partners))
        # The generators keep their own tags apart: folded in here, beside the read date.
        base["tags"].update(base.pop("extra_tags"))
        return {k: v for k, v in base.items() if v is not None}

    def _status(self, r: random.Random, person: bool, document: str) -> dict[str, Any]:
        data = _data()
        special = {self.pop.busy_person, self.showcase, self.holding}
        pairs = data["person_statuses" if person else "company_statuses"]
        status = pairs[0][0] if document in special else _weighted(r, pairs)
        out: dict[str, Any] = {
            "revenue_service_status": status,
            "revenue_service_active": status in ("REGULAR", "ATIVA"),
        }
        if status not in ("REGULAR", "ATIVA"):
            reason = data["status_reasons"].get(status if person else f"{status}_PJ", None)
            reason = reason or data["status_reasons"].get(status)
            out["tags_reason"] = reason
        return out

    def _address(self, r: random.Random, state: str, city: str) -> dict[str, Any]:
        data = _data()
        low, high = data["zip_ranges"][state]
        zip_code = f"{r.randint(low, high):05d}{r.randint(0, 999):03d}"
        out = {
            "street": r.choice(names.STREETS),
            "number": str(r.randint(1, 3999)),
            "complement": r.choice(data["complements"]) if r.random() < 0.45 else None,
            "neighborhood": r.choice(names.NEIGHBOURHOODS),
            "city": city,
            "state": state,
            "zip_code": zip_code,
            "country": "Brasil",
        }
        return {k: v for k, v in out.items() if v is not None}

    def _addresses(self, r: random.Random, ent: Entity, count: int) -> list[dict[str, Any]]:
        """The registered address first, then older or other ones (D105)."""
        found = [self._address(r, ent.state, ent.city)]
        for _ in range(count - 1):
            state = ent.state if r.random() < 0.7 else r.choice(list(names.CITIES))
            found.append(self._address(r, state, r.choice(names.CITIES[state])[0]))
        return found

    def _phone(self, r: random.Random, state: str, mobile: bool) -> str:
        ddd = _data()["area_codes"][state]
        if mobile:
            return f"({ddd}) 9{r.randint(6000, 9999)}-{r.randint(0, 9999):04d}"
        return f"({ddd}) {r.randint(2, 3)}{r.randint(100, 999)}-{r.randint(0, 9999):04d}"

    def _person(self, ent: Entity, r: random.Random) -> dict[str, Any]:
        document = ent.document
        busy = document == self.pop.busy_person
        birth = self.birth(document)
        age = (self.epoch - birth).days // 365
        status = self._status(r, True, document)
        reason = status.pop("tags_reason", None)
        if status["revenue_service_status"] == "TITULAR FALECIDO" and age < 40:
            status = {"revenue_service_status": "REGULAR", "revenue_service_active": True}
            reason = None
        slug = normalize_name(ent.name).replace(" ", ".")
        contacts = [{"contact_type": "phone", "description": self._phone(r, ent.state, True)}]
        if busy or r.random() < 0.3:
            contacts.append(
                {"contact_type": "phone", "description": self._phone(r, ent.state, False)}
            )
        if busy or r.random() < 0.6:
            domain = _data()["email_domain"]
            contacts.append({"contact_type": "email", "description": f"{slug}@{domain}"})
        words = ent.name.split()
        aka: list[str] = []
        if busy:
            aka = [f"{words[0]} {words[-1]}", f"{words[0]} {words[1][0]}. {words[-1]}"]
        elif len(words) > 2 and r.random() < 0.35:
            aka = [f"{words[0]} {words[-1]}"]
        surname = " ".join(words[1:])
        mother = r.choice(names.FEMALE_FIRST)
        parents = [{"name": f"{mother} {surname}", "kinship": "mother"}]
        if busy or r.random() < 0.5:
            father = r.choice(names.MALE_FIRST)
            parents.append({"name": f"{father} {surname}", "kinship": "father"})
        documents: list[dict[str, Any]] = [{"document": document, "document_type": "cpf"}]
        if ent.oab:
            documents.append({"document": ent.oab, "document_type": "oab"})
        if busy or r.random() < 0.4:
            rg = (
                f"{r.randint(10, 99)}.{r.randint(100, 999)}.{r.randint(100, 999)}-{r.randint(0, 9)}"
            )
            documents.append({"document": rg, "document_type": "rg"})
        tags: dict[str, Any] = {}
        if reason:
            tags["revenue_status_reason"] = reason
        if status["revenue_service_status"] == "TITULAR FALECIDO":
            last = self.epoch.year - 1
            tags["death_year"] = r.randint(min(max(birth.year + 40, 2000), last), last)
        pep: list[dict[str, Any]] = []
        if not busy and r.random() < 0.012 and age > 30:
            function, acronym, organ = r.choice(_data()["pep_functions"])
            start = self.epoch - timedelta(days=r.randint(400, 3000))
            end = start + timedelta(days=4 * 365)
            pep.append(
                {
                    "function": function,
                    "function_acronym": acronym,
                    "organ_name": organ.format(city=ent.city, state=ent.state),
                    "start_date": iso(start),
                    "end_date": iso(end),
                    "grace_period_end": iso(end + timedelta(days=5 * 365)),
                }
            )
        return {
            **status,
            "documents": documents,
            "addresses": self._addresses(r, ent, 3 if busy else r.choice((1, 1, 2))),
            "contacts": contacts,
            "aka_names": aka,
            "parents": parents,
            "birth_date": iso(birth),
            "place_of_birth": f"{r.choice(names.CITIES[ent.state])[0]}/{ent.state}",
            "nationality": "BRASILEIRA",
            "gender": ent.gender,
            "profession": ent.profession,
            "age_group": _age_group(age),
            "disabled_person": False,
            "pep": pep,
            "partners": [self._held(link) for link in self.holdings(document)],
            "associated_people": [],
            "latest_searches": [],
            "extra_tags": tags,
        }

    def _company(self, ent: Entity, r: random.Random, reveal: bool) -> dict[str, Any]:
        data = _data()
        document = ent.document
        head = self.head_of(document)
        showcase = head == self.showcase
        opened = self.opened(document)
        status = self._status(r, False, head)
        reason = status.pop("tags_reason", None)
        tags: dict[str, Any] = {}
        if reason:
            tags["revenue_status_reason"] = reason
        closing = None
        if status["revenue_service_status"] == "BAIXADA":
            closing = opened + timedelta(
                days=r.randint(400, max(401, (self.epoch - opened).days - 30))
            )
        special, special_date = None, None
        if head in self._reorganisations:
            special, special_date = data["judicial_reorganisation"], self._reorganisations[head]
        elif (
            status["revenue_service_status"] == "ATIVA" and r.random() < 0.01 and not ent.is_public
        ):
            special = r.choice(data["special_statuses"])
            special_date = self.epoch - timedelta(days=r.randint(60, 2000))
        if not ent.head_office:
            tags["head_office_document"] = head
        stem = ent.name.split()[0] if ent.is_public else _stem(ent.name)
        trade = None
        if not ent.is_public and (showcase or r.random() < 0.7):
            trade = f"{stem} {r.choice(data['trade_name_words'])}".upper()
        aka: list[str] = []
        if showcase or (not ent.is_public and r.random() < 0.2):
            aka.append(f"{stem} {r.choice(data['former_name_words'])} Ltda.")
        activities = []
        if ent.activity:
            activities.append(_activity(ent.activity, main=True))
            extra = 3 if showcase else r.choice((0, 0, 1, 2))
            for code, name in r.sample(data["secondary_activities"], extra):
                activities.append(_activity((code, name), main=False))
        slug = normalize_name(stem).replace(" ", "")
        contacts = [{"contact_type": "phone", "description": self._phone(r, ent.state, False)}]
        if showcase or r.random() < 0.4:
            contacts.append(
                {"contact_type": "phone", "description": self._phone(r, ent.state, True)}
            )
        if not ent.is_public:
            domain = data["email_domain"]
            contacts.append({"contact_type": "email", "description": f"contato@{slug}.{domain}"})
            if showcase:
                contacts.append(
                    {"contact_type": "email", "description": f"juridico@{slug}.{domain}"}
                )
        size_capital = {"ME": (10, 80), "EPP": (80, 1_500), "DEMAIS": (1_500, 900_000)}
        low, high = size_capital.get(ent.size or "DEMAIS", (10, 900_000))
        nature = ent.legal_nature or ("206-2", "Sociedade Empresária Limitada")
        qsa = self.qsa(document)
        responsible = next((x.qualification for x in qsa if len(x.partner) == 11), None)
        documents: list[dict[str, Any]] = [{"document": document, "document_type": "cnpj"}]
        if not ent.is_public and r.random() < 0.6:
            documents.append(
                {"document": f"{r.randint(100_000_000, 999_999_999)}", "document_type": "ie"}
            )
        return {
            **status,
            "social_name": trade,
            "documents": documents,
            "addresses": self._addresses(r, ent, 3 if showcase else 1),
            "contacts": contacts,
            "aka_names": aka,
            "legal_nature": {"code": nature[0], "name": nature[1], "active": True},
            "head_office": ent.head_office,
            "branch_activities": activities,
            "size": ent.size or ("DEMAIS" if ent.is_public else None),
            "share_capital": None if ent.is_public else float(r.randint(low, high) * 1000),
            "entry_date": iso(opened),
            "closing_date": iso(closing) if closing else None,
            "special_status": special,
            "special_status_date": iso(special_date) if special_date else None,
            "responsible_qualification_id": responsible,
            "partners": [self._partner(link, reveal) for link in qsa],
            "associated_people": [],
            "latest_searches": [],
            "extra_tags": tags,
        }

    def _qualification(self, code: str) -> str:
        found: str = _data()["qualifications"].get(code, code)
        return found

    def _partner(self, link: Link, reveal: bool) -> dict[str, Any]:
        """A line of a company's QSA, as the docs' example: the partner, its position."""
        ent = self.pop.entities[link.partner]
        person = ent.kind == "person"
        tags: dict[str, Any] = {
            "start_date": iso(link.since),
            "qualification_code": link.qualification,
        }
        if person:
            tags["age_group"] = _age_group((self.epoch - self.birth(link.partner)).days // 365)
        document = link.partner if reveal or not person else mask_partner_document(link.partner)
        return {
            "entity_id": short_id(self.seed, "entity-id", link.partner),
            "entity_type": "person" if person else "company",
            "name": ent.name,
            "main_document": document,
            "position": self._qualification(link.qualification),
            "tags": tags,
        }

    def _held(self, link: Link) -> dict[str, Any]:
        """A company a person is a partner of (D104): the company, the person's position."""
        ent = self.pop.entities[link.company]
        return {
            "entity_id": short_id(self.seed, "entity-id", link.company),
            "entity_type": "company",
            "name": ent.name,
            "main_document": link.company,
            "position": self._qualification(link.qualification),
            "tags": {"start_date": iso(link.since), "qualification_code": link.qualification},
        }


def _stem(name: str) -> str:
    """The distinctive part of a company name: what is left without the business words."""
    for business, _code, _text in names.COMPANY_BUSINESS:
        name = name.replace(business, "")
    for suffix in names.COMPANY_SUFFIX:
        name = name.replace(suffix, "")
    words = name.split()
    return " ".join(words[:2]) if words else name


def _activity(activity: Iterable[str], *, main: bool) -> dict[str, Any]:
    code, name = tuple(activity)
    return {
        "code": code,
        "name": name,
        "main_activity": main,
        "tree_history": cnae_tree(code),
        "active": True,
    }


def _age_group(age: int) -> str:
    """The Receita's age bands, written as the docs' example ("61-70")."""
    for top, label in ((20, "0-20"), (30, "21-30"), (40, "31-40"), (50, "41-50"), (60, "51-60")):
        if age <= top:
            return label
    return "61-70" if age <= 70 else "71-80" if age <= 80 else "80+"

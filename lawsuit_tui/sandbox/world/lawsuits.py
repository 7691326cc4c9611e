"""The lawsuit index: who is where, in which court, with what timeline. Built eagerly.

Each lawsuit is a few small records; steps, attachments and texts come later, lazily, from
:mod:`lawsuit_tui.sandbox.world.steps`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from lawsuit_tui.domain.courts import BR_STATES, Court, all_courts
from lawsuit_tui.domain.identifiers import make_cnj
from lawsuit_tui.sandbox.world import names
from lawsuit_tui.sandbox.world.casts import (
    ACTIVE,
    INTERESTED,
    PASSIVE,
    Caster,
    PartyRef,
    Place,
    cast_of,
)
from lawsuit_tui.sandbox.world.people import IBAMA, Population, person_name
from lawsuit_tui.sandbox.world.rand import between, days, rng

__all__ = [
    "AMOUNT_TIERS",
    "IndexBuilder",
    "InstanceRec",
    "LawsuitRec",
    "MinerInfo",
    "PartyRef",
    "judge_name",
    "judge_title",
]

N_REGULAR = 2200
N_EXECUTIONS = 160
N_INCIDENTS = 80
BIG_STEPS = 10_000
LARGE_STEPS = (4_200, 3_100, 2_400, 1_800, 1_500)
BUSY_PERSON_SHARE = 0.14  # of regular lawsuits (those whose class admits a person)
BUSY_LAWYER_SP_SHARE = 0.42  # of lawsuits in São Paulo
AMOUNT_TIERS: tuple[tuple[str, float, float], ...] = (
    ("0-100k", 0.0, 100_000.0),
    ("100k-250k", 100_000.0, 250_000.0),
    ("250k-500k", 250_000.0, 500_000.0),
    ("500k-750k", 500_000.0, 750_000.0),
    ("750k-1.5M", 750_000.0, 1_500_000.0),
    ("1.5M+", 1_500_000.0, float("inf")),
)
MINER_TAGS = ("precatory_dispatched", "possible_precatory", "possible_approved_calculation")


@dataclass(slots=True)
class InstanceRec:
    instance: int
    klass: tuple[int, str]
    body: str
    judge: str  # a title ("Juiz(a) de Direito") until the judge is named, lazily
    distribution: datetime
    end: datetime  # date of the last step before the epoch
    n_steps: int  # steps up to the epoch
    has_sentence: bool
    remitted: bool  # sent up to the next instance (its last steps are the remittal)
    archived: bool
    period_hours: float  # > 0: new steps keep appearing after the epoch
    stored_at: datetime | None
    schedule: Any = None
    """A portfolio lawsuit's own schedule of steps after the epoch (portfolio.py), else None."""


@dataclass(slots=True)
class MinerInfo:
    kind: str  # judgement-bond | sentence-execution
    budget_year: int | None = None
    nature: str | None = None
    tags: tuple[str, ...] = ()


@dataclass(slots=True)
class LawsuitRec:
    code: str
    court: Court
    origin: str
    state: str
    city: str
    area: str
    kind: str
    subjects: tuple[tuple[int, str], ...]
    amount: float | None
    parties: list[PartyRef]
    instances: list[InstanceRec]
    secrecy: int
    free_justice: bool
    main: tuple[str, int] | None = None
    related: list[tuple[str, int]] = field(default_factory=list)
    miner: MinerInfo | None = None
    tribunal_number: int = 0

    def inst(self, instance: int) -> InstanceRec | None:
        for rec in self.instances:
            if rec.instance == instance:
                return rec
        return None


def class_pool(court: Court) -> str:
    seg, code = court.segment, court.code
    if seg == 1:
        return "supreme"
    if seg == 2 or code == 90:
        return "council"
    if seg == 3:
        return "superior"
    if seg == 4:
        return "federal"
    if seg == 5:
        return "labour_superior" if code == 0 else "labour"
    if seg == 6:
        return "electoral"
    if seg in (7, 9):
        return "military"
    return "state"


def court_state(court: Court, r: random.Random) -> str:
    if court.state:
        return court.state
    if court.states:
        return "SP" if "SP" in court.states and r.random() < 0.6 else r.choice(court.states)
    return "DF"


def _first_body(seg: int, area: str, class_code: int, n: int) -> str:
    """A first-instance body fitting the class: fiscal executions go to a fiscal court..."""
    if seg == 8:
        if class_code == 1116:
            return "Vara das Execuções Fiscais"
        if class_code == 436:
            return f"{n}ª Vara do Juizado Especial Cível"
        return names.STATE_BODY_BY_AREA.get(area, "{n}ª Vara Cível").format(n=n)
    if class_code == 1116:
        return f"{n}ª Vara de Execuções Fiscais"
    if class_code == 436:
        return f"{n}ª Vara do Juizado Especial Federal Cível"
    if area == "Previdenciária":
        return f"{n}ª Vara Federal Previdenciária"
    if area == "Criminal":
        return f"{n}ª Vara Federal Criminal"
    return f"{n}ª Vara Federal"


def origin_for(
    court: Court, state: str, city_idx: int, r: random.Random, area: str = "", class_code: int = 0
) -> tuple[str, str]:
    """(OOOO, the first-instance body) plausible for the court's segment and the class."""
    seg, code = court.segment, court.code
    n = r.randint(1, 12)
    city = names.CITIES[state][city_idx][0]
    if seg in (1, 2, 3) or code in (0, 90):
        # D184: the bodies the court has (a Turma of the STJ, the TSE's plenary)
        drawn = names.COURT_BODIES["top"].index(r.choice(names.COURT_BODIES["top"]))
        bodies = names.TOP_BODIES.get(court.acronym, names.TOP_BODIES["default"])
        return "0000", bodies[drawn % len(bodies)]
    if seg == 8:
        body = _first_body(8, area, class_code, n)
        return f"{names.CITIES[state][city_idx][1]:04d}", f"{body} de {city}"
    if seg == 4:
        base = 3300 + 100 * (list(BR_STATES).index(state) % 40)
        body = _first_body(4, area, class_code, n)
        return f"{(base + city_idx) % 10000:04d}", f"{body} de {city}"
    if seg == 5:
        vara = r.randint(1, 90 if state == "SP" else 30)
        return f"{vara:04d}", f"{vara}ª Vara do Trabalho de {city}"
    if seg == 6:
        zone = r.randint(1, 420 if state == "SP" else 80)
        return f"{zone:04d}", f"{zone}ª Zona Eleitoral de {city}"
    aud = r.randint(1, 3)
    return (
        f"{aud:04d}",
        f"{aud}ª Auditoria da {court.name}" if seg == 7 else f"{aud}ª Auditoria Militar de {city}",
    )


def judge_name(r: random.Random, title: str) -> str:
    name, gender = person_name(r)
    fem = gender == "female"
    t = title.replace("(a)", "a" if fem else "").replace("Juiz", "Juíza" if fem else "Juiz")
    t = t.replace("Juízaa", "Juíza")
    return f"{t} {name}"


def judge_title(court: Court, instance: int, class_code: int = 0, kind: str = "") -> str:
    """The title of who judges ``class_code`` in ``court`` at ``instance`` (D184): a judge of
    the branch in the first degree, a Turma Recursal's judges for a small claim's appeal, a
    desembargador(a) in the second, the presidency for a precatório."""
    segment = str(court.segment)
    if court.segment in (1, 3) or court.code == 0:
        return "Ministro(a)"
    if court.segment == 2 or court.code == 90:
        return "Conselheiro(a)"
    titles = names.JUDGE_TITLES
    if kind == "precatory":
        return str(titles["precatory"])
    if instance > 1:
        if class_code == SMALL_CLAIMS_APPEAL:
            return str(titles["small_claims_second"].get(segment, "Juiz(a) de Direito"))
        return str(titles["second"].get(segment, "Desembargador(a)"))
    return str(titles["first"].get(segment, "Juiz(a) de Direito"))


SMALL_CLAIMS_APPEAL = 460  # Recurso Inominado Cível: judged by a Turma Recursal


def second_body(court: Court, kind: str, area: str, class_code: int, n: int) -> str:
    """The body that judges an appeal of ``kind`` in ``court`` (D184), the ``n``-th drawn."""
    segment = court.segment
    if class_code == SMALL_CLAIMS_APPEAL:
        name = "small_claims_federal" if segment == 4 else "small_claims"
    elif segment in (4, 5):
        name = "federal" if segment == 4 else "labour"
    elif court.acronym == "TJSP":
        public = kind == "fiscal" or area == "Fazenda Pública"
        name = "tjsp_public" if public else "tjsp_private"
        if kind == "criminal":
            name = "tjsp_criminal"
    else:
        name = "state_criminal" if kind == "criminal" else "state"
    template, count = names.SECOND_BODIES[name]
    return template.format(n=(n - 1) % int(count) + 1)


REORGANISATION = 129  # Recuperação Judicial: its incidents are of another kind
EXECUTION_TITLE = 159  # Execução de Título Extrajudicial
EMBARGOS_A_EXECUCAO = 172
SENTENCE_ENFORCEMENT = 156  # Cumprimento de Sentença
PIERCING = 1894  # Incidente de Desconsideração de Personalidade Jurídica


def incident_fits(pop: Population, main: LawsuitRec, class_code: int) -> bool:
    """Whether ``main`` may have an incident of ``class_code`` (D184): embargos oppose an
    execution of a title; a sentence is enforced once there is one (never a title's
    execution); the veil pierced is a company's."""
    first = main.instances[0]
    if class_code == EMBARGOS_A_EXECUCAO:
        return first.klass[0] == EXECUTION_TITLE
    if class_code == SENTENCE_ENFORCEMENT:
        return first.has_sentence and first.klass[0] != EXECUTION_TITLE
    if class_code == PIERCING:
        return any(
            p.side == PASSIVE
            and pop.entities[p.document].kind == "company"
            and not pop.entities[p.document].is_public
            for p in main.parties
        )
    return True


def class_subjects(
    n: int, class_code: int, area: str, drawn: tuple[tuple[int, str], ...]
) -> tuple[tuple[int, str], ...]:
    """The subjects of the ``n``-th lawsuit, of ``class_code`` (D184): the class's own (the
    first always; one more for about a third of them, by ``n``: no generator to seed) where
    it has some, else ``drawn`` from its area's."""
    own = names.SUBJECTS_BY_CLASS.get(f"{class_code}/{area}") or names.SUBJECTS_BY_CLASS.get(
        str(class_code)
    )
    if not own:
        return drawn
    if len(own) == 1 or n % 3:
        return (own[0],)
    return (own[0], own[1 + (n // 3) % (len(own) - 1)])


def tier_amount(r: random.Random, tier: int) -> float:
    _name, low, high = AMOUNT_TIERS[tier]
    if high == float("inf"):
        high = low * 12
    return round(r.uniform(low + 1, high - 1), 2)


class IndexBuilder:
    def __init__(self, seed: int, epoch: datetime, pop: Population) -> None:
        self.seed = seed
        self.epoch = epoch
        self.pop = pop
        self.courts = all_courts()
        self.by_code: dict[str, LawsuitRec] = {}
        # D184: who may be a party to what; draws from a generator of its own.
        self.caster = Caster(pop, seed)
        self.weights = [self._weight(c) for c in self.courts]

    @staticmethod
    def _weight(c: Court) -> float:
        big = {
            "TJSP": 40.0,
            "TJRJ": 10.0,
            "TJMG": 10.0,
            "TRT2": 8.0,
            "TRF3": 7.0,
            "TJRS": 6.0,
            "TJPR": 5.0,
            "TRT15": 4.0,
            "TRF1": 4.0,
            "TRF4": 4.0,
            "TRT1": 4.0,
            "TJBA": 3.0,
            "TJPE": 3.0,
            "TJSC": 3.0,
            "TJGO": 2.0,
            "TRT3": 3.0,
            "STJ": 3.0,
        }
        return big.get(c.acronym, 0.6 if c.segment in (6, 7, 9) or c.code == 90 else 1.0)

    def court(self, acronym: str) -> Court:
        return next(c for c in self.courts if c.acronym == acronym)

    # ------------------------------------------------------------------ identity
    def new_code(self, r: random.Random, court: Court, year: int, origin: str) -> str:
        seq = r.randint(1, 9_999_999) if court.segment == 8 else r.randint(1, 999_999)
        while True:
            code = make_cnj(seq, year, court.segment, court.code, origin)
            if code not in self.by_code:
                return code
            seq = seq % 9_999_999 + 1

    def parties_for(
        self,
        r: random.Random,
        kind: str,
        state: str,
        court: Court,
        city_idx: int = 0,
        *,
        klass: int = 0,
        area: str = "",
        cast_kind: str = "",
    ) -> list[PartyRef]:
        """The parties of a lawsuit: drawn from ``r`` by its kind, then cast for its class
        (D184) by the caster, which alone draws what the class needs instead."""
        drawn = self._draw_parties(r, kind, state, court, city_idx)
        cast = cast_of(klass, area, cast_kind or kind)
        if cast is None:
            return drawn
        return self.caster.cast(cast, drawn, Place(court, state, city_idx, area))

    def _draw_parties(
        self, r: random.Random, kind: str, state: str, court: Court, city_idx: int
    ) -> list[PartyRef]:
        pop = self.pop
        active_role, passive_role = names.ROLES.get(kind, names.ROLES["civil"])
        federal = court.segment == 4

        def lawyers(n: int) -> tuple[str, ...]:
            pool = pop.lawyers_by_state[state]
            picked: list[str] = []
            for _ in range(n):
                oab = pool[1 + r.randrange(len(pool) - 1)]
                if oab not in picked:
                    picked.append(oab)
            return tuple(picked)

        def private(person_share: float) -> str:
            if r.random() < person_share:
                return r.choice(pop.persons)
            if r.random() < 0.25:
                head = r.choice(pop.big_companies)
                if r.random() < 0.3 and pop.branches[head]:
                    return r.choice(pop.branches[head])
                return head
            return r.choice(pop.companies)

        def public() -> str:
            if federal:
                return r.choice(pop.federal_bodies[:3] + pop.federal_bodies[IBAMA : IBAMA + 1])
            if r.random() < 0.6:
                return pop.municipalities[state][city_idx]
            return r.choice(pop.state_bodies[state][:1] + pop.municipalities[state])

        actives: list[str]
        passives: list[str]
        if kind == "fiscal":
            actives = [
                pop.federal_bodies[3]
                if federal
                else r.choice(pop.municipalities[state] + pop.state_bodies[state][:1])
            ]
            passives = [private(0.4)]
        elif kind == "criminal":
            actives = [pop.federal_bodies[4] if federal else pop.state_bodies[state][1]]
            passives = [r.choice(pop.persons) for _ in range(r.choice((1, 1, 1, 2, 3)))]
        elif kind == "labour":
            actives = [r.choice(pop.persons)]
            passives = [private(0.05) for _ in range(r.choice((1, 1, 2)))]
        elif kind in ("precatory", "execution"):
            actives = [r.choice(pop.persons) if r.random() < 0.8 else r.choice(pop.companies)]
            passives = [public()]
        elif kind == "electoral":
            actives = [r.choice(pop.persons) if r.random() < 0.5 else pop.state_bodies[state][1]]
            passives = [r.choice(pop.persons)]
        elif kind == "administrative":
            actives = [r.choice(pop.persons)]
            passives = [public()]
        else:
            actives = [private(0.7) for _ in range(r.choice((1, 1, 1, 2)))]
            passives = [
                private(0.35) if r.random() < 0.85 or federal is False else public()
                for _ in range(r.choice((1, 1, 2)))
            ]
            if federal:
                passives = [r.choice(pop.federal_bodies[1:3])]
        out: list[PartyRef] = []
        seen: set[str] = set()
        for side, role, docs in (
            ("Active", active_role, actives),
            ("Passive", passive_role, passives),
        ):
            for doc in docs:
                if doc in seen:
                    continue
                seen.add(doc)
                ent = pop.entities[doc]
                n_law = 1 if ent.is_public else r.choice((1, 1, 2))
                if kind == "criminal" and side == "Active":
                    n_law = 0
                out.append(PartyRef(side, role, doc, lawyers(n_law)))
        return out

    # ------------------------------------------------------------------ timeline
    def timeline(
        self,
        r: random.Random,
        rec: LawsuitRec,
        klass: tuple[int, str],
        body: str,
        dist: datetime,
        *,
        n_steps: int | None = None,
        force_moving: bool = False,
        allow_appeal: bool = True,
    ) -> None:
        epoch = self.epoch
        age_days = (epoch - dist).days
        archived = not force_moving and r.random() < (0.3 if age_days > 3 * 365 else 0.06)
        moving = force_moving or (not archived and r.random() < 0.4)
        if archived:
            end = dist + timedelta(days=r.uniform(0.4, 0.95) * max(30, age_days - 30))
        elif moving:
            end = epoch - timedelta(hours=r.uniform(2, 40))
        else:
            end = epoch - timedelta(days=r.uniform(1, min(200, age_days * 0.5)))
        if end <= dist:
            end = dist + timedelta(days=5)
        has_sentence = (archived and r.random() < 0.85) or (
            not archived and r.random() < min(0.75, age_days / 365 * 0.2)
        )
        total = n_steps or max(4, int(6 + age_days / 365 * r.uniform(4, 22)))
        title = judge_title(rec.court, 1, klass[0], rec.kind)
        first_instance = rec.court.segment in (4, 5, 8) and rec.court.code not in (0, 90)
        appeal = (
            allow_appeal
            and first_instance
            and has_sentence
            and n_steps is None
            and (end - dist).days > 120
            and r.random() < 0.35
        )
        period = r.choice((6.0, 12.0, 24.0, 36.0, 72.0, 120.0)) if moving else 0.0

        def first_instance_rec(
            end: datetime, n_steps: int, has_sentence: bool, *, archived: bool, moving: bool
        ) -> InstanceRec:
            """The first instance up to ``end``; when the lawsuit went up (``appeal``), its
            last steps remitted it and it stopped there."""
            stored_at = self.stored_at(r, dist, end, moving)
            return InstanceRec(
                1,
                klass,
                body,
                title,
                dist,
                end,
                n_steps,
                has_sentence,
                remitted=appeal,
                archived=archived,
                period_hours=period if moving else 0.0,
                stored_at=stored_at,
            )

        if appeal:
            up = dist + (end - dist) * r.uniform(0.55, 0.8)
            n1 = max(4, int(total * 0.6))
            rec.instances.append(first_instance_rec(up, n1, True, archived=False, moving=False))
            second = names.SECOND_INSTANCE_CLASSES.get(
                "jec" if klass[0] == 436 else rec.kind, names.SECOND_INSTANCE_CLASSES["civil"]
            )
            dist2 = up + timedelta(days=r.uniform(2, 15))
            end2 = max(end, dist2 + timedelta(days=3))
            r.choice(names.COURT_BODIES["second"])  # drawn as ever: the world stays put
            body2 = second_body(rec.court, rec.kind, rec.area, second[0], r.randint(1, 38))
            rec.instances.append(
                InstanceRec(
                    2,
                    second,
                    body2,
                    judge_title(rec.court, 2, second[0], rec.kind),
                    dist2,
                    end2,
                    max(3, total - n1),
                    archived or r.random() < 0.5,
                    False,
                    archived,
                    period,
                    self.stored_at(r, dist2, end2, moving),
                )
            )
        else:
            rec.instances.append(
                first_instance_rec(end, total, has_sentence, archived=archived, moving=moving)
            )

    def stored_at(
        self, r: random.Random, dist: datetime, end: datetime, moving: bool
    ) -> datetime | None:
        roll = r.random()
        if roll < 0.08:
            return None
        if roll < 0.25:
            at = self.epoch - timedelta(days=r.uniform(30, 420))
        else:
            at = self.epoch - timedelta(hours=r.uniform(1, 24 * 15))
        if moving:
            at = min(at, end - timedelta(hours=r.uniform(1, 72)))
        return max(at, dist + timedelta(hours=6))

    # ------------------------------------------------------------------ builders
    def regular(self, i: int) -> LawsuitRec:
        r = rng(self.seed, "lawsuit", i)
        n_courts = len(self.courts)
        court = (
            self.courts[i % n_courts]
            if i < 3 * n_courts
            else r.choices(self.courts, weights=self.weights)[0]
        )
        n_steps: int | None = None
        pool = class_pool(court)
        klass_row = r.choice(names.CLASSES[pool])
        if i == 0:  # the giant: a judicial reorganisation in São Paulo
            court = self.court("TJSP")
            klass_row = next(c for c in names.CLASSES["state"] if c[0] == 129)
            n_steps = BIG_STEPS
        elif i <= len(LARGE_STEPS):
            court = self.court(("TRF3", "TJRJ", "TRT2", "TJMG", "TJSP")[i - 1])
            pool = class_pool(court)
            klass_row = (
                names.CLASSES[pool][0]
                if i != 1
                else next(c for c in names.CLASSES["federal"] if c[0] == 1116)
            )
            n_steps = LARGE_STEPS[i - 1]
        state = court_state(court, r)
        city_idx = r.randrange(len(names.CITIES[state])) if r.random() < 0.55 else 0
        origin, body = origin_for(court, state, city_idx, r, klass_row[2], klass_row[0])
        if i == 0:
            state, city_idx, origin, body = "SP", 0, "0100", names.BIG_LAWSUIT_BODY
        if n_steps:
            dist = self.epoch - timedelta(days=r.uniform(8 * 365, 13 * 365))
        else:
            dist = self.epoch - timedelta(days=40 + (r.random() ** 1.7) * 16 * 365)
        code = self.new_code(r, court, dist.year, origin)
        code_, name, area, kind = klass_row
        if kind == "civil" and code_ == 436:
            kind = "jec"
        subjects = tuple(
            r.sample(names.SUBJECTS[area], min(len(names.SUBJECTS[area]), r.choice((1, 1, 2))))
        )
        # D184: what the class needs is drawn apart, so the rest of the lawsuit stays put.
        subjects = class_subjects(i, code_, area, subjects)
        amount: float | None = None
        if kind not in ("criminal", "electoral", "administrative"):
            amount = round(min(2e7, r.lognormvariate(10.3, 1.4)), 2)
        secrecy = 0
        # family cases run under secrecy by law; a few others by a judge's order
        family = area == "Família" and r.random() < 0.6
        if family or (kind == "criminal" and r.random() < 0.1) or r.random() < 0.01:
            secrecy = r.choice((1, 1, 2, 3, 5))
        rec = LawsuitRec(
            code,
            court,
            origin,
            state,
            names.CITIES[state][city_idx][0],
            area,
            kind,
            subjects,
            amount,
            self.parties_for(r, kind, state, court, city_idx, klass=code_, area=area),
            [],
            secrecy,
            r.random() < 0.25 and kind in ("civil", "jec", "labour"),
            tribunal_number=court.segment * 100 + court.code,
        )
        if i == 0:
            rec.parties.extend(self.creditors(r, state))
            rec.amount = 186_450_000.0
            rec.secrecy = 0
        if n_steps:
            rec.secrecy = 0
        self.timeline(
            r, rec, (code_, name), body, dist, n_steps=n_steps, force_moving=n_steps is not None
        )
        self.extras(r, rec, city_idx)
        return rec

    def creditors(self, r: random.Random, state: str) -> list[PartyRef]:
        """The third parties of a judicial reorganisation (D184): one judicial administrator
        (a lawyer, in their own name) and the creditors who came to the case."""
        pool = self.pop.lawyers_by_state[state]
        out: list[PartyRef] = []
        for k, doc in enumerate(r.sample(self.pop.companies, 36)):
            lawyer = r.choice(pool)
            if k == 0:
                administrator = self.pop.by_oab[lawyer].document
                out.append(PartyRef(INTERESTED, "ADMINISTRADOR JUDICIAL", administrator, ()))
            else:
                out.append(PartyRef(INTERESTED, "CREDOR", doc, (lawyer,)))
        return out

    def extras(self, r: random.Random, rec: LawsuitRec, city_idx: int) -> None:
        """The busy person, the bank and the busy firm turn up across the world, where the
        class admits them (D184). The draws are the same whether they join or not."""
        pop = self.pop
        cast = cast_of(rec.instances[0].klass[0], rec.area, rec.kind)
        place = Place(rec.court, rec.state, city_idx, rec.area)
        if rec.kind in ("civil", "jec", "fiscal", "labour") and r.random() < BUSY_PERSON_SHARE:
            side = PASSIVE if rec.kind in ("fiscal", "labour") or r.random() < 0.5 else ACTIVE
            if side == PASSIVE and rec.kind == "labour":
                side = ACTIVE
            lawyer = r.choice(pop.lawyers_by_state[rec.state][1:])
            other = ACTIVE if side == PASSIVE else PASSIVE
            for joins in (side, other):  # the other side when the class wants it so
                role = cast.role(joins) if cast is not None else None
                if role and self.caster.admits(cast, joins, pop.busy_person, place, rec.parties):
                    rec.parties.append(PartyRef(joins, role, pop.busy_person, (lawyer,)))
                    break
        if rec.kind in ("jec", "civil") and rec.court.segment == 8 and r.random() < 0.08:
            lawyer = r.choice(pop.lawyers_by_state[rec.state][1:])
            role = cast.role(PASSIVE) if cast is not None else None
            if role and self.caster.admits(cast, PASSIVE, pop.bank, place, rec.parties):
                rec.parties.append(PartyRef(PASSIVE, role, pop.bank, (lawyer,)))
        if rec.state == "SP" and r.random() < BUSY_LAWYER_SP_SHARE:
            target = next((p for p in rec.parties if not pop.entities[p.document].is_public), None)
            if target is not None and pop.busy_lawyer not in target.lawyers:
                target.lawyers = (pop.busy_lawyer, *target.lawyers)

    def miner_pair(self, j: int) -> list[LawsuitRec]:
        """A sentence execution against the public purse and, often, its precatório."""
        r = rng(self.seed, "miner", j)
        acr = r.choices(
            (
                "TJSP",
                "TRF3",
                "TJRJ",
                "TRF1",
                "TJMG",
                "TRT2",
                "TJRS",
                "TRF4",
                "TJBA",
                "TRT15",
                "TJPR",
                "TRF5",
            ),
            weights=(8, 5, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1),
        )[0]
        court = self.court(acr)
        state = court_state(court, r)
        city_idx = r.randrange(len(names.CITIES[state]))
        area = (
            "Fazenda Pública"
            if court.segment == 8
            else "Trabalhista"
            if court.segment == 5
            else "Previdenciária"
        )
        # D184: a labour claim is executed in its own record, not in a class of the CPC.
        exe_class = (
            names.EXECUTION_CLASSES["labour"] if court.segment == 5 else names.EXECUTION_CLASS
        )
        origin, body = origin_for(court, state, city_idx, r, area, exe_class[0])
        dist = self.epoch - timedelta(days=r.uniform(200, 9 * 365))
        tier = j % len(AMOUNT_TIERS)
        amount = tier_amount(r, tier)
        has_precatory = r.random() < 0.65
        tags = tuple(
            t
            for t, p in zip(MINER_TAGS, (1.0 if has_precatory else 0.0, 0.5, 0.35), strict=True)
            if r.random() < p
        )
        if not has_precatory and "possible_precatory" not in tags:
            tags = (*tags, "possible_precatory")
        tags = tuple(t for t in MINER_TAGS if t in tags)
        code = self.new_code(r, court, dist.year, origin)
        subjects = tuple(r.sample(names.SUBJECTS[area], 1))
        exe = LawsuitRec(
            code,
            court,
            origin,
            state,
            names.CITIES[state][city_idx][0],
            area,
            "execution",
            subjects,
            amount,
            self.parties_for(
                r,
                "execution",
                state,
                court,
                city_idx,
                klass=exe_class[0],
                area=area,
            ),
            [],
            0,
            False,
            miner=MinerInfo("sentence-execution", tags=tags),
            tribunal_number=court.segment * 100 + court.code,
        )
        self.timeline(r, exe, exe_class, body, dist, allow_appeal=False)
        out = [exe]
        if has_precatory:
            pdist = exe.instances[0].end - timedelta(days=r.uniform(10, 60))
            pdist = max(pdist, dist + timedelta(days=30))
            porigin = "0000" if court.segment == 8 else origin
            pcode = self.new_code(r, court, pdist.year, porigin)
            small = amount <= 60_000  # a small claim is paid by RPV, not by precatório
            klass = names.PRECATORY_CLASSES[int(small)]
            budget = min(2029, max(2023, pdist.year + 1 + (r.random() < 0.4)))
            nature = "alimentary" if r.random() < 0.45 else "common"
            parties = [
                PartyRef(p.side, "CREDOR" if p.side == ACTIVE else "DEVEDOR", p.document, p.lawyers)
                for p in exe.parties
            ]
            prec = LawsuitRec(
                pcode,
                court,
                porigin,
                state,
                exe.city,
                area,
                "precatory",
                (names.PRECATORY_SUBJECTS[int(small)],),
                round(amount * r.uniform(0.92, 1.08), 2),
                parties,
                [],
                0,
                False,
                main=(code, 1),
                miner=MinerInfo("judgement-bond", budget, nature),
                tribunal_number=exe.tribunal_number,
            )
            pbody = (
                "Diretoria de Execuções de Precatórios e Cálculos - DEPRE"
                if court.segment == 8
                else "Presidência - Setor de Precatórios"
            )
            self.timeline(r, prec, klass, pbody, pdist, allow_appeal=False)
            exe.related.append((pcode, 1))
            out.append(prec)
        return out

    def incident(self, k: int, mains: list[LawsuitRec]) -> LawsuitRec:
        r = rng(self.seed, "incident", k)
        main = r.choice(mains)
        klass = r.choice(names.INCIDENT_CLASSES)
        # D184: an incident its main lawsuit can have; another main where none fits.
        order = [klass, *(c for c in names.INCIDENT_CLASSES if c != klass)]
        fitting = next((c for c in order if incident_fits(self.pop, main, c[0])), None)
        while fitting is None:
            main = self.caster.r.choice(mains)
            fitting = next((c for c in order if incident_fits(self.pop, main, c[0])), None)
        klass = fitting
        cast = cast_of(klass[0])
        assert cast is not None
        parties = [PartyRef(p.side, p.role, p.document, p.lawyers) for p in main.parties]
        if klass[0] == EMBARGOS_A_EXECUCAO:  # the debtor opposes the execution: sides turn
            for party in parties:
                party.side = PASSIVE if party.side == ACTIVE else ACTIVE
            parties.sort(key=lambda p: p.side != ACTIVE)
        place = Place(main.court, main.state, 0, main.area)
        parties = self.caster.cast(cast, parties, place)
        m1 = main.instances[0]
        dist = between(r, m1.distribution + days(30), max(m1.distribution + days(31), m1.end))
        dist = min(dist, self.epoch - days(20))
        code = self.new_code(r, main.court, dist.year, main.origin)
        rec = LawsuitRec(
            code,
            main.court,
            main.origin,
            main.state,
            main.city,
            main.area,
            "civil",
            main.subjects,
            main.amount,
            parties,
            [],
            main.secrecy,
            main.free_justice,
            main=(main.code, 1),
            tribunal_number=main.tribunal_number,
        )
        self.timeline(r, rec, klass, m1.body, dist, allow_appeal=False)
        main.related.append((code, 1))
        return rec

    def build(self) -> dict[str, LawsuitRec]:
        regular: list[LawsuitRec] = []
        for i in range(N_REGULAR):
            rec = self.regular(i)
            self.by_code[rec.code] = rec
            regular.append(rec)
        for j in range(N_EXECUTIONS):
            for rec in self.miner_pair(j):
                self.by_code[rec.code] = rec
        mains = [
            x
            for x in regular[10:]
            if x.kind in ("civil", "jec")
            and x.court.segment == 8
            and x.instances[0].klass[0] != REORGANISATION
        ]
        for k in range(N_INCIDENTS):
            rec = self.incident(k, mains)
            self.by_code[rec.code] = rec
        return self.by_code

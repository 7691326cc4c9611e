"""Arrest warrants (BNMP) and penal executions (SEEU) of the world's people, derived from its
criminal lawsuits (D116, D117).

Nothing here is built with the world: :class:`CriminalRecords` is made on first use (a pass
over the criminal actions of the index, a few milliseconds), and each warrant or execution is
rendered when asked. Every record follows from a criminal action the world has:

- every action whose history reached its custody step (the step "Decretada a prisão preventiva
  ... expedido mandado de prisão (BNMP)") issued a *provisional* warrant against each
  defendant, dated that step; most were served or revoked, some are still open;
- a sentenced action may have convicted a defendant: then a *penal execution* in the
  execution court of the same place (class EXECUÇÃO DA PENA, 386), often with the definitive
  warrant that took the person in; or a definitive warrant still open (convicted, at large);
  an execution suspended by an escape comes with an open *recapture* warrant.

Companies are never defendants of a criminal action, so they have none. The person with many
lawsuits is a defendant in two actions (see :func:`involve_busy_person`): one open warrant and
one execution being served.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from lawsuit_tui.assets_dir import read_asset_json
from lawsuit_tui.domain.identifiers import make_cnj
from lawsuit_tui.sandbox.world import files
from lawsuit_tui.sandbox.world.lawsuits import LawsuitRec, PartyRef, judge_name
from lawsuit_tui.sandbox.world.people import Population
from lawsuit_tui.sandbox.world.rand import hash_text, iso, rng, short_id

__all__ = [
    "CriminalRecords",
    "ExecutionRec",
    "WarrantRec",
    "criminal_actions",
    "involve_busy_person",
]

_DATA: dict[str, Any] = read_asset_json("sandbox/criminal.json")
_OFFENCES: dict[str, dict[str, Any]] = _DATA["offences"]
_STEPS: dict[str, list[list[str]]] = _DATA["execution_steps"]
_CUSTODY_STEP = 3  # the index of the custody milestone in a criminal action (steps.py)
_MIN_STEPS_FOR_CUSTODY = 6
_NEXT_REGIME = {"Fechado": "semiaberto", "Semiaberto": "aberto", "Aberto": "aberto"}

HistoryTimes = Callable[[str], list[float]]
"""The step times (epoch seconds, oldest first) of a lawsuit's first instance."""


def criminal_actions(records: list[LawsuitRec]) -> list[LawsuitRec]:
    """Criminal actions of the first instance that issue warrants: Ação Penal (283) in a state
    or federal court (military courts and habeas corpus do not go to the BNMP here)."""
    return [
        rec
        for rec in records
        if rec.kind == "criminal"
        and rec.court.segment in (4, 8)
        and rec.instances
        and rec.instances[0].klass[0] == 283
    ]


def involve_busy_person(
    records: list[LawsuitRec], pop: Population, seed: int, epoch: datetime
) -> None:
    """Make the person with many lawsuits a defendant of two actions in São Paulo: one
    sentenced (their execution) and one still running (their open warrant). Changes nothing
    else: the two actions keep their parties and get one more."""
    actions = [
        rec
        for rec in criminal_actions(records)
        if rec.secrecy == 0
        and len(rec.instances) == 1
        and not rec.instances[0].archived
        and rec.instances[0].n_steps >= _MIN_STEPS_FOR_CUSTODY
        and rec.instances[0].n_steps < 300
    ]
    local = [rec for rec in actions if rec.state == "SP" and rec.court.segment == 8]
    # Sentenced long enough ago for the execution to have begun.
    settled = epoch - timedelta(days=120)

    def first(sentenced: bool) -> LawsuitRec | None:
        for pool in (local, actions):  # São Paulo when it has one, else anywhere
            for rec in pool:
                inst = rec.instances[0]
                if inst.has_sentence == sentenced and (not sentenced or inst.end < settled):
                    return rec
        return None

    sentenced, running = first(True), first(False)
    r = rng(seed, "busy-person", "criminal")
    for rec in (sentenced, running):
        if rec is None or any(p.document == pop.busy_person for p in rec.parties):
            continue
        lawyer = r.choice(pop.lawyers_by_state[rec.state][1:])
        rec.parties.append(PartyRef("Passive", "ACUSADO", pop.busy_person, (lawyer,)))


@dataclass(frozen=True, slots=True)
class WarrantRec:
    warrant_id: str
    person: str
    lawsuit: str
    kind: str  # provisional | definitive | recapture
    status: str
    seq: int  # the warrant's number within its lawsuit
    years: int = 0
    months: int = 0
    days: int = 0
    regime: str | None = None
    execution: str | None = None  # the execution a recapture warrant belongs to


@dataclass(frozen=True, slots=True)
class ExecutionRec:
    code: str
    person: str
    lawsuit: str
    distribution: datetime
    phase: str
    status: str
    years: int
    months: int
    days: int
    regime: str

    @property
    def stored_at(self) -> datetime:
        return self.distribution + timedelta(days=2)


def _offence(rec: LawsuitRec) -> dict[str, Any]:
    code = str(rec.subjects[0][0]) if rec.subjects else ""
    found: dict[str, Any] = _OFFENCES.get(code, _DATA["default_offence"])
    return found


def _sentence(r: random.Random, rec: LawsuitRec) -> tuple[int, int, int, str]:
    low, high = _offence(rec)["years"]
    years = low + int((high - low) * r.random() ** 1.8)
    months, days = r.randint(0, 11), r.choice((0, 0, 10, 15, 20))
    total = years + months / 12
    # Código Penal, art. 33, § 2º: over 8 years closed; over 4 semi-open; else open.
    regime = "Fechado" if total > 8 else "Semiaberto" if total > 4 else "Aberto"
    return years, months, days, regime


def sentence_words(years: int, months: int, days: int) -> str:
    parts = [f"{years} ano{'s' if years != 1 else ''}"]
    if months:
        parts.append(f"{months} {'meses' if months != 1 else 'mês'}")
    if days:
        parts.append(f"{days} dia{'s' if days != 1 else ''}")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " e " + parts[-1]


class CriminalRecords:
    """The warrants and executions of the world (see the module docstring)."""

    def __init__(
        self,
        seed: int,
        epoch: datetime,
        lawsuits: dict[str, LawsuitRec],
        pop: Population,
        history_times: HistoryTimes,
    ) -> None:
        self.seed = seed
        self.epoch = epoch
        self.pop = pop
        self._lawsuits = lawsuits
        self._history_times = history_times
        self.warrants: dict[str, WarrantRec] = {}
        self.executions: dict[str, ExecutionRec] = {}
        self._warrants_of: dict[str, list[str]] = defaultdict(list)
        self._executions_of: dict[str, list[str]] = defaultdict(list)
        self._executions_from: dict[str, list[str]] = defaultdict(list)
        self._by_rji: dict[str, str] = {}
        for rec in criminal_actions(list(lawsuits.values())):
            for party in rec.parties:
                if party.side == "Passive" and pop.entities[party.document].kind == "person":
                    self._derive(rec, party.document)

    # ------------------------------------------------------------------ derivation
    def _derive(self, rec: LawsuitRec, person: str) -> None:
        inst = rec.instances[0]
        r = rng(self.seed, "criminal", rec.code, person)
        busy = person == self.pop.busy_person
        numbers = iter(range(1, 10))  # the warrants' numbers within the lawsuit

        def warrant(
            kind: str,
            status: str,
            sentence: tuple[int, int, int, str] | None = None,
            execution: str | None = None,
        ) -> None:
            seq = next(numbers)
            years, months, days, regime = sentence or (0, 0, 0, None)
            self._add_warrant(
                WarrantRec(
                    self._id(rec, person, seq),
                    person,
                    rec.code,
                    kind,
                    status,
                    seq,
                    years,
                    months,
                    days,
                    regime,
                    execution,
                )
            )

        if inst.n_steps >= _MIN_STEPS_FOR_CUSTODY:
            if inst.archived or inst.has_sentence:
                status = "Cumprido" if r.random() < 0.65 else "Revogado"
            else:
                roll = r.random()
                status = (
                    "Pendente de Cumprimento"
                    if roll < 0.35 or busy
                    else "Cumprido"
                    if roll < 0.8
                    else "Revogado"
                    if roll < 0.95
                    else "Suspenso"
                )
            warrant("provisional", status)
        if not inst.has_sentence:
            return
        roll = 0.0 if busy else r.random()
        years, months, days, regime = _sentence(r, rec)
        if busy:  # a sentence of 4 to 8 years: semi-open (Código Penal, art. 33)
            years, regime = 6, "Semiaberto"
        sentence = (years, months, days, regime)
        dist = min(inst.end + timedelta(days=r.uniform(15, 90)), self.epoch - timedelta(days=1))
        # A conviction of the last few days has no execution yet.
        if roll < 0.45 and dist > inst.end:
            phase, status = self._execution_phase(r, rec, busy)
            code = self._execution_code(r, rec, dist.year)
            self.executions[code] = ExecutionRec(
                code, person, rec.code, dist, phase, status, years, months, days, regime
            )
            self._executions_of[person].append(code)
            self._executions_from[rec.code].append(code)
            if regime != "Aberto":  # the arrest that began the sentence
                warrant("definitive", "Cumprido", sentence)
            if phase == "Suspenso":  # an escape
                warrant("recapture", "Pendente de Cumprimento", sentence, code)
        elif roll < 0.65:  # convicted, at large
            warrant("definitive", "Pendente de Cumprimento", sentence)

    def _execution_phase(self, r: random.Random, rec: LawsuitRec, busy: bool) -> tuple[str, str]:
        if busy:
            return "Em Cumprimento", "Ativo"
        if rec.instances[0].archived and r.random() < 0.5:
            return "Arquivado", "Finalizado"
        phase = r.choices(
            ("Em Cumprimento", "Inicial", "Suspenso", "Recurso", "Trânsito em julgado ou acordo"),
            weights=(55, 15, 10, 10, 10),
        )[0]
        return phase, "Ativo"

    def _execution_code(self, r: random.Random, rec: LawsuitRec, year: int) -> str:
        court = rec.court
        seq = r.randint(1, 9_999_999) if court.segment == 8 else r.randint(1, 999_999)
        while True:
            code = make_cnj(seq, year, court.segment, court.code, rec.origin)
            if code not in self._lawsuits and code not in self.executions:
                return code
            seq = seq % 9_999_999 + 1

    def _id(self, rec: LawsuitRec, person: str, seq: int) -> str:
        return short_id(self.seed, "warrant", rec.code, person, seq, length=24)

    def _add_warrant(self, warrant: WarrantRec) -> None:
        self.warrants[warrant.warrant_id] = warrant
        self._warrants_of[warrant.person].append(warrant.warrant_id)
        self._by_rji[self.rji(warrant.person)] = warrant.person

    # ------------------------------------------------------------------ lookups
    def rji(self, person: str) -> str:
        """The person's RJI (the BNMP's individual registry): 20 digits (D115)."""
        number = int(hash_text(f"{self.seed}:rji:{person}", 24), 16) % 10**19
        return f"{self.epoch.year - 6}{number:019d}"[:20]

    def person_of_rji(self, rji: str) -> str | None:
        return self._by_rji.get("".join(ch for ch in rji if ch.isdigit()))

    def warrants_of(self, person: str) -> list[WarrantRec]:
        return [self.warrants[w] for w in self._warrants_of.get(person, [])]

    def executions_of(self, person: str) -> list[ExecutionRec]:
        return [self.executions[c] for c in self._executions_of.get(person, [])]

    def executions_from(self, lawsuit: str) -> list[ExecutionRec]:
        """The executions a criminal action led to."""
        return [self.executions[c] for c in self._executions_from.get(lawsuit, [])]

    def execution(self, code: str) -> ExecutionRec | None:
        return self.executions.get(code)

    def samples(self) -> dict[str, Any]:
        busy = self.pop.busy_person
        open_warrants = [w for w in self.warrants_of(busy) if w.status.startswith("Pendente")]
        executions = self.executions_of(busy)
        return {
            "warrant_rji": self.rji(busy) if open_warrants else None,
            "criminal_lawsuit": open_warrants[0].lawsuit if open_warrants else None,
            "penal_execution": executions[0].code if executions else None,
        }

    # ------------------------------------------------------------------ dates
    def _times(self, lawsuit: str) -> list[float]:
        return self._history_times(lawsuit)

    def issue_date(self, warrant: WarrantRec) -> datetime:
        rec = self._lawsuits[warrant.lawsuit]
        times = self._times(warrant.lawsuit)
        tz = rec.instances[0].distribution.tzinfo
        if warrant.kind == "provisional" and len(times) > _CUSTODY_STEP:
            return datetime.fromtimestamp(times[_CUSTODY_STEP], tz)
        if warrant.kind == "recapture" and warrant.execution:
            execution = self.executions[warrant.execution]
            steps = self._execution_steps(execution)
            return steps[-1][0] if steps else execution.distribution
        end = rec.instances[0].end
        return end - timedelta(days=rng(self.seed, "issued", warrant.warrant_id).uniform(2, 20))

    # ------------------------------------------------------------------ views
    def _court_words(self, rec: LawsuitRec) -> tuple[str, str]:
        """(the issuing court's body, its judge) for a warrant of ``rec``."""
        inst = rec.instances[0]
        judge = inst.judge
        if "(a)" in judge:
            judge = judge_name(rng(self.seed, "judge", rec.code, 1), judge)
        return inst.body, judge

    def _person(self, person: str, entity: dict[str, Any] | None) -> dict[str, Any]:
        data = dict(entity or {"name": self.pop.entities[person].name, "entity_type": "person"})
        data.setdefault("partners", [])
        docs = list(data.get("documents") or [])
        docs.append({"document": self.rji(person), "document_type": "rji"})
        data["documents"] = docs
        return data

    def warrant_view(
        self,
        warrant: WarrantRec,
        entity: dict[str, Any] | None,
        *,
        with_attachments: bool,
    ) -> dict[str, Any]:
        """The warrant object of a ``warrant`` response (D116)."""
        rec = self._lawsuits[warrant.lawsuit]
        court = rec.court
        body, judge = self._court_words(rec)
        issued = self.issue_date(warrant)
        offence = _offence(rec)
        r = rng(self.seed, "warrant-view", warrant.warrant_id)
        valid_years = int(offence["prescription"])
        expires = issued + timedelta(days=365 * valid_years)
        status = warrant.status
        if status.startswith("Pendente") and expires < self.epoch:
            status = "Expirado"
        sentence = sentence_words(warrant.years, warrant.months, warrant.days)
        text = _DATA["warrant_texts"][warrant.kind].format(
            lawsuit=rec.code,
            sentence=sentence,
            regime=(warrant.regime or "").lower(),
            execution=warrant.execution or "",
        )
        number = f"{rec.code}.01.{warrant.seq:04d}-{r.randint(10, 99)}"
        definitive = warrant.kind != "provisional"
        attachment_id = f"w{warrant.seq}-{warrant.warrant_id[:12]}"
        kind = {
            "provisional": "warrant_of_arrest",
            "definitive": "warrant_of_arrest",
            "recapture": "warrant_of_arrest_recapture",
        }[warrant.kind]
        return {
            "warrant_id": warrant.warrant_id,
            "entity": self._person(warrant.person, entity),
            "tribunal_id": str(court.code),
            "individual_id": self.rji(warrant.person),
            "warrant_type": kind,
            "arrest_type": "definitive" if definitive else "provisional",
            "law_type": {"number": offence["number"], "description": offence["description"]},
            "number": number,
            "previous_number": None,
            "issue_date": iso(issued),
            "create_date": iso(issued + timedelta(hours=r.uniform(1, 30))),
            "expiration_date": iso(expires),
            "status": status,
            "code": rec.code,
            "tribunal": court.name,
            "justice": str(court.segment),
            "tribunal_acronym": court.acronym,
            "court": body,
            "judge": judge,
            "judgementSummary": text,
            "reason": {
                "provisional": "Prisão preventiva",
                "definitive": "Condenação criminal",
                "recapture": "Fuga do estabelecimento prisional",
            }[warrant.kind],
            "post_warnings": _DATA["post_warnings"],
            "document_content": None,
            "duration": sentence if definitive else None,
            "duration_years": warrant.years if definitive else None,
            "duration_months": warrant.months if definitive else None,
            "duration_days": warrant.days if definitive else None,
            "observations": None,
            "regime": warrant.regime if definitive else None,
            "recapture": warrant.kind == "recapture",
            "certificate_file": None,
            "attachments": [
                {
                    "attachment_id": attachment_id,
                    "attachment_type": "Mandado de Prisão",
                    "attachment_name": f"Mandado de Prisão {number}.pdf",
                    "extension": "pdf",
                    "status": "done" if with_attachments else "pending",
                    "private": False,
                    "corrupted": False,
                    "attachment_date": iso(issued),
                    "tags": {},
                }
            ],
            "crawler": {
                "source_name": _DATA["warrant_source"],
                "crawl_id": short_id(self.seed, "crawl", warrant.warrant_id),
                "weight": 10,
                "updated_at": iso(self.epoch),
            },
            "tags": {"criminal": True},
            "created_at": iso(issued),
            "updated_at": iso(self.epoch),
        }

    def warrant_by_attachment(self, lawsuit: str, attachment_id: str) -> WarrantRec | None:
        """The warrant whose document ``attachment_id`` is, in lawsuit ``lawsuit``."""
        head, _sep, digest = attachment_id.partition("-")
        for person_warrants in self._warrants_of.values():
            for warrant_id in person_warrants:
                warrant = self.warrants[warrant_id]
                if (
                    warrant.lawsuit == lawsuit
                    and head == f"w{warrant.seq}"
                    and warrant_id.startswith(digest)
                    and len(digest) == 12
                ):
                    return warrant
        return None

    def warrant_file(self, warrant: WarrantRec, entity: dict[str, Any] | None) -> bytes:
        """The warrant document (a PDF) with what the BNMP record says."""
        view = self.warrant_view(warrant, entity, with_attachments=True)
        person = view["entity"]
        lines = [
            f"Número do mandado: {view['number']}",
            f"Processo: {view['code']}",
            f"Órgão expedidor: {view['court']} - {view['tribunal']}",
            f"Magistrado(a): {view['judge']}",
            f"Pessoa procurada: {person.get('name', '')} (RJI {view['individual_id']})",
            f"Tipificação penal: {view['law_type']['description']}",
            f"Espécie de prisão: {view['reason']}",
            f"Data de expedição: {view['issue_date'][:10]}",
            f"Validade: {view['expiration_date'][:10]}",
            f"Situação: {view['status']}",
            "",
            view["judgementSummary"],
            "",
            view["post_warnings"],
        ]
        return files.make_pdf("MANDADO DE PRISÃO", "\n".join(lines))

    # ------------------------------------------------------------------ executions
    def _execution_steps(self, execution: ExecutionRec) -> list[tuple[datetime, str, str, str]]:
        """(when, step type, content, attachment type) of an execution, oldest first."""
        r = rng(self.seed, "execution-steps", execution.code)
        guide = "Definitiva" if execution.phase != "Inicial" else "Provisória"
        sentence = sentence_words(execution.years, execution.months, execution.days)
        fields = {
            "guide": guide,
            "lawsuit": execution.lawsuit,
            "sentence": sentence,
            "regime": execution.regime.lower(),
            "next_regime": _NEXT_REGIME.get(execution.regime, "aberto"),
        }
        plan = list(_STEPS["start"])
        if execution.phase != "Inicial":
            plan += r.sample(_STEPS["serving"], r.randint(1, 3))
        extra = {
            "Suspenso": "suspended",
            "Recurso": "appeal",
            "Trânsito em julgado ou acordo": "final",
            "Arquivado": "archived",
        }.get(execution.phase)
        if extra:
            plan += _STEPS[extra]
        start = execution.distribution
        end = max(start + timedelta(days=3), self.epoch - timedelta(days=r.uniform(1, 40)))
        times = sorted(r.uniform(start.timestamp(), end.timestamp()) for _ in plan[1:])
        stamps = [start, *(datetime.fromtimestamp(t, start.tzinfo) for t in times)]
        return [
            (when, kind, content.format(**fields), attachment)
            for when, (kind, content, attachment) in zip(stamps, plan, strict=True)
        ]

    def _party(self, document: str, side: str, role: str) -> dict[str, Any]:
        ent = self.pop.entities[document]
        person = ent.kind == "person"
        return {
            "side": side,
            "person_type": role,
            "name": ent.name,
            "main_document": document,
            "entity_type": "person" if person else "company",
            "documents": [{"document": document, "document_type": "cpf" if person else "cnpj"}],
            "lawyers": [],
            "tags": {},
        }

    def execution_view(self, execution: ExecutionRec, at: datetime) -> dict[str, Any] | None:
        """The execution as a lawsuit (D70) as it stood at ``at``; None before it began."""
        if execution.distribution > at:
            return None
        rec = self._lawsuits[execution.lawsuit]
        court = rec.court
        federal = court.segment == 4
        template = _DATA["execution_body_federal" if federal else "execution_body_state"]
        body = template.format(city=rec.city)
        authority = self.pop.federal_bodies[4] if federal else self.pop.state_bodies[rec.state][0]
        steps: list[dict[str, Any]] = []
        attachments: list[dict[str, Any]] = []
        for index, (when, kind, content, attachment) in enumerate(self._execution_steps(execution)):
            if when > at:
                break
            step_id = hash_text(f"{self.seed}:execution-step:{execution.code}:{index}")
            step: dict[str, Any] = {
                "lawsuit_cnj": execution.code,
                "lawsuit_instance": 1,
                "step_id": step_id,
                "content": content,
                "step_type": kind,
                "attachment_url": None,
                "attachment_extension": None,
                "source_name": _DATA["execution_source"],
                "private": False,
                "step_date": iso(when),
                "created_at": iso(when),
                "updated_at": iso(when),
                "tags": {},
            }
            if attachment:
                digest = short_id(self.seed, "x-att", execution.code, index, length=12)
                att_id = f"x{index}-{digest}"
                step["attachment_url"] = (
                    f"/lawsuits/lawsuits/{execution.code}/1/attachments/{att_id}"
                )
                step["attachment_extension"] = "pdf"
                attachments.append(
                    {
                        "attachment_id": att_id,
                        "attachment_type": attachment,
                        "attachment_name": f"{attachment} - {when:%d-%m-%Y}.pdf",
                        "step_id": step_id,
                        "content": content,
                        "extension": "pdf",
                        "status": "done",
                        "private": False,
                        "corrupted": False,
                        "tags": {},
                        "user_data": {},
                        "attachment_date": iso(when),
                    }
                )
            steps.append(step)
        steps.reverse()
        person_role = "EXECUTADO" if federal else "REEDUCANDO"
        class_code, class_name = _DATA["execution_class"]
        subject_code, subject_name = _DATA["execution_subject"]
        dist = iso(execution.distribution)
        person = self.pop.entities[execution.person]
        return {
            "code": execution.code,
            "instance": 1,
            "name": f"{self.pop.entities[authority].name.upper()} X {person.name.upper()}",
            "courts": [{"code": rec.origin, "date": dist, "name": f"{court.acronym} - {body}"}],
            "county": body,
            "state": rec.state,
            "city": rec.city,
            "justice": str(court.segment),
            "tribunal": court.name,
            "tribunal_acronym": court.acronym,
            "judge": self._court_words(rec)[1],
            "classifications": [{"code": class_code, "name": class_name, "date": dist}],
            "subjects": [{"code": subject_code, "name": subject_name, "date": dist}],
            "parties": [
                self._party(authority, "Active", "AUTORIDADE"),
                self._party(execution.person, "Passive", person_role),
            ],
            "steps": steps,
            "last_step": dict(steps[0], steps_count=len(steps)) if steps else None,
            "attachments": attachments,
            "related_lawsuits": [
                {
                    "code": rec.code,
                    "instance": 1,
                    "name": f"Ação penal de origem - {rec.code}",
                    "tags": {"tribunal_acronym": court.acronym},
                }
            ],
            "phase": execution.phase,
            "status": execution.status,
            "area": "Criminal",
            "system": "SEEU",
            "free_justice": True,
            "secrecy_level": 0,
            "amount": 0,
            "distribution_date": dist,
            "created_at": iso(execution.stored_at),
            "updated_at": iso(at),
            "crawler": {
                "source_name": _DATA["execution_source"],
                "crawl_id": short_id(self.seed, "crawl", execution.code, int(at.timestamp())),
                "weight": 10,
                "updated_at": iso(at),
            },
            "tags": {"criminal": True, "datalake_segment": "EXECUCAO_PENAL"},
            "metadata": {
                "sentence": {
                    "years": execution.years,
                    "months": execution.months,
                    "days": execution.days,
                    "regime": execution.regime,
                }
            },
        }

    def execution_attachment(
        self, code: str, attachment_id: str
    ) -> tuple[dict[str, Any], bytes] | None:
        """(the attachment record, its PDF) of an execution, whatever its date."""
        execution = self.executions.get(code)
        if execution is None:
            return None
        view = self.execution_view(execution, self.epoch + timedelta(days=3650))
        for item in (view or {}).get("attachments") or []:
            if item["attachment_id"] == attachment_id:
                title = str(item["attachment_type"]).upper()
                text = f"Execução penal {code}\n\n{item['content']}"
                return item, files.make_pdf(title, text)
        return None

"""The sandbox's world: an index built eagerly, lawsuits rendered lazily at any moment."""

from __future__ import annotations

import functools
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson

from lawsuit_tui.domain.identifiers import format_cnj, make_cnj, make_cnpj, make_cpf
from lawsuit_tui.sandbox.world import files, miner, papers, steps
from lawsuit_tui.sandbox.world.casts import cast_of, is_prosecutor
from lawsuit_tui.sandbox.world.criminal import CriminalRecords, involve_busy_person
from lawsuit_tui.sandbox.world.lawsuits import IndexBuilder, InstanceRec, LawsuitRec, judge_name
from lawsuit_tui.sandbox.world.people import Entity, Population, build_population
from lawsuit_tui.sandbox.world.portfolio import Portfolio
from lawsuit_tui.sandbox.world.rand import iso, normalize_name, rng, short_id
from lawsuit_tui.sandbox.world.registry import Registry, pick_showcase
from lawsuit_tui.sandbox.world.samples import build_samples
from lawsuit_tui.sandbox.world.systems import (
    DOWN_COURTS,
    RATE_LIMITED_COURTS,
    SystemInfo,
    crawler_source,
    documented_systems,
    portal,
    system_name,
)

DEFAULT_EPOCH = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def compact_key(text: str) -> str:
    """A document or search key as it is matched: its letters and digits, upper case
    ("123.456.789-09", "12345678909" and "oab/sp 123" compare by what they hold)."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


_BASE_CACHE = 96
_REORGANISATION_CLASS = 129  # Recuperação Judicial
_PARTY_FIELDS = (
    "entity_id",
    "entity_type",
    "name",
    "social_name",
    "main_document",
    "documents",
    "addresses",
    "contacts",
    "aka_names",
    "parents",
    "birth_date",
    "place_of_birth",
    "nationality",
    "regime",
    "gender",
    "ethnicity",
    "tags",
    "latest_searches",
    "legal_nature",
    "head_office",
    "branch_activities",
    "position",
    "profession",
    "size",
    "is_public",
    "closing_date",
    "disabled_person",
    "deficiency",
    "revenue_service_updated_at",
    "revenue_service_active",
    "revenue_service_status",
    "share_capital",
    "special_status",
    "special_status_date",
    "responsible_qualification_id",
    "age_group",
    "pep",
    "entry_date",
    "created_at",
    "updated_at",
    "partners",
    "associated_people",
)


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


class _Base:
    """What does not depend on the moment: static JSON, the history, the step context."""

    __slots__ = ("ctx", "history", "static")

    def __init__(self, static: bytes, history: steps.History, ctx: steps.StepContext) -> None:
        self.static = static
        self.history = history
        self.ctx = ctx


class World:
    """The deterministic world the sandbox serves. See the package docstring."""

    def __init__(
        self, seed: int, epoch: datetime, pop: Population, lawsuits: dict[str, LawsuitRec]
    ) -> None:
        self.seed = seed
        self.epoch = epoch
        self.pop = pop
        self._lawsuits = lawsuits
        self._by_doc: dict[str, list[str]] = defaultdict(list)
        self._by_oab: dict[str, list[str]] = defaultdict(list)
        self._by_name: dict[str, list[str]] = defaultdict(list)
        for code, rec in lawsuits.items():
            for party in rec.parties:
                lst = self._by_doc[party.document]
                if not lst or lst[-1] != code:
                    lst.append(code)
                for oab in party.lawyers:
                    lst = self._by_oab[oab]
                    if not lst or lst[-1] != code:
                        lst.append(code)
        for doc, ent in pop.entities.items():
            self._by_name[normalize_name(ent.name)].append(doc)
        self._base = functools.lru_cache(maxsize=_BASE_CACHE)(self._make_base)
        self._samples: dict[str, Any] | None = None
        self._criminal: CriminalRecords | None = None
        self._registry: Registry | None = None
        self._portfolio: Portfolio | None = None

    # ------------------------------------------------------------------ construction
    @classmethod
    def build(cls, seed: int = 7, *, epoch: datetime = DEFAULT_EPOCH) -> World:
        epoch = _utc(epoch)
        pop = build_population(seed)
        lawsuits = IndexBuilder(seed, epoch, pop).build()
        involve_busy_person(list(lawsuits.values()), pop, seed, epoch)
        return cls(seed, epoch, pop, lawsuits)

    @classmethod
    def shared(cls, seed: int = 7, *, epoch: datetime = DEFAULT_EPOCH) -> World:
        """One world per (seed, epoch) for the whole process: worlds are read-only (their
        lazy caches are deterministic), so apps and tests may share one and skip the build."""
        return _shared(seed, _utc(epoch))

    # ------------------------------------------------------------------ index
    def lawsuit_keys(self) -> list[tuple[str, int]]:
        return [
            (code, inst.instance) for code, rec in self._lawsuits.items() for inst in rec.instances
        ]

    def record(self, code: str) -> LawsuitRec | None:
        """The index record of a lawsuit (internal shape; for the sandbox's own use)."""
        normal = self._norm_cnj(code)
        return self._lawsuits.get(normal) or self.portfolio.record(normal)

    @property
    def portfolio(self) -> Portfolio:
        """The collection portfolio of 10,000 lawsuits that moves day by day (D177)."""
        if self._portfolio is None:
            self._portfolio = Portfolio(
                self.seed, self.epoch, self.pop, taken=lambda code: code in self._lawsuits
            )
        return self._portfolio

    def records(self) -> list[LawsuitRec]:
        return list(self._lawsuits.values())

    @staticmethod
    def _norm_cnj(code: str) -> str:
        try:
            return format_cnj(code)
        except ValueError:
            return code

    def _inst(self, code: str, instance: int) -> tuple[LawsuitRec, InstanceRec] | None:
        rec = self.record(code)
        if rec is None:
            return None
        inst = rec.inst(instance)
        return None if inst is None else (rec, inst)

    def _keys_of(self, codes: list[str]) -> list[tuple[str, int]]:
        found: list[tuple[str, int]] = []
        for code in codes:
            rec = self._lawsuits.get(code) or self.portfolio.record(code)
            if rec is not None:
                found.extend((code, i.instance) for i in rec.instances)
        return found

    # ------------------------------------------------------------------ criminal records
    @property
    def criminal(self) -> CriminalRecords:
        """Warrants and penal executions (D116, D117), derived on first use."""
        if self._criminal is None:
            self._criminal = CriminalRecords(
                self.seed,
                self.epoch,
                self._lawsuits,
                self.pop,
                lambda code: self._base(code, 1).history.times,
            )
        return self._criminal

    def find(self, search_type: str, key: str) -> list[tuple[str, int]]:
        kind = search_type.lower()
        if kind == "lawsuit_cnj":
            code = self._norm_cnj(key.strip())
            found = self._keys_of([code])
            if not found:
                # D117: a penal execution is found by its number too.
                return [(code, 1)] if self.criminal.execution(code) else []
            return found
        if kind in ("cpf", "cnpj"):
            doc = compact_key(key)
            return self._keys_of(self._by_doc.get(doc, []))
        if kind == "oab":
            compact = compact_key(key)
            digits = "".join(ch for ch in compact if ch.isdigit()).lstrip("0")
            state = "".join(ch for ch in compact if ch.isalpha()).replace("OAB", "")
            return self._keys_of(self._by_oab.get(f"{digits}{state}", []))
        if kind == "name":
            codes: list[str] = []
            seen: set[str] = set()
            for doc in self._by_name.get(normalize_name(key), []):
                for code in self._by_doc.get(doc, []):
                    if code not in seen:
                        seen.add(code)
                        codes.append(code)
            return self._keys_of(codes)
        return []

    def branches(self, cnpj: str) -> list[str]:
        doc = compact_key(cnpj)
        return list(self.pop.branches.get(doc, []))

    def head_office(self, cnpj: str) -> str | None:
        """The head office CNPJ of a branch (same root, /0001), if the world has it."""
        doc = compact_key(cnpj)
        for head, branch_docs in self.pop.branches.items():
            if doc in branch_docs:
                return head
        return None

    def _entity(self, document: str) -> Entity | None:
        doc = compact_key(document)
        return self.pop.entities.get(doc) or self.pop.by_oab.get(doc.lstrip("0"))

    def entity(
        self,
        document: str,
        *,
        reveal_partners: bool = False,
        read_at: datetime | None = None,
    ) -> dict[str, Any] | None:
        """The registration data of a CPF, CNPJ or OAB (the lawyer), None when unknown.

        ``reveal_partners``: partners' CPFs unmasked (D78); ``read_at``: a live read at the
        Receita at that moment (``on_demand``), else the datalake's copy."""
        ent = self._entity(document)
        if ent is None:
            return None
        return self.registry.payload(ent.document, reveal_partners=reveal_partners, read_at=read_at)

    @property
    def registry(self) -> Registry:
        """The people's and companies' registration data, drawn on first use (D103)."""
        if self._registry is None:
            self._registry = Registry(
                self.seed,
                self.epoch,
                self.pop,
                self._lawsuit_count,
                self._reorganisations(),
            )
        return self._registry

    def _lawsuit_count(self, document: str) -> int:
        return len(self._by_doc.get(document, ()))

    @functools.cache  # noqa: B019 (one world per seed, kept for the process: no leak)
    def _reorganisations(self) -> dict[str, datetime]:
        """Companies that are the debtor (active side) of a judicial reorganisation lawsuit,
        and since when: their registration data carry it as their special status."""
        found: dict[str, datetime] = {}
        # Banks and the other big litigants are never debtors of one (a bank cannot file).
        big = set(self.pop.big_companies)
        for rec in self._lawsuits.values():
            first = rec.instances[0]
            if first.klass[0] != _REORGANISATION_CLASS:
                continue
            for party in rec.parties:
                ent = self.pop.entities[party.document]
                head = self.registry_head(party.document)
                if party.side == "Active" and ent.kind == "company" and not ent.is_public:
                    if head in big:
                        continue
                    found.setdefault(head, first.distribution)
                    break
        return found

    def registry_head(self, document: str) -> str:
        """The head office of a company's CNPJ (itself for a head office)."""
        head = self.head_office(document)
        return head or document

    def documents_named(self, name: str) -> list[str]:
        """Every CPF or CNPJ (branches included) of a person or company with this name."""
        return list(self._by_name.get(normalize_name(name), []))

    def homonyms(self, name: str) -> list[str]:
        """Documents of the distinct people/companies with this name (branches collapse into
        their head office). More than one means a name search is HOMONYM_AMBIGUOUS."""
        out: list[str] = []
        roots: set[str] = set()
        for doc in self._by_name.get(normalize_name(name), []):
            ent = self.pop.entities[doc]
            if ent.kind == "company":
                if doc[:8] in roots:
                    continue
                roots.add(doc[:8])
                head = doc[:8] + "0001"
                doc = next(
                    (d for d in self._by_name[normalize_name(name)] if d.startswith(head)), doc
                )
            out.append(doc)
        return out

    # ------------------------------------------------------------------ courts
    def is_secret(self, code: str, instance: int) -> bool:
        rec = self.record(code)
        return bool(rec and rec.secrecy > 0)

    def court_system(self, code: str, instance: int) -> str | None:
        """The vault system a lawsuit goes through (D83); None when its court has no
        documented system for that degree (only a wildcard credential serves it)."""
        rec = self.record(code)
        if rec is None:
            raise KeyError(code)
        return system_name(rec.court, instance)

    def court_systems(self) -> list[SystemInfo]:
        return list(documented_systems())

    def court_is_down(self, code: str) -> bool:
        rec = self.record(code)
        return bool(rec and rec.court.acronym in DOWN_COURTS)

    def court_rate_limited(self, code: str) -> bool:
        rec = self.record(code)
        return bool(rec and rec.court.acronym in RATE_LIMITED_COURTS)

    # ------------------------------------------------------------------ storage
    def stored_at(self, code: str, instance: int) -> datetime | None:
        found = self._inst(code, instance)
        if found is None:
            execution = self.criminal.execution(self._norm_cnj(code)) if instance == 1 else None
            return execution.stored_at if execution else None
        return found[1].stored_at

    def stored_view(self, code: str, instance: int | None) -> list[dict[str, Any]]:
        rec = self.record(code)
        if rec is None:
            execution = self.criminal.execution(self._norm_cnj(code))
            if execution is None or instance not in (None, 1):
                return []
            return self.court_view(code, 1, execution.stored_at)
        out: list[dict[str, Any]] = []
        for inst in rec.instances:
            if instance is not None and inst.instance != instance:
                continue
            if inst.stored_at is not None:
                out.extend(self.court_view(rec.code, inst.instance, inst.stored_at))
        return out

    # ------------------------------------------------------------------ views
    def court_view(self, code: str, instance: int | None, at: datetime) -> list[dict[str, Any]]:
        rec = self.record(code)
        if rec is None:
            execution = self.criminal.execution(self._norm_cnj(code))
            view = self.criminal.execution_view(execution, _utc(at)) if execution else None
            return [view] if view is not None and instance in (None, 1) else []
        at = _utc(at)
        return [
            self._view(rec, inst, at)
            for inst in rec.instances
            if (instance is None or inst.instance == instance) and inst.distribution <= at
        ]

    def steps_between(
        self, code: str, instance: int, start: datetime, end: datetime
    ) -> list[dict[str, Any]]:
        """Steps with start < step_date <= end, newest first (copies)."""
        found = self._inst(code, instance)
        if found is None:
            return []
        start, end = _utc(start), _utc(end)
        schedule = found[1].schedule
        # A portfolio lawsuit asked about after its history (a tracking's run): its schedule
        # alone says whether anything moved, without building the lawsuit.
        quiet = schedule is not None and schedule.count(start) == schedule.count(end)
        if quiet and start >= found[1].end:
            return []
        base = self._base(found[0].code, instance)
        hist = base.history
        lo = steps.visible_history(hist, start)
        hi = steps.visible_history(hist, end)
        out = [dict(s, tags={}) for s in hist.steps[lo:hi]]
        k0 = steps.moving_count(base.ctx, start)
        k1 = steps.moving_count(base.ctx, end)
        out.extend(steps.moving_step(base.ctx, k)[0] for k in range(k0, k1))
        out.reverse()
        return out

    def steps_count(self, code: str, instance: int, at: datetime) -> int:
        """How many steps the court shows at ``at`` (without building the lawsuit when its
        history is all before ``at``)."""
        found = self._inst(code, instance)
        if found is None:
            return 0
        rec, inst = found
        at = _utc(at)
        if at >= inst.end and inst.schedule is not None:
            return int(inst.n_steps + inst.schedule.count(at))
        views = self.court_view(rec.code, instance, at)
        last = (views[0].get("last_step") or {}) if views else {}
        return int(last.get("steps_count") or (len(views[0].get("steps") or []) if views else 0))

    def attachment(self, code: str, instance: int, attachment_id: str) -> dict[str, Any] | None:
        """The attachment record (as in the lawsuit's attachments), whatever its date."""
        found = self._find_attachment(code, instance, attachment_id)
        if found is None:
            execution = self.criminal.execution_attachment(self._norm_cnj(code), attachment_id)
            return execution[0] if execution is not None and instance == 1 else None
        return {k: v for k, v in found.items() if k != "_text"}

    def attachment_file(
        self, code: str, instance: int, attachment_id: str
    ) -> tuple[bytes, str] | None:
        found = self._find_attachment(code, instance, attachment_id)
        if found is None:
            execution = self.criminal.execution_attachment(self._norm_cnj(code), attachment_id)
            if execution is None or instance != 1:
                return None
            return execution[1], files.MEDIA_TYPES["pdf"]
        return files.render(found, str(found.get("_text") or ""))

    def _find_attachment(
        self, code: str, instance: int, attachment_id: str
    ) -> dict[str, Any] | None:
        found = self._inst(code, instance)
        parsed = steps.parse_attachment_index(attachment_id)
        if found is None or parsed is None:
            return None
        base = self._base(found[0].code, instance)
        prefix, index = parsed
        if prefix == "h":
            for i, att in base.history.attachments:
                if i == index and att["attachment_id"] == attachment_id:
                    return att
            return None
        k = index - found[1].n_steps
        moves = found[1].period_hours > 0 or found[1].schedule is not None
        if not moves or not 0 <= k < steps.MAX_MOVING_STEPS:
            return None
        _step, moved = steps.moving_step(base.ctx, k)
        return moved if moved is not None and moved["attachment_id"] == attachment_id else None

    def _context(self, rec: LawsuitRec, inst: InstanceRec) -> steps.StepContext:
        if "(a)" in inst.judge:  # still a title: name the judge, from their own seed
            inst.judge = judge_name(rng(self.seed, "judge", rec.code, inst.instance), inst.judge)
        ents = self.pop.entities

        def oab(key: str) -> tuple[str, str]:
            return self.pop.by_oab[key].name, f"{key[:-2]}/{key[-2:]}"

        parties = [
            papers.Party(
                p.side,
                ents[p.document].name,
                is_prosecutor(self.pop, p.document),
                tuple(oab(o) for o in p.lawyers),
            )
            for p in rec.parties
        ]
        return steps.StepContext(
            self.seed,
            self.epoch,
            rec,
            inst,
            crawler_source(rec.court, inst.instance),
            [oab(o) for p in rec.parties for o in p.lawyers],
            [party.name for party in parties if party.side == "Active"],
            [party.name for party in parties if party.side == "Passive"],
            parties,
        )

    def _make_base(self, code: str, instance: int) -> _Base:
        rec = self.record(code)  # the portfolio's lawsuits too (D177)
        assert rec is not None
        inst = rec.inst(instance)
        assert inst is not None
        ctx = self._context(rec, inst)
        history = steps.generate_history(ctx)
        static = orjson.dumps(self._static(rec, inst, ctx))
        return _Base(static, history, ctx)

    def history_of(
        self, code: str, instance: int
    ) -> tuple[list[dict[str, Any]], list[tuple[dict[str, Any], str]]]:
        """The steps of an instance up to the epoch, oldest first, and its documents with
        their texts, made afresh (not kept: for walking the whole world, as its tests do)."""
        found = self._inst(code, instance)
        if found is None:
            return [], []
        history = steps.generate_history(self._context(*found))
        documents = [
            ({k: v for k, v in att.items() if k != "_text"}, str(att["_text"]))
            for _i, att in history.attachments
        ]
        return history.steps, documents

    def _party(
        self, ent: Entity, side: str | None, role: str | None, lawyers: tuple[str, ...]
    ) -> dict[str, Any]:
        out: dict[str, Any] = dict.fromkeys(_PARTY_FIELDS)
        is_person = ent.kind == "person"
        docs = [{"document": ent.document, "document_type": "cpf" if is_person else "cnpj"}]
        if ent.oab:
            docs.append({"document": ent.oab, "document_type": "oab"})
        out.update(
            {
                "entity_id": short_id(self.seed, "entity-id", ent.document),
                "entity_type": "person" if is_person else "company",
                "name": ent.name,
                "main_document": ent.document,
                "documents": docs,
                "addresses": [{"city": ent.city, "state": ent.state}],
                "contacts": [],
                "aka_names": [],
                "parents": [],
                "tags": {},
                "latest_searches": [],
                "branch_activities": [],
                "partners": [],
                "associated_people": [],
                "is_public": ent.is_public,
                "gender": ent.gender if is_person else None,
                "profession": ent.profession if is_person else None,
            }
        )
        if not is_person:
            nature = ent.legal_nature or ("206-2", "Sociedade Empresária Limitada")
            out["legal_nature"] = {"code": nature[0], "name": nature[1], "active": True}
            out["head_office"] = ent.head_office
            out["size"] = ent.size
        if ent.firm:
            out["tags"] = {"law_firm": ent.firm}
        if side is not None:
            out["side"] = side
            out["person_type"] = role
            out["was_inferred"] = False
            out["lawyers"] = [self._party(self.pop.by_oab[o], None, None, ()) for o in lawyers]
        return out

    def _ref(self, code: str, instance: int) -> dict[str, Any] | None:
        rec = self._lawsuits.get(code)
        inst = rec.inst(instance) if rec else None
        if rec is None or inst is None:
            return None
        return {
            "code": code,
            "instance": instance,
            "name": self._title(rec, inst),
            "classification": {
                "code": str(inst.klass[0]),
                "date": iso(inst.distribution),
                "name": inst.klass[1],
            },
            "tags": {"tribunal_acronym": rec.court.acronym},
        }

    def _title(self, rec: LawsuitRec, inst: InstanceRec) -> str:
        ents = self.pop.entities
        act = next((ents[p.document].name for p in rec.parties if p.side == "Active"), "")
        pas = next((ents[p.document].name for p in rec.parties if p.side == "Passive"), "")
        if not pas:  # a class with no other side (a reorganisation, a candidacy)
            return f"{inst.klass[1]} - {act}".strip(" -")
        return f"{inst.klass[1]} - {act} x {pas}".strip()

    @staticmethod
    def _role(rec: LawsuitRec, inst: InstanceRec, side: str, role: str) -> str:
        """A party's role in ``inst``: in an appeal, the appeal class's (APELANTE, RECORRIDO...);
        the active side is the one that appealed (D184)."""
        if inst.instance == 1 or side not in ("Active", "Passive"):
            return role
        cast = cast_of(inst.klass[0], rec.area, rec.kind)
        return (cast.role(side) if cast is not None else None) or role

    def _static(self, rec: LawsuitRec, inst: InstanceRec, ctx: steps.StepContext) -> dict[str, Any]:
        court = rec.court
        dist = iso(inst.distribution)
        seg = court.segment
        county = (
            f"Comarca de {rec.city}"
            if seg == 8
            else f"Seção Judiciária de {rec.state}"
            if seg == 4
            else f"Foro Trabalhista de {rec.city}"
            if seg == 5
            else f"{rec.city}/{rec.state}"
        )
        if inst.instance > 1:
            county = court.name
        tags: dict[str, Any] = {}
        metadata: dict[str, Any] = {"origin": rec.origin}
        if rec.miner is not None:
            tags["miner_kind"] = rec.miner.kind
            for t in rec.miner.tags:
                tags[t] = True
            if rec.miner.kind == "judgement-bond":
                metadata["judgement_bond"] = {
                    "budget_year": rec.miner.budget_year,
                    "nature": rec.miner.nature,
                }
            else:
                metadata["sentence_execution"] = {"tags": list(rec.miner.tags)}
        ents = self.pop.entities
        return {
            "code": rec.code,
            "instance": inst.instance,
            "courts": [
                {
                    "code": rec.origin if inst.instance == 1 else "0000",
                    "date": dist,
                    "name": inst.body,
                }
            ],
            "justice": str(seg),
            "tribunal": court.name,
            "tribunal_acronym": court.acronym,
            "justice_description": court.justice,
            "classifications": [
                {
                    "code": str(inst.klass[0]),
                    "local_code": str(inst.klass[0] * 10 + seg),
                    "date": dist,
                    "name": inst.klass[1],
                }
            ],
            "subjects": [
                {"code": str(c), "local_code": str(c), "date": dist, "name": n}
                for c, n in rec.subjects
            ],
            "parties": [
                self._party(
                    ents[p.document], p.side, self._role(rec, inst, p.side, p.role), p.lawyers
                )
                for p in rec.parties
            ],
            "name": self._title(rec, inst),
            "county": county,
            "state": rec.state,
            "city": rec.city,
            "judge": inst.judge,
            "area": rec.area,
            "system": portal(court),
            "tribunal_url": f"https://www.{court.acronym.lower().replace('-', '')}.jus.br",
            "free_justice": rec.free_justice,
            "secrecy_level": rec.secrecy,
            "distribution_date": dist,
            "created_at": iso(
                min(inst.stored_at or self.epoch, inst.distribution + timedelta(days=2))
            ),
            "main_lawsuit": self._ref(*rec.main) if rec.main else None,
            "tags": tags,
            "metadata": metadata,
            "pipelines": [],
            "amount": rec.amount,
        }

    def _view(self, rec: LawsuitRec, inst: InstanceRec, at: datetime) -> dict[str, Any]:
        base = self._base(rec.code, inst.instance)
        hist, ctx = base.history, base.ctx
        view: dict[str, Any] = orjson.loads(base.static)
        m = steps.visible_history(hist, at)
        n_moving = steps.moving_count(ctx, at)
        moving = [steps.moving_step(ctx, k) for k in range(n_moving)]
        step_list = [dict(s, tags={}) for s in reversed(hist.steps[:m])]
        step_list[:0] = [s for s, _a in reversed(moving)]
        atts = [{k: v for k, v in a.items() if k != "_text"} for i, a in hist.attachments if i < m]
        atts.extend(
            {k: v for k, v in a.items() if k != "_text"} for _s, a in moving if a is not None
        )
        view["steps"] = step_list
        view["attachments"] = atts
        view["last_step"] = dict(step_list[0], steps_count=len(step_list)) if step_list else None
        for name in ("sentence", "appeal_judgement", "custody", "appeal", "distribution"):
            ms = hist.milestones.get(name)
            view[name] = dict(ms[1]) if ms and ms[0] < m else None
        phases = [(i, p) for i, p in hist.phases if i < m]
        view["phase_history"] = [
            {
                "name": p,
                "phase_date": hist.steps[i]["step_date"],
                "step_id": hist.steps[i]["step_id"],
            }
            for i, p in phases
        ]
        view["phase"] = phases[-1][1] if phases else None
        visible_types = {hist.steps[i]["step_type"] for i, _p in phases}
        archived = inst.archived and m >= len(hist.steps)
        remitted = inst.remitted and m >= len(hist.steps)
        view["status"] = "Arquivado" if archived else "Ativo"
        view["situation"] = (
            "Baixado"
            if archived
            else "Em grau de recurso"
            if remitted
            else "Julgado"
            if {"Sentença", "Acórdão"} & visible_types
            else "Em andamento"
        )
        related = [
            ref
            for i2 in rec.instances
            if i2.instance != inst.instance and i2.distribution <= at
            for ref in [self._ref(rec.code, i2.instance)]
            if ref
        ]
        for other, oinst in rec.related:
            orec = self._lawsuits.get(other)
            if orec and orec.instances[0].distribution <= at:
                ref = self._ref(other, oinst)
                if ref:
                    related.append(ref)
        view["related_lawsuits"] = related
        view["updated_at"] = iso(at)
        view["crawler"] = {
            "source_name": ctx.source_name,
            "crawl_id": short_id(self.seed, "crawl", rec.code, inst.instance, int(at.timestamp())),
            "weight": 1,
            "updated_at": iso(at),
        }
        view["full_lawsuit_file"] = {"status": "done", "updated_at": iso(at)}
        return view

    # ------------------------------------------------------------------ miner
    def count(self, flt: dict[str, Any], exclude: set[str]) -> int:
        return len(self.miner_matches(flt, exclude))

    def miner_matches(self, flt: dict[str, Any], exclude: set[str]) -> list[str]:
        """CNJ codes a count filter matches, minus ``exclude``, in index order."""
        return miner.matching(self._lawsuits.values(), flt, exclude)

    # ------------------------------------------------------------------ samples
    def samples(self) -> dict[str, Any]:
        if self._samples is None:
            # Made whole before it is kept: a shared world is read from several threads, and
            # one that found half-made samples missed the criminal ones.
            made = build_samples(self)
            made.update(self.criminal.samples())
            # The company with the richest registration data (D103), named without drawing
            # the registry.
            made["company"] = pick_showcase(
                self.pop, self._lawsuit_count, set(self._reorganisations())
            )[0]
            self._samples = made
        return orjson.loads(orjson.dumps(self._samples))  # type: ignore[no-any-return]

    def absent_keys(self) -> dict[str, str]:
        """Valid keys the world has no data for."""
        r = rng(self.seed, "absent")
        while True:
            cpf = make_cpf(f"{r.randint(10_000_000, 999_999_999):09d}")
            if cpf not in self.pop.entities:
                break
        while True:
            cnpj = make_cnpj(f"{r.randint(1_000_000, 99_999_999):08d}0001")
            if cnpj not in self.pop.entities:
                break
        while True:
            code = make_cnj(r.randint(1, 9_999_999), 2024, 8, 26, "0100")
            if code not in self._lawsuits:
                break
        return {"cpf": cpf, "cnpj": cnpj, "lawsuit_cnj": code}


@functools.lru_cache(maxsize=4)
def _shared(seed: int, epoch: datetime) -> World:
    return World.build(seed, epoch=epoch)


def timed_build(seed: int = 7) -> tuple[World, float]:
    started = time.perf_counter()
    world = World.build(seed)
    return world, time.perf_counter() - started

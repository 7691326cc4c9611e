"""What a lawsuit's papers say, by its branch of the judiciary, its degree, its kind and its
class (D184): to whom a petition is addressed and who signs it, how the case opens, what the
judge decides and sentences, how an appeal is called and which law a sentence applies.

The words are data (assets/sandbox/procedure.json and its templates); this module picks
them for one lawsuit instance, whose parties and court a :class:`StepContext` carries. A
petition is always filed by a party of the case and signed by one of that party's own
lawyers (or by the Ministério Público's agent, who needs none).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from lawsuit_tui.sandbox.world import texts
from lawsuit_tui.sandbox.world.lawsuits import InstanceRec, LawsuitRec

__all__ = ["Filer", "Party", "StepContext", "br_date"]

ACTIVE = "Active"
PASSIVE = "Passive"
_SMALL_CLAIMS = 436
_SMALL_CLAIMS_APPEAL = 460
_BRANCHES = {4: "federal", 5: "labour", 6: "electoral", 7: "military", 8: "state", 9: "military"}


@dataclass(frozen=True, slots=True)
class Party:
    side: str
    name: str
    prosecutor: bool  # a Ministério Público: its agent signs, no lawyer
    lawyers: tuple[tuple[str, str], ...]  # (name, "123456/SP")


@dataclass(frozen=True, slots=True)
class Filer:
    """Who files a paper: a party, and the lawyer of theirs who signs it (None: the
    Ministério Público's agent, or the Defensoria Pública for a party without a lawyer)."""

    party: str
    side: str
    lawyer: tuple[str, str] | None
    prosecutor: bool = False


@dataclass(slots=True)
class StepContext:
    seed: int
    epoch: datetime
    rec: LawsuitRec
    inst: InstanceRec
    source_name: str
    lawyers: list[tuple[str, str]]  # (name, "123456/SP") of every party
    actives: list[str]
    passives: list[str]
    parties: list[Party] = field(default_factory=list)

    @property
    def code(self) -> str:
        return self.rec.code

    @property
    def instance(self) -> int:
        return self.inst.instance

    @property
    def branch(self) -> str:
        """state, federal, labour, electoral, military; "top" for a superior court or council."""
        court = self.rec.court
        if court.segment in (1, 2, 3) or court.code in (0, 90):
            return "top"
        return _BRANCHES.get(court.segment, "state")


def br_date(when: datetime) -> str:
    return f"{when.day:02d}/{when.month:02d}/{when.year}"


def by_kind(table: dict[str, Any], kind: str) -> Any:
    return table.get(kind, table.get("default"))


# ---------------------------------------------------------------------------- who files


def filer(ctx: StepContext, r: random.Random, side: str | None = None) -> Filer:
    """A party that files a paper (on ``side`` when given and possible) and its signer."""
    pool = [p for p in ctx.parties if p.lawyers or p.prosecutor]
    if side is not None:
        pool = [p for p in pool if p.side == side] or pool
    if not pool:
        name = ctx.actives[0] if ctx.actives else "A parte"
        return Filer(name, ACTIVE, None)
    party = r.choice(pool)
    if party.prosecutor:
        return Filer(party.name, party.side, None, prosecutor=True)
    return Filer(party.name, party.side, r.choice(party.lawyers))


def first_filer(ctx: StepContext) -> Filer:
    """Who opened the case: the first party of the active side, by its first lawyer."""
    party = next((p for p in ctx.parties if p.side == ACTIVE), None)
    if party is None:
        return Filer(ctx.actives[0] if ctx.actives else "A parte", ACTIVE, None)
    if party.prosecutor:
        return Filer(party.name, ACTIVE, None, prosecutor=True)
    return Filer(party.name, ACTIVE, party.lawyers[0] if party.lawyers else None)


def _prosecutor_signature(office: str) -> str:
    """How the agent of the Ministério Público named ``office`` signs."""
    signatures = texts.PROCEDURE["signatures"]
    for start, signature in texts.PROCEDURE["prosecutors"]:
        if office.startswith(start):
            return str(signatures[signature])
    return str(signatures["prosecutor_state"])


def signed(who: Filer) -> tuple[str, str]:
    """(how the filer comes: "por seu(sua) advogado(a)...", the signature)."""
    signatures = texts.PROCEDURE["signatures"]
    if who.prosecutor:
        return str(signatures["by_agent"]), _prosecutor_signature(who.party)
    if who.lawyer is None:
        return str(signatures["by_defender"]), str(signatures["public_defender"])
    name, oab = who.lawyer
    return str(signatures["by_lawyer"]), f"{name}\nOAB {oab}"


# ---------------------------------------------------------------------------- addressing


def header(ctx: StepContext) -> str:
    """To whom a petition in this instance is addressed."""
    headers = texts.PROCEDURE["headers"]
    body = ctx.inst.body.upper()
    if ctx.rec.kind == "precatory" and ctx.instance == 1:
        return str(headers["precatory"]).format(tribunal=ctx.rec.court.name.upper())
    if ctx.instance > 1:
        name = "small_claims_second" if ctx.inst.klass[0] == _SMALL_CLAIMS_APPEAL else "second"
        return str(headers[name]).format(body=body)
    branch = ctx.branch
    if branch == "top":
        name = "council" if ctx.rec.court.segment == 2 or ctx.rec.court.code == 90 else "top"
        return str(headers[name]).format(body=body)
    return str(headers[branch]).format(body=body)


def _opponents(ctx: StepContext, side: str) -> str:
    names = ctx.passives if side == ACTIVE else ctx.actives
    if not names:
        return ""
    return names[0] if len(names) == 1 else f"{names[0]} e outros"


# ---------------------------------------------------------------------------- papers


def initial_paper(ctx: StepContext, r: random.Random, when: datetime) -> tuple[str, str]:
    """(attachment type, text) of what opened the case: the petição inicial, the denúncia,
    the ofício requisitório."""
    procedure = texts.PROCEDURE
    kind = ctx.rec.kind
    opponent = _opponents(ctx, ACTIVE)
    city, date = ctx.rec.city, br_date(when)
    if kind == "criminal":
        denunciation = str(procedure["denunciation"])
        who = Filer(ctx.actives[0] if ctx.actives else "", ACTIVE, None, prosecutor=True)
        text = denunciation.format(
            opponent=opponent or "o(a) acusado(a)",
            city=city,
            date=date,
            signature=signed(who)[1],
        )
        return "Denúncia", text
    if kind == "precatory":
        text = str(procedure["requisition"]).format(
            tribunal=ctx.rec.court.name,
            party=ctx.actives[0] if ctx.actives else "a parte credora",
            opponent=opponent or "o ente devedor",
            city=city,
            date=date,
        )
        return "Ofício Requisitório", text
    klass = ctx.inst.klass
    intro = procedure["initial_by_class"].get(str(klass[0]))
    if intro is None:
        if not opponent:
            intro = procedure["initial"]["alone"]
        elif kind in ("labour", "fiscal", "electoral"):
            intro = procedure["initial"][kind]
        else:
            intro = procedure["initial"]["default"]
    who = first_filer(ctx)
    by, signature = signed(who)
    text = texts.INITIAL_TEXT.format(
        header=header(ctx),
        party=who.party,
        by=by,
        intro=str(intro).format(klass=klass[1].upper(), opponent=opponent),
        city=city,
        date=date,
        signature=signature,
    )
    return "Petição Inicial", text


def petition(
    ctx: StepContext, r: random.Random, when: datetime, who: Filer, ask: str | None = None
) -> str:
    """A petition in the case by ``who``, asking ``ask`` (else what a party of its side in
    such a case asks)."""
    procedure = texts.PROCEDURE
    kind = ctx.rec.kind
    if ask is None:
        asks = by_kind(procedure["asks"], kind)
        own = procedure["by_class"].get(str(ctx.rec.instances[0].klass[0])) or {}
        asks = own.get("asks", asks)
        if ctx.instance > 1 or ctx.branch == "top":
            asks = procedure["asks_second"]
        elif who.side == PASSIVE and kind in procedure["asks_passive"]:
            asks = procedure["asks_passive"][kind]
        ask = str(r.choice(asks))
    by, signature = signed(who)
    return texts.PETITION_TEXT.format(
        header=header(ctx),
        code=ctx.code,
        party=who.party,
        by=by,
        ask=ask,
        city=ctx.rec.city,
        date=br_date(when),
        signature=signature,
    )


def sentence_kind(ctx: StepContext) -> str:
    """The kind whose sentence this instance gives: a small claim's, an execution's..."""
    by_class = texts.PROCEDURE["sentence_kinds_by_class"].get(str(ctx.inst.klass[0]))
    if by_class is not None:
        return str(by_class)
    if ctx.inst.klass[0] == _SMALL_CLAIMS:
        return "jec"
    return ctx.rec.kind


def sentence(ctx: StepContext, r: random.Random, when: datetime) -> tuple[str, str, str]:
    """(kind of sentence, its operative words, the sentence's text)."""
    procedure = texts.PROCEDURE
    kind = sentence_kind(ctx)
    kind_name, verdict = r.choice(by_kind(procedure["sentence_types"], kind))
    template = texts.SENTENCE_TEXTS[by_kind(procedure["sentence_templates"], kind)]
    branch = ctx.branch
    law_table = procedure["criminal_laws"] if kind == "criminal" else procedure["execution_laws"]
    law = by_kind(law_table, "military" if branch == "military" else branch)
    text = template.format(
        active=ctx.actives[0] if ctx.actives else "A parte autora",
        passive=ctx.passives[0] if ctx.passives else "a parte ré",
        klass=ctx.inst.klass[1],
        merit=r.choice(by_kind(procedure["merits"], kind)),
        verdict=verdict,
        fee=r.choice((10, 12, 15, 20)),
        law=law,
        city=ctx.rec.city,
        date=br_date(when),
        judge=ctx.inst.judge,
    )
    return str(kind_name), str(verdict), text


def appeal(ctx: StepContext, r: random.Random, when: datetime) -> tuple[str, str]:
    """(the step's words, the petition) of the appeal that sends the case up."""
    procedure = texts.PROCEDURE
    kind = "jec" if ctx.inst.klass[0] == _SMALL_CLAIMS else ctx.rec.kind
    who = filer(ctx, r)
    ask = str(by_kind(procedure["appeal_asks"], kind))
    return str(by_kind(procedure["appeals"], kind)), petition(ctx, r, when, who, ask)


def value(ctx: StepContext, r: random.Random, name: str) -> Any:
    """The procedure's words a step template names: a decision, the plaintiff, the
    Ministério Público's office; None for a name this module does not fill."""
    procedure = texts.PROCEDURE
    own = procedure["by_class"].get(str(ctx.rec.instances[0].klass[0])) or {}
    if name == "decision":
        return r.choice(own.get("decisions") or by_kind(procedure["decisions"], ctx.rec.kind))
    if name == "plaintiff":
        return own.get("plaintiff") or by_kind(procedure["plaintiffs"], ctx.rec.kind)
    if name == "ministry":
        return procedure["ministries"].get(ctx.branch, procedure["ministries"]["state"])
    return None


def filler_pool(ctx: StepContext) -> tuple[tuple[str, str, str, int], ...]:
    """The ordinary steps of this instance: none of a civil case's (conciliation, attachment
    of assets, court fees) in a criminal, electoral or precatório case."""
    kind = ctx.rec.kind
    pool = texts.FILLER
    if kind in ("criminal", "electoral", "precatory"):
        foreign = set(texts.PROCEDURE["not_in_criminal_cases"])
        pool = tuple(step for step in pool if step[1] not in foreign)
    if ctx.instance > 1:
        return pool + texts.FILLER_SECOND * 2
    if kind == "labour":
        return pool + texts.FILLER_LABOUR * 2
    if kind == "criminal":
        return pool + texts.FILLER_CRIMINAL * 2
    if kind == "precatory":
        return pool + texts.FILLER_PRECATORY * 3
    return pool

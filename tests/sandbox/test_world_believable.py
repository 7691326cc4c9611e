"""A world a lawyer would believe (issue 19.14, D184): classes, parties, courts and documents
agree. Each test walks every lawsuit of the shared world and names what breaks a rule.

The expectations are written here, from Brazilian procedure (the CNJ's unified tables and the
portals' wording), not read from the generator: a rule the generator forgot fails here."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from lawsuit_tui.sandbox.world import World
from lawsuit_tui.sandbox.world.lawsuits import LawsuitRec, PartyRef

# class code -> the (active, passive) roles a portal names for it. None: that pole may be
# absent (a petition with no opponent).
ROLES: dict[int, set[tuple[str, str | None]]] = {
    7: {("AUTOR", "RÉU")},
    40: {("AUTOR", "RÉU")},
    93: {("AUTOR", "RÉU")},
    81: {("AUTOR", "RÉU")},
    159: {("EXEQUENTE", "EXECUTADO")},
    1116: {("EXEQUENTE", "EXECUTADO")},
    12078: {("EXEQUENTE", "EXECUTADO")},
    156: {("EXEQUENTE", "EXECUTADO")},
    172: {("EMBARGANTE", "EMBARGADO")},
    37: {("EMBARGANTE", "EMBARGADO")},
    1894: {("REQUERENTE", "REQUERIDO")},
    436: {("REQUERENTE", "REQUERIDO")},
    120: {("IMPETRANTE", "IMPETRADO")},
    65: {("AUTOR", "RÉU")},
    69: {("ALIMENTANDO", "ALIMENTANTE")},
    12246: {("REQUERENTE", "REQUERIDO")},
    129: {("RECUPERANDA", None)},
    283: {("AUTOR", "ACUSADO")},
    10943: {("AUTOR", "ACUSADO")},
    10944: {("AUTOR", "INVESTIGADO")},
    1710: {("JUSTIFICANTE", None)},
    985: {("RECLAMANTE", "RECLAMADO")},
    1125: {("RECLAMANTE", "RECLAMADO")},
    980: {("CONSIGNANTE", "CONSIGNATÁRIO")},
    986: {("AUTOR", "RÉU")},
    11532: {("REQUERENTE", None)},
    12193: {("REQUERENTE", None)},
    11541: {("REPRESENTANTE", "REPRESENTADO")},
    11527: {("INVESTIGANTE", "INVESTIGADO")},
    1032: {("RECORRENTE", "RECORRIDO")},
    1008: {("RECORRENTE", "RECORRIDO")},
    11881: {("AGRAVANTE", "AGRAVADO")},
    1002: {("AGRAVANTE", "AGRAVADO")},
    307: {("PACIENTE", "IMPETRADO")},
    1692: {("RECLAMANTE", "RECLAMADO")},
    95: {("REQUERENTE", "REQUERIDO")},
    1199: {("REQUERENTE", "REQUERIDO")},
    1298: {("REQUERENTE", "REQUERIDO")},
    1299: {("REQUERENTE", "REQUERIDO")},
    1265: {("CREDOR", "DEVEDOR")},
    1266: {("CREDOR", "DEVEDOR")},
}
# Roles only people hold, only companies hold, only the State holds.
PEOPLE = {"ALIMENTANDO", "ALIMENTANTE", "CONSIGNATÁRIO", "PACIENTE", "JUSTIFICANTE"}
EMPLOYEES = {985, 1125}  # a labour claim is a worker's (a company may file a Reclamação at the STF)
FAMILY = {69, 12246}
PROSECUTED = {283, 10943}  # the accused are people; the prosecution is a Ministério Público
# Classes whose passive side is the State (an authority, the public purse).
AGAINST_THE_STATE = {120, 307, 95, 1692, 1199, 1299, 12078, 1265, 1266}
LABOUR, FEDERAL, STATE, ELECTORAL = 5, 4, 8, 6
# Which Ministério Público acts before each branch (segment); 8 and 9: the State's own.
PROSECUTORS = {
    1: "Ministério Público Federal",
    3: "Ministério Público Federal",
    4: "Ministério Público Federal",
    5: "Ministério Público do Trabalho",
    6: "Ministério Público Eleitoral",
    7: "Ministério Público Militar",
}
# The classes a branch's courts know (first degree, appeals, and what the courts above them
# judge), from the CNJ's unified tables: no Apelação in a labour court, no divorce in a
# federal one.
CLASSES_OF: dict[str, set[int]] = {
    "state": {7, 436, 159, 40, 1116, 81, 93, 120, 283, 69, 12246, 129, 37, 12078, 1265, 1266}
    | {156, 172, 1894, 198, 1728, 417, 460, 202},
    "federal": {7, 436, 1116, 120, 283, 65, 12078, 1265, 1266, 198, 1728, 417, 460, 202},
    "labour": {985, 1125, 980, 986, 1009, 1265, 1266},
    "labour_superior": {1008, 1002},
    "electoral": {11532, 11541, 11527, 12193},
    "military": {10943, 10944, 1710},
    "supreme": {11881, 307, 95, 1692},
    "superior": {1032, 11881, 307, 120},
    "council": {1199, 1298, 1299},
}
# The roles of an appeal's parties, by the appeal's class.
APPEAL_ROLES = {
    198: ("APELANTE", "APELADO"),
    1728: ("APELANTE", "APELADO"),
    417: ("APELANTE", "APELADO"),
    1009: ("RECORRENTE", "RECORRIDO"),
    460: ("RECORRENTE", "RECORRIDO"),
    202: ("AGRAVANTE", "AGRAVADO"),
}


def _lawsuits(world: World) -> Iterator[LawsuitRec]:
    yield from world.records()


def _branch(rec: LawsuitRec) -> str:
    court = rec.court
    if court.segment == 2 or court.code == 90:
        return "council"
    if court.segment == 5:
        return "labour_superior" if court.code == 0 else "labour"
    return {1: "supreme", 3: "superior", 4: "federal", 6: "electoral", 7: "military"}.get(
        court.segment, "military" if court.segment == 9 else "state"
    )


def _kind(world: World, party: PartyRef) -> str:
    entity = world.pop.entities[party.document]
    if entity.is_public:
        return "public"
    return "person" if entity.kind == "person" else "company"


def _identity(world: World, party: PartyRef) -> str:
    entity = world.pop.entities[party.document]
    if entity.kind == "company" and not entity.is_public:
        return party.document[:8]  # the CNPJ's root: head office and branches alike
    return party.document


def _name(world: World, party: PartyRef) -> str:
    return world.pop.entities[party.document].name


def _problems(found: list[str]) -> None:
    assert not found, f"{len(found)} broken, for example:\n" + "\n".join(found[:12])


def test_each_class_has_its_own_roles(world: World) -> None:
    found: list[str] = []
    for rec in _lawsuits(world):
        klass = rec.instances[0].klass
        allowed = ROLES.get(klass[0])
        if allowed is None:
            found.append(f"{rec.code} {klass}: a class the rules do not know")
            continue
        active = {p.role for p in rec.parties if p.side == "Active"}
        passive = {p.role for p in rec.parties if p.side == "Passive"}
        pairs = {(a, b) for a in active for b in (passive or {None})}
        if not pairs or not pairs <= allowed:
            found.append(f"{rec.code} {klass[1]}: roles {sorted(active)} x {sorted(passive)}")
    _problems(found)


def _why_not(rec: LawsuitRec, code: int, side: str, role: str, kind: str, name: str) -> str:
    """Why a party (of ``kind``, named ``name``) may not hold ``role`` on ``side`` in a
    lawsuit of class ``code``; "" when it may."""
    prosecutor = name.startswith("Ministério Público")
    rules = (
        ((role in PEOPLE or code in FAMILY) and kind != "person", "only people"),
        (code in EMPLOYEES and side == "Active" and kind != "person", "a worker's claim"),
        (role == "RECUPERANDA" and kind != "company", "only a company reorganises"),
        (code == 1116 and side == "Active" and kind != "public", "the State collects taxes"),
        (code in AGAINST_THE_STATE and side == "Passive" and kind != "public", "the State"),
        (code in PROSECUTED and side == "Passive" and kind != "person", "people are accused"),
        (
            (code in PROSECUTED or code in (65, 986)) and side == "Active" and not prosecutor,
            "the Ministério Público prosecutes",
        ),
        (code == 81 and side == "Active" and kind != "company", "the lender"),
        (
            code in (1199, 1299) and side == "Passive" and name != "União Federal",
            "a council of the judiciary is asked about the judiciary",
        ),
        (
            side == "Interested"
            and (code != 129 or role not in ("ADMINISTRADOR JUDICIAL", "CREDOR")),
            "a third party",
        ),
    )
    why = next((why for broken, why in rules if broken), "")
    if not why and prosecutor:
        wanted = PROSECUTORS.get(rec.court.segment, "Ministério Público do Estado")
        local = wanted == "Ministério Público do Estado" and "Distrito Federal" in name
        if not name.startswith(wanted) and not local:
            why = "not the Ministério Público of this branch"
    return why


def test_who_can_be_a_party_to_what(world: World) -> None:
    found: list[str] = []
    for rec in _lawsuits(world):
        klass = rec.instances[0].klass
        for party in rec.parties:
            kind, name = _kind(world, party), _name(world, party)
            why = _why_not(rec, klass[0], party.side, party.role, kind, name)
            if why:
                found.append(
                    f"{rec.code} {rec.court.acronym} {klass[1]}: {party.role} {name} ({kind}): "
                    + why
                )
        if rec.area == "Previdenciária" and klass[0] in (7, 436):
            passive = [_name(world, p) for p in rec.parties if p.side == "Passive"]
            if passive != ["Instituto Nacional do Seguro Social - INSS"]:
                found.append(f"{rec.code} {klass[1]} ({rec.area}) against {passive}")
    _problems(found)


def test_how_many_hold_each_role(world: World) -> None:
    found: list[str] = []
    for rec in _lawsuits(world):
        klass = rec.instances[0].klass
        roles = [p.role for p in rec.parties]
        if roles.count("ADMINISTRADOR JUDICIAL") > 1:
            found.append(
                f"{rec.code}: {roles.count('ADMINISTRADOR JUDICIAL')} judicial administrators"
            )
        if klass[0] == 12246 and sorted(p.side for p in rec.parties) != ["Active", "Passive"]:
            found.append(f"{rec.code} a divorce of {len(rec.parties)} parties")
        if klass[0] == 69 and roles.count("ALIMENTANTE") != 1:
            found.append(f"{rec.code} alimony owed by {roles.count('ALIMENTANTE')}")
        if klass[0] == 129 and roles.count("RECUPERANDA") < 1:
            found.append(f"{rec.code} a reorganisation of no company")
        # a company is one party whichever branch of it is named
        who = [_identity(world, p) for p in rec.parties]
        if len(who) != len(set(who)):
            found.append(f"{rec.code}: someone twice, or on both sides")
    _problems(found)


def test_classes_belong_to_their_branch(world: World) -> None:
    found: list[str] = []
    for rec in _lawsuits(world):
        branch = _branch(rec)
        for inst in rec.instances:
            if inst.klass[0] not in CLASSES_OF[branch]:
                found.append(f"{rec.code} {rec.court.acronym} ({branch}): {inst.klass[1]}")
    _problems(found)


def test_an_appeal_names_its_own_roles(world: World) -> None:
    found: list[str] = []
    appeals = [rec for rec in _lawsuits(world) if len(rec.instances) > 1]
    assert len(appeals) > 50
    for rec in appeals[::5]:
        second = rec.instances[1]
        view = world.court_view(rec.code, second.instance, world.epoch)[0]
        wanted = APPEAL_ROLES.get(second.klass[0])
        if wanted is None:
            found.append(f"{rec.code}: an appeal of class {second.klass}")
            continue
        for party in view["parties"]:
            role = wanted[0] if party["side"] == "Active" else wanted[1]
            if party["side"] in ("Active", "Passive") and party["person_type"] != role:
                found.append(f"{rec.code} #2 {second.klass[1]}: {party['person_type']}")
    _problems(found)


def test_courts_classes_bodies_and_judges_agree(world: World) -> None:
    found: list[str] = []
    for rec in _lawsuits(world):
        seg = rec.court.segment
        for inst in rec.instances:
            where = f"{rec.code} #{inst.instance} {rec.court.acronym} {inst.klass[1]} ({inst.body})"
            if seg == LABOUR and "Apelação" in inst.klass[1]:
                found.append(where)
            if rec.court.segment in (1, 2, 3, 6, 7) and rec.court.code == 0:
                # a superior court judges in its Turmas or in plenary, by its Ministros
                bodies = {
                    "STF": ("Primeira Turma", "Segunda Turma", "Plenário"),
                    "STJ": ("Primeira Turma", "Segunda Turma", "Terceira Turma", "Corte Especial"),
                }.get(rec.court.acronym, ("Plenário",))
                if inst.body not in bodies or not inst.judge.startswith("Ministr"):
                    found.append(f"{where}: judge {inst.judge}")
            if inst.instance == 1 and rec.court.code not in (0, 90):
                title = {
                    LABOUR: "do Trabalho",
                    FEDERAL: "Federal",
                    STATE: "de Direito",
                    ELECTORAL: "Eleitoral",
                }.get(seg)
                if rec.kind == "precatory":  # paid by the court's presidency
                    title = "Presidente"
                if title and title not in inst.judge:
                    found.append(f"{where}: judge {inst.judge}")
                if (
                    seg == LABOUR
                    and rec.kind != "precatory"
                    and "Vara do Trabalho" not in inst.body
                ):
                    found.append(where)
                if inst.klass[0] in FAMILY and "Família" not in inst.body:
                    found.append(where)
            if inst.instance > 1:
                # a Turma Recursal's judges are first-degree judges
                recursal = inst.klass[0] == 460 and re.match(r"Ju[ií]z", inst.judge)
                if "Desembargador" not in inst.judge and not recursal:
                    found.append(f"{where}: judge {inst.judge}")
                chamber = "Turma" if seg in (LABOUR, FEDERAL) else "Câmara"
                if inst.klass[0] == 460:  # a small claim's appeal goes to the Turma Recursal
                    chamber = "Turma Recursal"
                if chamber not in inst.body:
                    found.append(where)
                if seg == STATE and inst.klass[0] != 460:
                    # a chamber of the matter: criminal; in the TJSP, of private or public law
                    public = rec.kind == "fiscal" or rec.area == "Fazenda Pública"
                    wanted = "Criminal" if rec.kind == "criminal" else "Cível"
                    if rec.court.acronym == "TJSP" and wanted != "Criminal":
                        wanted = "Direito Público" if public else "Direito Privado"
                    if wanted not in inst.body:
                        found.append(f"{where}: not a chamber of {wanted}")
        first = rec.instances[0]
        subjects = {name for _code, name in rec.subjects}
        if first.klass[0] == 69 and "Alimentos" not in subjects:
            found.append(f"{rec.code} alimony about {subjects}")
        if first.klass[0] == 12246 and "Dissolução" not in subjects:
            found.append(f"{rec.code} a divorce about {subjects}")
    _problems(found)


_OAB = re.compile(r"OAB (?:nº )?(\d+)/([A-Z]{2})")
_HEADERS = {
    LABOUR: "JUIZ(A) DO TRABALHO",
    FEDERAL: "JUIZ(A) FEDERAL",
    STATE: "JUIZ(A) DE DIREITO",
    ELECTORAL: "JUIZ(A) ELEITORAL",
}


def _documents(world: World) -> Iterator[tuple[LawsuitRec, int, list[dict[str, Any]], list[Any]]]:
    for rec in _lawsuits(world):
        for inst in rec.instances:
            steps, documents = world.history_of(rec.code, inst.instance)
            yield rec, inst.instance, steps, documents


@pytest.fixture(scope="module")
def documents(world: World) -> list[tuple[LawsuitRec, int, list[dict[str, Any]], list[Any]]]:
    return list(_documents(world))


def test_petitions_are_addressed_to_the_court_and_signed_in_the_case(
    world: World, documents: list[tuple[LawsuitRec, int, list[dict[str, Any]], list[Any]]]
) -> None:
    found: list[str] = []
    for rec, instance, _steps, docs in documents:
        seg = rec.court.segment
        lawyers_of: dict[str, set[str]] = {}
        for party in rec.parties:
            lawyers_of[_name(world, party).casefold()] = {
                f"{o[:-2]}/{o[-2:]}" for o in party.lawyers
            }
        for attachment, text in docs:
            if not attachment["attachment_type"].startswith("Petição"):
                continue
            where = f"{rec.code} #{instance} {rec.court.acronym} {attachment['attachment_name']}"
            header = _HEADERS.get(seg)
            if (
                attachment["attachment_type"] == "Petição Inicial"
                and header
                and instance == 1
                and rec.court.code not in (0, 90)
                and header not in text.splitlines()[0]
            ):
                found.append(f"{where}: addressed {text.splitlines()[0]!r}")
            signed = _OAB.findall(text)
            if not signed:
                continue
            oab = "/".join(signed[-1])
            opening = text.casefold()
            filers = [name for name in lawyers_of if name in opening]
            if not any(oab in lawyers_of[name] for name in filers):
                found.append(f"{where}: signed by OAB {oab}, of no party it speaks for")
    _problems(found)


def test_what_is_written_fits_the_segment(
    documents: list[tuple[LawsuitRec, int, list[dict[str, Any]], list[Any]]],
) -> None:
    found: list[str] = []
    for rec, instance, steps, docs in documents:
        seg, kind = rec.court.segment, rec.kind
        klass = rec.inst(instance).klass if rec.inst(instance) else (0, "")
        contents = [str(s["content"]) for s in steps]
        texts = [text for _a, text in docs]
        where = f"{rec.code} #{instance} {rec.court.acronym} {klass[1]}"
        for text in contents + texts:
            if seg == LABOUR and "Apelação" in text:
                found.append(f"{where}: {text[:80]!r}")
            if kind == "criminal" and re.search(r"conciliação|penhora|SISBAJUD", text):
                found.append(f"{where}: {text[:80]!r}")
            if kind == "precatory" and "Sentença proferida" in text:
                found.append(f"{where}: {text[:80]!r}")
        for attachment, text in docs:
            if attachment["attachment_type"] != "Sentença":
                continue
            if rec.court.segment in (1, 2, 3) or rec.court.code in (0, 90) or instance > 1:
                found.append(f"{where}: a sentence where a court judges by acórdão")
            law = (
                "Consolidação das Leis do Trabalho"
                if seg == LABOUR
                else "Código de Processo Penal"
                if kind == "criminal"
                else "Código Eleitoral"
                if seg == ELECTORAL
                else "Lei nº 9.099/95"
                if klass[0] == 436
                else "Código de Processo Civil"
            )
            if law not in text:
                found.append(f"{where}: a sentence that does not cite the {law}")
            if klass[0] == 436 and "honorários advocatícios, que fixo" in text:
                found.append(f"{where}: fees in a small-claims court's first degree")
    _problems(found)

"""Warrants and penal executions of the world (D116, D117): derived from its criminal
actions, consistent with them, deterministic, built lazily."""

from __future__ import annotations

from typing import Any

from lawsuit_tui.sandbox.world import World
from lawsuit_tui.sandbox.world.criminal import criminal_actions


def test_the_records_are_built_on_first_use_only() -> None:
    world = World.build(7)
    assert world._criminal is None  # the world's build does not pay for them
    assert world.criminal is world.criminal


def test_the_same_seed_gives_the_same_records(world: World) -> None:
    again = World.build(7, epoch=world.epoch).criminal
    assert again.warrants.keys() == world.criminal.warrants.keys()
    assert again.executions.keys() == world.criminal.executions.keys()


def test_a_few_percent_of_people_have_warrants(world: World) -> None:
    wanted = {w.person for w in world.criminal.warrants.values()}
    share = len(wanted) / len(world.pop.persons)
    assert 0.01 < share < 0.12
    still_open = {w.person for w in world.criminal.warrants.values() if w.status.startswith("P")}
    assert 0 < len(still_open) < len(wanted)


def test_every_warrant_comes_from_a_criminal_action_against_that_person(world: World) -> None:
    actions = {rec.code for rec in criminal_actions(world.records())}
    for warrant in world.criminal.warrants.values():
        rec = world.record(warrant.lawsuit)
        assert rec is not None and rec.code in actions
        assert rec.kind == "criminal" and rec.area == "Criminal"  # never an alimony case
        passive = {p.document for p in rec.parties if p.side == "Passive"}
        assert warrant.person in passive
        assert world.pop.entities[warrant.person].kind == "person"


def test_a_warrant_names_its_court_its_law_and_the_person(world: World) -> None:
    criminal = world.criminal
    for warrant in list(criminal.warrants.values())[:40]:
        view = criminal.warrant_view(warrant, world.entity(warrant.person), with_attachments=True)
        rec = world.record(warrant.lawsuit)
        assert rec is not None
        assert "Criminal" in view["court"]  # issued by a criminal court
        assert view["tribunal_acronym"] == rec.court.acronym
        assert view["code"] == rec.code
        assert view["law_type"]["description"]
        assert view["entity"]["main_document"] == warrant.person
        rji = {"document": view["individual_id"], "document_type": "rji"}
        assert rji in view["entity"]["documents"]
        assert criminal.person_of_rji(view["individual_id"]) == warrant.person
        assert view["issue_date"] <= view["expiration_date"]
        if view["arrest_type"] == "definitive":
            assert view["duration_years"] is not None and view["regime"]
        [attachment] = view["attachments"]
        assert attachment["status"] == "done"
        found = criminal.warrant_by_attachment(rec.code, attachment["attachment_id"])
        assert found == warrant


def test_the_provisional_warrant_is_dated_by_the_custody_step(world: World) -> None:
    warrant = next(w for w in world.criminal.warrants.values() if w.kind == "provisional")
    view = world.criminal.warrant_view(warrant, None, with_attachments=False)
    steps = world.court_view(warrant.lawsuit, 1, world.epoch)[0]["steps"]
    # the order that decreed it (later steps may ask for, keep or revoke the custody)
    custody = [s for s in steps if "Decretada a prisão preventiva" in s["content"]]
    assert [s["step_date"] for s in custody] == [view["issue_date"]]


def test_every_execution_follows_a_conviction(world: World) -> None:
    criminal = world.criminal
    assert criminal.executions
    for execution in criminal.executions.values():
        rec = world.record(execution.lawsuit)
        assert rec is not None and rec.kind == "criminal" and rec.instances[0].has_sentence
        assert world.record(execution.code) is None  # not a lawsuit of the datalake index
        assert execution.code.split(".")[2:4] == rec.code.split(".")[2:4]  # same court
        assert execution.distribution > rec.instances[0].end
        assert execution.distribution < world.epoch


def test_an_execution_is_a_lawsuit_of_class_386(world: World) -> None:
    execution = next(iter(world.criminal.executions.values()))
    [view] = world.court_view(execution.code, 1, world.epoch)
    assert view["classifications"][0]["code"] == "386"
    assert view["classifications"][0]["name"] == "EXECUÇÃO DA PENA"
    roles = [(p["side"], p["person_type"]) for p in view["parties"]]
    assert roles[0] == ("Active", "AUTORIDADE")
    assert roles[1][0] == "Passive" and roles[1][1] in ("REEDUCANDO", "EXECUTADO")
    assert view["tags"]["criminal"] is True
    assert view["related_lawsuits"][0]["code"] == execution.lawsuit
    assert view["last_step"]["step_id"] == view["steps"][0]["step_id"]
    # Found by its number, stored, and its documents are files.
    assert world.find("lawsuit_cnj", execution.code) == [(execution.code, 1)]
    assert world.stored_view(execution.code, 1)
    attachment = view["attachments"][0]
    assert world.attachment(execution.code, 1, attachment["attachment_id"]) == attachment
    file = world.attachment_file(execution.code, 1, attachment["attachment_id"])
    assert file is not None and file[0].startswith(b"%PDF") and file[1] == "application/pdf"
    assert world.attachment_file(execution.code, 2, attachment["attachment_id"]) is None


def test_the_person_with_many_lawsuits_has_one_of_each(
    world: World, samples: dict[str, Any]
) -> None:
    busy = samples["busy_person"]
    criminal = world.criminal
    warrants = criminal.warrants_of(busy)
    assert any(w.status == "Pendente de Cumprimento" for w in warrants)
    [execution] = criminal.executions_of(busy)
    assert execution.phase == "Em Cumprimento"
    assert samples["penal_execution"] == execution.code
    assert criminal.person_of_rji(samples["warrant_rji"]) == busy
    assert samples["criminal_lawsuit"] in {c for c, _i in world.find("cpf", busy)}


def test_companies_have_none(world: World, samples: dict[str, Any]) -> None:
    criminal = world.criminal
    for cnpj in [*samples["cnpj"], samples["cnpj_with_branches"]]:
        assert criminal.warrants_of(cnpj) == []
        assert criminal.executions_of(cnpj) == []
    assert all(world.pop.entities[e.person].kind == "person" for e in criminal.executions.values())

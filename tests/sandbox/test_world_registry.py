"""Registration data of the world's people and companies (D78, D103-D105)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from lawsuit_tui.domain.courts import BR_STATES
from lawsuit_tui.domain.entities import Entity
from lawsuit_tui.domain.enums import RevenueStatus
from lawsuit_tui.domain.identifiers import is_valid_cnpj, is_valid_cpf
from lawsuit_tui.sandbox.world import World

PERSON_STATUSES = {
    "REGULAR",
    "PENDENTE DE REGULARIZAÇÃO",
    "SUSPENSA",
    "CANCELADA",
    "TITULAR FALECIDO",
}
COMPANY_STATUSES = {"ATIVA", "BAIXADA", "INAPTA", "SUSPENSA"}


def _entity(world: World, document: str, **options: Any) -> dict[str, Any]:
    found = world.entity(document, **options)
    assert found is not None, document
    return found


def test_the_registry_is_not_drawn_with_the_world() -> None:
    fresh = World.build(7)
    assert fresh._registry is None
    fresh.samples()  # the samples name the showcase company without drawing it
    assert fresh._registry is None
    assert fresh.entity(fresh.pop.persons[0]) is not None
    assert fresh._registry is not None


def test_registration_data_are_deterministic(world: World) -> None:
    other = World.build(7, epoch=world.epoch)
    for document in (world.pop.busy_person, world.samples()["company"], world.pop.companies[5]):
        assert other.entity(document) == world.entity(document)


def test_every_partnership_is_seen_from_both_ends(world: World) -> None:
    registry = world.registry
    companies = [*world.pop.companies, *world.pop.big_companies]
    links = 0
    for company in companies:
        for partner in _entity(world, company, reveal_partners=True)["partners"]:
            links += 1
            document = partner["main_document"]
            if partner["entity_type"] == "company":  # its record shows its own QSA (D104)
                assert company in [x.company for x in registry.holdings(document)]
                continue
            held = _entity(world, document)["partners"]
            assert company in [h["main_document"] for h in held], (company, partner)
    assert links > len(companies)  # most companies have more than one partner
    for person in world.pop.persons[:400]:
        for held in _entity(world, person)["partners"]:
            assert held["entity_type"] == "company"
            qsa = [link.partner for link in registry.qsa(held["main_document"])]
            assert person in qsa


def test_partners_cpf_are_masked_unless_revealed(world: World) -> None:
    company = world.samples()["company"]
    masked = _entity(world, company)["partners"]
    revealed = _entity(world, company, reveal_partners=True)["partners"]
    people = [p for p in masked if p["entity_type"] == "person"]
    assert people
    for shown, full in zip(masked, revealed, strict=True):
        if shown["entity_type"] == "person":
            assert shown["main_document"] == f"***{full['main_document'][3:9]}**"  # D78
            assert is_valid_cpf(full["main_document"])
        else:  # a company's CNPJ is public (D104)
            assert shown["main_document"] == full["main_document"]
            assert is_valid_cnpj(full["main_document"])


def test_the_showcase_company_is_rich(world: World) -> None:
    company = _entity(world, world.samples()["company"])
    entity = Entity.model_validate(company)
    assert entity.is_company and entity.social_name and entity.aka_names
    assert len(entity.addresses or []) >= 3
    assert {c.contact_type for c in entity.contacts or []} == {"phone", "email"}
    assert entity.main_activity is not None and len(entity.branch_activities or []) >= 3
    assert entity.revenue_service_status == RevenueStatus.ATIVA
    assert entity.legal_nature is not None and entity.legal_nature.code == "206-2"
    partners = entity.partner_links
    assert world.pop.busy_person[3:9] in " ".join(p.main_document or "" for p in partners)
    holding = next(p for p in partners if p.entity_type == "company")
    # partners of partners: the corporate partner's own QSA names people
    assert holding.main_document is not None
    assert any(
        p["entity_type"] == "person" for p in _entity(world, holding.main_document)["partners"]
    )
    assert world.find("cnpj", world.samples()["company"])  # and it has lawsuits


def test_the_person_with_many_lawsuits_is_rich(world: World) -> None:
    busy = Entity.model_validate(_entity(world, world.samples()["busy_person"]))
    assert busy.revenue_service_status == RevenueStatus.REGULAR
    assert len(busy.addresses or []) >= 3 and len(busy.aka_names or []) >= 2
    assert {p.kinship for p in busy.parents or []} == {"mother", "father"}
    held = [p.main_document for p in busy.partner_links]
    assert world.samples()["company"] in held and len(held) >= 3
    assert busy.birth_date is not None and busy.gender == "male"


def test_statuses_are_the_receitas_words_with_their_dates(world: World) -> None:
    seen: set[str] = set()
    for document in world.pop.persons[:1500]:
        person = _entity(world, document)
        status = person["revenue_service_status"]
        assert status in PERSON_STATUSES
        assert person["revenue_service_active"] is (status == "REGULAR")
        if status != "REGULAR":
            assert person["tags"]["revenue_status_reason"]
        seen.add(status)
    assert seen == PERSON_STATUSES
    seen = set()
    for document in world.pop.companies:
        company = _entity(world, document)
        status = company["revenue_service_status"]
        assert status in COMPANY_STATUSES
        if status == "BAIXADA":
            assert company["closing_date"] > company["entry_date"]
        seen.add(status)
    assert seen == COMPANY_STATUSES


def test_the_debtor_of_a_judicial_reorganisation_says_so(world: World) -> None:
    debtors = world.registry._reorganisations
    assert debtors
    for head, since in debtors.items():
        company = _entity(world, head)
        assert company["special_status"] == "RECUPERAÇÃO JUDICIAL"
        assert company["special_status_date"].startswith(since.date().isoformat())
    assert world.pop.bank not in debtors


def test_a_branch_shares_its_head_offices_partners(world: World) -> None:
    bank = world.samples()["cnpj_with_branches"]
    branch = world.branches(bank)[0]
    head, office = _entity(world, bank), _entity(world, branch)
    assert office["head_office"] is False and office["tags"]["head_office_document"] == bank
    assert office["partners"] == head["partners"]


def test_every_record_has_the_documented_shape(world: World) -> None:
    documents = [*world.pop.persons[:300], *world.pop.companies[:200], world.samples()["company"]]
    for document in documents:
        record = _entity(world, document)
        assert {"entity_type", "name", "partners"} <= set(record)  # required (OAS)
        assert record["main_document"].isalnum()  # digits only (D78)
        for contact in record["contacts"]:
            assert set(contact) == {"contact_type", "description"}
        for address in record["addresses"]:
            assert len(address["zip_code"]) == 8 and address["state"] in BR_STATES
        if record["entity_type"] == "person":
            assert record["gender"] in ("male", "female")


def test_a_live_read_is_dated_when_asked(world: World) -> None:
    moment = world.epoch + timedelta(hours=3)
    person = _entity(world, world.pop.persons[1], read_at=moment)
    assert person["revenue_service_updated_at"].startswith(moment.strftime("%Y-%m-%dT%H"))
    stored = _entity(world, world.pop.persons[1])
    assert stored["revenue_service_updated_at"] < person["revenue_service_updated_at"]

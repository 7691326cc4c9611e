"""``response_type: entity`` on POST /requests (D68's row, D110): the registry's data."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lawsuit_tui.domain.entities import Entity

if TYPE_CHECKING:
    from lawsuit_tui.sandbox.world import World
    from tests.sandbox.conftest import Sandbox


def entity(search_type: str, key: str, **extra: Any) -> dict[str, Any]:
    return {"search_type": search_type, "search_key": key, "response_type": "entity", **extra}


def answers(page: dict[str, Any]) -> list[tuple[str, bool]]:
    return [(r["response_type"], r["cached"]) for r in page["page_data"]]


async def test_an_entity_request_answers_the_datalakes_registration_data(
    sb: Sandbox, samples: dict[str, Any], world: World
) -> None:
    busy = samples["busy_person"]
    record = await sb.create(entity("cpf", busy))
    assert record["plan_config_type"] == "entity_person_search"
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    assert page["request_status"] == "completed"
    assert answers(page) == [("entity", True)]
    data = page["page_data"][0]["response_data"]
    assert data == world.entity(busy)  # the same data as POST /entities
    assert Entity.model_validate(data).partner_links


async def test_on_demand_reads_the_receita_at_the_court_phase(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    company = samples["company"]
    record = await sb.create(entity("cnpj", company, on_demand=True))
    assert record["plan_config_type"] == "entity_company_search_on_demand"
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    assert answers(page) == [("entity", False)]
    read = page["page_data"][0]["response_data"]["revenue_service_updated_at"]
    assert read[:10] == sb.clock.now().strftime("%Y-%m-%d")


async def test_a_name_answers_every_homonym_and_nobody_is_entity_not_found(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    record = await sb.create(entity("name", samples["homonym_name"]))
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    assert len(page["page_data"]) >= 2 and {t for t, _ in answers(page)} == {"entity"}
    record = await sb.create(entity("cpf", samples["no_data"]["cpf"]))
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    assert answers(page) == [("application_error", False)]
    assert page["page_data"][0]["response_data"]["code"] == "ENTITY_NOT_FOUND"


async def test_an_oab_cannot_ask_for_registration_data(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    answer = await sb.client.post(
        "/requests/requests", json={"search": entity("oab", samples["busy_firm_oab"])}
    )
    assert answer.status_code == 422

"""The sandbox's warrant, execution, custom and attachment searches (D68, D70, D115-D120).

Before D68 every one of these requests was refused with 400 ``literal_error``."""

from __future__ import annotations

from typing import Any

import pytest

from lawsuit_tui.sandbox.world import World
from tests.sandbox.conftest import Sandbox

CREATED = (200, 201)  # D82 moves creations to 201; either is a creation here


async def create(sb: Sandbox, search: dict[str, Any], **extra: Any) -> dict[str, Any]:
    answer = await sb.client.post("/requests/requests", json={"search": search, **extra})
    assert answer.status_code in CREATED, answer.text
    body: dict[str, Any] = answer.json()
    return body


async def answers(sb: Sandbox, search: dict[str, Any], **extra: Any) -> list[dict[str, Any]]:
    """The responses of a request once it completed (D15: 2 s of sandbox time)."""
    record = await create(sb, search, **extra)
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    assert page["request_status"] == "completed"
    items: list[dict[str, Any]] = page["page_data"]
    return items


def error_code(items: list[dict[str, Any]]) -> str:
    [item] = items
    assert item["response_type"] == "application_error"
    return str(item["response_data"]["code"])


async def refused(sb: Sandbox, search: dict[str, Any], status: int, **extra: Any) -> Any:
    answer = await sb.client.post("/requests/requests", json={"search": search, **extra})
    assert answer.status_code == status, answer.text
    return answer.json()["error"]


# --- warrants ------------------------------------------------------------------------------


async def test_a_warrant_search_by_cpf(sb: Sandbox, samples: dict[str, Any]) -> None:
    busy = samples["busy_person"]
    record = await create(
        sb, {"search_type": "cpf", "search_key": busy, "response_type": "warrant"}
    )
    assert record["search"]["response_type"] == "warrant"
    assert record["plan_config_type"] == "simple_warrant_search"
    assert record["cost"] == 1.5
    await sb.advance(3)
    items = (await sb.responses(record["request_id"]))["page_data"]
    assert {i["response_type"] for i in items} == {"warrant"}
    statuses = [i["response_data"]["status"] for i in items]
    assert statuses[0] == "Pendente de Cumprimento"  # D116: open ones first
    for item in items:
        data = item["response_data"]
        assert data["entity"]["main_document"] == busy
        assert data["attachments"][0]["status"] == "pending"  # not asked for
        assert item["cached"] is False


async def test_a_warrant_search_by_rji_and_by_name(
    sb: Sandbox, samples: dict[str, Any], world: World
) -> None:
    by_rji = await answers(
        sb, {"search_type": "rji", "search_key": samples["warrant_rji"], "response_type": "warrant"}
    )
    name = world.pop.entities[samples["busy_person"]].name
    by_name = await answers(
        sb, {"search_type": "name", "search_key": name, "response_type": "warrant"}
    )
    ids = {i["response_data"]["warrant_id"] for i in by_rji}
    assert ids and ids == {i["response_data"]["warrant_id"] for i in by_name}


async def test_the_warrant_pdf_when_asked_for(sb: Sandbox, samples: dict[str, Any]) -> None:
    search = {
        "search_type": "cpf",
        "search_key": samples["busy_person"],
        "response_type": "warrant",
    }
    record = await create(sb, search, with_attachments=True)  # the Postman body
    assert record["with_attachments"] is True
    assert record["plan_config_type"] == "complete_warrant_search"
    assert record["cost"] == 2.0
    await sb.advance(3)
    items = (await sb.responses(record["request_id"]))["page_data"]
    assert all(i["response_data"]["attachments"][0]["status"] == "done" for i in items)


async def test_no_warrant(sb: Sandbox, samples: dict[str, Any], world: World) -> None:
    nobody = samples["cpf"][0]
    assert not world.criminal.warrants_of(nobody)
    items = await answers(
        sb, {"search_type": "cpf", "search_key": nobody, "response_type": "warrant"}
    )
    assert error_code(items) == "WARRANT_NOT_FOUND"
    unknown_rji = {"search_type": "rji", "search_key": "1" * 20, "response_type": "warrant"}
    assert error_code(await answers(sb, unknown_rji)) == "WARRANT_NOT_FOUND"
    homonym = {
        "search_type": "name",
        "search_key": samples["homonym_name"],
        "response_type": "warrant",
    }
    assert error_code(await answers(sb, homonym)) == "HOMONYM_AMBIGUOUS"


@pytest.mark.parametrize(
    ("search_type", "response_type"),
    [("cnpj", "warrant"), ("oab", "warrant"), ("oab", "execution"), ("rji", "lawsuits")],
)
async def test_the_matrix_refuses_the_other_pairs(
    sb: Sandbox, samples: dict[str, Any], search_type: str, response_type: str
) -> None:
    keys = {"cnpj": samples["cnpj"][0], "oab": samples["oab"][0], "rji": "1" * 20}
    search = {"search_type": search_type, "search_key": keys[search_type]}
    error = await refused(sb, {**search, "response_type": response_type}, 422)
    assert error["message"] == "UNPROCESSABLE_ENTITY"


async def test_sanction_is_read_but_not_produced(sb: Sandbox, samples: dict[str, Any]) -> None:
    search = {"search_type": "cpf", "search_key": samples["cpf"][0], "response_type": "sanction"}
    await refused(sb, search, 422)


async def test_an_rji_is_digits(sb: Sandbox) -> None:
    error = await refused(
        sb, {"search_type": "rji", "search_key": "RJI-ABC", "response_type": "warrant"}, 422
    )  # D94: a string the schema allows, no RJI
    assert "search.search_key" in str(error["data"])


# --- executions ----------------------------------------------------------------------------


async def test_an_execution_search_by_cpf(sb: Sandbox, samples: dict[str, Any]) -> None:
    search = {
        "search_type": "cpf",
        "search_key": samples["busy_person"],
        "response_type": "execution",
    }
    record = await create(sb, search, with_attachments=True)
    assert record["with_attachments"] is False  # the execution page: CNJ searches only
    assert record["plan_config_type"] == "simple_execution_search"
    await sb.advance(3)
    [item] = (await sb.responses(record["request_id"]))["page_data"]
    assert item["response_type"] == "execution"  # D70
    data = item["response_data"]
    assert data["code"] == samples["penal_execution"]
    assert data["classifications"][0] == {
        "code": "386",
        "name": "EXECUÇÃO DA PENA",
        "date": data["distribution_date"],
    }
    assert data["tags"]["criminal"] is True
    assert [p["person_type"] for p in data["parties"]] == ["AUTORIDADE", "REEDUCANDO"]


async def test_an_execution_search_by_cnj(
    sb: Sandbox, samples: dict[str, Any], world: World
) -> None:
    code = samples["penal_execution"]
    own = await answers(
        sb, {"search_type": "lawsuit_cnj", "search_key": code, "response_type": "execution"}
    )
    assert [i["response_data"]["code"] for i in own] == [code]
    action = world.criminal.execution(code)
    assert action is not None
    by_action = await answers(
        sb,
        {"search_type": "lawsuit_cnj", "search_key": action.lawsuit, "response_type": "execution"},
    )
    assert code in {i["response_data"]["code"] for i in by_action}
    plain = samples["lawsuit_cnj"][0]
    none = await answers(
        sb, {"search_type": "lawsuit_cnj", "search_key": plain, "response_type": "execution"}
    )
    assert error_code(none) == "EXECUTION_NOT_FOUND"


async def test_companies_have_no_execution(sb: Sandbox, samples: dict[str, Any]) -> None:
    search = {"search_type": "cnpj", "search_key": samples["cnpj"][0], "response_type": "execution"}
    assert error_code(await answers(sb, search)) == "EXECUTION_NOT_FOUND"


async def test_an_execution_is_a_lawsuit_by_its_number(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    # D117: any search by the execution's own CNJ finds it.
    items = await answers(
        sb, {"search_type": "lawsuit_cnj", "search_key": samples["penal_execution"]}
    )
    assert items and {i["response_type"] for i in items} == {"lawsuit"}
    assert items[0]["response_data"]["code"] == samples["penal_execution"]


# --- attachment searches --------------------------------------------------------------------


async def test_an_attachment_search_names_the_attachment(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    search = {"search_type": "lawsuit_attachment", "search_key": samples["lawsuit_cnj"][0]}
    error = await refused(sb, search, 422)  # D94: the schema allows it, the service cannot
    assert "search.search_params.attachment_id" in str(error["data"])


async def test_a_lawsuit_attachment_search(
    sb: Sandbox, samples: dict[str, Any], world: World
) -> None:
    code, attachment = next(
        (c, a)
        for c in samples["lawsuit_cnj"]
        for lw in world.court_view(c, None, sb.clock.now())
        for a in lw["attachments"]
        if not a["private"]
    )
    search = {
        "search_type": "lawsuit_attachment",
        "search_key": code,
        "search_params": {"attachment_id": attachment["attachment_id"]},
    }
    record = await create(sb, search)
    assert record["plan_config_type"] == "download_attachment"
    assert record["cost"] == 0.0
    await sb.advance(3)
    [item] = (await sb.responses(record["request_id"]))["page_data"]
    assert item["response_type"] == "lawsuit"
    found = [
        a
        for a in item["response_data"]["attachments"]
        if a["attachment_id"] == attachment["attachment_id"]
    ]
    assert found[0]["status"] == "done"
    search["search_params"] = {"attachment_id": "h9999-000000000000"}
    assert error_code(await answers(sb, search)) == "LAWSUIT_NOT_FOUND"


async def test_an_execution_attachment_search(
    sb: Sandbox, samples: dict[str, Any], world: World
) -> None:
    code = samples["penal_execution"]
    [view] = world.court_view(code, 1, sb.clock.now())
    attachment_id = view["attachments"][0]["attachment_id"]
    items = await answers(
        sb,
        {
            "search_type": "execution_attachment",
            "search_key": code,
            "search_params": {"attachment_id": attachment_id},
        },
    )
    assert items[0]["response_data"]["code"] == code
    wrong = {
        "search_type": "execution_attachment",
        "search_key": samples["lawsuit_cnj"][0],
        "search_params": {"attachment_id": attachment_id},
    }
    assert error_code(await answers(sb, wrong)) == "EXECUTION_NOT_FOUND"


# --- custom ----------------------------------------------------------------------------------


async def test_a_custom_search_needs_a_filter(sb: Sandbox) -> None:
    error = await refused(sb, {"search_type": "custom"}, 422)  # no key, no filter (D94)
    assert "search.search_params.filter" in str(error["data"])


async def test_a_custom_search_by_court(sb: Sandbox) -> None:
    search = {
        "search_type": "custom",
        "search_params": {"filter": {"tribunals": {"keys": ["TRT2"], "not_equal": False}}},
    }
    record = await create(sb, search)
    assert record["search"]["response_type"] == "lawsuits"
    assert record["plan_config_type"] == "custom_search"
    await sb.advance(3)
    items = (await sb.responses(record["request_id"]))["page_data"]
    assert 0 < len(items) <= 100
    assert {i["response_data"]["tribunal_acronym"] for i in items} == {"TRT2"}


async def test_a_custom_search_by_amount_and_step_date(sb: Sandbox) -> None:
    flt = {
        "amount_gte": 1_000_000,
        "last_step_date_gte": "2026-10-01T00:00:00.000Z",
        "classification_names": {"keys": ["Procedimento Comum Cível"], "not_equal": False},
    }
    items = await answers(
        sb, {"search_type": "custom", "search_key": "", "search_params": {"filter": flt}}
    )
    for item in items:
        if item["response_type"] == "application_error":
            assert item["response_data"]["code"] == "LAWSUIT_NOT_FOUND"
            continue
        data = item["response_data"]
        assert data["amount"] >= 1_000_000
        assert data["last_step"]["step_date"] >= "2026-10-01"
        assert data["classifications"][0]["name"] == "Procedimento Comum Cível"

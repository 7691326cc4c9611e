"""Requests on the clock (D11-D19), responses and their filters (D20-D24), cancel/delete."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.domain.responses import ResponseRecord, ResponsesPage

if TYPE_CHECKING:
    from tests.sandbox.conftest import Sandbox, SandboxFactory


def cnj(key: str, **extra: Any) -> dict[str, Any]:
    return {"search_type": "lawsuit_cnj", "search_key": key, **extra}


def kinds(page: dict[str, Any]) -> list[tuple[str, bool]]:
    return [(r["response_type"], r["cached"]) for r in page["page_data"]]


def error_codes(page: dict[str, Any]) -> list[str]:
    return [
        r["response_data"]["code"]
        for r in page["page_data"]
        if r["response_type"] == "application_error"
    ]


async def test_lifecycle_cached_then_fresh_then_completed(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    record = await sb.create(cnj(samples["moving_lawsuit"]))
    RequestRecord.model_validate(record)
    assert record["status"] == "pending"
    assert record["plan_config_type"] == "complete_lawsuit_search"
    assert record["cost"] == 0.5
    rid = record["request_id"]

    await sb.advance(0.2)
    got = (await sb.client.get(f"/requests/requests/{rid}")).json()
    assert got["status"] == "started"
    assert got["started_at"] == "2026-11-20T12:00:00.200Z"
    page = await sb.responses(rid)
    assert kinds(page) == [("lawsuit", True)]
    assert page["request_status"] == "started"

    await sb.advance(1.3)  # 1.5 s: the court answers, differing from the stored copy
    page = await sb.responses(rid)
    assert kinds(page) == [("lawsuit", True), ("lawsuit", False)]
    cached, fresh = page["page_data"]
    assert cached["tags"]["cached_response"] is True
    assert fresh["tags"]["cached_response"] is False
    assert len(fresh["response_data"]["steps"]) > len(cached["response_data"]["steps"])

    await sb.advance(0.5)
    got = (await sb.client.get(f"/requests/requests/{rid}")).json()
    assert got["status"] == "completed"
    assert got["completed_at"] == "2026-11-20T12:00:02.000Z"
    assert got["responses_count"] == 2
    ResponsesPage.model_validate(await sb.responses(rid))
    # the count service excludes what this key retrieved
    assert samples["moving_lawsuit"] in sb.state.retrieved["sandbox"]


async def test_within_cache_ttl_only_the_cached_response(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    record = await sb.create(cnj(samples["moving_lawsuit"], cache_ttl_in_days=365))
    await sb.advance(3)
    assert kinds(await sb.responses(record["request_id"])) == [("lawsuit", True)]


async def test_stale_copy_beyond_ttl_asks_the_court(sb: Sandbox, samples: dict[str, Any]) -> None:
    record = await sb.create(cnj(samples["stale_lawsuit"], cache_ttl_in_days=1))
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    assert kinds(page)[0] == ("lawsuit", True)
    assert page["request_status"] == "completed"


async def test_on_demand_has_no_cached_response(sb: Sandbox, samples: dict[str, Any]) -> None:
    record = await sb.create(cnj(samples["moving_lawsuit"], on_demand=True))
    await sb.advance(3)
    assert kinds(await sb.responses(record["request_id"])) == [("lawsuit", False)]


async def test_never_captured_lawsuit_comes_only_from_the_court(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    record = await sb.create(cnj(samples["never_captured_lawsuit"]))
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    assert page["page_data"] and all(not cached for _, cached in kinds(page))


@pytest.mark.parametrize(
    ("search", "code"),
    [
        (lambda s: cnj(s["no_data"]["lawsuit_cnj"]), "LAWSUIT_NOT_FOUND"),
        (lambda s: {"search_type": "cpf", "search_key": s["no_data"]["cpf"]}, "ENTITY_NOT_FOUND"),
        (lambda s: cnj(s["court_down_lawsuit"]), "CRAWLER_ERROR"),
        (lambda s: cnj(s["rate_limited_lawsuit"]), "RATE_LIMIT_TRIBUNAL"),
        (lambda s: cnj(s["secret_lawsuit"]["code"]), "SECRECY_RESTRICTED"),
        (lambda s: {"search_type": "name", "search_key": s["homonym_name"]}, "HOMONYM_AMBIGUOUS"),
    ],
)
async def test_application_errors_are_results(
    sb: Sandbox, samples: dict[str, Any], search: Any, code: str
) -> None:
    record = await sb.create(search(samples))
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    assert code in error_codes(page)
    assert page["request_status"] == "completed"
    error = ResponseRecord.model_validate(page["page_data"][-1]).application_error
    assert error is not None and isinstance(error.details, str)


async def register(sb: Sandbox, system: str, customer_key: str) -> None:
    answer = await sb.client.post(
        "/vault/credentials",
        json={
            "credentials": [
                {
                    "credential": {
                        "system_name": system,
                        "customer_key": customer_key,
                        "username": "user",
                        "password": "secret-pass",
                    }
                }
            ]
        },
    )
    assert answer.status_code == 200, answer.text


async def test_secret_lawsuit_with_credential_then_inactive(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    secret = samples["secret_lawsuit"]
    search = cnj(secret["code"], search_params={"credential": {"customer_key": "acme"}})
    await register(sb, "*", "acme")  # the key's wildcard counts (D19)
    record = await sb.create(search)
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    assert error_codes(page) == []
    assert any(t == "lawsuit" for t, _ in kinds(page))

    await register(sb, secret["system_name"], "acme")
    answer = await sb.client.post(
        "/_sandbox/vault/fail-login",
        json={"system_name": secret["system_name"], "customer_key": "acme"},
    )
    assert answer.status_code == 200
    assert answer.json()["credential_status"] == "inactive"
    record = await sb.create(search)
    await sb.advance(3)
    assert error_codes(await sb.responses(record["request_id"])) == ["INVALID_CREDENTIAL"]


async def test_document_search_one_lawsuit_response_per_lawsuit(
    sb: Sandbox, samples: dict[str, Any], world: Any
) -> None:
    cpf = samples["cpf"][0]
    record = await sb.create({"search_type": "cpf", "search_key": cpf})
    assert record["search"]["response_type"] == "lawsuits"
    assert record["plan_config_type"] == "complete_document_search"
    assert record["cost"] == 1.5
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    codes = {r["response_data"]["code"] for r in page["page_data"]}
    assert codes == {code for code, _ in world.find("cpf", cpf)}
    assert {t for t, _ in kinds(page)} == {"lawsuit"}


async def test_parties_of_a_document_is_an_entity(sb: Sandbox, samples: dict[str, Any]) -> None:
    cpf = samples["cpf"][0]
    record = await sb.create({"search_type": "cpf", "search_key": cpf, "response_type": "parties"})
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    assert page["page_data"][0]["response_type"] == "entity"
    assert page["page_data"][0]["response_data"]["main_document"]


@pytest.mark.parametrize("response_type", ["parties", "attachments", "step"])
async def test_lawsuit_response_shapes(
    sb: Sandbox, samples: dict[str, Any], response_type: str
) -> None:
    code = samples["moving_lawsuit"]
    record = await sb.create(cnj(code, response_type=response_type))
    await sb.advance(3)
    data = (await sb.responses(record["request_id"]))["page_data"][-1]
    assert data["response_type"] == response_type
    body = data["response_data"]
    assert body["code"] == code
    key = "steps" if response_type == "step" else response_type
    assert isinstance(body[key], list)
    if response_type == "step":
        dates = [s["step_date"] for s in body["steps"]]
        assert dates == sorted(dates, reverse=True)


async def test_key_normalization_and_lawsuit_id(sb: Sandbox, samples: dict[str, Any]) -> None:
    code = samples["moving_lawsuit"]
    digits = "".join(c for c in code if c.isdigit())
    record = await sb.create({"search_type": "lawsuit_id", "search_key": digits})
    assert record["search"]["search_key"] == code
    await sb.advance(3)
    assert (await sb.responses(record["request_id"]))["page_data"]


async def test_with_attachments_only_for_lawsuit_cnj(sb: Sandbox, samples: dict[str, Any]) -> None:
    record = await sb.create(cnj(samples["moving_lawsuit"]), with_attachments=True)
    assert record["with_attachments"] is True
    assert record["plan_config_type"] == "full_lawsuit_search"
    assert record["cost"] == 2.0
    other = await sb.create(
        {"search_type": "cpf", "search_key": samples["cpf"][0]}, with_attachments=True
    )
    assert other["with_attachments"] is False


async def test_branches_one_request_each_linked_by_origin_id(
    sb: Sandbox, samples: dict[str, Any], world: Any
) -> None:
    head = samples["cnpj_with_branches"]
    record = await sb.create(
        {"search_type": "cnpj", "search_key": head, "should_search_branches": True}
    )
    assert record["search"]["search_params"]["should_search_branches"] is True
    assert record["plan_config_type"] == "complete_company_search_with_branches"
    listing = (
        await sb.client.get(
            "/requests/requests", params={"origin_id": record["request_id"], "page_size": 100}
        )
    ).json()
    branches = {
        r["search"]["search_key"]
        for r in listing["page_data"]
        if r["request_id"] != record["request_id"]  # D93: the original is its own origin
    }
    assert branches == set(world.branches(head)) - {head}
    assert len(branches) >= 10
    original = (await sb.client.get(f"/requests/requests/{record['request_id']}")).json()
    assert original["search"]["search_key"] == head


async def test_filters_apply_and_echo_both_subject_shapes(
    sb: Sandbox, samples: dict[str, Any], world: Any
) -> None:
    oab = samples["oab"][0]
    lawsuits = [
        lw for c, i in world.find("oab", oab) for lw in world.court_view(c, i, sb.clock.now())
    ]
    acronym = lawsuits[0]["tribunal_acronym"]
    subject = lawsuits[0]["subjects"][0]["name"]
    flt = {
        "tribunals": {"keys": [acronym]},
        "subject_names": {"keys": [subject], "not_equal": False},
        "subject_codes": {"contains": [], "not_contains": ["no-such-code"]},
        "amount_gte": 0,
    }
    record = await sb.create(
        {"search_type": "oab", "search_key": oab, "search_params": {"filter": flt}}
    )
    echoed = record["search"]["search_params"]["filter"]
    assert echoed["subject_names"] == {"keys": [subject], "not_equal": False}
    assert echoed["subject_codes"] == {"contains": [], "not_contains": ["no-such-code"]}
    assert record["filters_count"] == 4
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    assert page["page_data"]
    for response in page["page_data"]:
        data = response["response_data"]
        assert data["tribunal_acronym"] == acronym
        assert any(subject.casefold() in s["name"].casefold() for s in data["subjects"])


async def test_cancel_then_delete(sb: Sandbox, samples: dict[str, Any]) -> None:
    record = await sb.create(cnj(samples["moving_lawsuit"]))
    rid = record["request_id"]
    answer = await sb.client.delete(f"/requests/requests/{rid}")
    assert answer.status_code == 200
    # D62: the answer is {success, time}; the request says what happened
    assert answer.json() == {"success": True, "time": "2026-11-20T12:00:00.000Z"}
    got = (await sb.client.get(f"/requests/requests/{rid}")).json()
    assert got["status"] == "cancelling"
    await sb.advance(3)
    got = (await sb.client.get(f"/requests/requests/{rid}")).json()
    assert got["status"] == "cancelled"
    assert got["cancelled_at"] is not None
    assert (await sb.responses(rid))["page_data"] == []
    # a finished one is soft-deleted: hidden from the list, readable by id
    answer = await sb.client.delete(f"/requests/requests/{rid}")
    assert answer.json()["success"] is True
    assert (await sb.client.get(f"/requests/requests/{rid}")).json()["deleted_at"] is not None
    listing = (await sb.client.get("/requests/requests")).json()
    assert rid not in {r["request_id"] for r in listing["page_data"]}
    listing = (await sb.client.get("/requests/requests", params={"include_deleted": True})).json()
    assert rid in {r["request_id"] for r in listing["page_data"]}
    assert (await sb.client.get(f"/requests/requests/{rid}")).status_code == 200


async def test_unknown_request_is_404_request_not_found(sb: Sandbox) -> None:
    for answer in (
        await sb.client.get("/requests/requests/nope"),
        await sb.client.delete("/requests/requests/nope"),
        await sb.client.get("/requests/responses", params={"request_id": "nope"}),
    ):
        assert answer.status_code == 404
        assert answer.json()["error"]["name"] == "REQUEST_NOT_FOUND"


async def test_other_keys_requests_are_invisible(
    make_sandbox: SandboxFactory, samples: dict[str, Any]
) -> None:
    sb = await make_sandbox(api_keys=("a", "b"), api_key="a")
    record = await sb.create(cnj(samples["moving_lawsuit"]))
    answer = await sb.client.get(
        f"/requests/requests/{record['request_id']}", headers={"api-key": "b"}
    )
    assert answer.status_code == 404


async def test_list_order_and_filters(sb: Sandbox, samples: dict[str, Any]) -> None:
    first = await sb.create(cnj(samples["moving_lawsuit"]))
    await sb.advance(10)
    second = await sb.create({"search_type": "cpf", "search_key": samples["cpf"][0]})
    listing = (await sb.client.get("/requests/requests")).json()
    assert [r["request_id"] for r in listing["page_data"]] == [
        second["request_id"],
        first["request_id"],
    ]
    only = (await sb.client.get("/requests/requests", params={"search_type": "cpf"})).json()
    assert [r["request_id"] for r in only["page_data"]] == [second["request_id"]]
    done = (await sb.client.get("/requests/requests", params={"status": "completed"})).json()
    assert [r["request_id"] for r in done["page_data"]] == [first["request_id"]]
    since = (
        await sb.client.get("/requests/requests", params={"created_at_gte": second["created_at"]})
    ).json()
    assert [r["request_id"] for r in since["page_data"]] == [second["request_id"]]


async def test_responses_filters_and_null_request_status(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    record = await sb.create(cnj(samples["moving_lawsuit"]))
    await sb.advance(3)
    everything = (await sb.client.get("/requests/responses")).json()
    assert everything["request_status"] is None
    assert everything["all_count"] == 2
    cached = (await sb.client.get("/requests/responses", params={"cached": True})).json()
    assert [r["cached"] for r in cached["page_data"]] == [True]
    typed = (
        await sb.client.get("/requests/responses", params={"response_type": "application_error"})
    ).json()
    assert typed["all_count"] == 0
    paged = (
        await sb.client.get(
            "/requests/responses", params={"request_id": record["request_id"], "page_size": 5}
        )
    ).json()
    assert paged["page"] == 1 and paged["page_count"] == 2 and paged["all_pages_count"] == 1


async def test_routes_answer_while_a_busy_document_is_computed(
    sb: Sandbox, samples: dict[str, Any], world: Any
) -> None:
    busy = samples["busy_person"]
    assert len(world.find("cpf", busy)) > 100
    record = await sb.create({"search_type": "cpf", "search_key": busy, "on_demand": True})
    await sb.advance(0.5)
    sb.clock.advance(1.0)  # the court's answer is due: this call starts it in the world's thread
    answer = await sb.client.get(f"/requests/requests/{record['request_id']}")
    assert answer.status_code == 200
    assert answer.json()["status"] == "started"
    assert any(not t.done() for t in sb.state.background.tasks)  # answered meanwhile
    await sb.advance(1)
    page = await sb.responses(record["request_id"])
    assert page["request_status"] == "completed"
    assert page["all_count"] >= 100


async def test_name_search_of_one_person(sb: Sandbox, samples: dict[str, Any], world: Any) -> None:
    name = samples["name"][0]
    assert len(world.homonyms(name)) == 1
    record = await sb.create(
        {"search_type": "name", "search_key": name, "response_type": "parties"}
    )
    assert record["plan_config_type"] == "entity_person_name_search"
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    assert [r["response_type"] for r in page["page_data"]][-1] == "entity"
    assert page["page_data"][-1]["response_data"]["name"].casefold() == name.casefold()


async def test_list_filters_in_every_encoding_and_order(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    # D76: repeated keys, a JSON array string and one value; order in four spellings.
    first = await sb.create(cnj(samples["moving_lawsuit"]))
    await sb.advance(10)
    second = await sb.create({"search_type": "cpf", "search_key": samples["cpf"][0]})
    await sb.advance(1)
    third = await sb.create({"search_type": "cpf", "search_key": samples["cpf"][1]})
    newest_first = [third["request_id"], second["request_id"], first["request_id"]]

    async def ids(params: Any) -> list[str]:
        answer = await sb.client.get("/requests/requests", params=params)
        assert answer.status_code == 200, answer.text
        return [r["request_id"] for r in answer.json()["page_data"]]

    both = [first["request_id"], third["request_id"]]
    assert await ids([("request_id", both[0]), ("request_id", both[1])]) == both[::-1]
    assert await ids({"request_id": f'["{both[0]}", "{both[1]}"]'}) == both[::-1]
    assert await ids({"search_type": '["lawsuit_cnj"]'}) == [first["request_id"]]
    assert await ids({}) == newest_first
    for oldest_first in (
        {"order": '{"created_at": "asc"}'},
        {"order[created_at]": "asc"},
        {"order": "asc", "order_by": "created_at"},
        {"order": "ASC"},
        {"orderField": "created_at", "orderDirection": "asc"},
    ):
        assert await ids(oldest_first) == newest_first[::-1], oldest_first
    # A field that is none is refused wherever it is named, beside any other spelling.
    for wrong in ({"order": '{"created_at": "asc"}', "order_by": "nothing"}, {"order_by": "x"}):
        answer = await sb.client.get("/requests/requests", params=wrong)
        assert answer.status_code == 400 and "order_by" in answer.text, wrong


async def test_list_windows_take_dates_and_date_times(sb: Sandbox, samples: dict[str, Any]) -> None:
    # D63: both bounds inclusive; a date alone as _lte is the whole of that day (UTC).
    record = await sb.create(cnj(samples["moving_lawsuit"]))
    created = record["created_at"]  # 2026-11-20T12:00:00.000Z on the frozen clock

    async def count(gte: str, lte: str) -> int:
        params = {"created_at_gte": gte, "created_at_lte": lte}
        answer = await sb.client.get("/requests/requests", params=params)
        assert answer.status_code == 200, answer.text
        return int(answer.json()["all_count"])

    assert await count("2026-11-20", "2026-11-20") == 1
    assert await count(created, created) == 1
    assert await count("2026-11-20T12:00:00.001Z", "2026-12-01") == 0
    assert await count("2026-11-20T09:00:00-03:00", "2026-11-20T09:00:00-03:00") == 1
    assert await count("2026-11-21", "2026-12-31") == 0
    assert await count("2026-11-01", "2026-11-19") == 0


async def test_judit_ia_brings_a_summary_after_each_lawsuit_response(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    # D80: judit_ia ["summary"] echoed, plan *_with_summary, one summary per lawsuit response.
    record = await sb.create(cnj(samples["moving_lawsuit"]), judit_ia=["summary"])
    assert record["judit_ia"] == ["summary"]
    assert record["plan_config_type"] == "complete_lawsuit_search_with_summary"
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    kinds_seen = [r["response_type"] for r in page["page_data"]]
    assert kinds_seen == ["lawsuit", "summary", "lawsuit", "summary"]
    lawsuits = [r for r in page["page_data"] if r["response_type"] == "lawsuit"]
    summaries = [r for r in page["page_data"] if r["response_type"] == "summary"]
    for lawsuit, summary in zip(lawsuits, summaries, strict=True):
        data = summary["response_data"]
        assert data["origin"] == "response" and data["origin_id"] == lawsuit["response_id"]
        assert data["data"][0].startswith("## Resumo")
        assert samples["moving_lawsuit"] in data["data"][0]
        assert summary["cached"] == lawsuit["cached"]
    got = (await sb.client.get(f"/requests/requests/{record['request_id']}")).json()
    assert got["responses_count"] == 4


async def test_without_judit_ia_no_summary(sb: Sandbox, samples: dict[str, Any]) -> None:
    record = await sb.create(cnj(samples["moving_lawsuit"]))
    assert record["judit_ia"] == [] and "service_ia" not in record
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    assert "summary" not in {r["response_type"] for r in page["page_data"]}


async def test_a_filtered_search_brings_nothing_from_courts_it_leaves_out(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    # Issue 19.4: filtered to TJSP and TRF3, the errors of TRT14 and TJAP (down) came too.
    flt = {"tribunals": {"keys": ["TJSP", "TRF3"], "not_equal": False}}
    record = await sb.create(
        {
            "search_type": "cpf",
            "search_key": samples["busy_person"],
            "on_demand": True,
            "search_params": {"filter": flt},
        }
    )
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    assert page["page_data"]
    courts = {
        r["response_data"].get("tribunal_acronym")
        for r in page["page_data"]
        if r["response_type"] == "lawsuit"
    }
    assert courts and courts <= {"TJSP", "TRF3"}
    assert error_codes(page) == []


async def test_a_court_that_is_down_is_named_in_its_error(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    # D92: one error per court that could not be reached, naming it.
    record = await sb.create(
        {"search_type": "cpf", "search_key": samples["busy_person"], "on_demand": True}
    )
    await sb.advance(3)
    page = await sb.responses(record["request_id"])
    failures = [
        r["response_data"]
        for r in page["page_data"]
        if r["response_type"] == "application_error"
        and r["response_data"]["code"] == "CRAWLER_ERROR"
    ]
    assert sorted(f["tribunal_acronym"] for f in failures) == ["TJAP", "TRT14"]
    assert all(f["tribunal_acronym"] in f["details"] for f in failures)
    lawsuit = await sb.create(cnj(samples["court_down_lawsuit"]))
    await sb.advance(3)
    [failure] = [
        r["response_data"]
        for r in (await sb.responses(lawsuit["request_id"]))["page_data"]
        if r["response_type"] == "application_error"
    ]
    assert failure["lawsuit_cnj"] == samples["court_down_lawsuit"]
    assert failure["tribunal_acronym"] == "TJAP"

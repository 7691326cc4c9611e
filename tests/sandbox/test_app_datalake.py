"""The lawsuits service's datalake routes (D71, D74, D78, D79, D101-D107)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from lawsuit_tui.domain.datalake import SyntheticAggregations
from lawsuit_tui.domain.entities import EntitiesAnswer
from lawsuit_tui.sandbox.datalake import without_nulls

if TYPE_CHECKING:
    from lawsuit_tui.sandbox.world import World
    from tests.sandbox.conftest import Sandbox, SandboxFactory


def body(search_type: str, key: str, **search: Any) -> dict[str, Any]:
    return {"search": {"search_type": search_type, "search_key": key, **search}}


async def listing(sb: Sandbox, payload: dict[str, Any]) -> list[dict[str, Any]]:
    """Every page of POST /lawsuits for ``payload``."""
    found: list[dict[str, Any]] = []
    page = 1
    while True:
        paged = {**payload, "search_params": {"pagination": {"page": page, "page_size": 40}}}
        answer = await sb.client.post("/lawsuits/lawsuits", json=paged)
        assert answer.status_code == 200, answer.text
        items = answer.json()["lawsuits"]
        found.extend(items)
        if len(items) < 40:
            return found
        page += 1


async def total(sb: Sandbox, payload: dict[str, Any]) -> int:
    answer = await sb.client.post("/lawsuits/lawsuits/count", json=payload)
    assert answer.status_code == 200, answer.text
    assert set(answer.json()) == {"total"}
    value: int = answer.json()["total"]
    return value


# ------------------------------------------------------------------------- POST /lawsuits


async def test_pages_cover_the_listing_once_and_has_lawsuits_stays_true(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    payload = body("cpf", samples["busy_person"], response_type="lawsuits")
    everything = await listing(sb, payload)
    keys = [(lw["code"], lw["instance"]) for lw in everything]
    assert len(keys) == len(set(keys)) > 80
    dates = [lw["distribution_date"] for lw in everything]
    assert dates == sorted(dates, reverse=True)  # newest first (D102)
    gate = {**payload, "search_params": {"pagination": {"page": 1, "page_size": 1}}}
    answer = (await sb.client.post("/lawsuits/lawsuits", json=gate)).json()
    assert answer["has_lawsuits"] is True and len(answer["lawsuits"]) == 1  # has-lawsuits.mdx
    beyond = {**payload, "search_params": {"pagination": {"page": 999, "page_size": 100}}}
    answer = (await sb.client.post("/lawsuits/lawsuits", json=beyond)).json()
    assert answer["has_lawsuits"] is True and answer["lawsuits"] == []
    default = (await sb.client.post("/lawsuits/lawsuits", json=payload)).json()
    assert len(default["lawsuits"]) == min(100, len(keys))  # D71: page_size 100 by default


async def test_the_filter_is_read_in_either_placement_and_merged(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    busy = samples["busy_person"]
    inner = body("cpf", busy, search_params={"filter": {"side": "Passive"}})
    outer = {**body("cpf", busy), "search_params": {"filter": {"side": "Passive"}}}
    both = {
        **body("cpf", busy, search_params={"filter": {"side": "Active", "amount_gte": 1000}}),
        "search_params": {"filter": {"side": "Passive"}},
    }
    passive = await total(sb, inner)
    assert 0 < passive < await total(sb, body("cpf", busy))
    assert await total(sb, outer) == passive
    merged = await total(sb, both)  # the top level's side, the inner amount
    expected = await total(
        sb, body("cpf", busy, search_params={"filter": {"side": "Passive", "amount_gte": 1000}})
    )
    assert merged == expected < passive


async def test_count_is_the_listings_length_whatever_the_filter(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    busy = samples["busy_person"]
    filters: list[dict[str, Any]] = [
        {},
        {"side": "PASSIVE"},  # D79: any case
        {"tribunals": {"keys": ["tjsp"], "not_equal": False}},
        {"tribunals": {"keys": ["TJSP"], "not_equal": True}},
        {"amount_gte": 5000, "amount_lte": 200000},
        {"distribution_date_gte": "2020-01-01T00:00:00Z"},
        {"subject_names": {"contains": ["dano"], "not_contains": []}},
    ]
    for flt in filters:
        payload = body("cpf", busy, search_params={"filter": flt})
        items = await listing(sb, payload)
        assert await total(sb, payload) == len(items), flt
    labour = body("cpf", busy, search_params={"filter": {"tribunals": {"keys": ["TRT02"]}}})
    explicit = body("cpf", busy, search_params={"filter": {"tribunals": {"keys": ["TRT2"]}}})
    assert await total(sb, labour) == await total(sb, explicit)  # D79: zero-padded


async def test_phase_and_status_only_with_process_status(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    code = samples["two_instance_lawsuit"]
    plain = (await sb.client.post("/lawsuits/lawsuits", json=body("lawsuit_cnj", code))).json()
    assert all("phase" not in lw and "status" not in lw for lw in plain["lawsuits"])
    asked = {**body("lawsuit_cnj", code), "process_status": True}
    answer = (await sb.client.post("/lawsuits/lawsuits", json=asked)).json()
    assert all(lw["status"] in ("Ativo", "Arquivado") for lw in answer["lawsuits"])


async def test_what_the_route_does_not_serve(sb: Sandbox, samples: dict[str, Any]) -> None:
    cpf = samples["cpf"][0]
    # What the documented schema refuses is a 400 (D64)...
    for payload in (
        body("cpf", cpf, search_params={"filter": {"side": "Sideways"}}),
        body("cpf", cpf, search_params={"filter": {"tribunals": {"keys": ["XYZ9"]}}}),
        body("lawsuit_cnj", samples["lawsuit_cnj"][0], cache_ttl_in_days=0),
    ):
        answer = await sb.client.post("/lawsuits/lawsuits", json=payload)
        assert answer.status_code == 400, payload
        assert answer.json()["error"]["message"] == "BAD_REQUEST"
    # ... and what it allows but the route cannot serve, a 422 naming the field (D94).
    for payload, field in (
        (body("custom", "x", search_params={"filter": {"side": "Active"}}), "search_type"),
        (body("cpf", cpf, response_type="warrant"), "response_type"),
        (body("cpf", "123"), "search_key"),
    ):
        answer = await sb.client.post("/lawsuits/lawsuits", json=payload)
        assert answer.status_code == 422, payload
        assert answer.json()["error"]["data"].startswith(f"search.{field}: ")
    rji = (await sb.client.post("/lawsuits/lawsuits", json=body("rji", "123456"))).json()
    assert rji["has_lawsuits"] is False and rji["lawsuits"] == []


async def test_on_demand_goes_to_the_court_and_the_datalake_keeps_it(
    sb: Sandbox, samples: dict[str, Any], world: World
) -> None:
    never = samples["never_captured_lawsuit"]
    empty = (await sb.client.post("/lawsuits/lawsuits", json=body("lawsuit_cnj", never))).json()
    assert empty["has_lawsuits"] is False
    assert (await sb.client.get(f"/lawsuits/lawsuits/{never}")).status_code == 404
    fetched = await sb.client.post(
        "/lawsuits/lawsuits", json=body("lawsuit_cnj", never, on_demand=True)
    )
    assert fetched.json()["has_lawsuits"] is True
    assert (await sb.client.get(f"/lawsuits/lawsuits/{never}")).status_code == 200  # kept
    stale = samples["stale_lawsuit"]
    before = (await sb.client.get(f"/lawsuits/lawsuits/{stale}")).json()["updated_at"]
    fresh_enough = body("lawsuit_cnj", stale, on_demand=True, cache_ttl_in_days=3650)
    await sb.client.post("/lawsuits/lawsuits", json=fresh_enough)
    assert (await sb.client.get(f"/lawsuits/lawsuits/{stale}")).json()["updated_at"] == before
    too_old = {**body("lawsuit_cnj", stale, on_demand=True), "cache_ttl_in_days": 1}  # D87
    await sb.client.post("/lawsuits/lawsuits", json=too_old)
    after = (await sb.client.get(f"/lawsuits/lawsuits/{stale}")).json()["updated_at"]
    assert after > before and after.startswith(sb.clock.now().strftime("%Y-%m-%dT%H"))


# ------------------------------------------------------------------------- synthetic


async def test_synthetic_agrees_with_the_listing(sb: Sandbox, samples: dict[str, Any]) -> None:
    busy = samples["busy_person"]
    payload = body("cpf", busy, response_type="synthetic_lawsuits")
    answer = await sb.client.post("/lawsuits/lawsuits/synthetic", json=payload)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    aggregations = SyntheticAggregations.model_validate(data)
    items = await listing(sb, body("cpf", busy))
    assert aggregations.lawsuits_count == len(items) == await total(sb, body("cpf", busy))
    by_court = Counter(lw["tribunal_acronym"] for lw in items)
    assert {b.value: b.count for b in aggregations.tribunals} == dict(by_court)
    assert [b["count"] for b in data["tribunals"]] == sorted(by_court.values(), reverse=True)
    assert {b.value for b in aggregations.sides} <= {"ACTIVE", "PASSIVE"}  # D79: upper case
    assert sum(b.count for b in aggregations.sides) >= len(items)
    assert {b.value for b in aggregations.names} == {"Osvaldo Queiroz Brandão"}
    assert sum(b.count for b in aggregations.phases) == len(items)  # whatever process_status
    assert all(isinstance(b["value"], str) for b in data["instances"])  # OAS: strings
    assert "Osvaldo Queiroz Brandão" not in {b.value for b in aggregations.other_parties}
    filtered = body("cpf", busy, search_params={"filter": {"side": "Passive"}})
    narrow = (await sb.client.post("/lawsuits/lawsuits/synthetic", json=filtered)).json()
    assert narrow["lawsuits_count"] == await total(sb, filtered)
    assert {b["value"] for b in narrow["sides"]} >= {"PASSIVE"}


async def test_synthetic_counts_the_secret_lawsuits_it_leaves_out(
    sb: Sandbox, world: World
) -> None:
    record = next(
        r
        for r in world.records()
        if r.secrecy > 0 and all(i.stored_at for i in r.instances) and r.parties
    )
    document = record.parties[0].document
    kind = "cpf" if len(document) == 11 else "cnpj"
    data = (await sb.client.post("/lawsuits/lawsuits/synthetic", json=body(kind, document))).json()
    assert data["secrecy_lawsuits_count"] >= 1
    assert data["lawsuits_count"] == await total(sb, body(kind, document))


# ------------------------------------------------------------------------- steps count


async def test_steps_count_per_instance_with_failures_per_item(
    sb: Sandbox, samples: dict[str, Any], world: World
) -> None:
    two = samples["two_instance_lawsuit"]
    numbers = [two, two.replace("-", "").replace(".", ""), "123", samples["no_data"]["lawsuit_cnj"]]
    answer = await sb.client.post("/lawsuits/steps/count", json={"lawsuit_cnj": numbers})
    assert answer.status_code == 200, answer.text
    items = answer.json()
    counted = [i for i in items if "error_message" not in i]
    assert {(i["code"], i["instance"]) for i in counted} == {(two, 1), (two, 2)}  # once
    for item in counted:
        (copy,) = world.stored_view(two, item["instance"])
        assert item["steps_count"] == len(copy["steps"])
        assert item["attachments_count"] == len(copy["attachments"])
    failures = {i["code"]: i for i in items if "error_message" in i}
    assert failures["123"]["error_message"].startswith("INVALID_CNJ")
    unknown = failures[samples["no_data"]["lawsuit_cnj"]]
    assert unknown["instance"] == 0 and unknown["error_message"].startswith("LAWSUIT_NOT_FOUND")
    for wrong in ({"lawsuit_cnj": []}, {"lawsuit_cnj": [two] * 1001}, {}):
        assert (await sb.client.post("/lawsuits/steps/count", json=wrong)).status_code == 400


# ------------------------------------------------------------------------- one lawsuit


async def test_the_stored_copy_of_one_lawsuit(
    sb: Sandbox, samples: dict[str, Any], world: World
) -> None:
    two = samples["two_instance_lawsuit"]
    latest = (await sb.client.get(f"/lawsuits/lawsuits/{two}")).json()
    assert latest["instance"] == 2  # D101: the highest instance by default
    first = (await sb.client.get(f"/lawsuits/lawsuits/{two}", params={"instance": 1})).json()
    assert first["instance"] == 1
    assert first["steps"] == without_nulls(world.stored_view(two, 1)[0]["steps"])
    code = samples["big_lawsuit"]
    full = (await sb.client.get(f"/lawsuits/lawsuits/{code}")).json()
    saved = (await sb.client.get(f"/lawsuits/lawsuits/{code}", params={"saved_att": "true"})).json()
    assert saved["saved_attachments"] == [a for a in full["attachments"] if a["status"] == "done"]
    linked = (
        await sb.client.get(f"/lawsuits/lawsuits/{code}", params={"only_att_with_steps": "true"})
    ).json()
    assert all(a.get("step_id") for a in linked["attachments"])
    missing = await sb.client.get(f"/lawsuits/lawsuits/{samples['no_data']['lawsuit_cnj']}")
    assert missing.status_code == 404
    assert missing.json()["error"]["name"] == "LAWSUIT_NOT_FOUND"
    # D94: any text is a documented path; one that is no CNJ is unprocessable, said so.
    not_cnj = await sb.client.get("/lawsuits/lawsuits/12345")
    assert not_cnj.status_code == 422
    assert not_cnj.json()["error"]["data"] == "lawsuit_cnj: '12345' is not a lawsuit_cnj key"
    assert (
        await sb.client.get(f"/lawsuits/lawsuits/{two}", params={"instance": 0})
    ).status_code == 400


# ------------------------------------------------------------------------- entities


async def test_entities_by_cpf_cnpj_and_name(sb: Sandbox, samples: dict[str, Any]) -> None:
    busy = samples["busy_person"]
    answer = await sb.client.post(
        "/lawsuits/entities", json=body("cpf", busy, response_type="entity")
    )
    assert answer.status_code == 200, answer.text
    parsed = EntitiesAnswer.model_validate(answer.json())
    assert parsed.has_lawsuits is True and parsed.request_id
    (person,) = parsed.response_data
    assert person.document == busy and person.partner_links
    company = samples["company"]
    masked = (await sb.client.post("/lawsuits/entities", json=body("cnpj", company))).json()
    people = [p for p in masked["response_data"][0]["partners"] if p["entity_type"] == "person"]
    assert people and all(p["main_document"].startswith("***") for p in people)
    for revealed_body in (
        {**body("cnpj", company), "reveal_partners_documents": True},
        body("cnpj", company, reveal_partners_documents=True),  # D78: either level
    ):
        revealed = (await sb.client.post("/lawsuits/entities", json=revealed_body)).json()
        partners = revealed["response_data"][0]["partners"]
        assert all("*" not in p["main_document"] for p in partners)
    homonyms = (
        await sb.client.post("/lawsuits/entities", json=body("name", samples["homonym_name"]))
    ).json()
    assert len(homonyms["response_data"]) >= 2  # every person of that name
    nobody = (
        await sb.client.post("/lawsuits/entities", json=body("cpf", samples["no_data"]["cpf"]))
    ).json()
    assert nobody["response_data"] == [] and nobody["has_lawsuits"] is False


async def test_entities_refuses_other_searches(sb: Sandbox, samples: dict[str, Any]) -> None:
    for payload in (
        body("rji", "123456"),
        body("oab", samples["busy_firm_oab"]),
        body("cpf", samples["busy_person"], response_type="lawsuits"),
        body("cpf", "111"),
    ):
        # D94: values the documented enums and strings allow, which this route cannot use
        assert (await sb.client.post("/lawsuits/entities", json=payload)).status_code == 422


async def test_on_demand_registration_data_are_read_now(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    busy = samples["busy_person"]
    stored = (await sb.client.post("/lawsuits/entities", json=body("cpf", busy))).json()
    sb.clock.advance(3600)
    live = (
        await sb.client.post("/lawsuits/entities", json=body("cpf", busy, on_demand=True))
    ).json()
    read = live["response_data"][0]["revenue_service_updated_at"]
    assert read.startswith(sb.clock.now().strftime("%Y-%m-%dT%H"))
    assert stored["response_data"][0]["revenue_service_updated_at"] < read


# ------------------------------------------------------------------------- rate window


async def test_the_datalake_routes_share_their_own_window(
    make_sandbox: SandboxFactory, samples: dict[str, Any]
) -> None:
    sb = await make_sandbox(datalake_rate_limit=(3, 60.0))
    cpf = samples["cpf"][0]
    calls = [
        sb.client.post("/lawsuits/lawsuits/count", json=body("cpf", cpf)),
        sb.client.post("/lawsuits/entities", json=body("cpf", cpf)),
        sb.client.post("/lawsuits/steps/count", json={"lawsuit_cnj": [samples["lawsuit_cnj"][0]]}),
    ]
    for call in calls:
        answer = await call
        assert answer.status_code == 200 and answer.headers["X-RateLimit-Limit"] == "3"
    refused = await sb.client.get(f"/lawsuits/lawsuits/{samples['lawsuit_cnj'][0]}")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    # the requests service's window is another one
    listed = await sb.client.get("/requests/requests", params={"page_size": 5})
    assert listed.status_code == 200 and listed.headers["X-RateLimit-Limit"] == "180"
    sb.clock.advance(61)
    assert (await sb.client.post("/lawsuits/lawsuits", json=body("cpf", cpf))).status_code == 200

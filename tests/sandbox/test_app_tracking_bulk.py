"""Bulk creation (D73), PATCH semantics (D65), tracked items and the list's filters."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lawsuit_tui.domain.trackings import BulkTrackingResult, TrackedItemsPage

if TYPE_CHECKING:
    from tests.sandbox.conftest import Sandbox, SandboxFactory


def cnj(key: str, **extra: Any) -> dict[str, Any]:
    return {"search": {"search_type": "lawsuit_cnj", "search_key": key}, **extra}


def cpf(key: str, **extra: Any) -> dict[str, Any]:
    return {"search": {"search_type": "cpf", "search_key": key}, **extra}


def problem_text(answer: Any) -> str:
    """The error's data as text, whatever its shape (items or sentences)."""
    return str(answer.json()["error"]["data"])


async def bulk(sb: Sandbox, items: list[Any]) -> BulkTrackingResult:
    answer = await sb.client.post("/tracking/tracking/bulk", json={"trackings": items})
    assert answer.status_code == 201, answer.text
    return BulkTrackingResult.model_validate(answer.json())


async def test_bulk_makes_each_item_on_its_own_in_order(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    first, second = samples["lawsuit_cnj"][0], samples["lawsuit_cnj"][1]
    person = samples["cpf"][0]
    tracked = await sb.client.post("/tracking/tracking", json=cnj(first))
    assert tracked.status_code == 201
    result = await bulk(
        sb,
        [
            cnj(second, recurrence=7, tags={"tier": "warm"}),
            cnj(first),  # tracked already, in the store
            cpf(person),
            cpf(person.replace(person[-1], str((int(person[-1]) + 1) % 10))),  # wrong digits
            cnj(second),  # earlier in the same batch
            {"search": {"search_type": "cpf"}},  # no key
        ],
    )
    assert [t.search.search_key for t in result.trackings if t.search] == [second, person]
    assert result.trackings[0].recurrence == 7
    assert result.trackings[0].tags == {"tier": "warm"}
    errors = {error.index: error for error in result.errors}
    assert sorted(errors) == [1, 3, 4, 5]
    assert errors[1].already_exists and errors[4].already_exists
    assert tracked.json()["tracking_id"] in errors[1].message
    assert errors[3].code == "HttpUnprocessableEntityError"  # D94: no CPF, though a string
    assert "search.search_key" in errors[5].message
    assert errors[5].input == {"search": {"search_type": "cpf"}}
    listing = (await sb.client.get("/tracking/tracking")).json()
    assert listing["all_count"] == 3


async def test_bulk_answers_201_when_every_item_fails(sb: Sandbox) -> None:
    result = await bulk(sb, [{"search": "nope"}, 7])
    assert result.trackings == []
    assert [error.index for error in result.errors] == [0, 1]


async def test_an_item_beyond_64_bits_is_echoed_in_its_error(sb: Sandbox) -> None:
    # Before: the echo of the refused input could not be written (a 500).
    result = await bulk(sb, [-(2**63) - 1])
    assert result.trackings == []
    assert [error.index for error in result.errors] == [0]


async def test_bulk_bounds(sb: Sandbox, samples: dict[str, Any]) -> None:
    for body in ({"trackings": []}, {"trackings": [cnj("x")] * 1001}, {"trackings": {}}, {}):
        answer = await sb.client.post("/tracking/tracking/bulk", json=body)
        assert answer.status_code == 400, body
        assert "trackings" in problem_text(answer)


async def test_a_bulk_call_takes_one_slot_of_the_window(
    make_sandbox: SandboxFactory, samples: dict[str, Any]
) -> None:
    sb = await make_sandbox(rate_limit=(2, 60.0))
    keys = samples["lawsuit_cnj"][:4]
    await bulk(sb, [cnj(key) for key in keys])  # D74: four items, one call
    answer = await sb.client.get("/tracking/tracking")
    assert answer.status_code == 200
    assert answer.headers["x-ratelimit-remaining"] == "0"
    assert (
        await sb.client.post("/tracking/tracking/bulk", json={"trackings": [cnj(keys[0])]})
    ).status_code == 429


async def test_patch_honours_paused_and_refuses_unknown_keys(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    created = await sb.client.post("/tracking/tracking", json=cnj(samples["moving_lawsuit"]))
    record = created.json()
    tid = record["tracking_id"]
    url = f"/tracking/tracking/{tid}"
    paused = await sb.client.patch(url, json={"paused": True})  # the Postman body
    assert paused.status_code == 200
    assert paused.json()["status"] == "paused"
    resumed = await sb.client.patch(url, json={"paused": False})
    assert resumed.json()["status"] == "created"
    # D65: an unknown key is 400 naming it, never accepted and ignored
    unknown = await sb.client.patch(url, json={"recurrence": 3, "colour": "blue"})
    assert unknown.status_code == 400
    assert "colour" in problem_text(unknown)
    assert (await sb.client.get(url)).json()["recurrence"] == 1  # nothing was changed
    bad_paused = await sb.client.patch(url, json={"paused": "yes"})
    assert bad_paused.status_code == 400
    # the search may be repeated as it is, never changed
    same = await sb.client.patch(
        url, json={"search": record["search"] | {"search_key": samples["moving_lawsuit"]}}
    )
    assert same.status_code == 200
    other = await sb.client.patch(url, json=cnj(samples["lawsuit_cnj"][2]))
    assert other.status_code == 400
    assert "search" in problem_text(other)
    both = await sb.client.patch(url, json={"recurrence": 30, "paused": True, "tags": {"a": 1}})
    assert both.json()["recurrence"] == 30 and both.json()["status"] == "paused"
    assert both.json()["tags"] == {"a": 1}
    assert (await sb.client.patch(url, json={"recurrence": 91})).status_code == 400  # D66


async def test_notification_filters_need_step_terms(sb: Sandbox, samples: dict[str, Any]) -> None:
    answer = await sb.client.post(
        "/tracking/tracking", json=cnj(samples["moving_lawsuit"], notification_filters={})
    )
    assert answer.status_code == 400
    assert "step_terms" in problem_text(answer)


async def test_tracked_items_of_a_lawsuit_and_of_a_document(
    sb: Sandbox, samples: dict[str, Any], world: Any
) -> None:
    two = samples["two_instance_lawsuit"]
    person = samples["busy_person"]
    result = await bulk(sb, [cnj(two), cpf(person)])
    await sb.advance(0)  # the items are made in the background
    by_key = {t.search.search_key: t.tracking_id for t in result.trackings if t.search}
    page = TrackedItemsPage.model_validate(
        (
            await sb.client.get(
                "/tracking/tracked-item", params={"tracking_id": by_key[two], "page_size": 100}
            )
        ).json()
    )
    assert sorted(item.lawsuit_instance or 0 for item in page.page_data) == [1, 2]
    assert {item.lawsuit_cnj for item in page.page_data} == {two}
    assert all(item.tracking_type == "lawsuit_cnj" for item in page.page_data)
    person_items = (
        await sb.client.get(
            "/tracking/tracked-item", params={"tracking_id": by_key[person], "page_size": 1000}
        )
    ).json()
    found = {(code, inst) for code, inst in world.find("cpf", person)}
    listed = {(i["lawsuit_cnj"], i["lawsuit_instance"]) for i in person_items["page_data"]}
    assert listed and listed <= found
    assert {i["tracked_side"] for i in person_items["page_data"]} <= {"Active", "Passive"}
    record = (await sb.client.get(f"/tracking/tracking/{by_key[person]}")).json()
    assert record["tracked_items_count"] == person_items["all_count"]
    assert record["tracked_items_steps_count"] == sum(
        i["steps_count"] for i in person_items["page_data"]
    )
    count = await sb.client.get("/tracking/tracked-item-count")
    assert count.json() == {"count": 2 + person_items["all_count"]}
    one = person_items["page_data"][0]
    got = await sb.client.get(f"/tracking/tracked-item/{one['tracked_item_id']}")
    assert got.json() == one
    missing = await sb.client.get("/tracking/tracked-item/nope")
    assert missing.status_code == 404
    # a deleted tracking follows nothing
    await sb.client.delete(f"/tracking/tracking/{by_key[two]}")
    count = await sb.client.get("/tracking/tracked-item-count")
    assert count.json() == {"count": person_items["all_count"]}


async def test_tracked_items_are_another_keys_secret(
    make_sandbox: SandboxFactory, samples: dict[str, Any]
) -> None:
    sb = await make_sandbox(api_keys=("sandbox", "other"))
    await bulk(sb, [cnj(samples["moving_lawsuit"])])
    await sb.advance(0)
    mine = (await sb.client.get("/tracking/tracked-item")).json()
    assert mine["all_count"] == 1
    theirs = await sb.client.get("/tracking/tracked-item", headers={"api-key": "other"})
    assert theirs.json()["all_count"] == 0
    item_id = mine["page_data"][0]["tracked_item_id"]
    other = await sb.client.get(f"/tracking/tracked-item/{item_id}", headers={"api-key": "other"})
    assert other.status_code == 404


async def test_the_list_filters_by_several_keys_and_by_date(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    keys = samples["lawsuit_cnj"][:3]
    await bulk(sb, [cnj(keys[0])])
    await sb.advance(3600)
    await bulk(sb, [cnj(key) for key in keys[1:]])
    repeated = await sb.client.get(
        "/tracking/tracking", params=[("search_key", keys[0]), ("search_key", keys[2])]
    )
    assert {t["search"]["search_key"] for t in repeated.json()["page_data"]} == {
        keys[0],
        keys[2],
    }
    as_json = await sb.client.get("/tracking/tracking", params={"search_key": f'["{keys[1]}"]'})
    assert as_json.json()["all_count"] == 1
    later = await sb.client.get(
        "/tracking/tracking", params={"created_at_gte": "2026-11-20T12:30:00.000Z"}
    )
    assert {t["search"]["search_key"] for t in later.json()["page_data"]} == set(keys[1:])

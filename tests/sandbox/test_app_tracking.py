"""Trackings (D27-D30): registration, transitions, runs on the clock, step_terms, webhooks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lawsuit_tui.domain.trackings import TrackingRecord
from tests.support.error_bodies import error_fields

if TYPE_CHECKING:
    from tests.sandbox.conftest import Receiver, Sandbox, SandboxFactory

DAY = 86400.0


def body(key: str, **extra: Any) -> dict[str, Any]:
    return {"search": {"search_type": "lawsuit_cnj", "search_key": key}, **extra}


async def test_register_get_list_conflict(sb: Sandbox, samples: dict[str, Any]) -> None:
    answer = await sb.client.post("/tracking/tracking", json=body(samples["moving_lawsuit"]))
    assert answer.status_code == 201, answer.text  # D66, D82
    record = TrackingRecord.model_validate(answer.json())
    assert record.status == "created"
    assert record.recurrence == 1
    assert record.plan_config_type == "complete_lawsuit_tracking"
    again = await sb.client.post("/tracking/tracking", json=body(samples["moving_lawsuit"]))
    assert again.status_code == 409
    assert again.json()["error"]["message"] == "CONFLICT"
    got = await sb.client.get(f"/tracking/tracking/{record.tracking_id}")
    assert got.json()["tracking_id"] == record.tracking_id
    listing = (await sb.client.get("/tracking/tracking")).json()
    assert listing["all_count"] == 1
    unknown = await sb.client.get("/tracking/tracking/nope")
    assert unknown.status_code == 404
    assert unknown.json()["error"]["name"] == "TRACKING_NOT_FOUND"


async def test_validation_of_tracking_body(sb: Sandbox, samples: dict[str, Any]) -> None:
    answer = await sb.client.post(
        "/tracking/tracking",
        json=body(
            samples["moving_lawsuit"],
            recurrence=91,  # D66: 1..90
            hour_range=24,
            execution_minute=60,
            notification_emails=["not-an-email"],
        ),
    )
    assert answer.status_code == 400
    fields = set(error_fields(answer.json()))
    assert {"recurrence", "hour_range", "execution_minute", "notification_emails.0"} <= fields


async def test_pause_resume_patch_delete(sb: Sandbox, samples: dict[str, Any]) -> None:
    created = (
        await sb.client.post("/tracking/tracking", json=body(samples["moving_lawsuit"]))
    ).json()
    tid = created["tracking_id"]
    paused = (await sb.client.post(f"/tracking/tracking/{tid}/pause")).json()
    assert paused["status"] == "paused" and paused["paused_at"]
    again = (await sb.client.post(f"/tracking/tracking/{tid}/pause")).json()
    assert again == paused
    await sb.advance(3 * DAY)  # a paused tracking does not run
    assert (await sb.client.get("/requests/requests", params={"origin_id": tid})).json()[
        "all_count"
    ] == 0
    resumed = (await sb.client.post(f"/tracking/tracking/{tid}/resume")).json()
    assert resumed["status"] == "created"  # never ran (D29)
    patched = await sb.client.patch(
        f"/tracking/tracking/{tid}",
        json={"recurrence": 7, "notification_filters": {"step_terms": ["sentença"]}},
    )
    assert patched.status_code == 200
    assert patched.json()["recurrence"] == 7
    assert patched.json()["notification_filters"] == {"step_terms": ["sentença"]}
    deleted = (await sb.client.delete(f"/tracking/tracking/{tid}")).json()
    assert deleted["status"] == "deleted" and deleted["deleted_at"]
    assert (await sb.client.get(f"/tracking/tracking/{tid}")).status_code == 200
    assert (await sb.client.get("/tracking/tracking")).json()["all_count"] == 0
    only_deleted = await sb.client.get("/tracking/tracking", params={"status": "deleted"})
    assert only_deleted.json()["all_count"] == 1
    for action in ("pause", "resume"):
        assert (await sb.client.post(f"/tracking/tracking/{tid}/{action}")).status_code == 404
    assert (await sb.client.patch(f"/tracking/tracking/{tid}", json={})).status_code == 404
    # a new tracking of the same lawsuit is allowed once the old one is deleted
    again_created = await sb.client.post("/tracking/tracking", json=body(samples["moving_lawsuit"]))
    assert again_created.status_code == 201


async def test_runs_find_movements_and_notify(
    make_sandbox: SandboxFactory, samples: dict[str, Any], receiver: Receiver, world: Any
) -> None:
    sb = await make_sandbox(webhook_transport=receiver.transport)
    code = samples["moving_lawsuit"]
    created = (
        await sb.client.post(
            "/tracking/tracking", json=body(code, callback_url="http://hooks.test/t")
        )
    ).json()
    tid = created["tracking_id"]
    start = sb.clock.now()
    # make sure the world has movements in the first days
    from datetime import timedelta

    moved = world.steps_between(code, 1, start, start + timedelta(days=3))
    assert moved, "the moving sample should move within three days"
    await sb.advance(3 * DAY + 5)
    runs = (await sb.client.get("/requests/requests", params={"origin_id": tid})).json()
    assert runs["all_count"] >= 1
    assert {r["origin"] for r in runs["page_data"]} == {"tracking"}
    tracking = (await sb.client.get(f"/tracking/tracking/{tid}")).json()
    assert tracking["status"] == "updated"
    assert tracking["request_id"] == runs["page_data"][0]["request_id"]
    responses = (
        await sb.client.get("/requests/responses", params={"origin_id": tid, "page_size": 100})
    ).json()
    assert responses["all_count"] >= 1
    assert {r["origin"] for r in responses["page_data"]} == {"tracking"}
    events = receiver.events()
    assert "tracking_response" in events and "request_completed" in events
    tracking_event = next(d for d in receiver.deliveries if d["event_type"] == "tracking_response")
    assert tracking_event["reference_type"] == "tracking"
    assert tracking_event["reference_id"] == tid
    assert set(receiver.urls) == {"http://hooks.test/t"}


async def test_step_terms_that_match_nothing_give_no_response(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    created = (
        await sb.client.post(
            "/tracking/tracking",
            json=body(
                samples["moving_lawsuit"],
                notification_filters={"step_terms": ["zzzz-never-in-a-step"]},
            ),
        )
    ).json()
    await sb.advance(3 * DAY + 5)
    responses = (
        await sb.client.get("/requests/responses", params={"origin_id": created["tracking_id"]})
    ).json()
    assert responses["all_count"] == 0
    tracking = (await sb.client.get(f"/tracking/tracking/{created['tracking_id']}")).json()
    assert tracking["status"] == "updated"


async def test_fixed_time_runs_at_its_hour(sb: Sandbox, samples: dict[str, Any]) -> None:
    created = (
        await sb.client.post(
            "/tracking/tracking",
            json=body(
                samples["moving_lawsuit"], fixed_time=True, hour_range=15, execution_minute=30
            ),
        )
    ).json()
    assert created["plan_config_type"] == "complete_lawsuit_tracking_fixed_time"
    await sb.advance(3 * 3600 + 29 * 60)  # 15:29: not yet
    runs = await sb.client.get("/requests/requests", params={"origin_id": created["tracking_id"]})
    assert runs.json()["all_count"] == 0
    await sb.advance(120)  # 15:31
    runs = await sb.client.get("/requests/requests", params={"origin_id": created["tracking_id"]})
    assert runs.json()["all_count"] == 1
    assert runs.json()["page_data"][0]["created_at"] == "2026-11-20T15:30:00.000Z"


async def test_clock_route_advances_past_run_times(sb: Sandbox, samples: dict[str, Any]) -> None:
    created = (
        await sb.client.post("/tracking/tracking", json=body(samples["moving_lawsuit"]))
    ).json()
    answer = await sb.client.post("/_sandbox/clock", json={"advance_seconds": DAY + 5})
    assert answer.status_code == 200
    assert answer.json()["now"] == "2026-11-21T12:00:05.000Z"
    runs = await sb.client.get("/requests/requests", params={"origin_id": created["tracking_id"]})
    assert runs.json()["all_count"] == 1
    assert runs.json()["page_data"][0]["status"] == "completed"


async def test_document_tracking_reports_only_new_lawsuits(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    cpf = samples["cpf"][0]
    answer = await sb.client.post(
        "/tracking/tracking",
        json={"search": {"search_type": "cpf", "search_key": cpf}, "recurrence": 2},
    )
    created = answer.json()
    assert created["plan_config_type"] == "document_tracking"
    assert created["search"]["response_type"] == "lawsuits"
    assert created["tracked_items_count"] >= 1
    await sb.advance(2 * DAY + 5)
    tid = created["tracking_id"]
    runs = (await sb.client.get("/requests/requests", params={"origin_id": tid})).json()
    assert runs["all_count"] == 1 and runs["page_data"][0]["status"] == "completed"
    # the lawsuits known at registration are not news
    responses = (await sb.client.get("/requests/responses", params={"origin_id": tid})).json()
    assert responses["all_count"] == 0
    assert (await sb.client.get(f"/tracking/tracking/{tid}")).json()["status"] == "updated"


async def test_a_search_type_trackings_do_not_keep_is_422(sb: Sandbox) -> None:
    # D68, D94: tracking.json's enum lists rji and custom; trackings keep D11's search types.
    # Before: the sandbox failed with a 500 on them.
    for search_type, key in (("custom", "x"), ("rji", "1" * 20)):
        payload = {"search": {"search_type": search_type, "search_key": key}}
        answer = await sb.client.post("/tracking/tracking", json=payload)
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"]["data"] == (
            f"search.search_type: a {search_type} search cannot be tracked"
        )

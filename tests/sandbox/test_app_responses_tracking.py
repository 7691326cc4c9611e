"""``GET /responses/tracking/{origin_id}`` (D77): a tracking's latest response per lawsuit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.sandbox.conftest import Sandbox, SandboxFactory

DAY = 86400.0
WINDOW = {"created_at_gte": "2026-01-01T00:00:00", "created_at_lte": "2027-12-31"}


async def _tracked(sb: Sandbox, code: str) -> str:
    answer = await sb.client.post(
        "/tracking/tracking", json={"search": {"search_type": "lawsuit_cnj", "search_key": code}}
    )
    assert answer.status_code in (200, 201), answer.text
    tracking_id: str = answer.json()["tracking_id"]
    return tracking_id


async def _moved_daily(sb: Sandbox, code: str, days: int) -> str:
    """A tracking of ``code`` that has run ``days`` times (one run a day)."""
    tracking_id = await _tracked(sb, code)
    for _day in range(days):
        await sb.advance(DAY + 5)
    return tracking_id


async def test_latest_response_per_lawsuit_in_the_window(
    sb: Sandbox, samples: dict[str, Any]
) -> None:
    tracking_id = await _moved_daily(sb, samples["moving_lawsuit"], 4)
    every = (
        await sb.client.get(
            "/requests/responses", params={"origin_id": tracking_id, "page_size": 100}
        )
    ).json()
    assert every["all_count"] >= 2, "the moving sample should move on most days"
    answer = await sb.client.get(f"/requests/responses/tracking/{tracking_id}", params=WINDOW)
    assert answer.status_code == 200, answer.text
    page = answer.json()
    # one lawsuit (one instance): only its latest response, the one the last run made
    assert page["all_count"] == 1
    assert page["page_data"][0]["response_id"] == every["page_data"][-1]["response_id"]
    assert page["page_data"][0]["origin"] == "tracking"
    assert page["page_data"][0]["origin_id"] == tracking_id
    assert page["request_status"] == "completed"
    assert answer.headers["X-RateLimit-Limit"]  # D74: a limited route


async def test_the_window_cuts_and_orders(sb: Sandbox, samples: dict[str, Any]) -> None:
    tracking_id = await _moved_daily(sb, samples["moving_lawsuit"], 4)
    every = (
        await sb.client.get(
            "/requests/responses", params={"origin_id": tracking_id, "page_size": 100}
        )
    ).json()["page_data"]
    first = every[0]["created_at"]
    narrow = {"created_at_gte": first, "created_at_lte": first}
    page = (
        await sb.client.get(f"/requests/responses/tracking/{tracking_id}", params=narrow)
    ).json()
    assert [r["response_id"] for r in page["page_data"]] == [every[0]["response_id"]]
    for order in ("desc", '{"created_at":"desc"}'):
        answer = await sb.client.get(
            f"/requests/responses/tracking/{tracking_id}", params={**WINDOW, "order": order}
        )
        assert answer.status_code == 200, answer.text
    bad = await sb.client.get(
        f"/requests/responses/tracking/{tracking_id}", params={**WINDOW, "order": "sideways"}
    )
    assert bad.status_code == 400


async def test_the_window_is_required(sb: Sandbox, samples: dict[str, Any]) -> None:
    tracking_id = await _tracked(sb, samples["moving_lawsuit"])
    url = f"/requests/responses/tracking/{tracking_id}"
    for params in (
        {},
        {"created_at_gte": WINDOW["created_at_gte"]},
        {"created_at_lte": WINDOW["created_at_lte"]},
        {**WINDOW, "created_at_gte": "yesterday"},
    ):
        answer = await sb.client.get(url, params=params)
        assert answer.status_code == 400, params
        assert "created_at" in answer.text
    for size in ("0", "1001"):
        answer = await sb.client.get(url, params={**WINDOW, "page_size": size})
        assert answer.status_code == 400


async def test_another_keys_or_an_unknown_origin_is_an_empty_page(
    make_sandbox: SandboxFactory, samples: dict[str, Any]
) -> None:
    sb = await make_sandbox(api_keys=("sandbox", "other"))
    tracking_id = await _moved_daily(sb, samples["moving_lawsuit"], 2)
    other = {"api-key": "other"}
    for origin in (tracking_id, "00000000-0000-0000-0000-000000000000"):
        answer = await sb.client.get(
            f"/requests/responses/tracking/{origin}", params=WINDOW, headers=other
        )
        assert answer.status_code == 200
        assert answer.json()["all_count"] == 0
        assert answer.json()["request_status"] is None

"""The client's bulk creation and tracked items against the sandbox (D73, D156, D157)."""

from __future__ import annotations

import httpx
import pytest
import respx

from lawsuit_tui.api.errors import OperationNotAvailable, TransportFailure
from lawsuit_tui.api.filters import TrackingFilters
from lawsuit_tui.domain.bodies import SearchBody, TrackingBulkBody, TrackingCreateBody
from tests.support.client_rig import ROOT, SandboxRig, make_client
from tests.support.clock import VirtualClock


def cnj(key: str) -> TrackingCreateBody:
    return TrackingCreateBody(search=SearchBody(search_type="lawsuit_cnj", search_key=key))


async def test_bulk_then_tracked_items(sandbox: SandboxRig) -> None:
    samples = await sandbox.samples()
    keys = list(samples["lawsuit_cnj"])[:3]  # type: ignore[call-overload]
    api = sandbox.api
    result = await api.create_trackings_bulk(
        TrackingBulkBody(trackings=[cnj(keys[0]), cnj(keys[1]), cnj(keys[0])])
    )
    assert [t.search.search_key for t in result.trackings if t.search] == keys[:2]
    assert result.trackings[0].fixed_time is False  # D66: always sent
    assert [(e.index, e.already_exists) for e in result.errors] == [(2, True)]
    await sandbox.advance(0)
    first = result.trackings[0].tracking_id
    items = [item async for item in api.iter_tracked_items(tracking_id=first)]
    assert items and {item.tracking_id for item in items} == {first}
    assert await api.count_tracked_items(tracking_id=first) == len(items)
    assert await api.count_tracked_items() >= 2
    one = await api.get_tracked_item(items[0].tracked_item_id)
    assert one.lawsuit_cnj == keys[0]
    listed = await api.list_trackings(filters=TrackingFilters(search_key=keys[1].replace("-", "")))
    assert [t.search.search_key for t in listed.page_data if t.search] == [keys[1]]


def test_a_bulk_body_holds_1_to_1000() -> None:
    with pytest.raises(ValueError, match="1 to 1000"):
        TrackingBulkBody(trackings=[])
    with pytest.raises(ValueError, match="1 to 1000"):
        TrackingBulkBody(trackings=[cnj("0084542-06.2024.4.04.4803")] * 1001)


@respx.mock
async def test_a_bulk_call_is_never_retried_once_it_may_have_arrived() -> None:
    clock = VirtualClock()
    api = make_client(clock)
    route = respx.post(f"{ROOT}/tracking/tracking/bulk").mock(side_effect=httpx.ReadTimeout("slow"))
    with pytest.raises(TransportFailure):
        await api.create_trackings_bulk(
            TrackingBulkBody(trackings=[cnj("0084542-06.2024.4.04.4803")])
        )
    assert route.call_count == 1
    await api.aclose()


@respx.mock
async def test_a_service_without_tracked_items_says_so() -> None:
    clock = VirtualClock()
    api = make_client(clock)
    respx.get(f"{ROOT}/tracking/tracked-item").mock(return_value=httpx.Response(405))
    with pytest.raises(OperationNotAvailable):
        await api.list_tracked_items()
    await api.aclose()

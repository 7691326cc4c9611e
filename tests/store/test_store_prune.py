"""prune --older-than: forgets what was stored long ago, keeps the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from lawsuit_tui.store import Store
from tests.support.clock import FakeClock
from tests.support.store_data import make_lawsuit, make_response


def test_prune_removes_only_old_records(cache_dir: Path, clock: FakeClock) -> None:
    with Store.open(cache_dir, clock=clock) as store:
        store.upsert_requests([{"request_id": "old"}])
        store.upsert_responses(
            [make_response("r-old", "old", lawsuit=make_lawsuit("1111111-11.2020.8.26.0001"))]
        )
        store.record_delivery({"callback_id": "cb-old"})
        store.upsert_trackings([{"tracking_id": "t1"}])
        store.set_meta("cursor", 5)
        clock.advance(days=40)
        store.upsert_requests([{"request_id": "new"}])
        store.upsert_responses(
            [make_response("r-new", "new", lawsuit=make_lawsuit("2222222-22.2020.8.26.0001"))]
        )

        assert store.prune(30) == 4  # request, response, lawsuit and delivery stored 40 days ago
        assert store.get_request("old") is None and store.get_response("r-old") is None
        assert store.get_lawsuit("1111111-11.2020.8.26.0001") is None
        assert store.record_delivery({"callback_id": "cb-old"}) is True
        assert store.get_request("new") is not None and store.get_response("r-new") is not None
        assert store.get_tracking("t1") is not None and store.get_meta("cursor") == 5
        assert store.responses_of("old") == []
        assert store.prune(30) == 0
        with pytest.raises(ValueError):
            store.prune(-1)
    with Store.open(cache_dir, clock=clock) as store:
        assert store.get_response("r-old") is None and store.count_responses() == 1

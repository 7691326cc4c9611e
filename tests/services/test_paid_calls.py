"""The record of paid calls and what it brings back into the cache (D136)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson
import pytest

from lawsuit_tui.domain.bodies import (
    CountBody,
    CreateRequestBody,
    CredentialItem,
    SearchBody,
    TrackingCreateBody,
)
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.paid_calls import CreatedCall, ids_of, kind_of
from lawsuit_tui.store.paid_calls import RECORD_FILE, PaidCallRecord
from tests.support.service_rig import Rig


def request_body(key: str) -> CreateRequestBody:
    return CreateRequestBody(search=SearchBody(search_type="cpf", search_key=key))


def record_of(ctx: ServiceContext) -> list[dict[str, Any]]:
    return [line.entry for line in ctx.paid_call_log.record.read().lines]


async def open_read_only(rig: Rig) -> ServiceContext:
    return await ServiceContext.open(
        rig.settings, transport=rig.transport, clock=rig.now, sleep=rig.sleep, read_only=True
    )


def test_what_each_creating_route_creates() -> None:
    assert kind_of("create_request") == "request"
    assert kind_of("create_tracking") == "tracking"
    assert kind_of("count") == "count"
    assert kind_of("register_credentials") == "credentials"
    assert kind_of("a_route_added_later") == "a_route_added_later"


@pytest.mark.parametrize(
    ("kind", "answer", "ids"),
    [
        ("request", {"request_id": "a"}, ["a"]),
        ("request", [{"request_id": "a"}, {"request_id": "b"}, {"request_id": "a"}], ["a", "b"]),
        ("tracking", {"page_data": [{"tracking_id": "t1"}, {"tracking_id": "t2"}]}, ["t1", "t2"]),
        ("count", {"request_id": 1001, "total_lawsuits": 3}, ["1001"]),
        ("credentials", {"data": [{"system_name": "x"}]}, []),
        ("request", "not an object", []),
    ],
)
def test_ids_of_an_answer(kind: str, answer: Any, ids: list[str]) -> None:
    assert ids_of(kind, answer) == ids


async def test_a_request_made_without_a_writable_cache_is_recorded_then_recovered(
    rig: Rig,
) -> None:
    samples = await rig.samples()
    told: list[CreatedCall] = []
    reader = await open_read_only(rig)
    try:
        reader.paid_call_log.subscribe(told.append)
        [record] = await reader.requests.create(request_body(samples["cpf"][0]))
        assert reader.cache.unkept.describe() == "1 request"
        assert [c.ids for c in told] == [(record.request_id,)]
        assert told[0].recorded is None  # told before it was recorded
        [line] = record_of(reader)
        assert line["ids"] == [record.request_id] and line["kind"] == "request"
        assert line["sent"]["search"]["search_key"] == samples["cpf"][0]
    finally:
        await reader.aclose()
    ctx = await rig.open()
    assert ctx.store.get_request(record.request_id) is None
    report = await ctx.paid_calls.recover()
    assert report.recovered == [("request", record.request_id)]
    assert report.from_record == []  # read again from the service
    assert ctx.store.get_request(record.request_id) is not None
    again = await ctx.paid_calls.recover()
    assert again.read_lines == 0  # each line is looked at once
    everything = await ctx.paid_calls.recover(from_start=True)
    assert everything.read_lines == 1 and everything.present == 1


async def test_what_the_service_no_longer_knows_comes_back_from_the_record(
    rig: Rig, ctx: ServiceContext
) -> None:
    # A request made on an earlier run of the in-process sandbox: this one never heard of it.
    ctx.paid_call_log.created(
        "create_request",
        {"search": {"search_type": "cpf", "search_key": "x"}},
        orjson.dumps({"request_id": "gone-1", "status": "pending", "created_at": "2026-01-01"}),
    )
    ctx.paid_call_log.created(
        "create_tracking", None, orjson.dumps({"tracking_id": "gone-t", "status": "created"})
    )
    ctx.paid_call_log.created(
        "count",
        {"kind": "judgement-bond", "limit": 3},
        orjson.dumps({"request_id": 77, "total_lawsuits": 12, "status": "completed"}),
    )
    ctx.paid_call_log.created("register_credentials", {"password": "pw"}, b'{"ok": true}')
    report = await ctx.paid_calls.recover()
    assert report.recovered == [("request", "gone-1"), ("tracking", "gone-t"), ("count", "77")]
    assert report.from_record == report.recovered
    assert report.listed == [("credentials", ())]
    assert ctx.store.get_request("gone-1")["status"] == "pending"  # type: ignore[index]
    assert ctx.store.get_tracking("gone-t") is not None
    counted = ctx.count.history()[0]
    assert counted["total_lawsuits"] == 12 and counted["asked"] == {"kind": "judgement-bond"}


async def test_trackings_counts_and_credentials_are_recorded_without_secrets(
    rig: Rig, ctx: ServiceContext
) -> None:
    samples = await rig.samples()
    tracking = await ctx.trackings.create(
        TrackingCreateBody(
            recurrence=1,
            search=SearchBody(search_type="lawsuit_cnj", search_key=samples["moving_lawsuit"]),
        )
    )
    counted = await ctx.count.count(CountBody(kind="sentence-execution"))
    rows = await ctx.vault.status("*")
    name = next(r.name for r in rows if r.name and r.name != "*")
    await ctx.vault.register(
        [CredentialItem(system_name=name, customer_key="k1", username="me", password="pw-98765")]
    )
    kinds = [(line["kind"], line["ids"]) for line in record_of(ctx)]
    assert kinds[:2] == [("tracking", [tracking.tracking_id]), ("count", [str(counted.request_id)])]
    assert kinds[2][0] == "credentials"
    raw = (ctx.store.path / RECORD_FILE).read_bytes()
    assert b"pw-98765" not in raw


def test_the_record_survives_a_line_cut_short(tmp_path: Path) -> None:
    record = PaidCallRecord(tmp_path)
    record.append({"ids": ["a"]})
    with record.path.open("ab") as handle:
        handle.write(b'{"ids": ["cut sh')  # the disk filled up in the middle of a line
    record.append({"ids": ["b"]})
    read = record.read()
    assert [line.ids for line in read.lines] == [["a"], ["b"]]
    assert len(read.problems) == 1 and "unreadable line" in read.problems[0]
    assert record.read(read.lines[0].end).lines[-1].ids == ["b"]
    assert oct(os.stat(record.path).st_mode & 0o777) == "0o600"

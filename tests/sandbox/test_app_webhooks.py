"""Webhooks (D42-D44): targets, envelope and sequence, retries with the same callback_id."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lawsuit_tui.domain.webhooks import WebhookEnvelope

if TYPE_CHECKING:
    from tests.sandbox.conftest import Receiver, SandboxFactory


def cnj(key: str, **extra: Any) -> dict[str, Any]:
    return {"search_type": "lawsuit_cnj", "search_key": key, **extra}


async def test_sequence_cached_fresh_completed(
    make_sandbox: SandboxFactory, receiver: Receiver, samples: dict[str, Any]
) -> None:
    sb = await make_sandbox(webhook_transport=receiver.transport)
    record = await sb.create(cnj(samples["moving_lawsuit"]), callback_url="http://hooks.test/r")
    await sb.advance(3)
    assert receiver.events() == ["response_created", "response_created", "request_completed"]
    envelopes = [WebhookEnvelope.model_validate(d) for d in receiver.deliveries]
    assert [d["payload"]["tags"]["cached_response"] for d in receiver.deliveries[:2]] == [
        True,
        False,
    ]
    assert {e.reference_id for e in envelopes} == {record["request_id"]}
    assert {d["reference_type"] for d in receiver.deliveries} == {"request"}
    assert receiver.deliveries[-1]["payload"]["status"] == "completed"
    assert len({d["callback_id"] for d in receiver.deliveries}) == 3
    assert set(receiver.urls) == {"http://hooks.test/r"}


async def test_on_demand_two_deliveries_to_the_account_url(
    make_sandbox: SandboxFactory, receiver: Receiver, samples: dict[str, Any]
) -> None:
    sb = await make_sandbox(
        webhook_transport=receiver.transport, callback_url="http://account.test/hook"
    )
    await sb.create(cnj(samples["moving_lawsuit"], on_demand=True))
    await sb.advance(3)
    assert receiver.events() == ["response_created", "request_completed"]
    assert set(receiver.urls) == {"http://account.test/hook"}


async def test_no_target_no_delivery(
    make_sandbox: SandboxFactory, receiver: Receiver, samples: dict[str, Any]
) -> None:
    sb = await make_sandbox(webhook_transport=receiver.transport)
    await sb.create(cnj(samples["moving_lawsuit"]))
    await sb.advance(3)
    assert receiver.deliveries == []


async def test_5xx_is_retried_with_backoff_and_same_callback_id(
    make_sandbox: SandboxFactory, receiver: Receiver, samples: dict[str, Any]
) -> None:
    sb = await make_sandbox(webhook_transport=receiver.transport)
    receiver.statuses = [500, 503]
    await sb.create(cnj(samples["moving_lawsuit"], on_demand=True), callback_url="http://h.test/")
    await sb.advance(1.5)
    assert receiver.events() == ["response_created"]  # answered 500
    await sb.advance(0.5)
    assert receiver.events() == ["response_created", "request_completed"]  # answered 503
    await sb.advance(0.49)
    assert len(receiver.deliveries) == 2  # the retry comes 1 s after the failure, not before
    await sb.advance(0.01)
    assert receiver.events()[2] == "response_created"
    await sb.advance(60)
    assert receiver.events() == [
        "response_created",
        "request_completed",
        "response_created",
        "request_completed",
    ]
    first, completion, again, completion_again = receiver.deliveries
    assert first["callback_id"] == again["callback_id"]
    assert completion["callback_id"] == completion_again["callback_id"]
    assert first == again
    stats = (await sb.client.get("/_sandbox/stats")).json()["webhooks"]
    assert stats["retries"] == 2
    assert stats["delivered"] == 2


async def test_4xx_is_final(
    make_sandbox: SandboxFactory, receiver: Receiver, samples: dict[str, Any]
) -> None:
    sb = await make_sandbox(webhook_transport=receiver.transport)
    receiver.statuses = [404]
    await sb.create(cnj(samples["moving_lawsuit"], on_demand=True), callback_url="http://h.test/")
    await sb.advance(60)
    assert receiver.events() == ["response_created", "request_completed"]
    stats = (await sb.client.get("/_sandbox/stats")).json()["webhooks"]
    assert stats["rejected"] == 1 and stats["retries"] == 0


async def test_unreachable_receiver_gives_up_after_six_attempts(
    make_sandbox: SandboxFactory, samples: dict[str, Any]
) -> None:
    import httpx

    attempts: list[str] = []

    def refuse(request: httpx.Request) -> httpx.Response:
        attempts.append(request.url.host)
        raise httpx.ConnectError("refused", request=request)

    sb = await make_sandbox(webhook_transport=httpx.MockTransport(refuse))
    await sb.create(cnj(samples["moving_lawsuit"], on_demand=True), callback_url="http://h.test/")
    for _ in range(8):
        await sb.advance(20)
    # two deliveries (response, completion), six attempts each (D44)
    assert len(attempts) == 12
    stats = (await sb.client.get("/_sandbox/stats")).json()["webhooks"]
    assert stats["failed"] == 2


async def test_a_receiver_time_out_is_retried(
    make_sandbox: SandboxFactory, samples: dict[str, Any]
) -> None:
    import httpx

    calls: list[str] = []

    def slow_then_fine(request: httpx.Request) -> httpx.Response:
        calls.append(request.headers["content-type"])
        if len(calls) == 1:  # what httpx raises when the receiver takes longer than 10 s
            raise httpx.ReadTimeout("no answer in time", request=request)
        return httpx.Response(204)

    sb = await make_sandbox(webhook_transport=httpx.MockTransport(slow_then_fine))
    await sb.create(cnj(samples["moving_lawsuit"], on_demand=True), callback_url="http://h.test/")
    await sb.advance(3)  # the failure is seen at t=3: the retry is due 1 s later
    await sb.advance(5)
    assert calls[0] == "application/json"
    assert len(calls) == 3  # the timed-out response, its redelivery, the completion
    stats = (await sb.client.get("/_sandbox/stats")).json()["webhooks"]
    assert stats["retries"] == 1 and stats["delivered"] == 2


async def test_legacy_completion_is_a_response_of_its_own(
    make_sandbox: SandboxFactory, receiver: Receiver, samples: dict[str, Any]
) -> None:
    # D69: the fault sends the Portuguese callbacks page's form instead of request_completed.
    sb = await make_sandbox(webhook_transport=receiver.transport)
    await sb.client.post("/_sandbox/faults", json={"legacy_completion": True})
    record = await sb.create(cnj(samples["moving_lawsuit"]), callback_url="http://hooks.test/r")
    await sb.advance(3)
    assert receiver.events() == ["response_created"] * 3
    last = receiver.deliveries[-1]
    assert last["reference_id"] == record["request_id"]
    assert last["payload"]["response_type"] == "application_info"
    assert last["payload"]["response_data"] == {"code": 600, "message": "REQUEST_COMPLETED"}
    got = (await sb.client.get(f"/requests/requests/{record['request_id']}")).json()
    assert got["status"] == "completed" and got["responses_count"] == 2
    page = await sb.responses(record["request_id"])
    assert page["page_data"][-1]["response_type"] == "application_info"

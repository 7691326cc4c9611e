"""Error bodies of every shape, retries, Retry-After and what a creating call never repeats.

respx serves the bodies the sandbox cannot produce (HTML gateway pages, broken JSON, each of
the three error shapes on demand); a virtual clock makes every wait instant and visible.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest
import respx

from lawsuit_tui.api.client import ApiClient
from lawsuit_tui.api.errors import (
    ApiError,
    BadRequest,
    Conflict,
    CourtUnavailable,
    Forbidden,
    Maintenance,
    MalformedResponse,
    NotFound,
    OperationNotAvailable,
    RateLimited,
    TransportFailure,
    Unauthorized,
    Unprocessable,
    error_from_response,
    parse_rate_reset,
    parse_retry_after,
)
from lawsuit_tui.domain.bodies import CountBody
from tests.support.client_rig import ROOT, make_client
from tests.support.clock import VirtualClock
from tests.support.mocked_service import REQUEST, create_body

# --- error bodies ------------------------------------------------------------------------


def test_transport_shape_with_validation_items() -> None:
    body = (
        b'{"error": {"name": "HttpBadRequestError", "message": "BAD_REQUEST", "data": '
        b'[{"field": "page_size", "rule": "max", "message": "at most 1000"}]}}'
    )
    exc = error_from_response(400, body)
    assert isinstance(exc, BadRequest)
    assert exc.status == 400
    assert exc.name == "HttpBadRequestError"
    assert exc.message == "BAD_REQUEST"
    assert [(i.field, i.rule) for i in exc.items] == [("page_size", "max")]
    assert "page_size: at most 1000" in str(exc)
    # The status's own names say nothing the title does not: a person reads the reason.
    assert str(exc) == (
        "The service refused the request as invalid (HTTP 400): page_size: at most 1000"
    )


def test_a_named_reason_stays_beside_the_items() -> None:
    body = (
        b'{"error": {"name": "TRACKING_ALREADY_EXISTS", "message": "UNPROCESSABLE_ENTITY", '
        b'"data": [{"field": "search.search_key", "message": "already tracked"}]}}'
    )
    detail = error_from_response(422, body).detail
    assert detail == "TRACKING_ALREADY_EXISTS; search.search_key: already tracked"
    # Without anything more specific, the status's names are all there is: kept.
    assert error_from_response(422, b'{"error": {"message": "UNPROCESSABLE_ENTITY"}}').detail == (
        "UNPROCESSABLE_ENTITY"
    )


def test_flat_shape_403_keeps_the_code() -> None:
    body = b'{"error": "FORBIDDEN", "message": "secret lawsuit", "code": "SECRECY_RESTRICTED"}'
    exc = error_from_response(403, body)
    assert isinstance(exc, Forbidden)
    assert exc.code == "SECRECY_RESTRICTED"
    assert "secret lawsuit" in str(exc)


def test_list_shape_of_the_count_service() -> None:
    exc = error_from_response(400, b'{"errors": ["unknown field: x", "kind is required"]}')
    assert isinstance(exc, BadRequest)
    assert exc.messages == ["unknown field: x", "kind is required"]
    assert "kind is required" in str(exc)


def test_html_body_is_quoted_with_its_status() -> None:
    html = b"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"
    exc = error_from_response(502, html)
    assert isinstance(exc, CourtUnavailable)
    assert exc.status == 502
    assert exc.body_excerpt.startswith("<html><head><title>502 Bad Gateway")
    assert "HTTP 502" in str(exc)
    assert "502 Bad Gateway" in str(exc)


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (401, Unauthorized),
        (404, NotFound),
        (409, Conflict),
        (422, Unprocessable),
        (429, RateLimited),
        (503, Maintenance),
        (504, CourtUnavailable),
    ],
)
def test_status_classes(status: int, cls: type[ApiError]) -> None:
    exc = error_from_response(status, b'{"error": {"name": "X", "message": "Y", "data": "z"}}')
    assert type(exc) is cls
    assert exc.status == status


def test_optional_route_without_a_resource_name_is_not_available() -> None:
    assert isinstance(
        error_from_response(404, b'{"detail": "Not Found"}', optional_route=True),
        OperationNotAvailable,
    )
    assert isinstance(error_from_response(405, b"", optional_route=True), OperationNotAvailable)
    named = b'{"error": {"name": "REQUEST_NOT_FOUND", "message": "NOT_FOUND", "data": "r-9"}}'
    assert type(error_from_response(404, named, optional_route=True)) is NotFound


def test_retry_after_seconds_and_http_date() -> None:
    now = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after(
        format_datetime(now + timedelta(seconds=30), usegmt=True), now=now
    ) == (pytest.approx(30.0))
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None


def test_rate_reset_epoch_delta_and_date() -> None:
    now = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    assert parse_rate_reset(str(int(now.timestamp()) + 12), now=now) == pytest.approx(12.0)
    assert parse_rate_reset("7", now=now) == 7.0
    date = format_datetime(now + timedelta(seconds=5), usegmt=True)
    assert parse_rate_reset(date, now=now) == pytest.approx(5.0)
    assert parse_rate_reset(None) is None
    exc = error_from_response(429, b"{}", {"X-RateLimit-Reset": "3"})
    assert isinstance(exc, RateLimited) and exc.retry_after == 3.0


def test_errors_module_does_not_need_httpx() -> None:
    import ast
    from pathlib import Path

    import lawsuit_tui.api.errors as errors

    tree = ast.parse(Path(errors.__file__).read_text())
    imported = {
        alias.name.split(".")[0]
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in (
            node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")]
        )
    }
    assert "httpx" not in imported


# --- retries -------------------------------------------------------------------------------


@respx.mock(base_url=ROOT)
async def test_get_is_retried_on_502_503_504_then_succeeds(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    route = respx_mock.get("/requests/requests/r-1").mock(
        side_effect=[
            httpx.Response(502, text="<html>bad gateway</html>"),
            httpx.Response(503, json={"error": {"message": "SERVICE_UNAVAILABLE"}}),
            httpx.Response(504, json={"error": {"message": "GATEWAY_TIMEOUT"}}),
            httpx.Response(200, json=REQUEST),
        ]
    )
    async with make_client(clock) as api:
        record = await api.get_request("r-1")
    assert record.request_id == "r-1"
    assert route.call_count == 4
    assert api.stats.retries == 3
    assert len(clock.sleeps) == 3
    # Full jitter: never more than the exponential cap of each attempt.
    assert all(0 <= s <= 0.5 * 2**i for i, s in enumerate(clock.sleeps))


@respx.mock(base_url=ROOT)
async def test_get_gives_up_after_max_attempts_with_the_last_error(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    route = respx_mock.get("/requests/requests/r-1").mock(
        return_value=httpx.Response(502, text="<html><body>Bad Gateway</body></html>")
    )
    async with make_client(clock, max_attempts=3) as api:
        with pytest.raises(CourtUnavailable) as info:
            await api.get_request("r-1")
    assert route.call_count == 3
    assert "Bad Gateway" in str(info.value)


@respx.mock(base_url=ROOT)
async def test_total_retry_time_is_bounded(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    respx_mock.get("/requests/requests/r-1").mock(
        return_value=httpx.Response(503, headers={"Retry-After": "20"}, json={})
    )
    async with make_client(clock, max_attempts=50, max_total_seconds=45.0) as api:
        with pytest.raises(Maintenance):
            await api.get_request("r-1")
    assert sum(clock.sleeps) <= 45.0
    assert clock.sleeps == [20.0, 20.0]


@respx.mock(base_url=ROOT)
async def test_create_is_not_retried_after_502(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    route = respx_mock.post("/requests/requests").mock(
        return_value=httpx.Response(502, text="bad gateway")
    )
    async with make_client(clock) as api:
        with pytest.raises(CourtUnavailable):
            await api.create_request(create_body())
    assert route.call_count == 1


@respx.mock(base_url=ROOT)
async def test_create_is_not_retried_after_a_read_timeout(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    route = respx_mock.post("/requests/requests").mock(side_effect=httpx.ReadTimeout("slow"))
    async with make_client(clock) as api:
        with pytest.raises(TransportFailure) as info:
            await api.create_request(create_body())
    assert route.call_count == 1
    assert info.value.timed_out and info.value.sent


@respx.mock(base_url=ROOT)
async def test_create_is_retried_when_certainly_not_processed(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    route = respx_mock.post("/requests/requests").mock(
        side_effect=[
            httpx.ConnectError("refused"),
            httpx.Response(503, json={"error": {"message": "SERVICE_UNAVAILABLE"}}),
            httpx.Response(
                429,
                headers={"Retry-After": "3"},
                json={"error": "TOO_MANY_REQUESTS", "message": "slow down", "code": "X"},
            ),
            httpx.Response(200, json=REQUEST),
        ]
    )
    async with make_client(clock) as api:
        records = await api.create_request(create_body())
    assert [r.request_id for r in records] == ["r-1"]
    assert route.call_count == 4
    assert clock.sleeps[-1] == 3.0  # Retry-After honoured
    assert api.stats.rate_limited == 1


@pytest.mark.parametrize(
    ("path", "call"),
    [
        pytest.param(
            "/miner/requests/count",
            lambda api: api.count(CountBody(kind="judgement-bond", responses_limit=5)),
            id="count",
        ),
        # Paid (its credits are debited at once, D72).
        pytest.param(
            "/miner/requests/create",
            lambda api: api.create_find(CountBody(kind="judgement-bond", responses_limit=5)),
            id="find",
        ),
    ],
)
@respx.mock(base_url=ROOT)
async def test_a_miner_call_is_never_retried_after_a_dropped_connection(
    respx_mock: respx.MockRouter,
    clock: VirtualClock,
    path: str,
    call: Callable[[ApiClient], Awaitable[object]],
) -> None:
    route = respx_mock.post(path).mock(side_effect=httpx.RemoteProtocolError("peer closed"))
    async with make_client(clock) as api:
        with pytest.raises(TransportFailure):
            await call(api)
    assert route.call_count == 1


@respx.mock(base_url=ROOT)
async def test_count_never_sends_the_cap(respx_mock: respx.MockRouter, clock: VirtualClock) -> None:
    route = respx_mock.post("/miner/requests/count").mock(
        return_value=httpx.Response(
            201, json={"request_id": 4, "total_lawsuits": 12, "status": "completed", "filter": {}}
        )
    )
    async with make_client(clock) as api:
        result = await api.count(
            CountBody(kind="judgement-bond", tribunals=[10], responses_limit=5)
        )
    assert result.total_lawsuits == 12
    sent = route.calls.last.request
    assert b"limit" not in sent.content
    assert b"[10]" in sent.content


@respx.mock(base_url=ROOT)
async def test_read_timeout_on_a_get_is_retried(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    route = respx_mock.get("/tracking/tracking/t-1").mock(
        side_effect=[httpx.ReadTimeout("slow"), httpx.Response(200, json={"tracking_id": "t-1"})]
    )
    async with make_client(clock) as api:
        tracking = await api.get_tracking("t-1")
    assert tracking.tracking_id == "t-1"
    assert route.call_count == 2


@respx.mock(base_url=ROOT)
async def test_malformed_json_on_a_get_is_retried_then_reported(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    route = respx_mock.get("/requests/requests/r-1").mock(
        return_value=httpx.Response(200, content=b'{"request_id": "r-1", "sta')
    )
    async with make_client(clock, max_attempts=2) as api:
        with pytest.raises(MalformedResponse) as info:
            await api.get_request("r-1")
    assert route.call_count == 2
    assert info.value.status == 200


@respx.mock(base_url=ROOT)
async def test_4xx_are_never_retried(respx_mock: respx.MockRouter, clock: VirtualClock) -> None:
    route = respx_mock.get("/requests/requests/nope").mock(
        return_value=httpx.Response(
            404,
            json={"error": {"name": "REQUEST_NOT_FOUND", "message": "NOT_FOUND", "data": "nope"}},
        )
    )
    async with make_client(clock) as api:
        with pytest.raises(NotFound) as info:
            await api.get_request("nope")
    assert route.call_count == 1
    assert info.value.name == "REQUEST_NOT_FOUND"


@respx.mock(base_url=ROOT)
async def test_cancel_against_a_service_without_the_route(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    respx_mock.delete("/requests/requests/r-1").mock(
        return_value=httpx.Response(405, json={"detail": "Method Not Allowed"})
    )
    respx_mock.delete("/tracking/tracking/t-1").mock(
        return_value=httpx.Response(404, text="Cannot DELETE /tracking/t-1")
    )
    async with make_client(clock) as api:
        with pytest.raises(OperationNotAvailable):
            await api.cancel_request("r-1")
        with pytest.raises(OperationNotAvailable):
            await api.delete_tracking("t-1")


# --- headers ---------------------------------------------------------------------------


@respx.mock(base_url=ROOT)
async def test_headers_api_key_user_agent_and_bearer(
    respx_mock: respx.MockRouter, clock: VirtualClock
) -> None:
    keyed = respx_mock.post("/lawsuits/lawsuits").mock(
        return_value=httpx.Response(200, json={"has_lawsuits": False, "request_id": "q"})
    )
    bearer = respx_mock.post("/requests/lawsuits").mock(
        return_value=httpx.Response(200, json={"has_lawsuits": False, "request_id": "q"})
    )
    async with make_client(clock, bearer_token="jwt-token") as api:
        await api.lookup("cpf", "52998224725")
        await api.lookup_bearer("cpf", "52998224725")
    sent = keyed.calls.last.request
    assert sent.headers["api-key"] == "test-key-123"
    assert sent.headers["user-agent"].startswith("lawsuit-tui/")
    assert sent.headers["content-type"] == "application/json"
    assert b'"search_type":"cpf"' in sent.content
    other = bearer.calls.last.request
    assert other.headers["authorization"] == "Bearer jwt-token"
    assert "api-key" not in other.headers


async def test_bearer_lookup_without_a_token_says_so_before_any_call(clock: VirtualClock) -> None:
    async with make_client(clock) as api:
        with pytest.raises(Unauthorized, match="bearer"):
            await api.lookup_bearer("cpf", "52998224725")
    assert api.stats.calls == 0


async def test_the_key_never_shows_in_the_config_repr(clock: VirtualClock) -> None:
    async with make_client(clock, bearer_token="jwt-secret") as api:
        assert "test-key-123" not in repr(api.config)
        assert "jwt-secret" not in repr(api.config)

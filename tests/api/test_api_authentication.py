"""D86: every route of the client authenticates with the ``api-key`` header only; the bearer
lookup (sandbox-only, D40) is the one exception."""

from __future__ import annotations

import httpx

from lawsuit_tui.api.routes import ROUTES
from tests.support.client_rig import make_client
from tests.support.clock import VirtualClock


async def test_every_call_sends_the_api_key_and_nothing_else() -> None:
    seen: list[httpx.Headers] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers)
        return httpx.Response(200, json={"request_id": "r", "response_id": "s"})

    async with make_client(VirtualClock(), httpx.MockTransport(handler)) as api:
        await api.get_request("r")
        await api.get_response("s")
        await api.list_responses(1, 5)
        await api.cancel_request("r")
    assert len(seen) == 4
    for headers in seen:
        assert headers["api-key"] == "test-key-123"
        assert "authorization" not in headers
    assert [name for name, route in ROUTES.items() if route.bearer] == ["lookup_bearer"]


async def test_a_201_is_a_success_on_any_route() -> None:
    # D82: creations answer 201; the client takes 200 or 201 wherever it comes.
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(201, json={"request_id": "r", "status": "pending"})

    async with make_client(VirtualClock(), httpx.MockTransport(handler)) as api:
        assert (await api.get_request("r")).status == "pending"

"""What the client tests exchange with a mocked service (respx, or an httpx.MockTransport's
handler): a creation's body, the request record the service answers it with, and a page of a
list."""

from __future__ import annotations

from typing import Any

import httpx

from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody

REQUEST = {"request_id": "r-1", "status": "pending", "search": {"search_type": "cpf"}}
"""A request record as the service answers a creation or a read of request r-1."""


def create_body() -> CreateRequestBody:
    """A paid, not repeatable call: a request for a CPF."""
    return CreateRequestBody(search=SearchBody(search_type="cpf", search_key="52998224725"))


def page_answer(
    page: int, data: list[Any], *, all_pages: int, all_count: int, **fields: Any
) -> httpx.Response:
    """A 200 with page ``page`` of a list, ``data`` its items, in the service's paging
    envelope (``fields``: what the list adds, as the request's ``request_status``)."""
    return httpx.Response(
        200,
        json={
            **fields,
            "page": page,
            "page_count": len(data),
            "all_pages_count": all_pages,
            "all_count": all_count,
            "page_data": data,
        },
    )

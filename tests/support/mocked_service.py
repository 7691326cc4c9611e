"""What the client tests exchange with a mocked service (respx): a creation's body and the
request record the service answers it with."""

from __future__ import annotations

from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody

REQUEST = {"request_id": "r-1", "status": "pending", "search": {"search_type": "cpf"}}
"""A request record as the service answers a creation or a read of request r-1."""


def create_body() -> CreateRequestBody:
    """A paid, not repeatable call: a request for a CPF."""
    return CreateRequestBody(search=SearchBody(search_type="cpf", search_key="52998224725"))

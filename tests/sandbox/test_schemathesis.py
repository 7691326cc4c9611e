"""A bounded property run over /openapi.json: no 5xx, and every answer as documented.

Schemathesis generates requests (valid and invalid) for every documented operation and checks
the status codes, content types and bodies of the answers against the document.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from lawsuit_tui.sandbox.app import create_app
from lawsuit_tui.sandbox.clock import SandboxClock
from lawsuit_tui.sandbox.world import World

APP = create_app(
    seed=7,
    api_keys=("sandbox",),
    rate_limit=(1_000_000, 60.0),
    clock=SandboxClock.frozen(),
    world=World.shared(7),
)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.mark.slow
@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_every_operation_answers_as_documented(case: Any) -> None:
    # The api-key is sent on every case (the bearer route ignores it); without it nearly
    # every answer would be a 401 and the deeper rules would go untested.
    headers = dict(case.headers or {})
    headers.setdefault("api-key", "sandbox")
    case.call_and_validate(headers=headers, checks=CHECKS)

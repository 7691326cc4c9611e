"""``POST {miner_url}/requests/count``: count lawsuits for prospecting, free and synchronous.

The body is the Miner's strict filter (miner.yaml ``RequestLawsuitsFiltersBody``): every
problem (unknown keys, wrong types, the cross-field rules, tribunal ids the Miner does not
have) comes back at once as ``{errors: [...]}`` (D64, D72), a 400, or a 422 when the schema
allows them all (D94). Integers JSON Schema reads in ``5.0`` are taken. The rules are those of
:meth:`lawsuit_tui.domain.bodies.CountBody.problems`; ``responses_limit`` is part of the
filter and means nothing to a count (concepts page), so it is accepted and ignored.

A valid body records a count request (``request_id`` an integer sequence from 1001, status
``completed``) and answers **201** with the number of matching lawsuits of the world, leaving
out the ones this API key already retrieved (D72, D82). Not rate-limited (D74).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel

from lawsuit_tui.domain.bodies import CountBody
from lawsuit_tui.sandbox.auth import require_key
from lawsuit_tui.sandbox.dependencies import State
from lawsuit_tui.sandbox.errors import CountErrors
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.routes._common import loads_strict
from lawsuit_tui.sandbox.schemas import error_responses
from lawsuit_tui.sandbox.world.miner import unknown_tribunals

__all__ = [
    "COUNT_BODY_SCHEMA",
    "ECHO_FIELDS",
    "FILTER_BODY",
    "UNUSABLE_FILTER",
    "CountErrorList",
    "count_problems",
    "read_filter",
    "router",
]

# The filter echoed in the answer: the Miner filter's fields in its order but responses_limit,
# which filters nothing; absent fields are null (D38). The spec's echo lists every field but
# amount_tier; a tier is what was applied when sent, so it is echoed too.
ECHO_FIELDS = tuple(name for name in CountBody.model_fields if name != "responses_limit")


def count_problems(data: object) -> list[str]:
    """Every problem of a Miner filter (D72), empty when it is valid.

    The rules live once, in the client's model; the service answers in English whatever the
    UI language (``translate=str``). The tribunal ids are checked against the Miner's table.
    """
    return _problems(data)[0]


def _problems(data: object) -> tuple[list[str], bool]:
    """Every problem, in the rules' order, and whether the documented schema refuses the body
    (a 400) rather than allowing what the Miner cannot use (D94's 422: a court id the Miner
    does not have, amount_min above amount_max)."""
    problems = CountBody.problems(data, translate=str)
    reversed_amounts = _amounts_reversed(data)
    refused = any(not (reversed_amounts and p.startswith("amount_min (")) for p in problems)
    tribunals = data.get("tribunals") if isinstance(data, dict) else None
    if isinstance(tribunals, list) and not any(p.startswith("tribunals") for p in problems):
        problems.extend(
            f"tribunals: unknown tribunal id {value}" for value in unknown_tribunals(tribunals)
        )
    return problems, refused


def _amounts_reversed(body: object) -> bool:
    if not isinstance(body, dict):
        return False
    low, high = body.get("amount_min"), body.get("amount_max")
    if isinstance(low, bool) or isinstance(high, bool):
        return False
    return isinstance(low, int | float) and isinstance(high, int | float) and low > high


# The fields the documented schema types as integers, or lists of them.
_INTEGER_FIELDS = ("responses_limit",)
_INTEGER_LIST_FIELDS = ("tribunals", "budget_years")


def _whole(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def whole_numbers(body: Any) -> Any:
    """``body`` with the integers JSON Schema reads in ``5.0`` written ``5`` (the provider
    runs on JavaScript, where they are one number): the schema allows them, the rules of
    :class:`CountBody` take integers."""
    if not isinstance(body, dict):
        return body
    out = dict(body)
    for name in _INTEGER_FIELDS:
        if name in out:
            out[name] = _whole(out[name])
    for name in _INTEGER_LIST_FIELDS:
        if isinstance(out.get(name), list):
            out[name] = [_whole(v) for v in out[name]]
    return out


# -- documented shapes -----------------------------------------------------------------------


class CountFilter(BaseModel):
    kind: Literal["judgement-bond", "sentence-execution"]
    tribunals: list[int] | None
    amount_min: int | float | None
    amount_max: int | float | None
    amount_tier: str | None
    budget_years: list[int] | None
    natures: list[str] | None
    tags: list[str] | None


class CountRequest(BaseModel):
    request_id: int
    total_lawsuits: int
    status: Literal["completed"]
    filter: CountFilter


class CountErrorList(BaseModel):
    """D9: every 400 of the count service."""

    errors: list[str]


# D94: every field but kind may be null, read as absent (as the sandbox reads it).
_INT_ARRAY = {"type": ["array", "null"], "items": {"type": "integer"}}


def _enum_array(*values: str) -> dict[str, Any]:
    return {"type": ["array", "null"], "items": {"type": "string", "enum": list(values)}}


def _present(name: str) -> dict[str, Any]:
    """The schema of a body holding ``name`` with a value (not null)."""
    return {"required": [name], "properties": {name: {"not": {"type": "null"}}}}


COUNT_BODY_SCHEMA: dict[str, Any] = {
    "title": "CountBody",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "kind": {"type": "string", "enum": ["judgement-bond", "sentence-execution"]},
        "tribunals": {**_INT_ARRAY, "description": "Miner court ids (GET /tribunals; D72)"},
        "amount_min": {
            "type": ["number", "null"],
            "description": "not with amount_tier; <= amount_max",
        },
        "amount_max": {"type": ["number", "null"], "description": "not with amount_tier"},
        "amount_tier": {
            "type": ["string", "null"],
            "enum": ["0-100k", "100k-250k", "250k-500k", "500k-750k", "750k-1.5M", "1.5M+"],
        },
        "budget_years": {**_INT_ARRAY, "description": "judgement-bond only"},
        "natures": {**_enum_array("alimentary", "common"), "description": "judgement-bond only"},
        "tags": {
            **_enum_array(
                "precatory_dispatched", "possible_precatory", "possible_approved_calculation"
            ),
            "description": "sentence-execution only",
        },
        "responses_limit": {
            # null taken as absent, as every other field of the filter (CountBody.problems)
            "type": ["integer", "null"],
            "minimum": 1,
            "description": "find requests only; no effect on a count",
        },
    },
    "required": ["kind"],
    # D94: the rules between fields, documented so that a body the schema allows is one the
    # sandbox takes (amount_min <= amount_max, which a schema cannot say, is a 422).
    "allOf": [
        {"not": {"allOf": [_present("amount_tier"), _present("amount_min")]}},
        {"not": {"allOf": [_present("amount_tier"), _present("amount_max")]}},
        {
            "if": {"properties": {"kind": {"const": "judgement-bond"}}, "required": ["kind"]},
            "then": {"not": _present("tags")},
        },
        {
            "if": {"properties": {"kind": {"const": "sentence-execution"}}, "required": ["kind"]},
            "then": {"allOf": [{"not": _present("budget_years")}, {"not": _present("natures")}]},
        },
    ],
}

# What the count and the find document alike: the filter as their body, read by read_filter
# (not a parameter, so that every problem comes back at once), and its 422 (D94).
FILTER_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": COUNT_BODY_SCHEMA}},
    }
}
UNUSABLE_FILTER: dict[str, Any] = {
    "model": CountErrorList,
    "description": "a court id the Miner lacks, amount_min above amount_max (D94)",
}

router = APIRouter(prefix="/miner", tags=["count"])


async def read_filter(request: Request) -> tuple[dict[str, Any], dict[str, Any]]:
    """The body of a count or find and the filter it applies (``ECHO_FIELDS``, absent ones
    null); ``{errors: [...]}`` naming every problem otherwise: 400, or 422 when each is one
    the schema cannot say (an unknown court id, amount_min above amount_max; D94)."""
    body = whole_numbers(await read_body(request))
    problems, refused = _problems(body)
    if problems:
        # D94: a 400 when the schema refuses the body, a 422 when it allows what cannot be used
        raise CountErrors(problems, status=400 if refused else 422)
    return body, {name: body.get(name) for name in ECHO_FIELDS}


async def read_body(request: Request) -> Any:
    raw = await request.body()
    if not raw.strip():
        raise CountErrors(["a JSON body is required"])
    try:
        return loads_strict(raw)
    except ValueError as exc:
        raise CountErrors([str(exc)]) from None


@router.post(
    "/requests/count",
    summary="Count lawsuits matching a filter",
    description=(
        "Free and synchronous. Counts the lawsuits matching the filter, leaving out those "
        "this API key already retrieved, and records a count request (status completed). "
        "The body is strict; a 400 lists every problem at once."
    ),
    status_code=201,
    response_model=CountRequest,
    responses={
        **error_responses(401, 403, 413, 500, 502, 503, 504, miner=True),
        400: {"model": CountErrorList, "description": "every problem of the body"},
        422: UNUSABLE_FILTER,
    },
    openapi_extra=FILTER_BODY,
)
async def count_lawsuits(
    request: Request, key: Annotated[KeyConfig, Depends(require_key("miner"))], state: State
) -> dict[str, Any]:
    _body, flt = await read_filter(request)
    world = await state.world_ready()
    total = await state.run_world(
        lambda: world.count(flt, exclude=state.retrieved.get(key.key, set()))
    )
    entry = state.counts.record(key.key, flt, total, state.clock.now())
    return {
        "request_id": entry.request_id,
        "total_lawsuits": entry.total_lawsuits,
        "status": entry.status,
        "filter": flt,
    }

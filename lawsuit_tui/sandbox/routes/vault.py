"""``{vault_url}/credentials``: register, list and delete court-system credentials, and
``/credentials/certificate``: register an A1 certificate (D67).

The rules live in :class:`lawsuit_tui.sandbox.vault.Vault`; this module reads the HTTP body,
maps the vault's errors onto the transport shape (D64) and documents the routes. Bodies are
read here rather than by FastAPI so that every failed rule of every item, unknown system names
included, comes back in one 400 (D32, D46). The vault's own codes (``PFX_*``,
``CERTIFICATE_FIELDS_NOT_ALLOWED``, the 409s of D67) are the error's ``name``. Not
rate-limited (D74).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel

from lawsuit_tui.sandbox.auth import require_key
from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.dependencies import State
from lawsuit_tui.sandbox.errors import ServiceError
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.routes._common import loads_strict
from lawsuit_tui.sandbox.schemas import COMMON_ERRORS, error_responses
from lawsuit_tui.sandbox.vault import (
    CredentialNotFoundError,
    ValidationProblem,
    VaultRefusal,
    VaultValidationError,
)

__all__ = ["router"]


# -- documented shapes -----------------------------------------------------------------------


class CredentialChange(BaseModel):
    """One entry of the registration answer (CREDENTIAL_DELETED: removed by empty username
    and password)."""

    system_name: str
    customer_key: str
    message: Literal["CREDENTIAL_CREATED", "CREDENTIAL_UPDATED", "CREDENTIAL_DELETED"]


class CertificateRegistered(BaseModel):
    """The answer of ``POST /credentials/certificate`` (vault.json)."""

    message: Literal["CERTIFICATE_CREATED", "CERTIFICATE_UPDATED"]
    customer_key: str
    subject_cn: str
    not_after: str
    uploaded_at: str


class SystemCredentialStatus(BaseModel):
    name: str
    customer_key: str
    credential_status: Literal["not exists", "active", "inactive"]


class VaultListing(BaseModel):
    systems: list[SystemCredentialStatus]


_STRING = {"type": "string"}
_NULLABLE_STRING = {"type": ["string", "null"]}

_SECRET_KEY = {
    "type": "object",
    "properties": {
        "secret": {
            **_NULLABLE_STRING,
            "writeOnly": True,
            "description": "the two-factor setup key (base32), never the 6-digit code",
        }
    },
    "additionalProperties": False,
}

# A credential item as read by Vault (D32, D67). Written out rather than generated so that the
# document has no references to components it does not define.
_CREDENTIAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "system_name": {
            **_STRING,
            "minLength": 1,
            "description": "exact name from GET /credentials, or * for the wildcard",
        },
        "customer_key": {
            **_NULLABLE_STRING,
            "description": "absent or empty: the default key * (D8)",
            "maxLength": 255,
        },
        "username": {**_NULLABLE_STRING, "maxLength": 4096},
        "password": {**_NULLABLE_STRING, "writeOnly": True, "maxLength": 4096},
        "custom_data": _SECRET_KEY,
    },
    "required": ["system_name"],
}

_CERTIFICATE_SCHEMA: dict[str, Any] = {
    "title": "CertificateRegistration",
    "type": "object",
    "properties": {
        "file_base64": {
            **_STRING,
            "minLength": 1,
            "writeOnly": True,
            "description": "the .pfx/.p12 file as Base64 on a single line, at most 64 KB",
        },
        "password": {
            **_STRING,
            "minLength": 1,
            "writeOnly": True,
            "description": "the file's password",
        },
        "system_name": {**_STRING, "description": "default * (the wildcard)"},
        "customer_key": {**_STRING, "description": "default *"},
        "custom_data": _SECRET_KEY,
    },
    "required": ["file_base64", "password"],
}

_REGISTRATION_SCHEMA: dict[str, Any] = {
    "title": "CredentialsRegistration",
    "type": "object",
    "properties": {
        "credentials": {
            "type": "array",
            "minItems": 1,
            "maxItems": 100,
            "items": {
                "anyOf": [
                    {
                        "title": "WrappedCredential",
                        "type": "object",
                        "properties": {"credential": _CREDENTIAL_SCHEMA},
                        "required": ["credential"],
                    },
                    {"title": "FlatCredential", **_CREDENTIAL_SCHEMA},
                ]
            },
        }
    },
    "required": ["credentials"],
}

_DELETION_SCHEMA: dict[str, Any] = {
    "title": "CredentialDeletion",
    "type": "object",
    "properties": {
        "system_name": {**_STRING, "minLength": 1},
        "customer_key": {**_NULLABLE_STRING, "description": "absent or empty: *"},
    },
    "required": ["system_name"],
}


def _json_body(schema: dict[str, Any], *, required: bool = True) -> dict[str, Any]:
    return {
        "requestBody": {
            "required": required,
            "content": {"application/json": {"schema": schema}},
        }
    }


# Auth, body size, faults and validation can answer on every service route.
_ERRORS = error_responses(*COMMON_ERRORS)

router = APIRouter(prefix="/vault", tags=["vault"])

VaultKey = Annotated[KeyConfig, Depends(require_key("vault"))]


async def _read_json(request: Request) -> Any:
    raw = await request.body()
    if not raw.strip():
        raise ServiceError.invalid("body", "required", "a JSON body is required")
    try:
        return loads_strict(raw)
    except ValueError as exc:
        raise ServiceError.invalid("body", "json_invalid", str(exc)) from None


# D94: a body the documented schema refuses is a 400; one it allows that breaks the vault's
# own rules (a system it does not know, the fields a kind of credential needs, a certificate
# that is no Base64) is unprocessable, 422.
_SCHEMA_REQUIRED = ("system_name", "credentials", "body")
# The certificate route's own required fields (top level only: a login's password is required
# by its kind, which the schema cannot say).
_CERTIFICATE_REQUIRED = ("file_base64", "password")
_SCHEMA_RULES = ("type", "json_invalid", "min_items", "max_items", "max_length")


def _semantic(problem: ValidationProblem) -> bool:
    last = problem.field.rsplit(".", 1)[-1]
    if problem.rule == "required":
        return last not in _SCHEMA_REQUIRED and problem.field not in _CERTIFICATE_REQUIRED
    return problem.rule not in _SCHEMA_RULES


def _bad_request(exc: VaultValidationError) -> ServiceError:
    items = [problem.as_dict() for problem in exc.problems]
    if exc.problems and all(_semantic(problem) for problem in exc.problems):
        return ServiceError(422, items, name="HttpUnprocessableEntityError")
    return ServiceError.bad_request(items)


def _refused(exc: VaultRefusal) -> ServiceError:
    """The vault's own code as the error's ``name`` (D67)."""
    if exc.status == 409 and exc.conflict is not None:
        return ServiceError.conflict(exc.code, exc.conflict)
    item = {"field": exc.code, "rule": exc.code, "message": exc.why}
    return ServiceError(exc.status, [item], name=exc.code)


# -- routes ----------------------------------------------------------------------------------


@router.post(
    "/credentials",
    summary="Register or update credentials",
    description=(
        "Registers each credential (wrapped in `credential` or flat) under its system and "
        "customer_key; a system's sibling systems are registered along with it, one answer "
        "entry each. Secrets are never returned."
    ),
    response_model=list[CredentialChange],
    responses=_ERRORS,
    openapi_extra=_json_body(_REGISTRATION_SCHEMA),
)
async def register_credentials(
    request: Request, key: VaultKey, state: State
) -> list[dict[str, str]]:
    body = await _read_json(request)
    if isinstance(body, dict):
        if "credentials" not in body:
            raise ServiceError.invalid("credentials", "required", "credentials is required")
        items = body["credentials"]
    else:
        # A bare array of items is read as the credentials array.
        items = body
    try:
        entries = state.vault.register(items)
    except VaultValidationError as exc:
        raise _bad_request(exc) from None
    except VaultRefusal as exc:
        raise _refused(exc) from None
    return [entry.as_dict() for entry in entries]


@router.post(
    "/credentials/certificate",
    summary="Register or update an A1 certificate",
    description=(
        "The only route that takes a certificate: a PKCS#12 file (at most 64 KB) as Base64 "
        "on one line and its password, checked as D67 says; the two-factor setup key goes "
        "in custom_data.secret. Answers the holder (subject_cn) and the expiry (not_after)."
    ),
    response_model=CertificateRegistered,
    responses={**_ERRORS, **error_responses(409)},
    openapi_extra=_json_body(_CERTIFICATE_SCHEMA),
)
async def register_certificate(request: Request, key: VaultKey, state: State) -> dict[str, str]:
    body = await _read_json(request)
    try:
        message, info, customer_key = state.vault.register_certificate(body)
    except VaultValidationError as exc:
        raise _bad_request(exc) from None
    except VaultRefusal as exc:
        raise _refused(exc) from None
    return {
        "message": message,
        "customer_key": customer_key,
        "subject_cn": info.subject_cn,
        "not_after": iso(info.not_after),
        "uploaded_at": iso(state.clock.now()),
    }


@router.get(
    "/credentials",
    summary="Status of the vault per system",
    description=(
        "Without customer_key (or with *): the * row (customer_key empty when no wildcard "
        "exists) then every system with its status under the default key. With a "
        "customer_key: that key's * row, then only the systems with their own credential."
    ),
    response_model=VaultListing,
    responses=_ERRORS,
)
async def list_credentials(
    key: VaultKey,
    state: State,
    customer_key: Annotated[str | None, Query(description="default *", max_length=255)] = None,
) -> dict[str, list[dict[str, str]]]:
    return state.vault.listing_dict(customer_key)


@router.delete(
    "/credentials",
    summary="Delete a credential",
    description=(
        "Deletes the credential of exactly this system under the customer_key (its sibling "
        "systems keep theirs) and answers an empty object (D83). The body may be replaced by "
        "query parameters."
    ),
    response_model=dict[str, Any],
    responses={**_ERRORS, **error_responses(404)},
    openapi_extra=_json_body(_DELETION_SCHEMA),
)
async def delete_credential(request: Request, key: VaultKey, state: State) -> dict[str, Any]:
    if (await request.body()).strip():
        body = await _read_json(request)
        if not isinstance(body, dict):
            raise ServiceError.invalid("body", "type", "the body must be a JSON object")
    else:
        # Clients that cannot send a body on DELETE may use the query string.
        body = dict(request.query_params)
    try:
        state.vault.delete(body.get("system_name"), body.get("customer_key"))
    except VaultValidationError as exc:
        if all(problem.rule == "known_system" for problem in exc.problems):
            # D83: deleting what the vault does not hold is a 404, a system it does not
            # know included.
            raise ServiceError.not_found(
                "CREDENTIAL_NOT_FOUND",
                exc.problems[0].message,
                system_name=str(body.get("system_name")),
            ) from None
        raise _bad_request(exc) from None
    except CredentialNotFoundError as exc:
        raise ServiceError.not_found("CREDENTIAL_NOT_FOUND", str(exc)) from None
    return {}

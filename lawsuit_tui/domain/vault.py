"""The credential vault: a credential, registration results and the status grid.

Passwords, two-factor secrets and certificates are ``SecretStr``: their repr and their
default dump are masked (``**********``). They are written in clear only when the caller asks
explicitly, by dumping with the context ``{"reveal_secrets": True}`` (what
``Credential.to_wire`` and the request bodies' ``to_wire`` do, for the body actually sent).
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field, SecretStr, SerializationInfo, field_serializer

from lawsuit_tui.domain.base import ApiModel
from lawsuit_tui.domain.enums import CredentialMessage, CredentialStatus, Open

__all__ = [
    "REVEAL_SECRETS",
    "WILDCARD_SYSTEM",
    "Credential",
    "CredentialRegistrationResult",
    "SystemStatusRow",
    "VaultListing",
    "parse_registration_results",
    "reveal_requested",
]

# The system name (and the default customer_key) of the wildcard credential.
WILDCARD_SYSTEM = "*"

# Dump context that writes secrets in clear, for the body actually sent to the vault.
REVEAL_SECRETS: dict[str, Any] = {"reveal_secrets": True}


def reveal_requested(info: SerializationInfo) -> bool:
    context = info.context
    return isinstance(context, dict) and context.get("reveal_secrets") is True


class Credential(ApiModel):
    """A court-system credential.

    Kinds (D32): username/password; a two-factor secret (``totp_secret``, base32) next to
    them; an A1 certificate (``certificate_pfx``, base64, with ``certificate_password``).
    Every secret is a SecretStr, masked unless the dump context asks to reveal it; a
    validation error never echoes the input (it may hold a secret).
    """

    model_config = ConfigDict(hide_input_in_errors=True)

    system_name: str | None = None
    customer_key: str | None = None
    username: str | None = None
    password: SecretStr | None = None
    totp_secret: SecretStr | None = None
    certificate_pfx: SecretStr | None = None
    certificate_password: SecretStr | None = None

    @field_serializer(
        "password", "totp_secret", "certificate_pfx", "certificate_password", when_used="always"
    )
    def _dump_secret(self, value: SecretStr | None, info: SerializationInfo) -> str | None:
        if value is None:
            return None
        return value.get_secret_value() if reveal_requested(info) else str(value)

    def to_wire(self) -> dict[str, Any]:
        """The credential as sent to the vault, secrets in clear."""
        return self.model_dump(mode="json", exclude_none=True, context=REVEAL_SECRETS)


class CredentialRegistrationResult(ApiModel):
    """One entry of the registration answer (one per related system)."""

    system_name: str | None = None
    customer_key: str | None = None
    message: Open[CredentialMessage] | None = None


class SystemStatusRow(ApiModel):
    """A row of GET /credentials: a system, the key it was read under, and its status."""

    name: str | None = None
    customer_key: str | None = None
    credential_status: Open[CredentialStatus] | None = None

    @property
    def is_wildcard(self) -> bool:
        return self.name == WILDCARD_SYSTEM


class VaultListing(ApiModel):
    systems: list[SystemStatusRow] = Field(default_factory=list)


def parse_registration_results(data: object) -> list[CredentialRegistrationResult]:
    """The array answered by POST /credentials (a single object is accepted too)."""
    items = data if isinstance(data, list) else [data]
    return [CredentialRegistrationResult.model_validate(item) for item in items]

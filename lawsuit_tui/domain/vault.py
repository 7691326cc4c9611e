"""The credential vault: a credential, registration results, the status grid, system names.

Passwords, two-factor secrets and certificates are ``SecretStr``: their repr and their
default dump are masked (``**********``). They are written in clear only when the caller asks
explicitly, by dumping with the context ``{"reveal_secrets": True}`` (what
``Credential.to_wire`` and the request bodies' ``to_wire`` do, for the body actually sent).

System names are the documented ones (D83): ``"PJE TJBA - 1º grau"``, ``"ESAJ - TJSP - 2º
grau"``, ``"TJRJ - 1º grau"``. :func:`parse_system_name` reads one into its family (PJE,
ESAJ...), court and degree; :func:`pick_system` chooses the one a lawsuit of a court and
instance goes through, the same way in the sandbox's world and in the app's hints.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import ConfigDict, Field, SecretStr, SerializationInfo, field_serializer

from lawsuit_tui.domain.base import ApiModel, Timestamp
from lawsuit_tui.domain.enums import CredentialMessage, CredentialStatus, Open

__all__ = [
    "REVEAL_SECRETS",
    "SYSTEM_FAMILIES",
    "WILDCARD_SYSTEM",
    "CertificateRegistrationResult",
    "Credential",
    "CredentialCustomData",
    "CredentialRegistrationResult",
    "SystemName",
    "SystemStatusRow",
    "VaultListing",
    "court_key",
    "parse_registration_results",
    "parse_system_name",
    "pick_system",
    "reveal_requested",
]

# The system name (and the default customer_key) of the wildcard credential.
WILDCARD_SYSTEM = "*"

# Dump context that writes secrets in clear, for the body actually sent to the vault.
REVEAL_SECRETS: dict[str, Any] = {"reveal_secrets": True}


def reveal_requested(info: SerializationInfo) -> bool:
    context = info.context
    return isinstance(context, dict) and context.get("reveal_secrets") is True


def _secret_text(value: SecretStr | None, info: SerializationInfo) -> str | None:
    if value is None:
        return None
    return value.get_secret_value() if reveal_requested(info) else str(value)


class CredentialCustomData(ApiModel):
    """``custom_data`` of a credential (D67): ``secret`` is the court's two-factor setup key
    (base32, never the 6-digit code). Other keys are refused by the service on
    ``POST /credentials`` (CERTIFICATE_FIELDS_NOT_ALLOWED), so the client sends none."""

    model_config = ConfigDict(hide_input_in_errors=True)

    secret: SecretStr | None = None

    @field_serializer("secret", when_used="always")
    def _dump_secret(self, value: SecretStr | None, info: SerializationInfo) -> str | None:
        return _secret_text(value, info)


class Credential(ApiModel):
    """A court-system login: username and password, and the two-factor setup key in
    ``custom_data.secret`` when the court asks for a code (D67). A1 certificates go to their
    own route (:class:`~lawsuit_tui.domain.bodies.CertificateBody`), never here.

    Every secret is a SecretStr, masked unless the dump context asks to reveal it; a
    validation error never echoes the input (it may hold a secret).
    """

    model_config = ConfigDict(hide_input_in_errors=True)

    system_name: str | None = None
    customer_key: str | None = None
    username: str | None = None
    password: SecretStr | None = None
    custom_data: CredentialCustomData | None = None

    @field_serializer("password", when_used="always")
    def _dump_secret(self, value: SecretStr | None, info: SerializationInfo) -> str | None:
        return _secret_text(value, info)

    @property
    def two_factor_secret(self) -> SecretStr | None:
        return self.custom_data.secret if self.custom_data is not None else None

    def to_wire(self) -> dict[str, Any]:
        """The credential as sent to the vault, secrets in clear."""
        return self.model_dump(mode="json", exclude_none=True, context=REVEAL_SECRETS)


class CredentialRegistrationResult(ApiModel):
    """One entry of the registration answer (one per related system)."""

    system_name: str | None = None
    customer_key: str | None = None
    message: Open[CredentialMessage] | None = None


class CertificateRegistrationResult(ApiModel):
    """The answer of ``POST /credentials/certificate`` (vault.json): the holder and expiry
    the vault read from the file. ``system_name`` is not in the answer; the client fills it
    with the one it sent."""

    message: Open[CredentialMessage] | None = None
    customer_key: str | None = None
    subject_cn: str | None = None
    not_after: Timestamp | None = None
    uploaded_at: Timestamp | None = None
    system_name: str | None = None


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


# -- documented system names ------------------------------------------------------------------

# The families (portals) the documented names start with; a name without one is the court's
# own system ("TJRJ - 1º grau"). In this order a lawsuit's system is chosen when its court has
# several for one degree (pick_system).
SYSTEM_FAMILIES: tuple[str, ...] = ("PJE", "ESAJ", "EPROC", "PROJUDI", "", "PJEINTER")

_DEGREE = re.compile(r"^(?P<head>.*?)\s*-\s*(?P<degree>\d+)º grau$")
# The documented names write the Federal District's court TJDFT; the Miner and the coverage
# page write TJDF.
_COURT_ALIASES = {"TJDF": "TJDFT"}


@dataclass(frozen=True, slots=True)
class SystemName:
    """A documented system name read into its parts."""

    name: str
    family: str
    """PJE, PJEINTER, ESAJ, EPROC, PROJUDI, or "" for the court's own system."""
    court: str
    """The court's acronym as the name writes it (TJSP, TRT15, JFSC, TJDFT, TST...)."""
    degree: int


def court_key(acronym: str) -> str:
    """An acronym compared with a system name's court (``TJDF`` = ``TJDFT``, any case)."""
    wanted = acronym.replace("-", "").replace(" ", "").upper()
    return _COURT_ALIASES.get(wanted, wanted)


def parse_system_name(name: str) -> SystemName | None:
    """``"PJE TJBA - 1º grau"`` -> (PJE, TJBA, 1); ``"ESAJ - TJSP - 2º grau"`` -> (ESAJ, TJSP,
    2); ``"PJE TRT7 - CE - 2º grau"`` -> (PJE, TRT7, 2). None for ``*`` and any name of another
    form (kept as it is by every caller: the service's list is the authority)."""
    found = _DEGREE.match(name.strip())
    if found is None:
        return None
    words = [w for w in re.split(r"[\s-]+", found.group("head")) if w]
    if not words:
        return None
    family = words[0].upper() if words[0].upper() in SYSTEM_FAMILIES else ""
    rest = words[1:] if family else words
    if not rest:
        return None
    return SystemName(name, family, court_key(rest[0]), int(found.group("degree")))


def pick_system(names: Iterable[str], court_acronym: str, instance: int | None) -> str | None:
    """The system a lawsuit of ``court_acronym`` at ``instance`` goes through: among the
    names of that court and degree, the first family of :data:`SYSTEM_FAMILIES`. None when
    the court has no system of that degree (only a wildcard credential can serve it)."""
    wanted, degree = court_key(court_acronym), instance or 1
    found: dict[str, str] = {}
    for name in names:
        parsed = parse_system_name(name)
        if parsed is not None and parsed.court == wanted and parsed.degree == degree:
            found.setdefault(parsed.family, name)
    for family in SYSTEM_FAMILIES:
        if family in found:
            return found[family]
    return None

"""The sandbox's credential vault: court-system credentials per (system, customer_key).

It follows the spec's credential state table and docs/interface-decisions.md D8, D31-D35 and
D46. Pure logic, no HTTP: the vault routes and the request engine both call it.

State per (system_name, customer_key):

- not exists --register--> active (CREDENTIAL_CREATED)
- active --register--> active (CREDENTIAL_UPDATED)
- active --login fails--> inactive (``mark_login_failed``)
- inactive --register--> active (CREDENTIAL_UPDATED: the credential already existed)
- any existing --delete--> not exists (D34)

A credential's secrets (password, totp_secret, certificate_pfx, certificate_password) are kept
in memory only, inside an object whose repr is masked; nothing this module returns carries
them, and ``Vault.__repr__`` shows counts only.
"""

from __future__ import annotations

import base64
import binascii
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, Protocol

from lawsuit_tui.domain.bodies import is_base32_secret
from lawsuit_tui.domain.enums import CredentialMessage, CredentialStatus
from lawsuit_tui.domain.vault import WILDCARD_SYSTEM

__all__ = [
    "CREDENTIAL_DELETED",
    "DEFAULT_CUSTOMER_KEY",
    "MAX_CREDENTIALS_PER_CALL",
    "SECRET_FIELDS",
    "CredentialNotFoundError",
    "CredentialRef",
    "DeletionEntry",
    "RegistrationEntry",
    "StatusRow",
    "ValidationProblem",
    "Vault",
    "VaultValidationError",
    "normalize_customer_key",
]

# D8: an absent or empty customer_key is the default key.
DEFAULT_CUSTOMER_KEY: Final = "*"
# D46: a registration carries at most this many items.
MAX_CREDENTIALS_PER_CALL: Final = 100
# D34: the message of each entry answered by DELETE /credentials.
CREDENTIAL_DELETED: Final = "CREDENTIAL_DELETED"
# D32: fields whose values are secrets; never returned, logged or counted.
SECRET_FIELDS: Final = frozenset(
    {"password", "totp_secret", "certificate_pfx", "certificate_password"}
)
_MAX_TEXT = 4096
# A1 certificates are small; this bounds memory per credential, not the body (that is D46's).
_MAX_CERTIFICATE = 512 * 1024

NOT_EXISTS: Final = CredentialStatus.NOT_EXISTS.value
ACTIVE: Final = CredentialStatus.ACTIVE.value
INACTIVE: Final = CredentialStatus.INACTIVE.value


class SystemLike(Protocol):
    """What the vault needs of a court system of the world (``SystemInfo``)."""

    @property
    def name(self) -> str: ...

    @property
    def siblings(self) -> tuple[str, ...]: ...


class ClockLike(Protocol):
    def now(self) -> datetime: ...


def normalize_customer_key(customer_key: str | None) -> str:
    """D8: an absent or empty key is the default ``*``."""
    return customer_key if customer_key else DEFAULT_CUSTOMER_KEY


@dataclass(frozen=True, slots=True)
class ValidationProblem:
    """One failed rule, the ``{field, rule, message}`` item of a 400's ``data``."""

    field: str
    rule: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "rule": self.rule, "message": self.message}


class VaultValidationError(ValueError):
    """The input broke one or more rules; ``problems`` lists every one of them."""

    def __init__(self, problems: Sequence[ValidationProblem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(f"{p.field}: {p.message}" for p in self.problems))


class CredentialNotFoundError(LookupError):
    """No credential is registered for this system under this customer_key."""

    def __init__(self, system_name: str, customer_key: str) -> None:
        self.system_name = system_name
        self.customer_key = customer_key
        super().__init__(
            f"no credential for system {system_name!r} under customer_key {customer_key!r}"
        )


@dataclass(frozen=True, slots=True)
class RegistrationEntry:
    system_name: str
    customer_key: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {
            "system_name": self.system_name,
            "customer_key": self.customer_key,
            "message": self.message,
        }


# The deletion answer has the same three fields (message CREDENTIAL_DELETED).
DeletionEntry = RegistrationEntry


@dataclass(frozen=True, slots=True)
class StatusRow:
    """A row of GET /credentials."""

    name: str
    customer_key: str
    credential_status: str

    def as_dict(self) -> dict[str, str]:
        return {
            "name": self.name,
            "customer_key": self.customer_key,
            "credential_status": self.credential_status,
        }


@dataclass(frozen=True, slots=True)
class CredentialRef:
    """The credential that applies to a (system, key): which one, and its status.

    ``system_name`` is the system the credential is registered under: the court system
    itself, or ``*`` when the key's wildcard serves it (``via_wildcard``).
    """

    system_name: str
    customer_key: str
    status: str
    username: str | None

    @property
    def via_wildcard(self) -> bool:
        return self.system_name == WILDCARD_SYSTEM

    @property
    def is_active(self) -> bool:
        return self.status == ACTIVE


class _Secrets:
    """The secret fields of one credential; masked in every textual form."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, str]) -> None:
        self._values = dict(values)

    def __repr__(self) -> str:
        return "<secrets hidden>"

    __str__ = __repr__

    def __reduce__(self) -> Any:
        # Secrets stay in this process: refuse to be pickled (and so written anywhere).
        raise TypeError("vault secrets cannot be serialized")


@dataclass(slots=True)
class _Stored:
    username: str | None
    secrets: _Secrets = field(repr=False)
    status: str
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class _Item:
    """One validated registration item (secrets already wrapped)."""

    system_name: str
    customer_key: str
    username: str | None
    secrets: _Secrets = field(repr=False)


class Vault:
    """Credentials per (system_name, customer_key), with the listing and resolution rules.

    ``systems`` are the court systems of the world, in listing order; the wildcard ``*`` is
    always known. Each system's ``siblings`` are registered along with it (D31); the relation
    is made symmetric here, so a sibling listed on one side only still counts.
    """

    def __init__(self, systems: Iterable[SystemLike], clock: ClockLike | None = None) -> None:
        self._clock = clock
        self._lock = threading.RLock()
        names: list[str] = []
        declared: dict[str, tuple[str, ...]] = {}
        for system in systems:
            if system.name == WILDCARD_SYSTEM or system.name in declared:
                continue
            names.append(system.name)
            declared[system.name] = tuple(system.siblings)
        self._names: tuple[str, ...] = tuple(names)
        self._order: dict[str, int] = {name: i for i, name in enumerate(names)}
        self._groups = self._sibling_groups(declared)
        self._store: dict[tuple[str, str], _Stored] = {}

    def _sibling_groups(self, declared: Mapping[str, tuple[str, ...]]) -> dict[str, list[str]]:
        linked: dict[str, set[str]] = {name: set() for name in declared}
        for name, siblings in declared.items():
            for sibling in siblings:
                if sibling in linked and sibling != name:
                    linked[name].add(sibling)
                    linked[sibling].add(name)
        groups: dict[str, list[str]] = {}
        for name in declared:
            # The system asked for first, then its siblings in listing order.
            others = sorted(linked[name], key=self._order.__getitem__)
            groups[name] = [name, *others]
        groups[WILDCARD_SYSTEM] = [WILDCARD_SYSTEM]
        return groups

    # -- reading ---------------------------------------------------------------------------

    @property
    def system_names(self) -> tuple[str, ...]:
        """The court systems the vault knows, in listing order (without ``*``)."""
        return self._names

    def is_known_system(self, system_name: str) -> bool:
        return system_name in self._groups

    def siblings_of(self, system_name: str) -> list[str]:
        """The systems registered together with ``system_name`` (itself first)."""
        return list(self._groups.get(system_name, ()))

    def own_status(self, system_name: str, customer_key: str | None) -> str:
        """The status of the credential registered for exactly this system and key."""
        key = normalize_customer_key(customer_key)
        with self._lock:
            stored = self._store.get((system_name, key))
            return NOT_EXISTS if stored is None else stored.status

    def resolve(self, system_name: str, customer_key: str | None) -> CredentialRef | None:
        """The credential serving ``system_name`` under the key: its own, else the key's ``*``.

        A system's own credential wins even when inactive: the wildcard only serves systems
        that lack a specific credential under the same key.
        """
        key = normalize_customer_key(customer_key)
        with self._lock:
            for name in (system_name, WILDCARD_SYSTEM):
                stored = self._store.get((name, key))
                if stored is not None:
                    return CredentialRef(name, key, stored.status, stored.username)
        return None

    def status(self, system_name: str, customer_key: str | None) -> str:
        """``not exists``, ``active`` or ``inactive``: own credential first, then the wildcard."""
        ref = self.resolve(system_name, customer_key)
        return NOT_EXISTS if ref is None else ref.status

    def has_access(self, system_name: str, customer_key: str | None) -> bool:
        """True when an active credential serves the system under the key."""
        ref = self.resolve(system_name, customer_key)
        return ref is not None and ref.is_active

    def listing(self, customer_key: str | None = None) -> list[StatusRow]:
        """GET /credentials rows (D33).

        Default key: the ``*`` row (customer_key ``""`` unless the default wildcard exists),
        then every system with ``*`` as customer_key and its own status under the default key.
        A named key: the ``*`` row is that key's wildcard (customer_key ``""`` when it has
        none, as for the default key), then only the systems with their own credential under
        the key.
        """
        key = normalize_customer_key(customer_key)
        with self._lock:
            wildcard = self._store.get((WILDCARD_SYSTEM, key))
            rows = [
                StatusRow(
                    WILDCARD_SYSTEM,
                    "" if wildcard is None else key,
                    NOT_EXISTS if wildcard is None else wildcard.status,
                )
            ]
            for name in self._names:
                stored = self._store.get((name, key))
                if stored is not None:
                    rows.append(StatusRow(name, key, stored.status))
                elif key == DEFAULT_CUSTOMER_KEY:
                    rows.append(StatusRow(name, key, NOT_EXISTS))
            return rows

    def listing_dict(self, customer_key: str | None = None) -> dict[str, list[dict[str, str]]]:
        """The GET /credentials body: ``{systems: [...]}``."""
        return {"systems": [row.as_dict() for row in self.listing(customer_key)]}

    def credentials(self) -> list[CredentialRef]:
        """Every stored credential (no secrets), for stats and inspection."""
        with self._lock:
            return [
                CredentialRef(name, key, stored.status, stored.username)
                for (name, key), stored in sorted(self._store.items())
            ]

    def counts(self) -> dict[str, int]:
        """Stored credentials per status (what stats may show: no names of users, no secrets)."""
        result = {ACTIVE: 0, INACTIVE: 0}
        with self._lock:
            for stored in self._store.values():
                result[stored.status] = result.get(stored.status, 0) + 1
        return result

    def __repr__(self) -> str:
        counts = self.counts()
        return (
            f"Vault(systems={len(self._names)}, active={counts[ACTIVE]}, "
            f"inactive={counts[INACTIVE]})"
        )

    # -- changing --------------------------------------------------------------------------

    def register(self, items: object) -> list[RegistrationEntry]:
        """Register or update credentials; one answer entry per system registered.

        ``items`` is the ``credentials`` array of the body: each item wrapped
        (``{credential: {...}}``) or flat. Every problem of every item is reported at once
        in a :class:`VaultValidationError` and nothing is registered then.
        """
        parsed = self._parse_items(items)
        entries: list[RegistrationEntry] = []
        now = self._now()
        with self._lock:
            for item in parsed:
                for name in self._groups[item.system_name]:
                    entries.append(self._put(name, item, now))
        return entries

    def _put(self, system_name: str, item: _Item, now: datetime) -> RegistrationEntry:
        slot = (system_name, item.customer_key)
        stored = self._store.get(slot)
        if stored is None:
            self._store[slot] = _Stored(item.username, item.secrets, ACTIVE, now, now)
            message = CredentialMessage.CREDENTIAL_CREATED.value
        else:
            # Replacing the credential revalidates the login: inactive turns active again.
            stored.username = item.username
            stored.secrets = item.secrets
            stored.status = ACTIVE
            stored.updated_at = now
            message = CredentialMessage.CREDENTIAL_UPDATED.value
        return RegistrationEntry(system_name, item.customer_key, message)

    def mark_login_failed(self, system_name: str, customer_key: str | None) -> CredentialRef | None:
        """The court login failed: the credential that serves the system turns inactive.

        That is the system's own credential under the key, else the key's wildcard. Answers
        the credential now inactive, or None when no credential serves the system (nothing
        changes then).
        """
        key = normalize_customer_key(customer_key)
        with self._lock:
            for name in (system_name, WILDCARD_SYSTEM):
                stored = self._store.get((name, key))
                if stored is not None:
                    stored.status = INACTIVE
                    stored.updated_at = self._now()
                    return CredentialRef(name, key, INACTIVE, stored.username)
        return None

    def delete(self, system_name: object, customer_key: object = None) -> list[DeletionEntry]:
        """D34: remove the credential of exactly this system and key (siblings stay).

        Raises :class:`VaultValidationError` for a missing or unknown system_name or a
        customer_key that is not a string, :class:`CredentialNotFoundError` when there is no
        such credential.
        """
        problems: list[ValidationProblem] = []
        name = self._check_system_name(system_name, "system_name", problems)
        key = self._check_customer_key(customer_key, "customer_key", problems)
        if problems or name is None or key is None:
            raise VaultValidationError(problems)
        with self._lock:
            if self._store.pop((name, key), None) is None:
                raise CredentialNotFoundError(name, key)
        return [DeletionEntry(name, key, CREDENTIAL_DELETED)]

    def clear(self) -> None:
        with self._lock:
            self._store.clear()

    # -- validation ------------------------------------------------------------------------

    def _now(self) -> datetime:
        return self._clock.now() if self._clock is not None else datetime.now(UTC)

    def _parse_items(self, items: object) -> list[_Item]:
        problems: list[ValidationProblem] = []
        if not isinstance(items, list):
            raise VaultValidationError(
                [ValidationProblem("credentials", "type", "credentials must be an array")]
            )
        if not items:
            problems.append(
                ValidationProblem("credentials", "min_items", "credentials must not be empty")
            )
        if len(items) > MAX_CREDENTIALS_PER_CALL:
            problems.append(
                ValidationProblem(
                    "credentials",
                    "max_items",
                    f"at most {MAX_CREDENTIALS_PER_CALL} credentials per call",
                )
            )
            raise VaultValidationError(problems)
        parsed: list[_Item] = []
        for index, raw in enumerate(items):
            item = self._parse_item(raw, f"credentials[{index}]", problems)
            if item is not None:
                parsed.append(item)
        if problems:
            raise VaultValidationError(problems)
        return parsed

    def _parse_item(
        self, raw: object, path: str, problems: list[ValidationProblem]
    ) -> _Item | None:
        if isinstance(raw, dict) and "credential" in raw:
            path = f"{path}.credential"
            raw = raw["credential"]
        if not isinstance(raw, dict):
            problems.append(ValidationProblem(path, "type", "a credential must be an object"))
            return None
        before = len(problems)
        name = self._check_system_name(raw.get("system_name"), f"{path}.system_name", problems)
        key = self._check_customer_key(raw.get("customer_key"), f"{path}.customer_key", problems)
        texts: dict[str, str] = {}
        for field_name in ("username", *sorted(SECRET_FIELDS)):
            value = raw.get(field_name)
            if value is None:
                continue
            if not isinstance(value, str):
                problems.append(
                    ValidationProblem(
                        f"{path}.{field_name}", "type", f"{field_name} must be a string"
                    )
                )
            elif value:
                limit = _MAX_CERTIFICATE if field_name == "certificate_pfx" else _MAX_TEXT
                if len(value) > limit:
                    problems.append(
                        ValidationProblem(
                            f"{path}.{field_name}",
                            "max_length",
                            f"{field_name} is longer than {limit} characters",
                        )
                    )
                else:
                    texts[field_name] = value
        self._check_kind(texts, path, problems)
        if len(problems) > before or name is None or key is None:
            return None
        secrets = _Secrets({k: v for k, v in texts.items() if k in SECRET_FIELDS})
        return _Item(name, key, texts.get("username"), secrets)

    @staticmethod
    def _check_kind(texts: Mapping[str, str], path: str, problems: list[ValidationProblem]) -> None:
        """The credential kinds of D32: username/password (with an optional totp_secret) or
        an A1 certificate (certificate_pfx with certificate_password). Other fields of an
        item are accepted and ignored: never stored."""
        wrong_type = {p.field for p in problems}

        def absent(name: str) -> bool:
            return name not in texts and f"{path}.{name}" not in wrong_type

        if "certificate_pfx" in texts:
            if not _is_base64(texts["certificate_pfx"]):
                problems.append(
                    ValidationProblem(
                        f"{path}.certificate_pfx", "base64", "certificate_pfx must be base64"
                    )
                )
            if absent("certificate_password"):
                problems.append(
                    ValidationProblem(
                        f"{path}.certificate_password",
                        "required",
                        "certificate_password is required with certificate_pfx",
                    )
                )
        elif absent("certificate_pfx"):
            if absent("password"):
                problems.append(
                    ValidationProblem(
                        f"{path}.password",
                        "required",
                        "password is required (or certificate_pfx for an A1 certificate)",
                    )
                )
            if absent("username"):
                problems.append(
                    ValidationProblem(
                        f"{path}.username", "required", "username is required with a password"
                    )
                )
        if "totp_secret" in texts and not is_base32_secret(texts["totp_secret"]):
            problems.append(
                ValidationProblem(f"{path}.totp_secret", "base32", "totp_secret must be base32")
            )

    def _check_system_name(
        self, value: object, path: str, problems: list[ValidationProblem]
    ) -> str | None:
        if value is None or value == "":
            problems.append(ValidationProblem(path, "required", "system_name is required"))
            return None
        if not isinstance(value, str):
            problems.append(ValidationProblem(path, "type", "system_name must be a string"))
            return None
        if value not in self._groups:
            problems.append(
                ValidationProblem(
                    path,
                    "known_system",
                    f"unknown system_name {value[:200]!r}: copy the exact name from "
                    "GET /credentials",
                )
            )
            return None
        return value

    @staticmethod
    def _check_customer_key(
        value: object, path: str, problems: list[ValidationProblem]
    ) -> str | None:
        if value is None:
            return DEFAULT_CUSTOMER_KEY
        if not isinstance(value, str):
            problems.append(ValidationProblem(path, "type", "customer_key must be a string"))
            return None
        if len(value) > 255:
            problems.append(
                ValidationProblem(path, "max_length", "customer_key is longer than 255 characters")
            )
            return None
        return normalize_customer_key(value)


def _is_base64(value: str) -> bool:
    try:
        base64.b64decode("".join(value.split()), validate=True)
    except (binascii.Error, ValueError):
        return False
    return True

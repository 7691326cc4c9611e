"""The sandbox's credential vault: court-system credentials per (system, customer_key).

It follows the spec's credential state table and docs/interface-decisions.md D8, D31-D35, D46,
D67 and D83. The rules live here, with no HTTP: the vault routes and the request engine call
them. The data lives on :class:`~lawsuit_tui.sandbox.state.SandboxState` (``credentials``:
plain :class:`CredentialRecord` s keyed by :func:`record_key`), so a persisted sandbox saves
it with the rest of its state.

State per (system_name, customer_key):

- not exists --register--> active (CREDENTIAL_CREATED / CERTIFICATE_CREATED)
- active --register--> active (CREDENTIAL_UPDATED / CERTIFICATE_UPDATED)
- active --login fails--> inactive (``mark_login_failed``)
- inactive --register--> active (the credential already existed: *_UPDATED)
- any existing --delete, or empty username and password--> not exists (D34, D83)

Two kinds (D67): a login (username, password and optionally ``custom_data.secret``, the
two-factor setup key) registered through ``POST /credentials`` with its sibling systems, and
an A1 certificate registered through ``POST /credentials/certificate`` for one system. The
vault keeps **no secret**: what a record holds is the kind, the username, whether a two-factor
key was given, the certificate's holder and expiry, and the status. A real vault must keep the
password to log in; this one only pretends to (the login hook of D35 decides failures).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Final, Protocol

from lawsuit_tui.domain.certificates import (
    CertificateCheck,
    CertificateInfo,
    decode_file_base64,
    inspect_pkcs12,
)
from lawsuit_tui.domain.enums import CredentialMessage, CredentialStatus
from lawsuit_tui.domain.vault import WILDCARD_SYSTEM

__all__ = [
    "CREDENTIAL_DELETED",
    "DEFAULT_CUSTOMER_KEY",
    "KIND_CERTIFICATE",
    "KIND_LOGIN",
    "MAX_CREDENTIALS_PER_CALL",
    "CredentialNotFoundError",
    "CredentialRecord",
    "CredentialRef",
    "RegistrationEntry",
    "StatusRow",
    "ValidationProblem",
    "Vault",
    "VaultRefusal",
    "VaultValidationError",
    "normalize_customer_key",
    "record_key",
]

# D8, D83: an absent or empty key is the default key.
DEFAULT_CUSTOMER_KEY: Final = "*"
# D46: a registration carries at most this many items.
MAX_CREDENTIALS_PER_CALL: Final = 100
# What a removal through empty username and password answers per system (vault.json).
CREDENTIAL_DELETED: Final = CredentialMessage.CREDENTIAL_DELETED.value
KIND_LOGIN: Final = "login"
KIND_CERTIFICATE: Final = "certificate"
_MAX_TEXT = 4096
# The certificate route's fields (vaultcertificate page). Any of them, or a key that names a
# certificate, in an item of POST /credentials is refused (D67).
_CERTIFICATE_WORDS = ("file_base64", "certificate", "pfx", "p12")

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


def record_key(system_name: str, customer_key: str) -> str:
    """The id of a credential record: its system and key, as a JSON array (unambiguous)."""
    return json.dumps([system_name, customer_key], ensure_ascii=False)


@dataclass(slots=True)
class CredentialRecord:
    """A credential the vault holds: plain data, never a secret (see the module's doc)."""

    system_name: str
    customer_key: str
    kind: str
    status: str
    created_at: datetime
    updated_at: datetime
    username: str | None = None
    two_factor: bool = False
    subject_cn: str | None = None
    not_after: datetime | None = None


@dataclass(frozen=True, slots=True)
class _AnsweredRow:
    """A row the service answers as the JSON object of its fields, in their order."""

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class ValidationProblem(_AnsweredRow):
    """One failed rule, the ``{field, rule, message}`` item of a 400's ``data``."""

    field: str
    rule: str
    message: str


class VaultValidationError(ValueError):
    """The input broke one or more rules; ``problems`` lists every one of them."""

    def __init__(self, problems: Sequence[ValidationProblem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(f"{p.field}: {p.message}" for p in self.problems))


class VaultRefusal(Exception):
    """A refusal with the vault's own code (D67): ``PFX_*`` (422: a file the documented
    schema allows that is no usable certificate, D94), ``CERTIFICATE_FIELDS_NOT_ALLOWED``
    (422, D94), ``CERTIFICATE_HOLDER_MISMATCH`` and ``CREDENTIAL_TYPE_CONFLICT`` (409,
    ``conflict`` names the system and key)."""

    def __init__(
        self, status: int, code: str, why: str, conflict: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(f"{code}: {why}")
        self.status = status
        self.code = code
        self.why = why
        self.conflict = dict(conflict) if conflict is not None else None


class CredentialNotFoundError(LookupError):
    """No credential is registered for this system under this customer_key."""

    def __init__(self, system_name: str, customer_key: str) -> None:
        self.system_name = system_name
        self.customer_key = customer_key
        super().__init__(
            f"no credential for system {system_name!r} under customer_key {customer_key!r}"
        )


@dataclass(frozen=True, slots=True)
class RegistrationEntry(_AnsweredRow):
    """An item of the answer to a registration: the credential and what became of it."""

    system_name: str
    customer_key: str
    message: str


@dataclass(frozen=True, slots=True)
class StatusRow(_AnsweredRow):
    """A row of GET /credentials."""

    name: str
    customer_key: str
    credential_status: str


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
    kind: str = KIND_LOGIN

    @property
    def via_wildcard(self) -> bool:
        return self.system_name == WILDCARD_SYSTEM

    @property
    def is_active(self) -> bool:
        return self.status == ACTIVE


@dataclass(frozen=True, slots=True)
class _Login:
    """One validated login item of POST /credentials."""

    system_name: str
    customer_key: str
    username: str | None
    two_factor: bool
    removal: bool


class Vault:
    """Credentials per (system_name, customer_key), with the listing and resolution rules.

    ``systems`` are the court systems of the world, in listing order; the wildcard ``*`` is
    always known. Each system's ``siblings`` are registered along with it (D83); the relation
    is made symmetric here, so a sibling listed on one side only still counts. ``records`` is
    where the credentials are kept (``SandboxState.credentials``); a new dict by default.
    """

    def __init__(
        self,
        systems: Iterable[SystemLike],
        clock: ClockLike | None = None,
        records: dict[str, CredentialRecord] | None = None,
    ) -> None:
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
        self._records: dict[str, CredentialRecord] = records if records is not None else {}

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

    def _get(self, system_name: str, customer_key: str) -> CredentialRecord | None:
        return self._records.get(record_key(system_name, customer_key))

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
        with self._lock:
            stored = self._get(system_name, normalize_customer_key(customer_key))
            return NOT_EXISTS if stored is None else stored.status

    def resolve(self, system_name: str | None, customer_key: str | None) -> CredentialRef | None:
        """The credential serving ``system_name`` under the key: its own, else the key's ``*``.

        A system's own credential wins even when inactive: the wildcard only serves systems
        that lack a specific credential under the same key. ``system_name`` None is a court
        without a documented system (D83): only the wildcard can serve it.
        """
        key = normalize_customer_key(customer_key)
        with self._lock:
            if (serving := self._serving(system_name, key)) is None:
                return None
            name, stored = serving
            return CredentialRef(name, key, stored.status, stored.username, stored.kind)

    def _serving(self, system_name: str | None, key: str) -> tuple[str, CredentialRecord] | None:
        """(Under the lock.) The credential serving ``system_name`` under ``key`` and the
        name it is registered under: the system's own, else the key's wildcard."""
        names = (WILDCARD_SYSTEM,) if system_name is None else (system_name, WILDCARD_SYSTEM)
        for name in names:
            stored = self._get(name, key)
            if stored is not None:
                return name, stored
        return None

    def status(self, system_name: str | None, customer_key: str | None) -> str:
        """``not exists``, ``active`` or ``inactive``: own credential first, then the wildcard."""
        ref = self.resolve(system_name, customer_key)
        return NOT_EXISTS if ref is None else ref.status

    def has_access(self, system_name: str | None, customer_key: str | None) -> bool:
        """True when an active credential serves the system under the key."""
        ref = self.resolve(system_name, customer_key)
        return ref is not None and ref.is_active

    def listing(self, customer_key: str | None = None) -> list[StatusRow]:
        """GET /credentials rows (D33, D83).

        Default key: the ``*`` row (customer_key ``""`` unless the default wildcard exists),
        then every system with ``*`` as customer_key and its own status under the default key.
        A named key: the ``*`` row is that key's wildcard (customer_key ``""`` when it has
        none), then only the systems with their own credential under the key.
        """
        key = normalize_customer_key(customer_key)
        with self._lock:
            wildcard = self._get(WILDCARD_SYSTEM, key)
            rows = [
                StatusRow(
                    WILDCARD_SYSTEM,
                    "" if wildcard is None else key,
                    NOT_EXISTS if wildcard is None else wildcard.status,
                )
            ]
            for name in self._names:
                stored = self._get(name, key)
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
                CredentialRef(r.system_name, r.customer_key, r.status, r.username, r.kind)
                for r in sorted(
                    self._records.values(), key=lambda r: (r.system_name, r.customer_key)
                )
            ]

    def counts(self) -> dict[str, int]:
        """Stored credentials per status (what stats may show: no names of users, no secrets)."""
        result = {ACTIVE: 0, INACTIVE: 0}
        with self._lock:
            for stored in self._records.values():
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
        """``POST /credentials``: register, update or remove logins; one answer entry per
        system touched (siblings included).

        ``items`` is the ``credentials`` array of the body: each item wrapped
        (``{credential: {...}}``) or flat. Certificate fields anywhere raise
        :class:`VaultRefusal` (CERTIFICATE_FIELDS_NOT_ALLOWED, D67); every other problem of
        every item is reported at once in a :class:`VaultValidationError`, and nothing is
        registered then.
        """
        parsed = self._parse_items(items)
        entries: list[RegistrationEntry] = []
        now = self._now()
        with self._lock:
            for item in parsed:
                for name in self._groups[item.system_name]:
                    entry = self._put_login(name, item, now)
                    if entry is not None:
                        entries.append(entry)
        return entries

    def _put_login(self, system_name: str, item: _Login, now: datetime) -> RegistrationEntry | None:
        slot = record_key(system_name, item.customer_key)
        stored = self._records.get(slot)
        if item.removal:
            # vault.json: "Send empty username/password to remove a credential".
            if stored is None:
                return None
            del self._records[slot]
            return RegistrationEntry(system_name, item.customer_key, CREDENTIAL_DELETED)
        if stored is None:
            self._records[slot] = CredentialRecord(
                system_name,
                item.customer_key,
                KIND_LOGIN,
                ACTIVE,
                now,
                now,
                username=item.username,
                two_factor=item.two_factor,
            )
            message = CredentialMessage.CREDENTIAL_CREATED.value
        else:
            # Replacing the credential (even a certificate: "the new registration will
            # replace the existing credential") revalidates it: inactive turns active.
            stored.kind = KIND_LOGIN
            stored.username = item.username
            stored.two_factor = item.two_factor
            stored.subject_cn = None
            stored.not_after = None
            stored.status = ACTIVE
            stored.updated_at = now
            message = CredentialMessage.CREDENTIAL_UPDATED.value
        return RegistrationEntry(system_name, item.customer_key, message)

    def register_certificate(self, body: object) -> tuple[str, CertificateInfo, str]:
        """``POST /credentials/certificate`` (D67): checks in D67's order, then keeps the
        certificate for the one system named (default ``*``) under the key (default ``*``).

        Answers (message, the certificate's info, customer_key); raises
        :class:`VaultValidationError` for missing or mistyped fields and an unknown system,
        :class:`VaultRefusal` for the vault's own codes.
        """
        if not isinstance(body, dict):
            raise VaultValidationError(
                [ValidationProblem("body", "type", "the body must be a JSON object")]
            )
        problems: list[ValidationProblem] = []
        texts: dict[str, str] = {}
        for name in ("file_base64", "password"):
            value = body.get(name)
            if value is None or value == "":
                problems.append(ValidationProblem(name, "required", f"{name} is required"))
            elif not isinstance(value, str):
                problems.append(ValidationProblem(name, "type", f"{name} must be a string"))
            else:
                texts[name] = value
        raw_system = body.get("system_name")
        system = (
            WILDCARD_SYSTEM
            if raw_system is None or raw_system == ""
            else self._check_system_name(raw_system, "system_name", problems)
        )
        key = self._check_customer_key(body.get("customer_key"), "customer_key", problems)
        two_factor = self._check_custom_data(body.get("custom_data"), "custom_data", problems)
        if problems or system is None or key is None:
            raise VaultValidationError(problems)
        now = self._now()
        try:
            data = decode_file_base64(texts["file_base64"])
            info = inspect_pkcs12(data, texts["password"], now=now)
        except CertificateCheck as exc:
            raise VaultRefusal(422, exc.fault.value, exc.detail) from None
        conflict = {"system_name": system, "customer_key": key}
        with self._lock:
            slot = record_key(system, key)
            stored = self._records.get(slot)
            if stored is not None and stored.kind == KIND_LOGIN:
                raise VaultRefusal(
                    409,
                    "CREDENTIAL_TYPE_CONFLICT",
                    "a username/password credential exists for this system and customer_key",
                    conflict,
                )
            if stored is not None and stored.subject_cn != info.subject_cn:
                raise VaultRefusal(
                    409,
                    "CERTIFICATE_HOLDER_MISMATCH",
                    "the certificate belongs to another holder than the one registered",
                    conflict,
                )
            record = CredentialRecord(
                system,
                key,
                KIND_CERTIFICATE,
                ACTIVE,
                stored.created_at if stored is not None else now,
                now,
                username=None,
                two_factor=two_factor,
                subject_cn=info.subject_cn,
                not_after=info.not_after,
            )
            self._records[slot] = record
        message = (
            CredentialMessage.CERTIFICATE_CREATED
            if stored is None
            else CredentialMessage.CERTIFICATE_UPDATED
        )
        return message.value, info, key

    def mark_login_failed(
        self, system_name: str | None, customer_key: str | None
    ) -> CredentialRef | None:
        """The court login failed: the credential that serves the system turns inactive.

        That is the system's own credential under the key, else the key's wildcard. Answers
        the credential now inactive, or None when no credential serves the system (nothing
        changes then).
        """
        key = normalize_customer_key(customer_key)
        with self._lock:
            if (serving := self._serving(system_name, key)) is None:
                return None
            name, stored = serving
            stored.status = INACTIVE
            stored.updated_at = self._now()
            return CredentialRef(name, key, INACTIVE, stored.username, stored.kind)

    def delete(self, system_name: object, customer_key: object = None) -> None:
        """D34, D83: remove the credential of exactly this system and key (siblings stay).

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
            if self._records.pop(record_key(name, key), None) is None:
                raise CredentialNotFoundError(name, key)

    def clear(self) -> None:
        with self._lock:
            self._records.clear()

    # -- validation ------------------------------------------------------------------------

    def _now(self) -> datetime:
        return self._clock.now() if self._clock is not None else datetime.now(UTC)

    def _parse_items(self, items: object) -> list[_Login]:
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
        for index, raw in enumerate(items):
            found = _certificate_field(raw, f"credentials[{index}]")
            if found is not None:
                # The schema lets an item carry any keys: unusable, not invalid (D94).
                raise VaultRefusal(
                    422,
                    "CERTIFICATE_FIELDS_NOT_ALLOWED",
                    f"{found}: certificates are registered at POST /credentials/certificate",
                )
        parsed: list[_Login] = []
        for index, raw in enumerate(items):
            item = self._parse_item(raw, f"credentials[{index}]", problems)
            if item is not None:
                parsed.append(item)
        if problems:
            raise VaultValidationError(problems)
        return parsed

    def _parse_item(
        self, raw: object, path: str, problems: list[ValidationProblem]
    ) -> _Login | None:
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
        for field_name in ("username", "password"):
            value = raw.get(field_name)
            if value is None:
                continue
            if not isinstance(value, str):
                problems.append(
                    ValidationProblem(
                        f"{path}.{field_name}", "type", f"{field_name} must be a string"
                    )
                )
            elif len(value) > _MAX_TEXT:
                problems.append(
                    ValidationProblem(
                        f"{path}.{field_name}",
                        "max_length",
                        f"{field_name} is longer than {_MAX_TEXT} characters",
                    )
                )
            else:
                texts[field_name] = value
        two_factor = self._check_custom_data(
            raw.get("custom_data"), f"{path}.custom_data", problems
        )
        removal = raw.get("username") == "" and raw.get("password") == ""
        if not removal:
            wrong_type = {p.field for p in problems}
            for field_name, why in (
                ("password", "password is required"),
                ("username", "username is required with a password"),
            ):
                if not texts.get(field_name) and f"{path}.{field_name}" not in wrong_type:
                    problems.append(ValidationProblem(f"{path}.{field_name}", "required", why))
        if len(problems) > before or name is None or key is None:
            return None
        return _Login(name, key, texts.get("username") or None, two_factor, removal)

    @staticmethod
    def _check_custom_data(value: object, path: str, problems: list[ValidationProblem]) -> bool:
        """``custom_data``: an object whose ``secret`` (the two-factor setup key) is a
        string. Answers whether a two-factor key was given."""
        if value is None:
            return False
        if not isinstance(value, dict):
            problems.append(ValidationProblem(path, "type", "custom_data must be an object"))
            return False
        secret = value.get("secret")
        if secret is None or secret == "":
            return False
        if not isinstance(secret, str) or len(secret) > _MAX_TEXT:
            problems.append(
                ValidationProblem(f"{path}.secret", "type", "secret must be a short string")
            )
            return False
        return True

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


def _certificate_field(value: object, path: str) -> str | None:
    """The path of the first certificate field in an item of POST /credentials (D67): a key
    of ``custom_data`` other than ``secret``, or a key naming a certificate at any level."""
    if isinstance(value, dict):
        for key, inner in value.items():
            name = str(key)
            lowered = name.lower()
            here = f"{path}.{name}"
            if any(lowered.startswith(word) for word in _CERTIFICATE_WORDS):
                return here
            if lowered == "custom_data" and isinstance(inner, dict):
                other = next((str(k) for k in inner if str(k) != "secret"), None)
                if other is not None:
                    return f"{here}.{other}"
            found = _certificate_field(inner, here)
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found = _certificate_field(inner, f"{path}[{index}]")
            if found is not None:
                return found
    return None

"""The credential vault: the status grid (kept without secrets), registration, deletion.

Two kinds of credential (D67): a login (username, password and, when the court asks for a
code, its two-factor setup key, sent as ``custom_data.secret``) and an A1 certificate, sent to
its own route. A certificate is read from its .pfx/.p12 file and **checked here before it is
sent**: the password must open it, it must hold a key and a certificate, and it must be valid
now; each problem is told in words, for the field where it was typed
(:class:`CertificateFileError`). Secrets travel only inside ``SecretStr``; nothing here
keeps, logs or caches them.

What this app registered (the kind, the username, the certificate's holder and expiry, never
a secret) is remembered in the cache per system and key, so that updating a credential can
say what it replaces: the vault's listing only says whether one exists.
"""

from __future__ import annotations

import asyncio
import json
import os
import stat
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from pydantic import SecretStr

from lawsuit_tui.domain.base import format_timestamp
from lawsuit_tui.domain.bodies import (
    CertificateBody,
    CredentialDeleteBody,
    CredentialItem,
    CredentialsRegistrationBody,
    is_base32_secret,
)
from lawsuit_tui.domain.certificates import (
    MAX_PFX_BYTES,
    CertificateCheck,
    CertificateFault,
    CertificateInfo,
    encode_file_base64,
    inspect_pkcs12,
)
from lawsuit_tui.domain.formatting import format_date, format_int
from lawsuit_tui.domain.identifiers import InvalidSearchKey, parse_cnj
from lawsuit_tui.domain.vault import (
    WILDCARD_SYSTEM,
    CertificateRegistrationResult,
    CredentialCustomData,
    CredentialRegistrationResult,
    SystemStatusRow,
    pick_system,
)
from lawsuit_tui.domain.vocabulary import CERTIFICATE_FAULT_WORDS, word
from lawsuit_tui.i18n import _
from lawsuit_tui.services.deps import Deps

__all__ = [
    "CERTIFICATE_SUFFIXES",
    "DEMO_CERTIFICATE_PASSWORD",
    "KIND_CERTIFICATE",
    "KIND_LOGIN",
    "MAX_CERTIFICATE_BYTES",
    "CertificateFileError",
    "CheckedCertificate",
    "RegisteredCredential",
    "VaultService",
    "check_certificate",
    "court_acronym",
    "normalize_totp_secret",
    "read_certificate",
    "suggest_certificate_path",
]

# The vault takes files of at most 64 KB (D67); real A1 certificates are a few KB.
MAX_CERTIFICATE_BYTES: Final = MAX_PFX_BYTES
CERTIFICATE_SUFFIXES: Final = (".pfx", ".p12")
KIND_LOGIN: Final = "login"
KIND_CERTIFICATE: Final = "certificate"
# The sandbox's demo A1 certificate and its password (documented in assets/README.md).
_DEMO_CERTIFICATE = "demo/a1-demo.pfx"
DEMO_CERTIFICATE_PASSWORD: Final = "demo1234"
# The cache's meta key of what this app registered for a (system, key).
_REGISTERED = "vault.registered:"
_BASE32_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
# Entries of one folder looked at for a suggestion: a huge folder is not listed whole.
_MAX_SCANNED = 2000
# A PKCS#12 file is one DER (or BER) SEQUENCE: its first byte is 0x30.
_DER_SEQUENCE = 0x30


class CertificateFileError(ValueError):
    """The certificate cannot be used; the message is for the person who chose it, and
    ``field`` says where it belongs: ``"file"`` (the path) or ``"password"``."""

    def __init__(self, message: str, *, field: str = "file") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, slots=True)
class CheckedCertificate:
    """An A1 certificate read and opened locally: ready to send, and what it says."""

    file_base64: SecretStr
    info: CertificateInfo


@dataclass(frozen=True, slots=True)
class RegisteredCredential:
    """What this app registered for a system under a key (never a secret)."""

    kind: str
    username: str | None
    subject_cn: str | None
    not_after: str | None
    two_factor: bool
    registered_at: str | None


def normalize_totp_secret(text: str) -> str:
    """A two-factor secret as typed (grouped by spaces, in either case) -> its base32 form.

    Raises ``ValueError`` naming the characters that are not base32 (people mix up 0/O and
    1/I when copying a secret by hand).
    """
    secret = "".join(text.split()).upper()
    if not secret:
        raise ValueError(_("Type the two-factor secret, or leave it empty"))
    if not is_base32_secret(secret):
        wrong = sorted({c for c in secret if c not in _BASE32_LETTERS and c != "="})
        if wrong:
            raise ValueError(
                _(
                    "Not base32: {chars}. A two-factor secret has only the letters A-Z and "
                    "the digits 2-7."
                ).format(chars=" ".join(wrong))
            )
        raise ValueError(_("The = padding goes only at the end of a two-factor secret"))
    return secret


def read_certificate(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the A1 certificate file at ``path`` (a .pfx or .p12).

    ``~`` is expanded. Raises :class:`CertificateFileError` with a message for the person who
    typed the path: missing, a folder, another kind of file, empty, too large, unreadable.
    """
    text = os.fspath(path).strip()
    if not text:
        raise CertificateFileError(_("Type the path of the certificate file (.pfx or .p12)"))
    file = Path(text).expanduser()
    name = file.name or text
    if file.suffix.lower() not in CERTIFICATE_SUFFIXES:
        raise CertificateFileError(
            _("{name} is not a .pfx or .p12 file: an A1 certificate is one of those").format(
                name=name
            )
        )
    try:
        info = file.stat()
    except FileNotFoundError:
        raise CertificateFileError(_("No file at {path}").format(path=text)) from None
    except OSError as exc:
        raise CertificateFileError(
            _("Cannot read {name}: {reason}").format(name=name, reason=exc.strerror or exc)
        ) from None
    if stat.S_ISDIR(info.st_mode):
        message = _("{name} is a folder, not a certificate file")
        raise CertificateFileError(message.format(name=name))
    if not stat.S_ISREG(info.st_mode):
        # a pipe or a device would block the read or never end
        raise CertificateFileError(_("{name} is not a regular file").format(name=name))
    if info.st_size == 0:
        raise CertificateFileError(_("{name} is empty").format(name=name))
    if info.st_size > MAX_CERTIFICATE_BYTES:
        raise CertificateFileError(
            _("{name} has {size} KB; an A1 certificate file has at most {limit} KB").format(
                name=name,
                size=format_int(-(-info.st_size // 1024)),
                limit=format_int(MAX_CERTIFICATE_BYTES // 1024),
            )
        )
    try:
        with file.open("rb") as handle:
            # one byte more than allowed: a file that grew since stat() is still refused
            data = handle.read(MAX_CERTIFICATE_BYTES + 1)
    except OSError as exc:
        raise CertificateFileError(
            _("Cannot read {name}: {reason}").format(name=name, reason=exc.strerror or exc)
        ) from None
    if len(data) > MAX_CERTIFICATE_BYTES or not data:
        raise CertificateFileError(_("{name} changed while it was read").format(name=name))
    if data[0] != _DER_SEQUENCE:
        raise CertificateFileError(
            _("{name} is not an A1 certificate (PKCS#12): export it again as .pfx").format(
                name=name
            )
        )
    return data


def check_certificate(
    path: str | os.PathLike[str], password: SecretStr, *, now: datetime
) -> CheckedCertificate:
    """Read the file at ``path`` and open it with ``password`` as the vault will (D67): the
    password, the key, the certificate and its validity at ``now`` are checked here, before
    anything is sent. :class:`CertificateFileError` says what is wrong, for its field."""
    data = read_certificate(path)
    name = Path(os.fspath(path).strip()).expanduser().name
    try:
        info = inspect_pkcs12(data, password.get_secret_value(), now=now)
    except CertificateCheck as exc:
        field = "password" if exc.fault is CertificateFault.PASSWORD_INVALID else "file"
        text = word(CERTIFICATE_FAULT_WORDS, exc.fault)
        if exc.fault is CertificateFault.EXPIRED and exc.when is not None:
            text = _("The certificate of {name} expired on {date}.").format(
                name=name, date=format_date(exc.when)
            )
        raise CertificateFileError(text, field=field) from None
    return CheckedCertificate(SecretStr(encode_file_base64(data)), info)


# Only these fields of a status row are kept: nothing else can carry a secret.
_ROW_FIELDS = ("name", "customer_key", "credential_status")


def suggest_certificate_path(typed: str) -> str | None:
    """``typed`` completed with the first folder or .pfx/.p12 file of its folder that starts
    with its last part (folders end with the separator), or None.

    What was typed is kept as typed (``~`` included), so that it is a prefix of the answer.
    Hidden entries are offered only once a dot is typed.
    """
    if not typed or typed.endswith("~"):
        return None
    head, sep, tail = typed.rpartition(os.sep)
    folder = Path(head + sep).expanduser() if sep else Path()
    candidates: list[tuple[str, bool]] = []
    try:
        with os.scandir(folder) as entries:
            for count, entry in enumerate(entries):
                if count >= _MAX_SCANNED:
                    break
                name = entry.name
                if not name.startswith(tail) or name == tail:
                    continue
                if name.startswith(".") and not tail.startswith("."):
                    continue
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    continue
                if is_dir or Path(name).suffix.lower() in CERTIFICATE_SUFFIXES:
                    candidates.append((name, is_dir))
    except OSError:
        return None
    if not candidates:
        return None
    # certificates before folders: the file is what the person is after
    name, is_dir = min(candidates, key=lambda item: (item[1], item[0].casefold()))
    return typed + name[len(tail) :] + (os.sep if is_dir else "")


def court_acronym(code: str) -> str | None:
    """The court of a CNJ number (TJSP, TRF3, ...), None when the number does not say."""
    try:
        court = parse_cnj(code).court
    except (InvalidSearchKey, ValueError):
        return None
    return court.acronym if court is not None else None


class VaultService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    async def status(self, customer_key: str = "*") -> list[SystemStatusRow]:
        """GET /credentials for ``customer_key``; the grid is kept as a snapshot."""
        listing = await self._d.api.vault_status(customer_key)
        rows = [
            {k: v for k, v in row.to_json_dict().items() if k in _ROW_FIELDS}
            for row in listing.systems
        ]
        await self._d.cache.save_vault_snapshot(customer_key, rows)
        return list(listing.systems)

    def cached_status(self, customer_key: str = "*") -> list[SystemStatusRow] | None:
        rows = self._d.cache.store.vault_snapshot(customer_key)
        if rows is None:
            return None
        return [SystemStatusRow.model_validate(row) for row in rows]

    async def court_system(self, code: str, instance: int | None) -> str | None:
        """The exact system name under which the vault lists the court of lawsuit ``code``
        for its instance (``ESAJ - TJSP - 2º grau``), chosen among the listed names as the
        service's documented names are (D83, D126): the service's secrecy and credential
        errors do not name it. The court's acronym when the listing has no match; None when
        the number does not name a court."""
        acronym = court_acronym(code)
        if acronym is None:
            return None
        rows = self.cached_status(WILDCARD_SYSTEM) or await self.status(WILDCARD_SYSTEM)
        names = [row.name for row in rows if row.name and row.name != WILDCARD_SYSTEM]
        return pick_system(names, acronym, instance) or acronym

    async def check_certificate(
        self, path: str | os.PathLike[str], password: SecretStr
    ) -> CheckedCertificate:
        """:func:`check_certificate` off the event loop (the file may be on a slow disk),
        judged at this moment."""
        return await asyncio.to_thread(check_certificate, path, password, now=self._d.now())

    async def register(self, items: list[CredentialItem]) -> list[CredentialRegistrationResult]:
        """Register or replace logins; one result per system (siblings included)."""
        body = CredentialsRegistrationBody.of(*items)
        results = await self._d.api.register_credentials(body)
        for item in items:
            registered = {
                "kind": KIND_LOGIN,
                "username": item.username,
                "two_factor": item.two_factor_secret is not None,
                "registered_at": format_timestamp(self._d.now()),
            }
            touched = [r.system_name for r in results if r.system_name] or [item.system_name]
            for system in touched:
                await self._remember(system, item.customer_key, registered)
        return results

    async def register_certificate(
        self,
        system_name: str,
        customer_key: str,
        certificate: CheckedCertificate,
        password: SecretStr,
        two_factor_secret: SecretStr | None = None,
    ) -> CertificateRegistrationResult:
        """Send a checked A1 certificate to ``POST /credentials/certificate`` (D67)."""
        body = CertificateBody(
            file_base64=certificate.file_base64,
            password=password,
            system_name=system_name,
            customer_key=customer_key,
            custom_data=(
                CredentialCustomData(secret=two_factor_secret) if two_factor_secret else None
            ),
        )
        result = await self._d.api.register_certificate(body)
        info = certificate.info
        await self._remember(
            body.system_name,
            result.customer_key or body.customer_key,
            {
                "kind": KIND_CERTIFICATE,
                "subject_cn": result.subject_cn or info.subject_cn,
                "not_after": format_timestamp(result.not_after or info.not_after),
                "two_factor": two_factor_secret is not None,
                "registered_at": format_timestamp(self._d.now()),
            },
        )
        return result

    async def delete(
        self, system_name: str, customer_key: str
    ) -> list[CredentialRegistrationResult]:
        body = CredentialDeleteBody(system_name=system_name, customer_key=customer_key)
        results = await self._d.api.delete_credential(body)
        await self._d.cache.set_meta(_registered_key(system_name, customer_key), None)
        return results

    @staticmethod
    def demo_certificate() -> Path | None:
        """The sandbox's demo A1 certificate (``assets/demo``), None if it is not shipped."""
        from lawsuit_tui.assets_dir import asset_path

        try:
            return asset_path(_DEMO_CERTIFICATE)
        except FileNotFoundError:
            return None

    def registered(self, system_name: str, customer_key: str) -> RegisteredCredential | None:
        """What this app last registered for the system under the key, if anything."""
        value = self._d.cache.get_meta(_registered_key(system_name, customer_key))
        if not isinstance(value, dict):
            return None
        return RegisteredCredential(
            kind=str(value.get("kind") or KIND_LOGIN),
            username=_text(value.get("username")),
            subject_cn=_text(value.get("subject_cn")),
            not_after=_text(value.get("not_after")),
            two_factor=bool(value.get("two_factor")),
            registered_at=_text(value.get("registered_at")),
        )

    async def _remember(self, system_name: str, customer_key: str, what: dict[str, Any]) -> None:
        await self._d.cache.set_meta(_registered_key(system_name, customer_key), what)


def _registered_key(system_name: str, customer_key: str) -> str:
    return _REGISTERED + json.dumps([system_name, customer_key or WILDCARD_SYSTEM])


def _text(value: object) -> str | None:
    return str(value) if value is not None and value != "" else None

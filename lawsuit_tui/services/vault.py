"""The credential vault: the status grid (kept without secrets), registration, deletion.

Also the credential kinds beyond username/password (D32), prepared from what a person typed:
a two-factor secret (base32, checked and normalised as the sandbox checks it) and an A1
certificate read from a .pfx/.p12 file and base64-encoded here, never in the UI. Both come
back only inside a ``SecretStr``; nothing here keeps, logs or caches them.
"""

from __future__ import annotations

import asyncio
import base64
import os
import stat
from pathlib import Path
from typing import Final

from pydantic import SecretStr

from lawsuit_tui.domain.bodies import (
    CredentialDeleteBody,
    CredentialItem,
    CredentialsRegistrationBody,
    is_base32_secret,
)
from lawsuit_tui.domain.formatting import format_int
from lawsuit_tui.domain.identifiers import InvalidSearchKey, parse_cnj
from lawsuit_tui.domain.vault import (
    WILDCARD_SYSTEM,
    CredentialRegistrationResult,
    SystemStatusRow,
)
from lawsuit_tui.i18n import _
from lawsuit_tui.services.deps import Deps

__all__ = [
    "CERTIFICATE_SUFFIXES",
    "MAX_CERTIFICATE_BYTES",
    "CertificateFileError",
    "VaultService",
    "court_acronym",
    "normalize_totp_secret",
    "read_certificate",
    "suggest_certificate_path",
]

# The sandbox keeps at most 512 KiB of base64 text per certificate_pfx: 384 KiB of file.
# Real A1 certificates are a few KiB; the bound stops a wrong file before it is sent.
MAX_CERTIFICATE_BYTES: Final = 384 * 1024
CERTIFICATE_SUFFIXES: Final = (".pfx", ".p12")
_BASE32_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
# Entries of one folder looked at for a suggestion: a huge folder is not listed whole.
_MAX_SCANNED = 2000
# A PKCS#12 file is one DER (or BER) SEQUENCE: its first byte is 0x30.
_DER_SEQUENCE = 0x30


class CertificateFileError(ValueError):
    """The certificate file cannot be used; the message is for the person who chose it."""


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


def read_certificate(path: str | os.PathLike[str]) -> SecretStr:
    """The A1 certificate file at ``path`` (a .pfx or .p12), base64-encoded, as a secret.

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
    return SecretStr(base64.b64encode(data).decode("ascii"))


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
        (``TJSP - ESAJ - 1º grau``), for its instance: the service's secrecy and credential
        errors do not name it. The court's acronym when the listing has no match; None when
        the number does not name a court."""
        acronym = court_acronym(code)
        if acronym is None:
            return None
        rows = self.cached_status(WILDCARD_SYSTEM) or await self.status(WILDCARD_SYSTEM)
        names = [row.name for row in rows if row.name and row.name.startswith(acronym + " ")]
        grade = f"{instance or 1}º grau"
        for name in names:
            if grade in name:
                return name
        return names[0] if names else acronym

    async def load_certificate(self, path: str | os.PathLike[str]) -> SecretStr:
        """:func:`read_certificate` off the event loop (the file may be on a slow disk)."""
        return await asyncio.to_thread(read_certificate, path)

    async def register(self, items: list[CredentialItem]) -> list[CredentialRegistrationResult]:
        """Register or replace credentials; one result per system (siblings included)."""
        body = CredentialsRegistrationBody.of(*items)
        return await self._d.api.register_credentials(body)

    async def delete(
        self, system_name: str, customer_key: str
    ) -> list[CredentialRegistrationResult]:
        body = CredentialDeleteBody(system_name=system_name, customer_key=customer_key)
        return await self._d.api.delete_credential(body)

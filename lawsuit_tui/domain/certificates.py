"""A1 certificates (PKCS#12 ``.pfx``/``.p12``): what the vault checks before keeping one (D67).

The client checks a certificate here before sending it (the password is typed once, the
file is already read), and the sandbox checks what it receives the same way, in the order of
D67: Base64 and PKCS#12 structure (``PFX_MALFORMED``), size (``PFX_TOO_LARGE``), password
(``PFX_PASSWORD_INVALID``), private key (``PFX_NO_PRIVATE_KEY``), certificate
(``PFX_NO_CERTIFICATE``), validity against a given instant (``PFX_EXPIRED``,
``PFX_NOT_YET_VALID``). Parsing is ``cryptography``'s; no I/O here.

A wrong password and a damaged file look alike to a PKCS#12 parser (both fail to decrypt),
so the structure is read first without the password: a file whose outer ``PFX`` sequence is
sound but does not open is a wrong password; anything else is malformed.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Final

__all__ = [
    "MAX_PFX_BYTES",
    "CertificateCheck",
    "CertificateFault",
    "CertificateInfo",
    "decode_file_base64",
    "encode_file_base64",
    "inspect_pkcs12",
]

# The route's own limit (vault.json, vaultcertificate page): "at most 64 KB".
MAX_PFX_BYTES: Final = 64 * 1024

# DER of the content types an authSafe may have: id-data and id-signedData (PKCS#7).
_ID_DATA: Final = bytes.fromhex("06092a864886f70d010701")
_ID_SIGNED_DATA: Final = bytes.fromhex("06092a864886f70d010702")


class CertificateFault(StrEnum):
    """The vault's codes for a certificate it refuses (vault.json, 400)."""

    MALFORMED = "PFX_MALFORMED"
    TOO_LARGE = "PFX_TOO_LARGE"
    PASSWORD_INVALID = "PFX_PASSWORD_INVALID"
    NO_PRIVATE_KEY = "PFX_NO_PRIVATE_KEY"
    NO_CERTIFICATE = "PFX_NO_CERTIFICATE"
    EXPIRED = "PFX_EXPIRED"
    NOT_YET_VALID = "PFX_NOT_YET_VALID"


class CertificateCheck(ValueError):
    """A certificate the vault would refuse; ``fault`` is the vault's code for it."""

    def __init__(
        self, fault: CertificateFault, detail: str, *, when: datetime | None = None
    ) -> None:
        super().__init__(f"{fault.value}: {detail}")
        self.fault = fault
        self.detail = detail
        # the certificate's end (EXPIRED) or start (NOT_YET_VALID) of validity
        self.when = when


@dataclass(frozen=True, slots=True)
class CertificateInfo:
    """What an A1 certificate says about itself (no key material)."""

    subject_cn: str
    """The holder as ICP-Brasil writes it: ``NAME:CPF`` (e-CPF) or ``NAME:CNPJ`` (e-CNPJ)."""
    not_before: datetime
    not_after: datetime

    @property
    def holder_name(self) -> str:
        return self.subject_cn.partition(":")[0].strip()

    @property
    def holder_document(self) -> str | None:
        """The CPF or CNPJ after the colon of the CN, when there is one."""
        _name, sep, document = self.subject_cn.partition(":")
        digits = "".join(ch for ch in document if ch.isalnum())
        return digits if sep and digits else None


def encode_file_base64(data: bytes) -> str:
    """The file as the route takes it: Base64 on a single line."""
    return base64.b64encode(data).decode("ascii")


def decode_file_base64(text: str) -> bytes:
    """The file sent as ``file_base64``; ``PFX_MALFORMED`` unless it is Base64 on one line."""
    if not text or any(ch in text for ch in "\r\n"):
        raise CertificateCheck(
            CertificateFault.MALFORMED, "file_base64 must be Base64 on a single line"
        )
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise CertificateCheck(CertificateFault.MALFORMED, "file_base64 is not Base64") from None


def inspect_pkcs12(data: bytes, password: str, *, now: datetime) -> CertificateInfo:
    """The holder and validity of an A1 certificate, or :class:`CertificateCheck` naming the
    first of D67's faults it has. ``now`` is the instant validity is judged at."""
    if not _looks_like_pfx(data):
        raise CertificateCheck(CertificateFault.MALFORMED, "the file is not a PKCS#12 (.pfx)")
    if len(data) > MAX_PFX_BYTES:
        raise CertificateCheck(
            CertificateFault.TOO_LARGE,
            f"the file has {len(data)} bytes; at most {MAX_PFX_BYTES} are accepted",
        )
    # Imported here: the first frame of the app never pays for the cryptography bindings.
    from cryptography.hazmat.primitives.serialization import pkcs12
    from cryptography.x509.oid import NameOID

    try:
        loaded = pkcs12.load_pkcs12(data, password.encode("utf-8") if password else None)
    except ValueError:
        raise CertificateCheck(
            CertificateFault.PASSWORD_INVALID, "the password does not open the file"
        ) from None
    if loaded.key is None:
        raise CertificateCheck(CertificateFault.NO_PRIVATE_KEY, "the file has no private key")
    if loaded.cert is None:
        raise CertificateCheck(CertificateFault.NO_CERTIFICATE, "the file has no certificate")
    certificate = loaded.cert.certificate
    names = certificate.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    value = names[0].value if names else ""
    subject_cn = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    info = CertificateInfo(
        subject_cn=subject_cn,
        not_before=certificate.not_valid_before_utc,
        not_after=certificate.not_valid_after_utc,
    )
    moment = now if now.tzinfo is not None else now.replace(tzinfo=UTC)
    if moment > info.not_after:
        raise CertificateCheck(
            CertificateFault.EXPIRED,
            f"the certificate expired at {info.not_after.isoformat()}",
            when=info.not_after,
        )
    if moment < info.not_before:
        raise CertificateCheck(
            CertificateFault.NOT_YET_VALID,
            f"the certificate is valid from {info.not_before.isoformat()}",
            when=info.not_before,
        )
    return info


# -- the PFX structure, read without the password ----------------------------------------------


def _header(data: bytes, at: int) -> tuple[int, int, int] | None:
    """(tag, start of content, length) of the DER element at ``at``, None if cut short."""
    if at + 2 > len(data):
        return None
    tag, first = data[at], data[at + 1]
    at += 2
    if first < 0x80:
        length = first
    else:
        count = first & 0x7F
        if count == 0 or count > 4 or at + count > len(data):
            return None  # indefinite (BER) or absurd lengths: not what a .pfx export writes
        length = int.from_bytes(data[at : at + count], "big")
        at += count
    if at + length > len(data):
        return None
    return tag, at, length


def _looks_like_pfx(data: bytes) -> bool:
    """``PFX ::= SEQUENCE { version INTEGER (3), authSafe ContentInfo, macData OPTIONAL }``,
    filling the whole file."""
    outer = _header(data, 0)
    if outer is None or outer[0] != 0x30 or outer[1] + outer[2] != len(data):
        return False
    version = _header(data, outer[1])
    if (
        version is None
        or version[0] != 0x02
        or data[version[1] : version[1] + version[2]] != b"\x03"
    ):
        return False
    auth_safe = _header(data, version[1] + version[2])
    if auth_safe is None or auth_safe[0] != 0x30:
        return False
    content_type = data[auth_safe[1] : auth_safe[1] + len(_ID_DATA)]
    return content_type in (_ID_DATA, _ID_SIGNED_DATA)

"""A1 certificates made on the spot for tests: a PKCS#12 file with a chosen holder, password,
validity, and with or without its key or certificate (EC keys: fast to make).

``make_pfx()`` answers the file's bytes; ``pfx_base64()`` the single-line Base64 the vault's
certificate route takes.
"""

from __future__ import annotations

import base64
from datetime import UTC, datetime, timedelta

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

__all__ = ["HOLDER_CN", "PFX_PASSWORD", "make_pfx", "pfx_base64"]

HOLDER_CN = "ANA TESTE DE SOUZA:11144477735"
PFX_PASSWORD = "pfx-pw-9876"
_START = datetime(2025, 1, 1, tzinfo=UTC)


def make_pfx(
    *,
    cn: str = HOLDER_CN,
    password: str = PFX_PASSWORD,
    not_before: datetime = _START,
    not_after: datetime | None = None,
    with_key: bool = True,
    with_certificate: bool = True,
    padding_certificates: int = 0,
) -> bytes:
    """``padding_certificates`` copies of the certificate ride along as a chain: a way to a
    file over the vault's 64 KB that is still a sound PKCS#12."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before)
        .not_valid_after(not_after or not_before + timedelta(days=3650))
        .sign(key, hashes.SHA256())
    )
    encryption = serialization.BestAvailableEncryption(password.encode())
    return pkcs12.serialize_key_and_certificates(
        b"a1",
        key if with_key else None,
        certificate if with_certificate else None,
        [certificate] * padding_certificates or None,
        encryption,
    )


def pfx_base64(**options: object) -> str:
    return base64.b64encode(make_pfx(**options)).decode("ascii")  # type: ignore[arg-type]

"""Make the sandbox's demo A1 certificate: ``assets/demo/a1-demo.pfx``.

Run once (``uv run python scripts/make_demo_certificate.py``); the file is committed. It is a
PKCS#12 file as an ICP-Brasil e-CPF is exported, for a fictitious holder, issued by a
fictitious certification authority (also in the file, as the chain), valid from 2025 to 2035,
RSA 2048. Its password is in ``assets/README.md``. It opens nothing anywhere: the sandbox's
vault only reads its holder and validity (D67).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

PASSWORD = b"demo1234"
HOLDER = "JOANA DEMONSTRACAO DA SILVA"
CPF_BASE = "390533447"
NOT_BEFORE = datetime(2025, 1, 1, tzinfo=UTC)
NOT_AFTER = datetime(2035, 12, 31, 23, 59, 59, tzinfo=UTC)
TARGET = Path(__file__).resolve().parent.parent / "assets" / "demo" / "a1-demo.pfx"


def cpf(base: str) -> str:
    """The nine digits with their two check digits."""
    digits = [int(d) for d in base]
    for weight in (10, 11):
        total = sum(d * w for d, w in zip(digits, range(weight, 1, -1), strict=False))
        digits.append(0 if total % 11 < 2 else 11 - total % 11)
    return "".join(map(str, digits))


def name(*parts: tuple[x509.ObjectIdentifier, str]) -> x509.Name:
    return x509.Name([x509.NameAttribute(oid, value) for oid, value in parts])


def issued(
    subject: x509.Name,
    subject_key: rsa.RSAPrivateKey,
    issuer: x509.Name,
    issuer_key: rsa.RSAPrivateKey,
    extension: x509.ExtensionType,
    *,
    critical: bool,
) -> x509.Certificate:
    """The certificate of ``subject``'s key, signed by ``issuer``, valid from NOT_BEFORE to
    NOT_AFTER."""
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(subject_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOT_BEFORE)
        .not_valid_after(NOT_AFTER)
        .add_extension(extension, critical=critical)
        .sign(issuer_key, hashes.SHA256())
    )


def main() -> None:
    ca_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ca_name = name(
        (NameOID.COUNTRY_NAME, "BR"),
        (NameOID.ORGANIZATION_NAME, "ICP-Brasil (demonstracao)"),
        (NameOID.COMMON_NAME, "AC DEMONSTRACAO LAWSUIT-TUI"),
    )
    ca = issued(
        ca_name,
        ca_key,
        ca_name,
        ca_key,
        x509.BasicConstraints(ca=True, path_length=0),
        critical=True,
    )
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    holder = name(
        (NameOID.COUNTRY_NAME, "BR"),
        (NameOID.ORGANIZATION_NAME, "ICP-Brasil (demonstracao)"),
        (NameOID.ORGANIZATIONAL_UNIT_NAME, "Certificado PF A1"),
        (NameOID.COMMON_NAME, f"{HOLDER}:{cpf(CPF_BASE)}"),
    )
    certificate = issued(
        holder,
        key,
        ca_name,
        ca_key,
        x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]),
        critical=False,
    )
    data = pkcs12.serialize_key_and_certificates(
        HOLDER.encode(),
        key,
        certificate,
        [ca],
        serialization.BestAvailableEncryption(PASSWORD),
    )
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_bytes(data)
    print(f"{TARGET} ({len(data)} bytes): {HOLDER}:{cpf(CPF_BASE)}")


if __name__ == "__main__":
    main()

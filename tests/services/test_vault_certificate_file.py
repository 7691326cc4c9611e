"""The service layer's part of the vault form: the two-factor secret, the certificate file and
the path completion (lawsuit_tui/services/vault.py)."""

from __future__ import annotations

import base64
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import SecretStr

from lawsuit_tui.domain.bodies import is_base32_secret as _is_base32
from lawsuit_tui.services.vault import (
    MAX_CERTIFICATE_BYTES,
    CertificateFileError,
    check_certificate,
    normalize_totp_secret,
    read_certificate,
    suggest_certificate_path,
)
from tests.support.certificates import HOLDER_CN, PFX_PASSWORD, make_pfx

PFX = b"\x30\x82\x01\x00" + bytes(range(256))


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("JBSWY3DPEHPK3PXP", "JBSWY3DPEHPK3PXP"),
        ("jbsw y3dp ehpk 3pxp", "JBSWY3DPEHPK3PXP"),
        ("  JBSW\tY3DP\nehpk 3PXP ", "JBSWY3DPEHPK3PXP"),
        ("MFRGG===", "MFRGG==="),
    ],
)
def test_two_factor_secret_forgives_spaces_and_case(typed: str, expected: str) -> None:
    assert normalize_totp_secret(typed) == expected


@pytest.mark.parametrize(
    ("typed", "told"),
    [
        ("JBSW Y3DP 0HPK 1PX8", "Not base32: 0 1 8."),
        ("JBSW-Y3DP", "Not base32: -."),
        ("MF=RGG", "padding goes only at the end"),
        ("   ", "Type the two-factor secret"),
    ],
)
def test_two_factor_secret_not_base32_is_told(typed: str, told: str) -> None:
    with pytest.raises(ValueError) as caught:
        normalize_totp_secret(typed)
    assert told in str(caught.value)


@given(
    st.text(
        alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ234567 01890-=", max_size=40
    )
)
def test_two_factor_secret_agrees_with_the_sandbox(typed: str) -> None:
    """What the form lets through the sandbox accepts, and what it refuses the sandbox would."""
    try:
        secret = normalize_totp_secret(typed)
    except ValueError:
        assert not typed.strip() or not _is_base32(typed)
    else:
        assert _is_base32(secret) and _is_base32(typed)


def test_certificate_is_read(tmp_path: Path) -> None:
    for name in ("a1.pfx", "a1.P12", "Escritório Silva.PFX"):
        path = tmp_path / name
        path.write_bytes(PFX)
        assert read_certificate(str(path)) == PFX
    # the largest file the vault takes (D67: 64 KB)
    largest = tmp_path / "largest.pfx"
    largest.write_bytes(b"\x30" + bytes(MAX_CERTIFICATE_BYTES - 1))
    assert len(read_certificate(largest)) == 64 * 1024


def test_certificate_path_with_tilde_and_spaces_around(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "a1.pfx").write_bytes(PFX)
    assert read_certificate(f"  ~{os.sep}a1.pfx ") == PFX


def test_a_certificate_is_checked_as_the_vault_will(tmp_path: Path) -> None:
    """D67 locally: the password opens it, it has its key, it is valid now; each fault is
    a sentence for its field; a sound one comes back Base64 on one line, as a secret."""
    now = datetime(2026, 11, 20, tzinfo=UTC)
    good = tmp_path / "a1.pfx"
    good.write_bytes(make_pfx())
    checked = check_certificate(good, SecretStr(PFX_PASSWORD), now=now)
    assert checked.info.subject_cn == HOLDER_CN
    assert base64.b64decode(checked.file_base64.get_secret_value()) == good.read_bytes()
    assert checked.file_base64.get_secret_value() not in repr(checked)
    cases = [
        (good, "wrong", "password", "Wrong password"),
        (tmp_path / "old.pfx", PFX_PASSWORD, "file", "expired on 19/11/2026"),
        (tmp_path / "nokey.pfx", PFX_PASSWORD, "file", "no private key"),
        (tmp_path / "fake.pfx", PFX_PASSWORD, "file", "not an A1 certificate"),
    ]
    (tmp_path / "old.pfx").write_bytes(make_pfx(not_after=datetime(2026, 11, 19, 15, tzinfo=UTC)))
    (tmp_path / "nokey.pfx").write_bytes(make_pfx(with_key=False))
    (tmp_path / "fake.pfx").write_bytes(PFX)
    for path, password, field, told in cases:
        with pytest.raises(CertificateFileError) as caught:
            check_certificate(path, SecretStr(password), now=now)
        assert caught.value.field == field
        assert told in str(caught.value), (path.name, str(caught.value))


def test_certificate_file_problems(tmp_path: Path) -> None:
    (tmp_path / "folder.pfx").mkdir()
    (tmp_path / "empty.pfx").write_bytes(b"")
    (tmp_path / "pem.pfx").write_bytes(b"-----BEGIN PKCS12-----\n")
    with (tmp_path / "big.p12").open("wb") as handle:
        handle.truncate(MAX_CERTIFICATE_BYTES + 1)
    cases = {
        "": "Type the path",
        str(tmp_path / "missing.pfx"): "No file at",
        str(tmp_path / "a1.cer"): "not a .pfx or .p12 file",
        str(tmp_path / "folder.pfx"): "folder.pfx is a folder",
        str(tmp_path / "empty.pfx"): "empty.pfx is empty",
        str(tmp_path / "pem.pfx"): "not an A1 certificate (PKCS#12)",
        str(tmp_path / "big.p12"): "big.p12 has 65 KB; an A1 certificate file has at most 64 KB",
    }
    for path, told in cases.items():
        with pytest.raises(CertificateFileError) as caught:
            read_certificate(path)
        assert told in str(caught.value), path


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_is_not_read(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.pfx"
    os.mkfifo(pipe)
    with pytest.raises(CertificateFileError, match="not a regular file"):
        read_certificate(pipe)  # would block forever if it were opened


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_an_unreadable_certificate_is_told(tmp_path: Path) -> None:
    path = tmp_path / "locked.pfx"
    path.write_bytes(PFX)
    path.chmod(0)
    try:
        with pytest.raises(CertificateFileError, match=r"Cannot read locked\.pfx"):
            read_certificate(path)
    finally:
        path.chmod(0o600)


def test_path_suggestions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "certificados").mkdir()
    (tmp_path / "certificados" / "escritorio.pfx").write_bytes(PFX)
    (tmp_path / "certidao.pdf").write_bytes(b"%PDF")
    (tmp_path / "cert-velho.p12").write_bytes(PFX)
    (tmp_path / ".oculto.pfx").write_bytes(PFX)
    base = str(tmp_path) + os.sep
    # a certificate before a folder; other files never
    assert suggest_certificate_path(base + "cert") == base + "cert-velho.p12"
    assert suggest_certificate_path(base + "certi") == base + "certificados" + os.sep
    assert suggest_certificate_path(base + "certificados/e") == (
        base + "certificados" + os.sep + "escritorio.pfx"
    )
    assert suggest_certificate_path(base + "certid") is None
    assert suggest_certificate_path(base + "cert-velho.p12") is None  # complete already
    assert suggest_certificate_path(base + "nada") is None
    assert suggest_certificate_path(base + "nao-existe/x") is None
    assert suggest_certificate_path(base + ".") == base + ".oculto.pfx"
    assert suggest_certificate_path("") is None
    # relative to the working folder, and under ~ as typed
    monkeypatch.chdir(tmp_path)
    assert suggest_certificate_path("cert-") == "cert-velho.p12"
    monkeypatch.setenv("HOME", str(tmp_path))
    assert suggest_certificate_path("~/certificados/") == "~/certificados/escritorio.pfx"

"""Attachment files: small deterministic PDFs, HTML and text; corrupted ones are broken."""

from __future__ import annotations

import html
import textwrap
from typing import Any

MEDIA_TYPES = {
    "pdf": "application/pdf",
    "html": "text/html; charset=utf-8",
    "txt": "text/plain; charset=utf-8",
}


def _pdf_escape(line: str) -> str:
    text = line.encode("latin-1", "replace").decode("latin-1")
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def make_pdf(title: str, text: str) -> bytes:
    """A one-page PDF 1.4 with the text in Helvetica, valid enough for any reader."""
    lines = [title, ""]
    for para in text.splitlines():
        lines.extend(textwrap.wrap(para, 88) or [""])
    lines = lines[:64]
    ops = ["BT", "/F1 10 Tf", "50 800 Td", "13 TL"]
    ops.extend(f"({_pdf_escape(line)}) '" for line in lines)
    ops.append("ET")
    stream = "\n".join(ops).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return bytes(out)


def render(att: dict[str, Any], text: str) -> tuple[bytes, str]:
    """(content, media type) of an attachment whose full text is ``text``."""
    ext = str(att.get("extension") or "pdf")
    title = str(att.get("attachment_name") or "Documento")
    media = MEDIA_TYPES.get(ext, "application/octet-stream")
    if ext == "pdf":
        data = make_pdf(title, text)
    elif ext == "html":
        body = "".join(f"<p>{html.escape(p)}</p>\n" for p in text.splitlines() if p.strip())
        data = (
            f'<!DOCTYPE html>\n<html lang="pt-BR"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title></head>\n<body>\n<h1>{html.escape(title)}"
            f"</h1>\n{body}</body></html>\n"
        ).encode()
    else:
        data = f"{title}\n\n{text}\n".encode()
    if att.get("corrupted"):
        # a transfer that broke half-way: truncated and with bytes flipped
        cut = bytearray(data[: max(16, len(data) // 3)])
        for i in range(7, len(cut), 11):
            cut[i] ^= 0x5A
        data = bytes(cut)
    return data, media

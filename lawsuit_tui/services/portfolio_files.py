"""Reading a portfolio file into a table of text cells: CSV, a spreadsheet, or a pasted list.

What an analyst hands over is whatever their spreadsheet saved (D158):

- CSV with commas, semicolons (a Brazilian Excel's default) or tabs, sniffed from the first
  lines; UTF-8 with or without a BOM, else Windows-1252 (a superset of Latin-1, what Excel
  writes in Brazil), else Latin-1 (which reads any byte).
- ``.xlsx`` (the first sheet), read with openpyxl, imported only when one is read. A key the
  sheet stored as a number lost its leading zeros: a number of up to 11 digits is read as a
  CPF's 11 and one of 12 to 14 as a CNPJ's 14 (D159); a CNJ (20 digits) cannot be held by a
  spreadsheet's number and is reported by the row check.
- A pasted list: one key per line (cells split as in a CSV).

Every failure is one :class:`PortfolioFileError` whose message names the file and says what to
do; the commands answer it with exit 2, the app under the file's field.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from lawsuit_tui.i18n import _

__all__ = [
    "MAX_FILE_BYTES",
    "PortfolioFileError",
    "decode_text",
    "read_pasted_list",
    "read_portfolio_file",
    "split_csv",
]

MAX_FILE_BYTES = 64 * 1024 * 1024
_DELIMITERS = ";,\t|"
_SNIFF_BYTES = 64 * 1024


class PortfolioFileError(Exception):
    """A portfolio file that cannot be read, already phrased for the user."""


def decode_text(raw: bytes) -> str:
    """The text of a CSV as Excel or any editor saves it (UTF-8 with or without BOM, or
    Windows-1252/Latin-1)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        return raw[3:].decode("utf-8", errors="replace")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16", errors="replace")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _delimiter(sample: str) -> str | None:
    """The delimiter of a CSV sample, None for a single column."""
    try:
        return csv.Sniffer().sniff(sample, delimiters=_DELIMITERS).delimiter
    except csv.Error:
        pass
    # The sniffer gives up on ragged samples: take the delimiter found most, outside quotes.
    counts = dict.fromkeys(_DELIMITERS, 0)
    quoted = False
    for ch in sample:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in counts:
            counts[ch] += 1
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else None


def split_csv(text: str) -> list[list[str]]:
    """The rows of a CSV text, its delimiter sniffed (one column when it has none)."""
    text = text.removeprefix("\ufeff")
    delimiter = _delimiter(text[:_SNIFF_BYTES])
    if delimiter is None:
        return [[line.strip().strip('"')] if line.strip() else [] for line in text.splitlines()]
    return [list(row) for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)]


def read_pasted_list(text: str) -> list[list[str]]:
    """A list pasted into the app: one key per line (a line with a delimiter is split)."""
    return split_csv(text)


def _cell_text(value: object) -> str:
    """A spreadsheet cell as text; a key stored as a number gets its zeros back (D159)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        digits = str(abs(value))
        if len(digits) <= 11:
            return digits.zfill(11)
        if len(digits) <= 14:
            return digits.zfill(14)
        return digits
    return str(value)


def _read_xlsx(path: Path) -> list[list[str]]:
    try:
        import openpyxl  # a second or so to import: only when a sheet is read
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise PortfolioFileError(
            _("{path}: reading .xlsx needs openpyxl ({problem})").format(path=path, problem=exc)
        ) from None
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a damaged file
        raise PortfolioFileError(
            _(
                "{path}: not a readable .xlsx sheet ({problem}); save it again from the "
                "spreadsheet, or as CSV"
            ).format(path=path, problem=exc)
        ) from None
    try:
        sheet = book.worksheets[0] if book.worksheets else None
        if sheet is None:
            return []
        return [[_cell_text(cell) for cell in row] for row in sheet.iter_rows(values_only=True)]
    finally:
        book.close()


def read_portfolio_file(path: Path) -> list[list[str]]:
    """The table in ``path`` (CSV, TXT or XLSX). Blocking: call it in a worker thread."""
    suffix = path.suffix.lower()
    if suffix in (".xls", ".ods", ".numbers"):
        raise PortfolioFileError(
            _("{path}: {kind} files cannot be read; save the sheet as .xlsx or CSV").format(
                path=path, kind=suffix
            )
        )
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise IsADirectoryError(path)
        if size > MAX_FILE_BYTES:
            raise PortfolioFileError(
                _("{path}: {size} MB is more than a portfolio file can be ({limit} MB)").format(
                    path=path, size=size // 2**20, limit=MAX_FILE_BYTES // 2**20
                )
            )
        if suffix in (".xlsx", ".xlsm"):
            return _read_xlsx(path)
        raw = path.read_bytes()
    except FileNotFoundError:
        raise PortfolioFileError(_("{path}: no such file").format(path=path)) from None
    except IsADirectoryError:
        raise PortfolioFileError(
            _("{path}: is a folder; name a CSV or .xlsx file").format(path=path)
        ) from None
    except PermissionError:
        raise PortfolioFileError(
            _("{path}: permission denied; make it readable by you").format(path=path)
        ) from None
    except OSError as exc:
        raise PortfolioFileError(
            _("{path}: cannot be read ({problem})").format(path=path, problem=exc.strerror or exc)
        ) from None
    if raw.startswith(b"PK\x03\x04"):
        return _read_xlsx(path)  # a sheet saved under another name
    if b"\x00" in raw[:4096] and not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise PortfolioFileError(
            _("{path}: not a text file; save the sheet as .xlsx or CSV").format(path=path)
        )
    return split_csv(decode_text(raw))

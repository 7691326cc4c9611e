"""The inbox's movements as files: CSV for a Brazilian spreadsheet, and JSON (D176).

CSV, as Excel and LibreOffice in pt-BR open it with a double click: UTF-8 with a BOM (else
accents break), ``;`` between cells (the comma is the decimal separator), CRLF line ends,
amounts with a decimal comma and no thousands separator (``1234,56``: a number, not text),
dates ``dd/mm/aaaa hh:mm`` where the user is, one row per new step (a movement that brought
three steps is three rows; one without steps is one row), headers in the user's language.
A cell that a spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``, ``@``, a
tab or a carriage return) starts with an apostrophe instead: a court's text can hold
anything, and a CSV opened by a colleague must not run it.

JSON: one object ``{"exported_at", "count", "movements": [...]}`` with every movement as the
cache holds it (the machine's form: ISO instants, numbers as numbers).

Files are written beside their final name and renamed into place (a kill leaves no half
file), private to the user (0600), never over an existing file.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from lawsuit_tui.domain.formatting import format_date, format_datetime, format_decimal_cell
from lawsuit_tui.domain.inbox import Movement
from lawsuit_tui.domain.vocabulary import MOVEMENT_KIND_WORDS, TIER_WORDS, word
from lawsuit_tui.i18n import _

__all__ = [
    "CSV_FORMAT",
    "JSON_FORMAT",
    "csv_chunks",
    "csv_header",
    "csv_rows",
    "export_file",
    "json_chunks",
    "neutralise",
    "read_in_chunks",
    "unique_path",
]

CSV_FORMAT = "csv"
JSON_FORMAT = "json"
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_CHUNK = 500


def neutralise(cell: str) -> str:
    """``cell`` as text a spreadsheet will not run as a formula."""
    return "'" + cell if cell.startswith(_FORMULA_START) else cell


def csv_header() -> list[str]:
    return [
        _("Received"),
        _("Lawsuit"),
        _("Instance"),
        _("Court"),
        _("County"),
        _("Tier"),
        _("Parties"),
        _("Class"),
        _("Amount (R$)"),
        _("Kind"),
        _("Step date"),
        _("Step type"),
        _("Step"),
        _("Step terms found"),
        _("Read"),
        _("Tracking"),
    ]


def csv_rows(movement: Movement) -> list[list[str]]:
    """The rows of one movement: one per new step (at least one)."""
    head = [
        format_datetime(movement.received_at),
        movement.code,
        str(movement.instance or ""),
        movement.court,
        movement.county,
        word(TIER_WORDS, movement.tier) if movement.tier else "",
        movement.name,
        str(movement.extra.get("class_name") or ""),
        format_decimal_cell(movement.amount),
        word(MOVEMENT_KIND_WORDS, movement.kind),
    ]
    tail = [
        ", ".join(movement.terms),
        _("no") if movement.unread else _("yes"),
        movement.tracking_id,
    ]
    steps = movement.steps
    if not steps:
        error = movement.error_code
        return [[*head, "", "", error, *tail]]
    return [
        [*head, format_date(step.step_date), step.step_type, step.content, *tail] for step in steps
    ]


def read_in_chunks(
    ids: Sequence[str], read: Callable[[Sequence[str]], list[Movement]]
) -> Iterator[Movement]:
    """The movements of ``ids``, read a few hundred at a time."""
    for start in range(0, len(ids), _CHUNK):
        yield from read(ids[start : start + _CHUNK])


def csv_chunks(movements: Iterable[Movement]) -> Iterator[bytes]:
    """The CSV file of ``movements``, a piece at a time (BOM first)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    yield "\ufeff".encode()
    writer.writerow([neutralise(cell) for cell in csv_header()])
    for movement in movements:
        for row in csv_rows(movement):
            writer.writerow([neutralise(cell) for cell in row])
        if buffer.tell() > 1 << 16:
            yield buffer.getvalue().encode()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue().encode()


def json_chunks(
    movements: Iterable[Movement], count: int, exported_at: datetime
) -> Iterator[bytes]:
    """The JSON file of ``movements`` (``count`` of them), a piece at a time."""
    head = {"exported_at": exported_at.isoformat(), "count": count}
    yield orjson.dumps(head)[:-1] + b',"movements":['
    for number, movement in enumerate(movements):
        record: dict[str, Any] = dict(movement.extra)
        record["read_at"] = movement.read_at
        yield (b"," if number else b"") + orjson.dumps(record)
    yield b"]}\n"


def unique_path(folder: Path, stem: str, suffix: str) -> Path:
    """``folder/stem.suffix``, or ``stem (2).suffix``... when that exists."""
    candidate = folder / f"{stem}{suffix}"
    number = 2
    while candidate.exists():
        candidate = folder / f"{stem} ({number}){suffix}"
        number += 1
    return candidate


def _place(temporary: Path, folder: Path, stem: str, suffix: str) -> Path:
    """Give the written file its name; never over a file, even one made meanwhile."""
    while True:
        target = unique_path(folder, stem, suffix)
        try:
            os.link(temporary, target)  # fails if the name was taken meanwhile
        except FileExistsError:
            continue
        except OSError:  # a file system without hard links
            temporary.rename(target)
        return target


def export_file(
    ids: Sequence[str],
    read: Callable[[Sequence[str]], list[Movement]],
    *,
    file_format: str,
    folder: Path,
    stem: str,
    exported_at: datetime,
) -> Path:
    """Write the movements of ``ids`` (read ``_CHUNK`` at a time with ``read``) as
    ``file_format`` into ``folder`` (made if missing) under a new name; blocks on disk."""
    if file_format not in (CSV_FORMAT, JSON_FORMAT):
        raise ValueError(_("Unknown export format {name!r}: csv or json").format(name=file_format))
    folder.mkdir(parents=True, exist_ok=True)
    movements = read_in_chunks(ids, read)
    chunks = (
        csv_chunks(movements)
        if file_format == CSV_FORMAT
        else json_chunks(movements, len(ids), exported_at)
    )
    fd, temporary = tempfile.mkstemp(prefix=".inbox-export-", dir=folder)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as handle:
            for chunk in chunks:
                handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
        target = _place(Path(temporary), folder, stem, f".{file_format}")
    finally:
        Path(temporary).unlink(missing_ok=True)
    return target

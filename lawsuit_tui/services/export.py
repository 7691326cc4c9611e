"""Exports of the cache: requests, responses or lawsuits as JSON, JSON Lines or CSV.

Reads only the local cache (opened read-only, so it works beside a running app) and makes
no call. JSON and JSON Lines keep every field as cached; CSV has one row per record with the
columns people sort and filter on. Nothing secret is in the cache, so nothing secret can be
exported.

A record that cannot be read back (damaged in its file) is skipped and named, never the end
of the export (D141); an export of one request the cache does not hold says it matched
nothing (D142). A file is written whole or not at all, and never over an existing file.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from lawsuit_tui.i18n import _
from lawsuit_tui.services.cache_maintenance import DamageReport
from lawsuit_tui.store import Store
from lawsuit_tui.store.records import UNREADABLE

__all__ = [
    "EXPORT_TABLES",
    "ExportResult",
    "FileExists",
    "export_cache",
    "render",
    "write_new_file",
]

EXPORT_TABLES = ("requests", "responses", "lawsuits")

REQUEST_COLUMNS = (
    "request_id",
    "status",
    "search_type",
    "search_key",
    "response_type",
    "origin",
    "origin_id",
    "created_at",
    "completed_at",
    "responses_count",
    "cost",
)
RESPONSE_COLUMNS = (
    "response_id",
    "request_id",
    "response_type",
    "cached",
    "created_at",
    "lawsuit_code",
    "lawsuit_instance",
    "error_code",
    "error_message",
)
LAWSUIT_COLUMNS = (
    "code",
    "instance",
    "tribunal_acronym",
    "name",
    "status",
    "phase",
    "distribution_date",
    "amount",
    "parties",
    "steps_count",
    "last_step_date",
)


class FileExists(FileExistsError):
    """The export's target exists: an export never replaces a file."""


def _exists(target: Path) -> FileExists:
    return FileExists(
        _(
            "{path} already exists; an export never replaces a file: choose another name or "
            "move that file away"
        ).format(path=target)
    )


@dataclass
class ExportResult:
    """``data`` the export's bytes; ``records`` how many it holds; ``skipped`` the records
    that could not be read (``"<table> <key>: <problem>"``); ``matched`` False when the
    request asked for is not in the cache; ``damage`` the cache's damaged files not yet
    acknowledged (what they held may be missing)."""

    data: bytes = b""
    records: int = 0
    skipped: list[str] = field(default_factory=list)
    matched: bool = True
    damage: DamageReport = field(default_factory=DamageReport)


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _cached(response: dict[str, Any]) -> bool:
    tags = response.get("tags")
    return response.get("cached") is True or (
        isinstance(tags, dict) and tags.get("cached_response") is True
    )


def request_row(record: dict[str, Any]) -> dict[str, Any]:
    search = _dict(record.get("search"))
    row = {name: record.get(name) for name in REQUEST_COLUMNS}
    for name in ("search_type", "search_key", "response_type"):
        row[name] = search.get(name)
    return row


def response_row(response: dict[str, Any]) -> dict[str, Any]:
    data = _dict(response.get("response_data"))
    is_error = response.get("response_type") == "application_error"
    return {
        "response_id": response.get("response_id"),
        "request_id": response.get("request_id"),
        "response_type": response.get("response_type"),
        "cached": _cached(response),
        "created_at": response.get("created_at"),
        "lawsuit_code": None if is_error else data.get("code"),
        "lawsuit_instance": None if is_error else data.get("instance"),
        "error_code": data.get("code") if is_error else None,
        "error_message": data.get("message") if is_error else None,
    }


def lawsuit_row(lawsuit: dict[str, Any]) -> dict[str, Any]:
    parties = _list(lawsuit.get("parties"))
    last = _dict(lawsuit.get("last_step"))
    steps = _list(lawsuit.get("steps"))
    return {
        "code": lawsuit.get("code"),
        "instance": lawsuit.get("instance"),
        "tribunal_acronym": lawsuit.get("tribunal_acronym"),
        "name": lawsuit.get("name"),
        "status": lawsuit.get("status"),
        "phase": lawsuit.get("phase"),
        "distribution_date": lawsuit.get("distribution_date"),
        "amount": lawsuit.get("amount"),
        "parties": "; ".join(
            str(p.get("name")) for p in parties if isinstance(p, dict) and p.get("name")
        ),
        "steps_count": last.get("steps_count", len(steps)),
        "last_step_date": last.get("step_date"),
    }


def _collect(
    store: Store, table: str, request_id: str | None, skipped: list[str]
) -> Iterator[dict[str, Any]]:
    """The cached records of ``table`` (of one request when ``request_id`` is given).

    Without a request: every cached record, also those that came without a cached request
    (lookups, webhook deliveries, responses of requests made elsewhere).
    """
    if table == "requests":
        if request_id is not None:
            one = _read(lambda: store.get_request(request_id), f"requests {request_id}", skipped)
            return iter([one] if one is not None else [])
        return iter(store.list_requests(on_unreadable=skipped.append))
    if request_id is None:
        if table == "responses":
            return store.iter_responses(skipped.append)
        return store.iter_lawsuits(skipped.append)
    responses = list(reversed(store.responses_of(request_id, on_unreadable=skipped.append)))
    if table == "responses":
        return iter(responses)
    return _lawsuits_of(store, responses, skipped)


def _read(read: Any, name: str, skipped: list[str]) -> Any:
    try:
        return read()
    except UNREADABLE as exc:
        skipped.append(f"{name}: {exc}")
        return None


def _lawsuits_of(
    store: Store, responses: Iterable[dict[str, Any]], skipped: list[str]
) -> Iterator[dict[str, Any]]:
    seen: set[tuple[str, object]] = set()
    for response in responses:
        data = response.get("response_data")
        if response.get("response_type") != "lawsuit" or not isinstance(data, dict):
            continue
        code, instance = data.get("code"), data.get("instance")
        if not isinstance(code, str) or (code, instance) in seen:
            continue
        seen.add((code, instance))
        number = instance if isinstance(instance, int) else None
        lawsuit = _read(
            lambda c=code, n=number: store.get_lawsuit(c, n), f"lawsuits {code}", skipped
        )
        if lawsuit is not None:
            yield lawsuit


def render(table: str, records: Iterable[dict[str, Any]], fmt: str) -> tuple[bytes, int]:
    """The export's bytes in ``fmt`` (json, jsonl, csv) and how many records it holds."""
    items = list(records)
    if fmt == "json":
        return orjson.dumps(items, option=orjson.OPT_INDENT_2) + b"\n", len(items)
    if fmt == "jsonl":
        return b"".join(orjson.dumps(item) + b"\n" for item in items), len(items)
    columns, row = {
        "requests": (REQUEST_COLUMNS, request_row),
        "responses": (RESPONSE_COLUMNS, response_row),
        "lawsuits": (LAWSUIT_COLUMNS, lawsuit_row),
    }[table]
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow({k: "" if v is None else v for k, v in row(item).items()})
    return text.getvalue().encode("utf-8"), len(items)


def export_cache(directory: Path, table: str, request_id: str | None, fmt: str) -> ExportResult:
    """Export ``table`` of the cache at ``directory`` (a blocking read)."""
    result = ExportResult()
    records: Iterable[dict[str, Any]] = []
    store: Store | None = None
    if directory.is_dir():
        store = Store.open(directory, read_only=True)
    try:
        if store is not None:
            result.damage = DamageReport.of(store)
            records = _collect(store, table, request_id, result.skipped)
        result.data, result.records = render(table, records, fmt)
        if request_id is not None and store is not None:
            known = store.get_request(request_id) is not None or store.count_responses_of(
                request_id
            )
            result.matched = bool(known)
        elif request_id is not None:
            result.matched = False
    finally:
        if store is not None:
            store.close()
    return result


def write_new_file(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path``, whole or not at all, never over an existing file.

    Raises FileExists when ``path`` exists (checked again at the last moment: the file is
    linked into place, which fails rather than replace one made meanwhile), OSError when it
    cannot be written."""
    target = path.expanduser()
    if target.exists() or target.is_symlink():
        raise _exists(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".export-", dir=target.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        tmp.chmod(0o600)
        try:
            os.link(tmp, target)  # fails if the name was taken meanwhile: never replaces
        except FileExistsError:
            raise _exists(target) from None
        except OSError:
            # A file system without hard links: the name is claimed exclusively instead.
            _claim_and_copy(tmp, target)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return target


def _claim_and_copy(source: Path, target: Path) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(target, flags, 0o600)
    except FileExistsError:
        raise _exists(target) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(source.read_bytes())
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            target.unlink()
        raise

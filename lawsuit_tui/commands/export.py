"""`lawsuit-tui export {requests,responses,lawsuits} [--request-id ID] [--format ...] [--out F]`.

Reads only the local cache (opened read-only, so it works beside a running TUI) and makes
no call. JSON and JSON Lines keep every field as cached; CSV has one row per record with
the columns people sort and filter on. Nothing secret is in the cache, so nothing secret
can be exported.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

from lawsuit_tui.commands.output import EXIT_OK, EXIT_REFUSED, error_line
from lawsuit_tui.config import Settings
from lawsuit_tui.i18n import _
from lawsuit_tui.services.paths import cache_path
from lawsuit_tui.store import CacheError, Store

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


def collect(store: Store, table: str, request_id: str | None) -> Iterator[dict[str, Any]]:
    """The cached records of ``table`` (of one request when ``request_id`` is given).

    Without a request: every cached record, also those that came without a cached request
    (lookups, webhook deliveries, responses of requests made elsewhere).
    """
    if table == "requests":
        records = store.list_requests()
        return (r for r in records if request_id is None or r.get("request_id") == request_id)
    if request_id is None:
        return store.iter_responses() if table == "responses" else store.iter_lawsuits()
    responses = list(reversed(store.responses_of(request_id)))  # oldest first
    if table == "responses":
        return iter(responses)
    return _lawsuits_of(store, responses)


def _lawsuits_of(store: Store, responses: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    seen: set[tuple[str, object]] = set()
    for response in responses:
        data = response.get("response_data")
        if response.get("response_type") != "lawsuit" or not isinstance(data, dict):
            continue
        code, instance = data.get("code"), data.get("instance")
        if not isinstance(code, str) or (code, instance) in seen:
            continue
        seen.add((code, instance))
        lawsuit = store.get_lawsuit(code, instance if isinstance(instance, int) else None)
        if lawsuit is not None:
            yield lawsuit


def render(table: str, records: Iterable[dict[str, Any]], fmt: str) -> bytes:
    if fmt == "json":
        return orjson.dumps(list(records), option=orjson.OPT_INDENT_2) + b"\n"
    if fmt == "jsonl":
        return b"".join(orjson.dumps(item) + b"\n" for item in records)
    columns, row = {
        "requests": (REQUEST_COLUMNS, request_row),
        "responses": (RESPONSE_COLUMNS, response_row),
        "lawsuits": (LAWSUIT_COLUMNS, lawsuit_row),
    }[table]
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    for item in records:
        writer.writerow({k: "" if v is None else v for k, v in row(item).items()})
    return text.getvalue().encode("utf-8")


def write_out(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (a reader never sees half a file)."""
    target = path.expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".export-", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        Path(tmp).replace(target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def run(args: argparse.Namespace, settings: Settings) -> int:
    table: str = getattr(args, "table", None) or args.what
    request_id: str | None = args.request_id
    cache_dir = cache_path(settings)
    data = render(table, [], args.format)
    if cache_dir.exists() and any(cache_dir.iterdir()):
        try:
            store = Store.open(cache_dir, read_only=True)
        except CacheError as exc:
            error_line(_("cache: {problem}").format(problem=exc))
            return EXIT_REFUSED
        try:
            data = render(table, collect(store, table, request_id), args.format)
        finally:
            store.close()
    if args.out is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        try:
            write_out(Path(args.out), data)
        except OSError as exc:
            error_line(
                _("cannot write {path}: {problem}").format(path=args.out, problem=exc.strerror)
            )
            return EXIT_REFUSED
    return EXIT_OK

"""The transfer files of a company (file-transfer page; D123): what the world prepared for it.

Each API key (one company) gets the same handful of files, made from the world's lawsuits:
loads delivered as CSV, JSON and Parquet, one already downloaded, one the client reported as
broken, one that failed, and two still being prepared that become ready as the sandbox's clock
runs. The files' bytes are made from the index (no steps rendered), the same bytes every
time; ``file_size`` is their size in megabytes.
"""

from __future__ import annotations

import csv
import io
from datetime import datetime, timedelta
from typing import Any

import orjson

from lawsuit_tui.sandbox.world import parquet
from lawsuit_tui.sandbox.world.lawsuits import LawsuitRec
from lawsuit_tui.sandbox.world.people import Population
from lawsuit_tui.sandbox.world.rand import hash_text, iso, rng

__all__ = ["COLUMNS", "MEDIA_TYPES", "file_bytes", "initial_files", "visible"]

MEDIA_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "json": "application/json",
    "parquet": "application/vnd.apache.parquet",
}
COLUMNS = (
    "code",
    "instance",
    "tribunal_acronym",
    "class",
    "subject",
    "distribution_date",
    "amount",
    "status",
    "active_parties",
    "passive_parties",
)

# (description, file type, status, how many lawsuits (0: all), hours before the epoch)
_PLANS: tuple[tuple[str, str, str, int, float], ...] = (
    ("ARQUIVO INICIAL - CARGA 0", "parquet", "downloaded", 1200, 24 * 40),
    ("CARGA COMPLETA DA CARTEIRA", "json", "completed", 0, 24 * 3),
    ("CARGA DIÁRIA - {date}", "csv", "completed", 300, 26),
    ("CARGA DIÁRIA - {date}", "parquet", "completed", 280, 50),
    ("RELATÓRIO CUSTOM - TRABALHISTAS TRT2", "csv", "error", 150, 24 * 5),
    ("RELATÓRIO CUSTOM - EXECUÇÕES FISCAIS", "csv", "failed", 90, 24 * 7),
    ("CARGA DIÁRIA - {date}", "csv", "in_progress", 320, 1),
    ("CARGA DIÁRIA - {date}", "json", "pending", 310, 0.2),
)


def _uuid(*parts: object) -> str:
    h = hash_text(":".join(str(p) for p in parts), 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:32]}"


def _rows(records: list[LawsuitRec], pop: Population) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for rec in records:
        for inst in rec.instances:
            names = {
                side: " | ".join(
                    pop.entities[p.document].name for p in rec.parties if p.side == side
                )
                for side in ("Active", "Passive")
            }
            rows.append(
                {
                    "code": rec.code,
                    "instance": inst.instance,
                    "tribunal_acronym": rec.court.acronym,
                    "class": inst.klass[1],
                    "subject": rec.subjects[0][1] if rec.subjects else "",
                    "distribution_date": iso(inst.distribution),
                    "amount": float(rec.amount or 0.0),
                    "status": "Arquivado" if inst.archived else "Ativo",
                    "active_parties": names["Active"],
                    "passive_parties": names["Passive"],
                }
            )
    return rows


def _chosen(seed: int, record: dict[str, Any], everything: list[LawsuitRec]) -> list[LawsuitRec]:
    count = int(record["_lawsuits"])
    if count <= 0 or count >= len(everything):
        return list(everything)
    picked = rng(seed, "transfer-file", record["transfer_file_id"]).sample(everything, count)
    return sorted(picked, key=lambda rec: rec.code)


def file_bytes(
    seed: int, record: dict[str, Any], everything: list[LawsuitRec], pop: Population
) -> bytes:
    """The content of a transfer file, the same every time."""
    rows = _rows(_chosen(seed, record, everything), pop)
    kind = record["file_type"]
    if kind == "json":
        return orjson.dumps(rows, option=orjson.OPT_INDENT_2)
    if kind == "parquet":
        return parquet.write_table(COLUMNS, rows, doubles=("amount",), integers=("instance",))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def initial_files(
    seed: int,
    key: str,
    company_id: str,
    epoch: datetime,
    everything: list[LawsuitRec],
    pop: Population,
) -> dict[str, dict[str, Any]]:
    """The company's files as held records, by id. Keys starting with ``_`` are the
    sandbox's own (the planned transitions, the lawsuits count asked for) and never sent."""
    files: dict[str, dict[str, Any]] = {}
    for index, (description, kind, status, lawsuits, hours) in enumerate(_PLANS):
        file_id = _uuid(seed, "transfer-file", key, index)
        created = epoch - timedelta(hours=hours)
        record: dict[str, Any] = {
            "transfer_file_id": file_id,
            "company_id": company_id,
            "description": description.format(date=f"{created:%d/%m/%Y}"),
            "file_type": kind,
            "name": f"{file_id}-part-00001.{kind}",
            "status": "pending",
            "created_at": iso(created),
            "updated_at": iso(created),
            "_lawsuits": lawsuits,
        }
        size = len(file_bytes(seed, record, everything, pop))
        count = len(_chosen(seed, record, everything))
        record.update(file_size=round(size / 1_000_000, 3), lawsuits_count=count)
        started = created + timedelta(seconds=40)
        done = created + timedelta(minutes=6, seconds=17)
        becomes: list[tuple[str, dict[str, Any]]] = []
        if status == "pending":  # picked up in 10 minutes, ready 20 minutes later
            started, done = epoch + timedelta(minutes=10), epoch + timedelta(minutes=30)
        elif status == "in_progress":
            done = epoch + timedelta(minutes=20)
        becomes.append((iso(started), {"status": "in_progress", "started_at": iso(started)}))
        if status == "failed":
            failed = started + timedelta(minutes=3)
            becomes.append((iso(failed), {"status": "failed", "failed_at": iso(failed)}))
        else:
            becomes.append((iso(done), {"status": "completed", "completed_at": iso(done)}))
        if status in ("downloaded", "error"):
            used = done + timedelta(hours=2, minutes=13)
            change: dict[str, Any] = {"status": status}
            if status == "downloaded":
                change["downloaded_at"] = iso(used)
            else:
                change.update(
                    error_at=iso(used),
                    error_message="Arquivo truncado: esperadas 150 linhas, lidas 97.",
                )
            becomes.append((iso(used), change))
        record["_becomes"] = becomes
        files[file_id] = record
    return files


def visible(record: dict[str, Any], now: datetime) -> dict[str, Any]:
    """The record as the service shows it at ``now``: the planned changes due applied."""
    out = {k: v for k, v in record.items() if not k.startswith("_")}
    stamp = iso(now)
    for due, change in record.get("_becomes") or []:
        if due <= stamp:
            out.update(change)
            out["updated_at"] = due
    return out

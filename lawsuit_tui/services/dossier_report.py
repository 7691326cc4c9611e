"""A dossier as a report for the onboarding file: Markdown, one self-contained HTML page, JSON.

Markdown and HTML are drawn from one outline (:func:`outline`: sections of lines, tables and bar
figures, every text in the reader's language), so the two never say different things. The HTML
page carries its own CSS and nothing else: no script, no font, no image, no address it would
fetch; every value is escaped; it prints on A4 with each section starting clean. JSON has one
key per section (``entity``, ``counts``, ``aggregations``, ``lawsuits``, ``warrants``,
``executions``, ``decision``) and ``steps``: what each step cost and when its data was fetched.

A report is written with :func:`save_report`: a new file, never one that exists (D142).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import orjson

from lawsuit_tui.domain import vocabulary as v
from lawsuit_tui.domain.criminal_words import execution_meaning_words, warrant_meaning_words
from lawsuit_tui.domain.dossier import (
    LawsuitRow,
    amount_band_figures,
    year_figures,
)
from lawsuit_tui.domain.formatting import (
    format_date,
    format_datetime,
    format_document,
    format_int,
    format_money,
)
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.warrants import Warrant, execution_is_active, warrant_is_open
from lawsuit_tui.i18n import _, current_language, ngettext
from lawsuit_tui.services.dossier_model import Dossier
from lawsuit_tui.services.export import write_new_file

__all__ = [
    "FORMATS",
    "Bars",
    "Section",
    "Table",
    "outline",
    "report_bytes",
    "report_html",
    "report_json",
    "report_markdown",
    "save_report",
]

FORMATS = ("md", "html", "json")
TOP_BUCKETS = 10
"""Courts, classes and subjects: the largest ones in a report (the rest summed as "others")."""


@dataclass(frozen=True)
class Table:
    headers: list[str]
    rows: list[list[str]]
    numeric: frozenset[int] = frozenset()
    """Columns aligned right (numbers, money)."""
    title: str = ""


@dataclass(frozen=True)
class Bars:
    """A bar figure: each label, its value and how the value is written."""

    title: str
    items: list[tuple[str, int, str]]


@dataclass
class Section:
    key: str
    title: str
    alerts: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    blocks: list[Table | Bars] = field(default_factory=list)


# --- the outline -----------------------------------------------------------------------------


def _doc(dossier: Dossier) -> str:
    return f"{dossier.key.search_type.upper()} {dossier.key.display}"


def _title(dossier: Dossier) -> str:
    return _("Dossier: {name} ({document})").format(
        name=dossier.name or dossier.key.display, document=_doc(dossier)
    )


def _not_run(dossier: Dossier, step: str) -> str | None:
    record = dossier.steps.get(step)
    if record is None:
        return _("Not part of this dossier.")
    if record.status == "failed":
        return _("This step failed: {problem}").format(problem=record.problem or "?")
    if record.status == "skipped":
        return record.problem or _("Skipped.")
    return None


def _summary(dossier: Dossier) -> Section:
    section = Section("summary", _("Summary"))
    lines = section.lines
    lines.append(_("Document: {document}").format(document=_doc(dossier)))
    if dossier.name:
        lines.append(_("Name: {name}").format(name=dossier.name))
    if dossier.has_lawsuits is not None:
        lines.append(
            _("Gate: lawsuits found in the datalake.")
            if dossier.has_lawsuits
            else _("Gate: no lawsuit in the datalake.")
        )
    for figure in dossier.counts:
        total = format_int(figure.total) if figure.total is not None else "?"
        lines.append(f"{figure.spec.words}: {total}")
    open_warrants = sum(1 for w in dossier.warrants or [] if warrant_is_open(w))
    if open_warrants:
        section.alerts.append(
            ngettext(
                "{n} open arrest warrant: the person is wanted.",
                "{n} open arrest warrants: the person is wanted.",
                open_warrants,
            ).format(n=open_warrants)
        )
    serving = sum(1 for e in dossier.executions or [] if execution_is_active(e))
    if serving:
        section.alerts.append(
            ngettext(
                "{n} penal execution being served.", "{n} penal executions being served.", serving
            ).format(n=serving)
        )
    decision = dossier.decision
    if decision is not None:
        lines.append(
            _("Decision: {verdict}, by {by} on {when}.").format(
                verdict=v.word(v.VERDICT_WORDS, decision.verdict),
                by=decision.by,
                when=format_datetime(decision.at),
            )
        )
    else:
        lines.append(_("Decision: none yet."))
    return section


def _identity(dossier: Dossier) -> Section:
    section = Section("entity", _("Identity (registration data)"))
    missing = _not_run(dossier, "entity")
    entity = dossier.entity
    if missing or entity is None:
        section.lines.append(missing or _("The registry knows nothing of this document."))
        return section
    rows: list[list[str]] = [[_("Name"), entity.name or ""]]
    if entity.social_name:
        rows.append([_("Trade name"), entity.social_name])
    if entity.aka_names:
        rows.append([_("Also known as"), ", ".join(entity.aka_names)])
    status = v.word(v.REVENUE_STATUS_WORDS, entity.revenue_service_status)
    if status:
        when = entity.revenue_updated_at
        if when is not None:
            status += " " + _("(read {date})").format(date=format_date(when))
        rows.append([_("Revenue status"), status])
    if entity.special_status:
        rows.append(
            [
                _("Special status"),
                " ".join(
                    p for p in (entity.special_status, format_date(entity.special_status_date)) if p
                ),
            ]
        )
    if entity.entry_date:
        rows.append([_("Opened"), format_date(entity.entry_date)])
    if entity.closing_date:
        rows.append([_("Closed"), format_date(entity.closing_date)])
    activity = entity.main_activity
    if activity is not None and activity.name:
        code = str(activity.code) if activity.code is not None else ""
        rows.append([_("Main activity"), " ".join(p for p in (code, activity.name) if p)])
    for address in entity.addresses or []:
        rows.append([_("Address"), address.one_line()])
    section.blocks.append(Table([_("Field"), _("Value")], rows))
    partners = entity.partner_links
    if partners:
        partner_rows = [
            [
                p.name or "?",
                format_document(p.main_document) if p.main_document else "",
                p.position or "",
                format_date(p.since) if p.since else "",
            ]
            for p in partners
        ]
        section.blocks.append(
            Table(
                [_("Name"), _("Document"), _("Position"), _("Since")],
                partner_rows,
                title=(
                    _("Companies this person is a partner of:")
                    if not entity.is_company
                    else _("Partners and administrators (QSA):")
                ),
            )
        )
    return section


def _bars(title: str, items: Sequence[tuple[str, int]]) -> Bars:
    return Bars(title, [(label, value, format_int(value)) for label, value in items])


def _top(buckets: Sequence[Any]) -> list[tuple[str, int]]:
    items = [(str(b.value), int(b.count)) for b in buckets]
    if len(items) <= TOP_BUCKETS:
        return items
    rest = sum(count for _label, count in items[TOP_BUCKETS - 1 :])
    return [*items[: TOP_BUCKETS - 1], (_("others"), rest)]


def _exposure(dossier: Dossier) -> Section:
    section = Section("exposure", _("Exposure"))
    if dossier.counts:
        section.blocks.append(
            Table(
                [_("Count"), _("Lawsuits")],
                [
                    [f.spec.words, format_int(f.total) if f.total is not None else "?"]
                    for f in dossier.counts
                ],
                frozenset({1}),
            )
        )
    else:
        section.lines.append(_not_run(dossier, "count") or _("No count."))
    aggregations = dossier.aggregations
    if aggregations is not None:
        sides = [
            (
                v.word(v.SIDE_WORDS, b.value.title() if isinstance(b.value, str) else b.value),
                int(b.count),
            )
            for b in aggregations.dimension("sides")
        ]
        section.blocks.append(_bars(_("By side"), sides))
        section.blocks.append(_bars(_("By court"), _top(aggregations.dimension("tribunals"))))
        section.blocks.append(_bars(_("By area"), _top(aggregations.dimension("areas"))))
        section.blocks.append(_bars(_("By class"), _top(aggregations.dimension("classifications"))))
        section.blocks.append(_bars(_("By subject"), _top(aggregations.dimension("subjects"))))
    else:
        section.lines.append(_not_run(dossier, "aggregations") or _("No aggregation."))
    lawsuits = dossier.lawsuits
    if lawsuits:
        years = [(str(year), count) for year, count in year_figures(lawsuits)]
        section.blocks.append(_bars(_("By year of distribution"), years))
        bands = amount_band_figures(lawsuits)
        section.blocks.append(
            Bars(
                _("By amount of the claim"),
                [
                    (v.word(v.AMOUNT_BAND_WORDS, band), count, _band_value(count, total))
                    for band, count, total in bands
                ],
            )
        )
    return section


def _band_value(count: int, total: Decimal) -> str:
    return f"{format_int(count)} · {format_money(total)}" if count and total else format_int(count)


def _lawsuits(dossier: Dossier) -> Section:
    section = Section("lawsuits", _("Lawsuits"))
    missing = _not_run(dossier, "lawsuits")
    if missing or dossier.lawsuits is None:
        section.lines.append(missing or _("The listing is not in the cache."))
        return section
    rows = sorted(
        (LawsuitRow.of(lawsuit, dossier.document) for lawsuit in dossier.lawsuits),
        key=lambda r: (r.distributed is None, -(r.distributed.timestamp() if r.distributed else 0)),
    )
    section.lines.append(
        ngettext("{n} lawsuit, newest first.", "{n} lawsuits, newest first.", len(rows)).format(
            n=format_int(len(rows))
        )
        if rows
        else _("No lawsuit.")
    )
    if rows:
        section.blocks.append(
            Table(
                [
                    _("CNJ number"),
                    _("Court"),
                    _("Distributed"),
                    _("Class"),
                    _("Side"),
                    _("Amount"),
                    _("Last step"),
                ],
                [
                    [
                        r.code,
                        r.court,
                        format_date(r.distributed),
                        r.class_name,
                        v.word(v.SIDE_WORDS, r.side) if r.side else "",
                        format_money(r.amount) if r.amount is not None else "",
                        " ".join(p for p in (format_date(r.last_step_at), r.last_step) if p),
                    ]
                    for r in rows
                ],
                frozenset({5}),
            )
        )
    return section


def _criminal(dossier: Dossier) -> Section:
    section = Section("criminal", _("Arrest warrants and penal executions"))
    warrants, executions = dossier.warrants, dossier.executions
    _add_findings(
        section,
        None if warrants is None else [_warrant_finding(w) for w in warrants],
        not_run=_("Warrants: {why}").format(why=_not_run(dossier, "warrants") or _("not asked.")),
        none=_("Warrants: none found at the BNMP."),
    )
    _add_findings(
        section,
        None if executions is None else [_execution_finding(e) for e in executions],
        not_run=_("Executions: {why}").format(
            why=_not_run(dossier, "executions") or _("not asked.")
        ),
        none=_("Executions: none found."),
    )
    return section


def _add_findings(
    section: Section, findings: list[tuple[str, bool]] | None, *, not_run: str, none: str
) -> None:
    """What a search found, a line each (an alert when alarming); ``not_run`` when the search
    did not run (``findings`` None), ``none`` when it found nothing."""
    if findings is None:
        section.lines.append(not_run)
    elif not findings:
        section.lines.append(none)
    for line, alarm in findings or []:
        (section.alerts if alarm else section.lines).append(line)


def _warrant_finding(warrant: Warrant) -> tuple[str, bool]:
    said, alarm = warrant_meaning_words(warrant)
    issued = format_date(warrant.issue_date) if warrant.issue_date else None
    parts = (said, warrant.number, warrant.court, issued, warrant.code)
    return " · ".join(p for p in parts if p), alarm


def _execution_finding(execution: Lawsuit) -> tuple[str, bool]:
    said, alarm = execution_meaning_words(execution)
    parts = (said, execution.code, execution.tribunal_acronym or "")
    return " · ".join(p for p in parts if p), alarm


def _decision(dossier: Dossier) -> Section:
    section = Section("decision", _("Decision"))
    if not dossier.decisions:
        section.lines.append(_("No decision yet."))
    for decision in reversed(dossier.decisions):
        section.lines.append(
            _("{verdict} by {by} on {when}").format(
                verdict=v.word(v.VERDICT_WORDS, decision.verdict),
                by=decision.by,
                when=format_datetime(decision.at),
            )
            + (f": {decision.note}" if decision.note else ".")
        )
    if dossier.tracking is not None:
        section.lines.append(
            _("Tracked: tracking {id}, tier {tier}, since {when}.").format(
                id=dossier.tracking.tracking_id,
                tier=v.word(v.TIER_WORDS, dossier.tracking.tier),
                when=format_date(dossier.tracking.at),
            )
        )
    return section


def _steps(dossier: Dossier) -> Section:
    section = Section("steps", _("Steps, sources and costs"))
    rows = []
    for name, record in dossier.steps.items():
        source = _("local cache") if record.from_cache else _("the service")
        rows.append(
            [
                v.word(v.DOSSIER_STEP_WORDS, name),
                v.word(v.STEP_STATUS_WORDS, record.status),
                format_datetime(record.fetched_at) if record.fetched_at else "",
                source if record.status == "done" else "",
                record.cost.describe(),
            ]
        )
    section.blocks.append(Table([_("Step"), _("Status"), _("Data of"), _("From"), _("Cost")], rows))
    section.lines.append(_("Total: {cost}.").format(cost=dossier.cost.describe()))
    return section


def outline(dossier: Dossier) -> list[Section]:
    """Every section of the report, in the reading order of an onboarding file."""
    return [
        _summary(dossier),
        _identity(dossier),
        _exposure(dossier),
        _lawsuits(dossier),
        _criminal(dossier),
        _decision(dossier),
        _steps(dossier),
    ]


# --- Markdown ------------------------------------------------------------------------------


def _md_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _md_table(table: Table) -> list[str]:
    head = "| " + " | ".join(_md_cell(h) for h in table.headers) + " |"
    rule = (
        "|"
        + "|".join("---:" if i in table.numeric else "---" for i in range(len(table.headers)))
        + "|"
    )
    body = ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in table.rows]
    title = [f"**{_md_cell(table.title)}**", ""] if table.title else []
    return [*title, head, rule, *body]


def _bar_text(value: int, top: int, width: int = 20) -> str:
    return "█" * (round(width * value / top) if top else 0)


def _md_bars(bars: Bars) -> list[str]:
    top = max((value for _l, value, _t in bars.items), default=0)
    table = Table(
        [bars.title, _("Lawsuits"), ""],
        [[label, text, _bar_text(value, top)] for label, value, text in bars.items],
        frozenset({1}),
    )
    return _md_table(table)


def report_markdown(dossier: Dossier, generated_at: datetime) -> str:
    lines = [f"# {_md_cell(_title(dossier))}", ""]
    lines.append(_("Made on {when}.").format(when=format_datetime(generated_at)))
    for section in outline(dossier):
        lines += ["", f"## {section.title}", ""]
        lines += [f"> **⚠ {_md_cell(alert)}**" for alert in section.alerts]
        if section.alerts:
            lines.append("")
        for line in section.lines:
            lines += [_md_cell(line), ""]
        for block in section.blocks:
            if isinstance(block, Bars):
                lines += [*_md_bars(block), ""]
            else:
                lines += [*_md_table(block), ""]
    return "\n".join(lines).rstrip() + "\n"


# --- HTML ------------------------------------------------------------------------------------

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1b;
margin:2em auto;max-width:64em;padding:0 1em}
h1{font-size:1.5em;border-bottom:2px solid #1b1b1b;padding-bottom:.2em}
h2{font-size:1.15em;margin-top:1.8em;border-bottom:1px solid #999}
h3{font-size:1em;margin:1.2em 0 .3em}
table{border-collapse:collapse;width:100%;margin:.4em 0 1em}
th,td{border:1px solid #bbb;padding:.25em .45em;text-align:left;vertical-align:top}
th{background:#eee}
td.n{text-align:right;white-space:nowrap}
.alert{border:2px solid #a00;color:#a00;font-weight:bold;padding:.4em .6em;margin:.4em 0}
.bar{background:#3b5b92;height:.8em;display:inline-block;vertical-align:middle}
.made{color:#555}
@media print{body{margin:0;max-width:none;font-size:11pt}h2{break-after:avoid}
section{break-inside:auto}tr{break-inside:avoid}.bar{print-color-adjust:exact;
-webkit-print-color-adjust:exact}a{color:inherit}}
@page{size:A4;margin:15mm}
"""


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _html_table(table: Table) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in table.headers)
    rows = "".join(
        "<tr>"
        + "".join(
            f'<td class="n">{_e(c)}</td>' if i in table.numeric else f"<td>{_e(c)}</td>"
            for i, c in enumerate(row)
        )
        + "</tr>"
        for row in table.rows
    )
    title = f"<h3>{_e(table.title)}</h3>" if table.title else ""
    return f"{title}<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _html_bars(bars: Bars) -> str:
    top = max((value for _l, value, _t in bars.items), default=0)
    rows = "".join(
        f'<tr><td>{_e(label)}</td><td class="n">{_e(text)}</td>'
        f'<td style="width:50%"><span class="bar" style="width:'
        f'{(100 * value / top) if top else 0:.1f}%"></span></td></tr>'
        for label, value, text in bars.items
    )
    return f"<h3>{_e(bars.title)}</h3><table><tbody>{rows}</tbody></table>"


def report_html(dossier: Dossier, generated_at: datetime) -> str:
    """One page, self-contained: its CSS inline, no script, nothing fetched; values escaped."""
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{_e(current_language())}"><head><meta charset="utf-8">',
        f"<title>{_e(_title(dossier))}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(_title(dossier))}</h1>",
        f'<p class="made">{_e(_("Made on {when}.").format(when=format_datetime(generated_at)))}'
        "</p>",
    ]
    for section in outline(dossier):
        parts.append(f'<section id="{_e(section.key)}"><h2>{_e(section.title)}</h2>')
        parts.extend(f'<p class="alert">⚠ {_e(alert)}</p>' for alert in section.alerts)
        parts.extend(f"<p>{_e(line)}</p>" for line in section.lines)
        for block in section.blocks:
            parts.append(_html_bars(block) if isinstance(block, Bars) else _html_table(block))
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


# --- JSON ------------------------------------------------------------------------------------


def _json_lawsuit(row: LawsuitRow) -> dict[str, Any]:
    return {
        "code": row.code,
        "instance": row.instance,
        "court": row.court,
        "distribution_date": row.distributed.isoformat() if row.distributed else None,
        "class": row.class_name,
        "side": row.side,
        "amount": float(row.amount) if row.amount is not None else None,
        "last_step_date": row.last_step_at.isoformat() if row.last_step_at else None,
        "last_step": row.last_step,
        "status": row.status,
    }


def report_json(dossier: Dossier, generated_at: datetime) -> dict[str, Any]:
    """One key per section, plus ``steps`` (each step's status, cost, time of its data)."""
    lawsuits = dossier.lawsuits
    rows = [LawsuitRow.of(lawsuit, dossier.document) for lawsuit in lawsuits or []]
    decision = dossier.decision
    return {
        "document": {
            "search_type": dossier.key.search_type,
            "key": dossier.key.key,
            "display": dossier.key.display,
        },
        "name": dossier.name,
        "generated_at": generated_at.isoformat(),
        "created_at": dossier.created_at.isoformat(),
        "updated_at": dossier.updated_at.isoformat(),
        "profile": dossier.profile,
        "has_lawsuits": dossier.has_lawsuits,
        "entity": dossier.entity.to_json_dict() if dossier.entity is not None else None,
        "counts": [
            {
                "name": f.spec.name,
                "label": f.spec.words,
                "filter": f.spec.wire_filter(),
                "total": f.total,
                "fetched_at": f.fetched_at.isoformat() if f.fetched_at else None,
            }
            for f in dossier.counts
        ],
        "aggregations": (
            dossier.aggregations.to_json_dict() if dossier.aggregations is not None else None
        ),
        "figures": {
            "by_year": [{"year": y, "lawsuits": n} for y, n in year_figures(lawsuits or [])],
            "by_amount_band": [
                {"band": str(band), "lawsuits": n, "amount": float(total)}
                for band, n, total in amount_band_figures(lawsuits or [])
            ]
            if lawsuits
            else [],
        },
        "lawsuits": [_json_lawsuit(row) for row in rows] if lawsuits is not None else None,
        "warrants": (
            [w.to_json_dict() | {"open": warrant_is_open(w)} for w in dossier.warrants]
            if dossier.warrants is not None
            else None
        ),
        "executions": (
            [
                _json_lawsuit(LawsuitRow.of(e, dossier.document))
                | {"active": execution_is_active(e)}
                for e in dossier.executions
            ]
            if dossier.executions is not None
            else None
        ),
        "decision": decision.to_json() if decision is not None else None,
        "decisions": [d.to_json() for d in dossier.decisions],
        "tracking": dossier.tracking.to_json() if dossier.tracking is not None else None,
        "steps": {name: record.to_json() for name, record in dossier.steps.items()},
        "cost": dossier.cost.to_json(),
    }


# --- writing ---------------------------------------------------------------------------------


def report_bytes(dossier: Dossier, fmt: str, generated_at: datetime) -> bytes:
    """The report in ``fmt`` (one of FORMATS)."""
    if fmt == "json":
        return orjson.dumps(report_json(dossier, generated_at), option=orjson.OPT_INDENT_2) + b"\n"
    if fmt == "html":
        return report_html(dossier, generated_at).encode("utf-8")
    if fmt == "md":
        return report_markdown(dossier, generated_at).encode("utf-8")
    raise ValueError(fmt)


def report_name(dossier: Dossier, fmt: str, generated_at: datetime) -> str:
    """``dossie-37132492292-20261116-0930.html``: the document and when, never a name (a
    file name outlives the decision it was made for, and a person's name in it is personal
    data on a shared disk)."""
    from lawsuit_tui.domain.formatting import display_zone

    local = generated_at.astimezone(display_zone())  # the time the reader's clock showed
    return f"dossie-{dossier.key.key}-{local:%Y%m%d-%H%M}.{fmt}"


def save_report(dossier: Dossier, fmt: str, folder: Path, generated_at: datetime) -> Path:
    """Write the report into ``folder`` under a new name (``-2``, ``-3``... when taken):
    never over an existing file (D142). Blocking: from a thread."""
    from lawsuit_tui.services.export import FileExists

    data = report_bytes(dossier, fmt, generated_at)
    base = report_name(dossier, fmt, generated_at)
    stem, _dot, suffix = base.rpartition(".")
    for attempt in range(1, 1000):
        name = base if attempt == 1 else f"{stem}-{attempt}.{suffix}"
        try:
            return write_new_file(folder / name, data)
        except FileExists:
            continue
    raise FileExists(_("{folder}: too many reports of this dossier").format(folder=folder))

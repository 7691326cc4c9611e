"""What each section of the dossier screen says, built from a :class:`Dossier` (no widgets).

Every value goes through the vocabulary and the formatting module (dates in the reader's zone,
money as the court writes it); the warrants and executions are said in the words the requests
screen uses (``widgets/criminal_text.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from lawsuit_tui.domain import vocabulary as v
from lawsuit_tui.domain.dossier import (
    StepStatus,
    amount_band_figures,
    year_figures,
)
from lawsuit_tui.domain.entities import Partner
from lawsuit_tui.domain.formatting import format_date, format_datetime, format_document, format_int
from lawsuit_tui.domain.warrants import execution_is_active, warrant_is_open
from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.services.dossier_model import Dossier, DossierPlan, StepRecord
from lawsuit_tui.ui.dossier.charts import Figure
from lawsuit_tui.ui.widgets.criminal_text import entity_card, execution_meaning, warrant_meaning

__all__ = [
    "alerts_line",
    "criminal_lines",
    "exposure_figures",
    "exposure_summary",
    "header_text",
    "identity_card",
    "overview_text",
    "partner_line",
    "plan_lines",
    "steps_table",
]

_MARKS = {
    StepStatus.DONE: "✓",
    StepStatus.FAILED: "✗",
    StepStatus.RUNNING: "…",
    StepStatus.SKIPPED: "–",
    StepStatus.PLANNED: "·",
    StepStatus.NOT_RUN: "·",
}


def header_text(dossier: Dossier | None, document: str) -> Text:
    """Who, the decision taken, and the alarms: the one line read before anything else."""
    if dossier is None:
        return Text(document, style="bold")
    text = Text(dossier.name or dossier.key.display, style="bold")
    text.append(f"  {dossier.key.search_type.upper()} {dossier.key.display}", "dim")
    decision = dossier.decision
    if decision is not None:
        text.append("  ")
        style = "bold reverse" if decision.verdict == "reject" else "bold"
        text.append(f" {v.word(v.VERDICT_WORDS, decision.verdict)} ", style)
    alerts = alerts_line(dossier)
    if alerts.plain:
        text.append("\n")
        text.append_text(alerts)
    return text


def alerts_line(dossier: Dossier) -> Text:
    """Open warrants and executions being served, said first (empty when none)."""
    parts: list[str] = []
    wanted = sum(1 for w in dossier.warrants or [] if warrant_is_open(w))
    if wanted:
        parts.append(
            ngettext("{n} open arrest warrant", "{n} open arrest warrants", wanted).format(n=wanted)
        )
    serving = sum(1 for e in dossier.executions or [] if execution_is_active(e))
    if serving:
        parts.append(
            ngettext(
                "{n} penal execution being served", "{n} penal executions being served", serving
            ).format(n=serving)
        )
    if not parts:
        return Text("")
    return Text("⚠ " + " · ".join(parts), style="bold reverse")


# --- the steps ----------------------------------------------------------------------------


def _step_cells(name: str, record: StepRecord, detail: str) -> list[Text | str]:
    status = next((s for s in StepStatus if s.value == record.status), None)
    mark = _MARKS.get(status, "·") if status is not None else "·"
    style = "bold" if status == StepStatus.FAILED else ""
    said = v.word(v.STEP_STATUS_WORDS, record.status)
    if record.status == StepStatus.DONE:
        source = _("from the cache") if record.from_cache else record.cost.short()
        when = format_datetime(record.fetched_at) if record.fetched_at else ""
        said = " · ".join(p for p in (when, source) if p)
    elif record.problem:
        said = f"{said}: {record.problem}"
    elif detail:
        said = f"{said}: {detail}"
    return [
        Text(mark, style=style),
        Text(v.word(v.DOSSIER_STEP_WORDS, name), style=style),
        Text(said, style=style or "dim" if record.status != StepStatus.DONE else ""),
    ]


def steps_table(
    names: Sequence[str],
    records: dict[str, StepRecord],
    details: dict[str, str],
) -> Table:
    """One row a step: its mark, its name, what became of it (when, from where, the cost, or
    why it failed)."""
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True, width=1)
    table.add_column(no_wrap=True)
    table.add_column(overflow="fold", ratio=1)
    for name in names:
        record = records.get(name) or StepRecord(name)
        table.add_row(*_step_cells(name, record, details.get(name, "")))
    return table


def plan_lines(plan: DossierPlan) -> list[str]:
    """The question asked once before a paid run: each step's cost, then the total."""
    lines = []
    for planned in plan.steps:
        cost = (
            _("from the cache (data of {when})").format(when=format_datetime(planned.kept_at))
            if planned.kept_at is not None
            else planned.cost.describe()
        )
        lines.append(f"• {v.word(v.DOSSIER_STEP_WORDS, planned.step)}: {cost}")
    lines.append("")
    lines.append(_("In all: {cost}.").format(cost=plan.cost.describe()))
    return lines


# --- identity -----------------------------------------------------------------------------


def identity_card(dossier: Dossier) -> RenderableType:
    entity = dossier.entity
    record = dossier.step("entity")
    if entity is None:
        if record.status == StepStatus.FAILED:
            return Text(_("Registration data failed: {problem}").format(problem=record.problem))
        if record.status == StepStatus.DONE:
            return Text(_("The registry knows nothing of this document."))
        return Text(_("Registration data not asked yet."), style="dim")
    card = entity_card(entity.to_json_dict())
    when = entity.revenue_updated_at
    if when is None:
        return card
    return Group(card, Text(_("Revenue data read {date}.").format(date=format_date(when)), "dim"))


def partner_line(partner: Partner) -> Text:
    """``Name · 12.345.678/0001-90 · Sócio-Administrador · since 01/02/2020``."""
    text = Text(partner.name or "?", style="bold")
    document = format_document(partner.main_document) if partner.main_document else ""
    for part in (
        document,
        partner.position,
        _("since {date}").format(date=format_date(partner.since)) if partner.since else None,
    ):
        if part:
            text.append(" · " + part)
    return text


# --- exposure -----------------------------------------------------------------------------


def exposure_summary(dossier: Dossier) -> Text:
    """The counts in one line (``all lawsuits 195 · as defendant 79``), or why none."""
    text = Text()
    if dossier.has_lawsuits is False:
        text.append(_("The gate found no lawsuit for this document."), "bold")
        return text
    for number, figure in enumerate(dossier.counts):
        total = format_int(figure.total) if figure.total is not None else "?"
        text.append(" · " if number else "")
        text.append(f"{figure.spec.words} ")
        text.append(total, "bold")
    record = dossier.step("count")
    if not dossier.counts and record.problem:
        text.append(_("Counts: {problem}").format(problem=record.problem))
    return text


def overview_text(dossier: Dossier) -> Text:
    """The dossier in a few lines: the counts, the registry's status, warrants and
    executions, the decision."""
    text = Text()
    if dossier.has_lawsuits is False:
        text.append(_("The gate found no lawsuit for this document.") + "\n", "bold")
    if dossier.has_lawsuits is not False and dossier.counts:
        text.append(_("Lawsuits") + ": ", "bold")
        text.append_text(exposure_summary(dossier))
        text.append("\n")
    entity = dossier.entity
    if entity is not None and entity.revenue_service_status:
        text.append(_("Revenue") + ": ", "bold")
        status = v.word(v.REVENUE_STATUS_WORDS, entity.revenue_service_status)
        when = entity.revenue_updated_at
        text.append(status + (f" ({format_date(when)})" if when else "") + "\n")
    criminal = []
    if dossier.warrants is not None:
        wanted = sum(1 for w in dossier.warrants if warrant_is_open(w))
        criminal.append(
            ngettext(
                "{n} warrant ({open} open)", "{n} warrants ({open} open)", len(dossier.warrants)
            ).format(n=len(dossier.warrants), open=wanted)
            if dossier.warrants
            else _("no arrest warrant")
        )
    if dossier.executions is not None:
        serving = sum(1 for e in dossier.executions if execution_is_active(e))
        criminal.append(
            ngettext(
                "{n} execution ({serving} being served)",
                "{n} executions ({serving} being served)",
                len(dossier.executions),
            ).format(n=len(dossier.executions), serving=serving)
            if dossier.executions
            else _("no penal execution")
        )
    if criminal:
        text.append(_("Criminal") + ": ", "bold")
        text.append(" · ".join(criminal) + "\n")
    decision = dossier.decision
    text.append(_("Decision") + ": ", "bold")
    text.append(
        (
            _("{verdict} by {by} on {when}").format(
                verdict=v.word(v.VERDICT_WORDS, decision.verdict),
                by=decision.by,
                when=format_datetime(decision.at),
            )
            if decision is not None
            else _("none yet")
        )
        + "\n"
    )
    return text


def _side_word(value: object) -> str:
    return v.word(v.SIDE_WORDS, value.title() if isinstance(value, str) else value)


def exposure_figures(dossier: Dossier) -> list[Figure]:
    """The four charts (side, court, year, amount band) that have something to draw. Side and
    court come from the aggregations; year and amount band from the listing (D192)."""
    figures: list[Figure] = []
    aggregations = dossier.aggregations
    if aggregations is not None:
        sides = [(_side_word(b.value), int(b.count)) for b in aggregations.dimension("sides")]
        figures.append((_("Lawsuits by side"), sides, False))
        courts = [(str(b.value), int(b.count)) for b in aggregations.dimension("tribunals")][:8]
        figures.append((_("Lawsuits by court"), courts, False))
    lawsuits = dossier.lawsuits or []
    if lawsuits:
        years = [
            (str(year)[-2:] if len(year_figures(lawsuits)) > 12 else str(year), n)
            for year, n in year_figures(lawsuits)
        ]
        figures.append((_("Lawsuits by year of distribution"), years, True))
        bands = [
            (v.word(v.AMOUNT_BAND_WORDS, b), n) for b, n, _total in amount_band_figures(lawsuits)
        ]
        figures.append((_("Lawsuits by amount of the claim"), bands, False))
    return figures


# --- warrants and executions ---------------------------------------------------------------


def criminal_lines(dossier: Dossier) -> list[tuple[str, Text]]:
    """One entry per warrant and execution (its kind and index as the key), what it means
    first; and a line for a step that found none, failed, or did not run."""
    found: list[tuple[str, Text]] = []
    warrants = list(enumerate(dossier.warrants or []))
    # D116's order: the open ones first, then the newest.
    warrants.sort(key=lambda item: str(item[1].issue_date or ""), reverse=True)
    warrants.sort(key=lambda item: not warrant_is_open(item[1]))
    for index, warrant in warrants:
        details = " · ".join(
            p
            for p in (
                warrant.number,
                warrant.court,
                _("issued {date}").format(date=format_date(warrant.issue_date))
                if warrant.issue_date
                else None,
            )
            if p
        )
        found.append(
            (f"warrant:{index}", Text.assemble(warrant_meaning(warrant), ("\n  " + details, "dim")))
        )
    for index, execution in enumerate(dossier.executions or []):
        details = " · ".join(p for p in (execution.code, execution.county) if p)
        found.append(
            (
                f"execution:{index}",
                Text.assemble(execution_meaning(execution), ("\n  " + details, "dim")),
            )
        )
    for step, items, none in (
        ("warrants", dossier.warrants, _("No arrest warrant found at the BNMP.")),
        ("executions", dossier.executions, _("No penal execution found.")),
    ):
        record = dossier.step(step)
        if items:
            continue
        if record.status == StepStatus.FAILED:
            line = _("{step} failed: {problem}").format(
                step=v.word(v.DOSSIER_STEP_WORDS, step), problem=record.problem
            )
        elif items is not None and record.status == StepStatus.DONE:
            line = none
        elif step == "warrants" and dossier.key.search_type == "cnpj":
            line = _("Arrest warrants are searched by CPF: a company has none.")
        else:
            line = _("{step}: not asked yet.").format(step=v.word(v.DOSSIER_STEP_WORDS, step))
        found.append((f"none:{step}", Text(line, style="dim")))
    return found


def data_age(dossier: Dossier, now: datetime) -> str:
    """``data of 15/11/2026 09:30 (oldest step)``: the age a refresh would renew."""
    times = [r.fetched_at for r in dossier.steps.values() if r.fetched_at is not None]
    if not times:
        return ""
    return _("data of {when}").format(when=format_datetime(min(times)))

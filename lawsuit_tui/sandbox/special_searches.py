"""Requests beyond the lawsuit searches of D11: warrants, penal executions, custom searches by
filters and attachment downloads (D68, D70, D115-D120).

:mod:`lawsuit_tui.sandbox.request_engine` hands a request here when :func:`is_special` says so:
such a request has no stored copy to deliver first; its answers come at the court's moment
(D15) from :func:`results`, computed in the world's thread.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from lawsuit_tui.domain.identifiers import format_cnj
from lawsuit_tui.sandbox.errors import ServiceError
from lawsuit_tui.sandbox.lawsuit_filters import filters_count, matches
from lawsuit_tui.sandbox.records import Result
from lawsuit_tui.sandbox.schemas import SearchIn
from lawsuit_tui.sandbox.searches import LAWSUIT_SEARCHES, application_error
from lawsuit_tui.sandbox.world import World
from lawsuit_tui.sandbox.world.criminal import ExecutionRec, WarrantRec
from lawsuit_tui.sandbox.world.rand import iso
from lawsuit_tui.sandbox.world.systems import DOWN_COURTS

__all__ = [
    "ATTACHMENT_SEARCHES",
    "CUSTOM_LIMIT",
    "check",
    "is_special",
    "plan_and_cost",
    "results",
]

ATTACHMENT_SEARCHES = ("lawsuit_attachment", "execution_attachment")
CUSTOM_LIMIT = 100  # D68: at most 100 lawsuits
_CRIMINAL = ("warrant", "execution")

Barred = Callable[[str, int], str | None]
"""The application error that bars reaching a secret lawsuit (the engine's ``access``)."""


def is_special(search: SearchIn) -> bool:
    """Whether this module answers the request (not the lawsuit searches of D11)."""
    return (
        search.response_type in _CRIMINAL
        or search.search_type in ATTACHMENT_SEARCHES
        or search.search_type == "custom"
    )


def check(search: SearchIn) -> None:
    """422 for what a special search lacks (D115, D119; D94: the documented schema allows
    the body, the service cannot use it), every rule at once."""
    problems: list[dict[str, str]] = []
    params = search.search_params
    if search.search_type in ATTACHMENT_SEARCHES and not (
        params is not None and (params.attachment_id or "").strip()
    ):
        problems.append(
            {
                "field": "search.search_params.attachment_id",
                "rule": "missing",
                "message": f"a {search.search_type} search names the attachment to fetch",
            }
        )
    if search.search_type == "custom" and not filters_count(params.filter if params else None):
        problems.append(
            {
                "field": "search.search_params.filter",
                "rule": "missing",
                "message": "a custom search needs at least one filter",
            }
        )
    if problems:
        raise ServiceError.unprocessable(problems)


def plan_and_cost(search: SearchIn, with_attachments: bool) -> tuple[str, float] | None:
    """D118: the plan and the price (BRL) of a special search; None for the others."""
    if search.response_type == "warrant":
        return (
            ("complete_warrant_search", 2.0)
            if with_attachments
            else (
                "simple_warrant_search",
                1.5,
            )
        )
    if search.response_type == "execution":
        return (
            ("complete_execution_search", 2.0)
            if with_attachments
            else (
                "simple_execution_search",
                1.5,
            )
        )
    if search.search_type == "lawsuit_attachment":
        return "download_attachment", 0.0  # FAQ: a PDF is not charged apart
    if search.search_type == "execution_attachment":
        return "download_execution_attachment", 0.0
    if search.search_type == "custom":
        return "custom_search", 0.0  # an on-demand report, billed by contract
    return None


def results(
    world: World,
    search: SearchIn,
    at: datetime,
    *,
    with_attachments: bool,
    barred: Barred,
    courts_down: set[str],
) -> list[Result]:
    """The answers of a special request at ``at`` (the court's moment of D15)."""
    if search.response_type == "warrant":
        return _warrants(world, search, at, with_attachments)
    if search.response_type == "execution":
        return _executions(world, search, at)
    if search.search_type in ATTACHMENT_SEARCHES:
        return _attachment(world, search, at, barred)
    return _custom(world, search, at, barred, courts_down)


def _cnj(key: str) -> str:
    try:
        return format_cnj(key.strip())
    except ValueError:
        return key.strip()


def _error(code: str, details: str | None = None) -> Result:
    return Result("application_error", application_error(code, details), False)


def _person(world: World, search: SearchIn) -> tuple[str | None, Result | None]:
    """The one person a warrant or execution search is about, or the error to answer."""
    key = search.search_key
    if search.search_type == "name":
        found = world.homonyms(key)
        if len(found) > 1:
            return None, _error("HOMONYM_AMBIGUOUS")
        return (found[0], None) if found else (None, None)
    if search.search_type == "rji":
        return world.criminal.person_of_rji(key), None
    return key, None


def _warrants(world: World, search: SearchIn, at: datetime, with_attachments: bool) -> list[Result]:
    person, error = _person(world, search)
    if error is not None:
        return [error]
    criminal = world.criminal
    found: list[tuple[WarrantRec, dict[str, Any]]] = []
    if person is not None:
        entity = world.entity(person)
        for warrant in criminal.warrants_of(person):
            view = criminal.warrant_view(warrant, entity, with_attachments=with_attachments)
            if view["issue_date"] <= iso(at):
                found.append((warrant, view))
    if not found:
        return [_error("WARRANT_NOT_FOUND")]
    # D116: open ones first, then the newest.
    found.sort(key=lambda item: item[1]["issue_date"], reverse=True)
    found.sort(key=lambda item: item[1]["status"] != "Pendente de Cumprimento")
    return [Result("warrant", view, False) for _warrant, view in found]


def _executions(world: World, search: SearchIn, at: datetime) -> list[Result]:
    criminal = world.criminal
    executions: list[ExecutionRec] = []
    if search.search_type in LAWSUIT_SEARCHES:
        code = _cnj(search.search_key)
        own = criminal.execution(code)
        executions = [own] if own is not None else criminal.executions_from(code)
    else:
        person, error = _person(world, search)
        if error is not None:
            return [error]
        executions = criminal.executions_of(person) if person else []
    out: list[Result] = []
    for execution in executions:
        view = criminal.execution_view(execution, at)
        if view is not None:
            out.append(Result("execution", view, False, execution.code))
    return out or [_error("EXECUTION_NOT_FOUND")]


def _attachment(world: World, search: SearchIn, at: datetime, barred: Barred) -> list[Result]:
    """D120: the lawsuit (or execution) with the attachment asked for."""
    attachment_id = (search.search_params.attachment_id or "") if search.search_params else ""
    code = _cnj(search.search_key)
    execution = search.search_type == "execution_attachment"
    if execution and world.criminal.execution(code) is None:
        return [_error("EXECUTION_NOT_FOUND")]
    instance = search.search_params.lawsuit_instance if search.search_params else None
    hits = [(c, i) for c, i in world.find("lawsuit_cnj", code) if instance in (None, i)]
    if not hits:
        return [_error("LAWSUIT_NOT_FOUND")]
    for found_code, found_instance in hits:
        for lawsuit in world.court_view(found_code, found_instance, at):
            attachments = lawsuit.get("attachments") or []
            if not any(a.get("attachment_id") == attachment_id for a in attachments):
                continue
            reason = barred(found_code, found_instance)
            if reason is not None:
                return [_error(reason)]
            for item in attachments:
                if item.get("attachment_id") == attachment_id:
                    item["status"] = "done"
            return [Result("lawsuit", lawsuit, False, found_code)]
    return [
        _error(
            "LAWSUIT_NOT_FOUND",
            f"The attachment {attachment_id} is not in lawsuit {code} at the court.",
        )
    ]


def _index_view(world: World, code: str) -> list[dict[str, Any]]:
    """What the filters read of a lawsuit, from the index alone (no steps rendered)."""
    rec = world.record(code)
    if rec is None:
        return []
    entities = world.pop.entities
    parties = [
        {
            "side": p.side,
            "name": entities[p.document].name,
            "main_document": p.document,
            "documents": [{"document": p.document}],
        }
        for p in rec.parties
    ]
    return [
        {
            "instance": inst.instance,
            "tribunal_acronym": rec.court.acronym,
            "tribunal": rec.court.name,
            "classifications": [{"code": str(inst.klass[0]), "name": inst.klass[1]}],
            "subjects": [{"code": str(c), "name": n} for c, n in rec.subjects],
            "parties": parties,
            "amount": rec.amount,
            "distribution_date": iso(inst.distribution),
        }
        for inst in rec.instances
    ]


def _custom(
    world: World, search: SearchIn, at: datetime, barred: Barred, courts_down: set[str]
) -> list[Result]:
    """D119: the lawsuits of the whole world that pass the filter, at most 100."""
    flt = search.search_params.filter if search.search_params else None
    index_filter = (
        flt.model_copy(update={"last_step_date_gte": None, "last_step_date_lte": None})
        if flt is not None
        else None
    )
    out: list[Result] = []
    for rec in world.records():
        if rec.court.acronym in DOWN_COURTS or rec.court.acronym.upper() in courts_down:
            continue
        for cheap in _index_view(world, rec.code):
            instance = int(cheap["instance"])
            # The index answers every rule but the last step's date; the view answers that.
            if not matches(cheap, index_filter):
                continue
            if barred(rec.code, instance) is not None:
                continue  # D51: a secret lawsuit is left out silently
            for lawsuit in world.court_view(rec.code, instance, at):
                if matches(lawsuit, flt):
                    out.append(Result("lawsuit", lawsuit, False, rec.code))
            if len(out) >= CUSTOM_LIMIT:
                return out[:CUSTOM_LIMIT]
    return out or [_error("LAWSUIT_NOT_FOUND", "No lawsuit matches the filters.")]

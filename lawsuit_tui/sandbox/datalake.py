"""The datalake: what the lawsuits service's synchronous routes read (D71, D101-D107).

The datalake holds each lawsuit's stored copy (the world's ``stored_view``, or the court's copy
of the moment an on-demand read refreshed it: ``SandboxState.datalake_refreshed``). One
selection serves the listing, the count and the aggregations, so the three always agree: the
count is the listing's length, the aggregations are computed over the listing's items.

Everything here runs in the world's thread (``state.run_world``) and keeps nothing of its own.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from lawsuit_tui.domain.datalake import SYNTHETIC_DIMENSIONS
from lawsuit_tui.sandbox.datalake_schemas import (
    DatalakeSearchParamsIn,
    EntitiesIn,
    LawsuitsIn,
)
from lawsuit_tui.sandbox.errors import ServiceError
from lawsuit_tui.sandbox.lawsuit_filters import matches
from lawsuit_tui.sandbox.searches import normalize_search_key
from lawsuit_tui.sandbox.state import SandboxState

__all__ = [
    "LISTING_RESPONSE_TYPES",
    "SYNTHETIC_RESPONSE_TYPES",
    "Selection",
    "aggregate",
    "entities",
    "select",
    "steps_count",
    "stored_lawsuit",
    "without_nulls",
]

# D102: the search types the datalake pages name; the others are not served here.
_NOT_SERVED = ("lawsuit_attachment", "execution_attachment", "custom")
LISTING_RESPONSE_TYPES = ("lawsuits", "lawsuit")
SYNTHETIC_RESPONSE_TYPES = ("lawsuits", "lawsuit", "synthetic_lawsuits")
_ENTITY_SEARCHES = ("cpf", "cnpj", "name")
# D102: what a secret lawsuit's item keeps (the on-demand page: court, county, city).
_PUBLIC_FIELDS = (
    "code",
    "instance",
    "secrecy_level",
    "tribunal",
    "tribunal_acronym",
    "justice",
    "justice_description",
    "county",
    "city",
    "state",
    "courts",
    "crawler",
    "created_at",
    "updated_at",
)
_EMPTY_LISTS = (
    "classifications",
    "subjects",
    "parties",
    "attachments",
    "related_lawsuits",
    "steps",
)


# Null-free copies remembered (as SandboxState.stored_view does: a few hundred lawsuits, the
# big ones made again each time).
_VIEWS_KEPT = 256
_VIEW_MAX_STEPS = 2_000


def _compact(text: str) -> str:
    return re.sub(r"[^0-9A-Za-z]", "", text).upper()


@dataclass
class Selection:
    """The lawsuits a datalake search finds: the listing's items, newest first."""

    search_type: str
    items: list[dict[str, Any]] = field(default_factory=list)
    secret: int = 0  # secret lawsuits matched: left out (documents) or stripped (CNJ)
    searched: frozenset[str] = frozenset()  # documents of the searched party


# ------------------------------------------------------------------------- stored copies


def _refresh_key(code: str, instance: int) -> str:
    return f"{code}#{instance}"


def stored_copies(state: SandboxState, code: str, instance: int | None) -> list[dict[str, Any]]:
    """The datalake's copies of a lawsuit's instances, without nulls: the world's stored copy,
    or the court's copy of the moment an on-demand read refreshed it (shared dicts: copy to
    change). Remembered for the next question (``state.datalake_views``)."""
    world = state.world
    out: list[dict[str, Any]] = []
    for found_code, found_instance in world.find("lawsuit_cnj", code):
        if instance is not None and found_instance != instance:
            continue
        refreshed = state.datalake_refreshed.get(_refresh_key(found_code, found_instance))
        key = (found_code, found_instance, refreshed or "")
        views = state.datalake_views.get(key)
        if views is None:
            if refreshed is not None:
                made = world.court_view(
                    found_code, found_instance, datetime.fromisoformat(refreshed)
                )
            else:
                made = state.stored_view(found_code, found_instance)
            views = [without_nulls(view) for view in made]
            if sum(len(v.get("steps") or ()) for v in views) <= _VIEW_MAX_STEPS:
                state.datalake_views[key] = views
                if len(state.datalake_views) > _VIEWS_KEPT:
                    state.datalake_views.popitem(last=False)
        else:
            state.datalake_views.move_to_end(key)
        out.extend(views)
    return out


def _on_demand(state: SandboxState, code: str, instance: int, ttl_days: int | None) -> bool:
    """D102 (on-demand page): go to the court when the datalake has no copy, or (with
    ``cache_ttl_in_days``) a copy older than that; the refresh is remembered."""
    world = state.world
    key = _refresh_key(code, instance)
    refreshed = state.datalake_refreshed.get(key)
    updated = datetime.fromisoformat(refreshed) if refreshed else world.stored_at(code, instance)
    now = state.clock.now()
    stale = updated is None or (ttl_days is not None and updated < now - timedelta(days=ttl_days))
    if stale and not world.court_is_down(code):
        state.datalake_refreshed[key] = now.isoformat()
    return stale


def _barred(state: SandboxState, code: str, instance: int) -> bool:
    """A secret lawsuit without an active credential for its court under ``*`` (D49)."""
    world = state.world
    if not world.is_secret(code, instance):
        return False
    return state.vault.status(world.court_system(code, instance), "*") != "active"


def without_nulls(value: Any) -> Any:
    """D102: absent fields left out rather than sent as null (the OAS makes none nullable).
    Never changes ``value`` (the world's views are shared): what it must change is copied."""
    if isinstance(value, dict):
        for item in value.values():
            if item is None or (item and isinstance(item, dict | list)):
                return {k: without_nulls(v) for k, v in value.items() if v is not None}
        return value  # nothing to leave out, nothing nested: shared as it is (most steps)
    if isinstance(value, list) and value and isinstance(value[0], dict | list):
        return [without_nulls(v) for v in value]
    return value


def _stripped(lawsuit: dict[str, Any]) -> dict[str, Any]:
    out = {name: lawsuit[name] for name in _PUBLIC_FIELDS if lawsuit.get(name) is not None}
    for name in _EMPTY_LISTS:
        out[name] = []
    return out


# ------------------------------------------------------------------------- the selection


def _party_documents(party: dict[str, Any]) -> set[str]:
    docs = {_compact(str(d.get("document", ""))) for d in party.get("documents") or []}
    if party.get("main_document"):
        docs.add(_compact(str(party["main_document"])))
    docs.discard("")
    return docs


def searched_parties(lawsuit: dict[str, Any], searched: frozenset[str]) -> list[dict[str, Any]]:
    """The parties of ``lawsuit`` the search names: those with a searched document, or
    represented by a searched lawyer (an OAB search)."""
    found = []
    for party in lawsuit.get("parties") or []:
        if _party_documents(party) & searched or any(
            _party_documents(lawyer) & searched for lawyer in party.get("lawyers") or []
        ):
            found.append(party)
    return found


def _searched_documents(state: SandboxState, search_type: str, key: str) -> frozenset[str]:
    if search_type == "name":
        return frozenset(state.world.documents_named(key))
    if search_type in ("cpf", "cnpj", "oab"):
        return frozenset({_compact(key)})
    return frozenset()


def _check_search(search_type: str, response_type: str | None, accepted: Iterable[str]) -> None:
    # D94: the documented enums allow these values; this route cannot serve them (422).
    if search_type in _NOT_SERVED:
        raise ServiceError.unusable(
            "search.search_type",
            f"search_type {search_type} is not served by this route; "
            "use cpf, cnpj, oab, name, lawsuit_cnj or rji",
        )
    choices = tuple(accepted)
    if response_type is not None and response_type not in choices:
        raise ServiceError.unusable(
            "search.response_type",
            f"response_type {response_type} is not served by this route; use {', '.join(choices)}",
        )


def select(
    state: SandboxState, body: LawsuitsIn, *, accepted: Iterable[str] = LISTING_RESPONSE_TYPES
) -> Selection:
    """The lawsuits ``body`` finds in the datalake (D71, D102); 422 for what it cannot ask."""
    search = body.search
    search_type = "lawsuit_cnj" if search.search_type == "lawsuit_id" else search.search_type
    _check_search(search_type, search.response_type, accepted)
    selection = Selection(search_type)
    if search_type == "rji":  # the world holds no criminal registry numbers
        return selection
    key = normalize_search_key(search.search_type, search.search_key)
    params: DatalakeSearchParamsIn = body.merged_params()
    flt = params.filter
    searched = _searched_documents(state, search_type, key)
    selection.searched = searched
    world = state.world
    by_cnj = search_type == "lawsuit_cnj"
    for code, instance in world.find(search_type, key):
        if params.lawsuit_instance is not None and instance != params.lawsuit_instance:
            continue
        barred = _barred(state, code, instance)
        if barred and not by_cnj:
            selection.secret += 1  # D39: a document search leaves secret lawsuits out
            continue
        if barred:
            # D102: the datalake knows a secret lawsuit by its public fields alone, captured
            # or not (court portals show them even under secrecy).
            copies = stored_copies(state, code, instance) or world.court_view(
                code, instance, state.clock.now()
            )
            selection.secret += len(copies)
            selection.items.extend(_stripped(lawsuit) for lawsuit in copies)
            continue
        if by_cnj and search.on_demand:
            _on_demand(state, code, instance, body.ttl_days)
        for lawsuit in stored_copies(state, code, instance):
            # The searched party's side is checked below: it may be several documents.
            if not matches(lawsuit, flt, None):
                continue
            if flt is not None and flt.side is not None:
                sides = {p.get("side") for p in searched_parties(lawsuit, searched)}
                if flt.side not in sides:
                    continue
            selection.items.append(lawsuit)
    selection.items.sort(
        key=lambda lw: (
            str(lw.get("distribution_date") or ""),
            str(lw.get("code")),
            lw.get("instance") or 0,
        ),
        reverse=True,
    )
    return selection


# ------------------------------------------------------------------------- aggregations


def _buckets(counter: Counter[str]) -> list[dict[str, Any]]:
    ranked = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    return [{"value": value, "count": count} for value, count in ranked]


def aggregate(selection: Selection, request_id: str) -> dict[str, Any]:
    """D106: ``POST /lawsuits/synthetic`` over the listing's items."""
    names = SYNTHETIC_DIMENSIONS
    counters: dict[str, Counter[str]] = {name: Counter() for name in names}

    def add(name: str, values: Iterable[Any]) -> None:
        for value in {str(v) for v in values if v not in (None, "")}:
            counters[name][value] += 1

    for lawsuit in selection.items:
        add("classifications", (c.get("name") for c in lawsuit.get("classifications") or []))
        add("subjects", (s.get("name") for s in lawsuit.get("subjects") or []))
        add("areas", [lawsuit.get("area")])
        add("tribunals", [lawsuit.get("tribunal_acronym")])
        add("justices", [lawsuit.get("justice_description")])
        add("phases", [lawsuit.get("phase")])
        add("states", [lawsuit.get("state")])
        add("instances", [lawsuit.get("instance")])
        mine = searched_parties(lawsuit, selection.searched)
        add("sides", (str(p.get("side") or "").upper() for p in mine))  # D79: upper case
        add("person_types", (p.get("person_type") for p in mine))
        add("names", (p.get("name") for p in mine))
        others = [p for p in lawsuit.get("parties") or [] if p not in mine]
        add("other_parties", (p.get("name") for p in others))
    out: dict[str, Any] = {name: _buckets(counters[name]) for name in names}
    out["lawsuits_count"] = len(selection.items)
    out["secrecy_lawsuits_count"] = selection.secret
    out["request_id"] = request_id
    return out


# ------------------------------------------------------------------------- steps count


def steps_count(state: SandboxState, numbers: list[str]) -> list[dict[str, Any]]:
    """D107: one item per instance of each CNJ (duplicates once), failures per item."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for text in numbers:
        try:
            code = normalize_search_key("lawsuit_cnj", text, field="lawsuit_cnj")
        except ServiceError:
            out.append(_failed(text, "INVALID_CNJ: not a CNJ number"))
            continue
        if code in seen:
            continue
        seen.add(code)
        instances = [i for _c, i in state.world.find("lawsuit_cnj", code)]
        copies = {int(c.get("instance") or 0): c for c in stored_copies(state, code, None)}
        if not copies:
            out.append(_failed(code, "LAWSUIT_NOT_FOUND: the datalake holds no copy"))
            continue
        for instance in instances:
            copy = copies.get(instance)
            if copy is None:
                continue
            if _barred(state, code, instance):
                failed = _failed(code, "SECRECY_RESTRICTED: the lawsuit is under secrecy")
                out.append({**failed, "instance": instance})
                continue
            out.append(
                {
                    "code": code,
                    "instance": instance,
                    "steps_count": len(copy.get("steps") or []),
                    "attachments_count": len(copy.get("attachments") or []),
                }
            )
    return out


def _failed(code: str, message: str) -> dict[str, Any]:
    # D107: instance 0 when no instance is known.
    return {
        "code": code,
        "instance": 0,
        "steps_count": 0,
        "attachments_count": 0,
        "error_message": message,
    }


# ------------------------------------------------------------------------- one lawsuit


def stored_lawsuit(
    state: SandboxState,
    text: str,
    instance: int | None,
    *,
    all_att: bool = False,
    saved_att: bool = False,
    only_att_with_steps: bool = False,
) -> dict[str, Any]:
    """D101: ``GET /lawsuits/{lawsuit_cnj}``: the datalake's copy of one instance."""
    code = normalize_search_key("lawsuit_cnj", text, field="lawsuit_cnj")
    copies = stored_copies(state, code, None)
    if instance is not None:
        wanted = [c for c in copies if c.get("instance") == instance]
    else:  # the highest instance: where the lawsuit stands now
        wanted = sorted(copies, key=lambda c: int(c.get("instance") or 0))[-1:]
    if not wanted:
        raise ServiceError.not_found(
            "LAWSUIT_NOT_FOUND", f"the datalake holds no copy of lawsuit {code}"
        )
    lawsuit = dict(wanted[0])
    found_instance = int(lawsuit.get("instance") or 1)
    if _barred(state, code, found_instance):
        return _stripped(lawsuit)
    attachments = list(lawsuit.get("attachments") or [])
    if all_att:
        attachments = [a for c in copies for a in c.get("attachments") or []]
    if only_att_with_steps:
        attachments = [a for a in attachments if a.get("step_id")]
    lawsuit["attachments"] = attachments
    if saved_att:
        lawsuit["saved_attachments"] = [a for a in attachments if a.get("status") == "done"]
    return lawsuit


# ------------------------------------------------------------------------- registration data


def entities(state: SandboxState, body: EntitiesIn, request_id: str) -> dict[str, Any]:
    """D78, D103: ``POST /entities``."""
    search = body.search
    if search.search_type not in _ENTITY_SEARCHES:  # D94: allowed by the enum, not served
        raise ServiceError.unusable(
            "search.search_type",
            f"search_type {search.search_type} is not served by this route; use cpf, cnpj or name",
        )
    if search.response_type is not None and search.response_type != "entity":
        raise ServiceError.unusable(
            "search.response_type", "response_type must be entity on this route"
        )
    key = normalize_search_key(search.search_type, search.search_key)
    world = state.world
    documents = world.homonyms(key) if search.search_type == "name" else [key]
    read_at = state.clock.now() if search.on_demand else None
    found = [
        entity
        for document in documents
        if (entity := world.entity(document, reveal_partners=body.reveal, read_at=read_at))
        is not None
    ]
    return {
        "request_id": request_id,
        "has_lawsuits": bool(world.find(search.search_type, key)),
        "response_data": found,
    }

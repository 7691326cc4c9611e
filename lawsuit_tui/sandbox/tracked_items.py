"""Tracked items: what each tracking follows, one record per lawsuit instance (tracking.json).

A tracking of a CNJ follows each instance of that lawsuit; a tracking of a document (CPF,
CNPJ, OAB, name) follows every lawsuit it found (D157). Items are plain records kept on the
state (``state.tracked_items``, keyed by ``tracked_item_id``, an id stable for the tracking
and the instance), made from the world's index rather than from rendered lawsuits, so a
thousand trackings cost milliseconds: the step count is the steps up to the world's epoch plus
the moving ones dated by then, exactly as a lawsuit view would count them. They are made when
the tracking is registered and again after each run; the tracking's ``tracked_items_count``
and ``tracked_items_steps_count`` are their sum.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.ids import stable_uuid
from lawsuit_tui.sandbox.records import TrackingEntry
from lawsuit_tui.sandbox.schemas import SearchIn
from lawsuit_tui.sandbox.searches import LAWSUIT_SEARCHES
from lawsuit_tui.sandbox.state import SandboxState
from lawsuit_tui.sandbox.world import World
from lawsuit_tui.sandbox.world.lawsuits import InstanceRec, LawsuitRec
from lawsuit_tui.sandbox.world.steps import StepContext, moving_count, moving_time
from lawsuit_tui.sandbox.world.world import compact_key

__all__ = ["item_counts", "refresh_items", "search_hits", "tracked_hits"]


def search_hits(world: World, search: SearchIn) -> list[tuple[str, int]]:
    """The lawsuit instances a tracking's search names in the world, whenever distributed: a
    lawsuit's instances (the one asked for, when ``lawsuit_instance`` is), or a document's."""
    if search.search_type not in LAWSUIT_SEARCHES:
        return list(world.find(search.search_type, search.search_key))
    wanted = search.search_params.lawsuit_instance if search.search_params else None
    return [
        (code, instance)
        for code, instance in world.find("lawsuit_cnj", search.search_key)
        if wanted is None or instance == wanted
    ]


def tracked_hits(world: World, entry: TrackingEntry, at: datetime) -> list[tuple[str, int]]:
    """The lawsuit instances ``entry`` follows at ``at`` (distributed by then; a document's
    secret lawsuits left out, as a document search leaves them, D51)."""
    document = entry.search.search_type not in LAWSUIT_SEARCHES
    found: list[tuple[str, int]] = []
    for code, instance in search_hits(world, entry.search):
        rec = world.record(code)
        inst = rec.inst(instance) if rec is not None else None
        if rec is None or inst is None or inst.distribution > at:
            continue
        if document and rec.secrecy > 0:
            continue
        found.append((code, instance))
    return found


def _side(world: World, rec: LawsuitRec, search_type: str, key: str) -> str:
    """Which side of the lawsuit the tracked document is on (Unknown for a lawsuit)."""
    compact = compact_key(key)
    for party in rec.parties:
        if search_type in ("cpf", "cnpj") and party.document == compact:
            return party.side
        if search_type == "oab" and compact.lstrip("0") in party.lawyers:
            return party.side
        if search_type == "name":
            entity = world.pop.entities.get(party.document)
            if entity is not None and compact_key(entity.name) == compact:
                return party.side
    return "Unknown"


def _steps(world: World, rec: LawsuitRec, inst: InstanceRec, at: datetime) -> tuple[int, str]:
    """The instance's step count at ``at`` and the date of its newest step."""
    ctx = StepContext(world.seed, world.epoch, rec, inst, "", [], [], [])
    moved = moving_count(ctx, at)
    last = moving_time(ctx, moved - 1) if moved else inst.end
    return inst.n_steps + moved, iso(last)


def _title(world: World, rec: LawsuitRec, inst: InstanceRec) -> str:
    entities = world.pop.entities
    active = next((entities[p.document].name for p in rec.parties if p.side == "Active"), "")
    passive = next((entities[p.document].name for p in rec.parties if p.side == "Passive"), "")
    return f"{inst.klass[1]} - {active} x {passive}".strip()


def _item(
    state: SandboxState, entry: TrackingEntry, code: str, instance: int, at: datetime
) -> dict[str, Any] | None:
    world = state.world
    rec = world.record(code)
    inst = rec.inst(instance) if rec is not None else None
    if rec is None or inst is None:
        return None
    item_id = stable_uuid("tracked-item", state.seed, entry.tracking_id, rec.code, instance)
    previous = state.tracked_items.get(item_id)
    steps_count, last_step = _steps(world, rec, inst, at)
    return {
        "tracked_item_id": item_id,
        "tracking_id": entry.tracking_id,
        "tracking_type": entry.search.search_type,
        "lawsuit_cnj": rec.code,
        "lawsuit_instance": instance,
        "tribunal_id": str(rec.tribunal_number),
        "tribunal_acronym": rec.court.acronym,
        "distribution_date": iso(inst.distribution),
        "steps_count": steps_count,
        "last_step_date": last_step,
        "related_response_id": (previous or {}).get("related_response_id", ""),
        "lawsuit_name": _title(world, rec, inst),
        "tracked_side": _side(world, rec, entry.search.search_type, entry.search.search_key),
        "lawsuit_status": "Arquivado" if inst.archived else "Ativo",
        "lawsuit_amount": rec.amount,
        "created_at": (previous or {}).get("created_at") or entry.record["created_at"],
        "updated_at": iso(at),
        "tags": {},
    }


def refresh_items(state: SandboxState, entries: Iterable[TrackingEntry], at: datetime) -> None:
    """Make (or bring up to date) the items of ``entries`` at ``at``, and their counts on each
    tracking record. Cheap (the world's index only); call it in the world's thread."""
    world = state.world
    for entry in entries:
        items = [
            item
            for code, instance in tracked_hits(world, entry, at)
            if (item := _item(state, entry, code, instance, at)) is not None
        ]
        for item in items:
            state.tracked_items[item["tracked_item_id"]] = item
        count, steps = item_counts(items)
        entry.record.update(tracked_items_count=count, tracked_items_steps_count=steps)


def item_counts(items: Iterable[dict[str, Any]]) -> tuple[int, int]:
    """How many items, and how many steps they hold together."""
    count = steps = 0
    for item in items:
        count += 1
        steps += int(item.get("steps_count") or 0)
    return count, steps

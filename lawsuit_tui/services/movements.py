"""What a tracking's response becomes in the inbox: one movement, and its new steps.

A movement is one response a tracking produced (D30), named by its ``response_id`` so that
whichever way brings it first (a webhook, a poll of ``GET /responses/tracking/{id}``) stores
it, and the second finds it stored (D171). :func:`make_movements` is the rule; it runs
before the response is stored, one writer at a time, so the lawsuit it diffs against is the
one the response replaces.

The new steps (D172): the steps whose ``step_id`` the cached lawsuit did not hold before this
response (the change set the cache computed while storing it). When the cache held no earlier
version, or already held these steps (a lookup stored the same version first), they are the
steps dated after the newest step of the tracking's previous movement of that lawsuit, else
after the tracking was created (the service's own rule for a first run, D54), else the
lawsuit's latest step: a movement always shows what moved.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from lawsuit_tui.domain.base import as_datetime
from lawsuit_tui.domain.inbox import (
    KIND_ERROR,
    KIND_LAWSUIT,
    KIND_STEPS,
    InboxFilter,
    matched_terms,
)
from lawsuit_tui.domain.tiers import labels_of, tier_of
from lawsuit_tui.store import LawsuitChange, Store

__all__ = [
    "LAWSUIT_SEARCHES",
    "STEPS_LIMIT",
    "STEP_TEXT_LIMIT",
    "Ingested",
    "ingest_tracking_responses",
    "is_tracking_response",
    "make_movements",
]

LAWSUIT_SEARCHES = frozenset({"lawsuit_cnj", "lawsuit_id"})
STEPS_LIMIT = 50
"""New steps kept in a movement (a first version can bring hundreds): the newest."""
STEP_TEXT_LIMIT = 2000
"""Characters of a step's text kept in a movement; the lawsuit tree has the whole text."""


def is_tracking_response(record: Mapping[str, Any]) -> bool:
    """A response a tracking produced (``origin: tracking`` with its id), that is a movement."""
    return record.get("origin") == "tracking" and isinstance(record.get("origin_id"), str)


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _stamp(value: Any) -> datetime | None:
    return as_datetime(value) if isinstance(value, str | datetime) else None


def _not_after(first: Any, second: Any) -> bool:
    """``first`` is not later than ``second`` (both instants; unknown: False)."""
    one, two = _stamp(first), _stamp(second)
    return one is not None and two is not None and one <= two


def _parties(lawsuit: Mapping[str, Any]) -> str:
    """``FIRST ACTIVE x FIRST PASSIVE`` (the lawsuit's name when it has no parties)."""
    names: dict[str, str] = {}
    for party in _dicts(lawsuit.get("parties")):
        side = _text(party.get("side")).lower()
        name = _text(party.get("name")) or _text(party.get("social_name"))
        if name and side in ("active", "passive") and side not in names:
            names[side] = name
    if names:
        return " x ".join(names[s] for s in ("active", "passive") if s in names)
    return _text(lawsuit.get("name"))


def _class_name(lawsuit: Mapping[str, Any]) -> str:
    for item in _dicts(lawsuit.get("classifications")):
        if _text(item.get("name")):
            return _text(item.get("name"))
    return ""


def _step(step: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "step_id": _text(step.get("step_id")),
        "step_date": _text(step.get("step_date")) or None,
        "step_type": _text(step.get("step_type")),
        "content": _text(step.get("content"))[:STEP_TEXT_LIMIT],
    }


def _newest_first(steps: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    def when(step: dict[str, Any]) -> float:
        stamp = _stamp(step.get("step_date"))
        return stamp.timestamp() if stamp is not None else float("-inf")

    return sorted(steps, key=when, reverse=True)


def _steps_after(steps: Sequence[dict[str, Any]], moment: datetime | None) -> list[dict[str, Any]]:
    if moment is None:
        return []
    found = []
    for step in steps:
        stamp = _stamp(step.get("step_date"))
        if stamp is not None and stamp > moment:
            found.append(step)
    return found


def _latest_movement(
    store: Store, tracking_id: str, code: str, instance: Any
) -> dict[str, Any] | None:
    """The tracking's newest movement of lawsuit ``code`` (that instance), if any."""
    for movement in store.inbox.records(store.inbox.select(InboxFilter(tracking_id=tracking_id))):
        if movement.get("code") == code and movement.get("instance") == instance:
            return movement
    return None


def _previous_look(previous: Mapping[str, Any] | None, tracking: Mapping[str, Any]) -> Any:
    """The newest step date of the tracking's previous movement of the lawsuit, else when
    the tracking was created (D172)."""
    if previous is not None:
        dates = [_stamp(s.get("step_date")) for s in _dicts(previous.get("steps"))]
        known = [d for d in dates if d is not None]
        if known:
            return max(known)
    return _stamp(tracking.get("created_at"))


def _new_steps(
    lawsuit: Mapping[str, Any],
    cached: set[str] | None,
    previous: Mapping[str, Any] | None,
    tracking: Mapping[str, Any],
) -> list[dict[str, Any]]:
    steps = _dicts(lawsuit.get("steps"))
    found = [s for s in steps if _text(s.get("step_id")) not in cached] if cached else []
    if not found:  # no version cached, or it already held these steps: D172's second rule
        found = _steps_after(steps, _previous_look(previous, tracking))
    if not found:
        last = lawsuit.get("last_step")
        latest = _newest_first(steps)[:1]
        found = latest or ([last] if isinstance(last, dict) and last.get("step_id") else [])
    return [_step(s) for s in _newest_first(found)[:STEPS_LIMIT]]


def _cached_steps(store: Store, code: str, instance: int | None) -> set[str] | None:
    """The step ids of the cached version of the lawsuit (None: none is cached)."""
    lawsuit = store.get_lawsuit(code, instance)
    if lawsuit is None:
        return None
    return {_text(s.get("step_id")) for s in _dicts(lawsuit.get("steps"))}


def make_movements(
    store: Store,
    responses: Sequence[Mapping[str, Any]],
    *,
    source: str,
    now: datetime,
) -> list[dict[str, Any]]:
    """The movements of the tracking responses among ``responses`` (others are skipped),
    diffed against the lawsuits as the cache holds them before these are stored. Reads the
    tracking from the cache (its tier and step terms as they are now)."""
    found: list[dict[str, Any]] = []
    for response in responses:
        if not is_tracking_response(response):
            continue
        response_id = _text(response.get("response_id"))
        tracking_id = _text(response.get("origin_id"))
        if not response_id:
            continue
        tracking = store.get_tracking(tracking_id) or {}
        search = tracking.get("search") if isinstance(tracking.get("search"), dict) else {}
        assert isinstance(search, dict)
        response_type = _text(response.get("response_type"))
        data = response.get("response_data")
        data = data if isinstance(data, dict) else {}
        tags = tracking.get("tags") if isinstance(tracking.get("tags"), dict) else None
        movement: dict[str, Any] = {
            "movement_id": response_id,
            "response_id": response_id,
            "tracking_id": tracking_id,
            "request_id": _text(response.get("request_id")),
            "received_at": _text(response.get("created_at")) or now.isoformat(),
            "stored_at": now.isoformat(),
            "source": source,
            "tier": tier_of(tags) or "",
            "labels": list(labels_of(tags)),
            "search_type": _text(search.get("search_type")),
            "search_key": _text(search.get("search_key")),
            "steps": [],
            "terms": [],
            "error_code": "",
            "read_at": None,
        }
        if response_type == "application_error":
            code = data.get("code")
            movement.update(kind=KIND_ERROR, error_code=str(code) if code is not None else "")
            movement["error_message"] = _text(data.get("message"))
            found.append(movement)
            continue
        if response_type != "lawsuit" or not _text(data.get("code")):
            continue  # a summary or another kind of answer: not a movement of a lawsuit
        is_document = _text(search.get("search_type")) not in LAWSUIT_SEARCHES and bool(search)
        instance = data.get("instance") if isinstance(data.get("instance"), int) else None
        previous = _latest_movement(store, tracking_id, _text(data.get("code")), instance)
        if previous is not None and _not_after(
            movement["received_at"], previous.get("received_at")
        ):
            continue  # D171: an older response, whose steps a later movement already holds
        cached = _cached_steps(store, _text(data.get("code")), instance)
        steps = _new_steps(data, cached, previous, tracking)
        filters = tracking.get("notification_filters")
        terms = filters.get("step_terms") if isinstance(filters, dict) else None
        texts = [f"{s['step_type']} {s['content']}" for s in steps]
        movement.update(
            kind=KIND_LAWSUIT if is_document else KIND_STEPS,
            code=_text(data.get("code")),
            instance=instance,
            name=_parties(data),
            class_name=_class_name(data),
            court=_text(data.get("tribunal_acronym")),
            county=_text(data.get("county")) or _text(data.get("city")),
            amount=data.get("amount") if isinstance(data.get("amount"), int | float) else None,
            steps=steps,
            terms=matched_terms([t for t in terms or () if isinstance(t, str)], texts),
        )
        found.append(movement)
    return found


class Ingested(NamedTuple):
    """What storing a tracking's responses did: ``stored`` False for a delivery already
    stored (nothing changed); the ids of the movements new to the inbox; the lawsuits'
    changes the responses brought to the cache."""

    stored: bool
    movements: list[str]
    changes: list[LawsuitChange]


def ingest_tracking_responses(
    store: Store,
    responses: Sequence[Mapping[str, Any]],
    *,
    source: str,
    now: datetime,
    envelope: dict[str, Any] | None = None,
) -> Ingested:
    """Store ``responses`` of trackings with their movements (and a delivery's mark); blocks
    on disk.

    The movements are made against the cache as it is before the responses are stored, and
    written first; then the responses, their lawsuits and the delivery's mark in one batch.
    A kill in between leaves the movements and no mark: the redelivery (or the next poll)
    stores the responses, and its movements are known already (D171).
    """
    rows = [dict(r) for r in responses]
    with store.inbox.lock:  # what is new is decided and written by one writer at a time
        if envelope is not None and store.is_delivered(str(envelope.get("callback_id"))):
            return Ingested(False, [], [])
        new = store.inbox.add(make_movements(store, rows, source=source, now=now))
        if envelope is not None:
            stored, changes = store.ingest_delivery(envelope, rows)
            return Ingested(stored, new, changes)
        return Ingested(True, new, store.upsert_responses(rows))

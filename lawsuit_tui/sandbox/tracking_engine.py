"""Trackings (D27-D30): registration, status transitions and runs on the sandbox clock.

A run creates a request with ``origin: tracking`` and ``origin_id`` = tracking_id (D30). A
lawsuit tracking reports the lawsuit when it has new steps since the last run (only steps
whose content holds one of ``step_terms``, when set); a document tracking reports each newly
found lawsuit. Each report is a response and a ``tracking_response`` webhook; the run's
request then completes (``request_completed``).

When a tracking next runs follows from its record (status, recurrence, last run: :meth:`due`),
so a tracking read back from disk carries on (the ``trackings`` kind of sandbox/timed.py,
D180); a run's results are computed in the world's thread and kept by the tracking when the
run delivers them (:meth:`run_results`, :meth:`run_kept`).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from pydantic import ValidationError

from lawsuit_tui.domain.folding import fold
from lawsuit_tui.domain.trackings import ALREADY_EXISTS
from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.errors import ServiceError, validation_items
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.records import RequestEntry, Result, TrackingEntry
from lawsuit_tui.sandbox.request_engine import RequestEngine, RunOutcome
from lawsuit_tui.sandbox.schemas import CreateRequestIn, TrackingIn, TrackingPatchIn
from lawsuit_tui.sandbox.searches import (
    LAWSUIT_SEARCHES,
    application_error,
    chosen_response_type,
    normalize_search_key,
    response_types_for,
)
from lawsuit_tui.sandbox.state import SandboxState
from lawsuit_tui.sandbox.tracked_items import refresh_items, search_hits

__all__ = ["TrackingEngine"]

DAY = timedelta(days=1)
ACTIVE = ("created", "updating", "updated")


def _bulk_error(index: int, code: str, message: str, item: Any) -> dict[str, Any]:
    """One refused item of a bulk creation (D73)."""
    return {
        "index": index,
        "error": f"{code}: {message}",
        "input": item if isinstance(item, dict) else {"value": item},
    }


def _message(error: ServiceError) -> str:
    """The sentence of an error's ``data`` (D64: problems, a sentence or an object)."""
    data = error.data
    if isinstance(data, str):
        return data
    if isinstance(data, dict):
        return str(data.get("message") or "; ".join(f"{k}: {v}" for k, v in data.items()))
    return "; ".join(data)


def _plan_type(search_type: str, fixed_time: bool) -> str:
    """D18."""
    base = "complete_lawsuit_tracking" if search_type in LAWSUIT_SEARCHES else "document_tracking"
    return f"{base}_fixed_time" if fixed_time else base


class TrackingEngine:
    """Keeps nothing of its own (every tracking lives in the state); runs go through
    ``requests``, the request engine over the same state."""

    def __init__(self, state: SandboxState) -> None:
        self.state = state
        self.requests = RequestEngine(state, runs=self)
        self._owners: dict[str, tuple[str, str]] = {}

    # ----------------------------------------------------------------- commands

    def create(self, config: KeyConfig, body: TrackingIn) -> TrackingEntry:
        key = self._checked(config, body)
        entry = self._make(config, body, key)
        self.state.background.spawn(self._refresh_items([entry], self.state.clock.now()))
        return entry

    def create_bulk(
        self, config: KeyConfig, items: list[Any]
    ) -> tuple[list[TrackingEntry], list[dict[str, Any]]]:
        """D73: each item validated and made on its own, in order; the refused ones as
        ``{index, error: "<CODE>: <message>", input}``. A key repeated within the batch is
        refused like one tracked already."""
        made: list[TrackingEntry] = []
        errors: list[dict[str, Any]] = []
        for index, item in enumerate(items):
            try:
                body = TrackingIn.model_validate(item)
            except ValidationError as exc:
                text = "; ".join(
                    f"{i['field']}: {i['message']}" for i in validation_items(exc.errors())
                )
                errors.append(_bulk_error(index, "HttpBadRequestError", text, item))
                continue
            try:
                key = self._checked(config, body)
            except ServiceError as problem:
                errors.append(_bulk_error(index, problem.name, _message(problem), item))
                continue
            entry = self._make(config, body, key)
            made.append(entry)
        if made:
            self.state.background.spawn(self._refresh_items(made, self.state.clock.now()))
        return made, errors

    def _checked(self, config: KeyConfig, body: TrackingIn) -> str:
        """The normalized key of ``body``, or why it cannot be registered: 422 (a search type
        that is not tracked, types that do not go together, a key that is not one of its type:
        D52, D94), 409 (tracked already, D54)."""
        search = body.search
        accepted = response_types_for(search.search_type)
        if not accepted:
            # tracking.json's enum lists every search type; trackings keep D11's (D68).
            raise ServiceError.unusable(
                "search.search_type", f"a {search.search_type} search cannot be tracked"
            )
        # D68: a response type this search type gives (422 otherwise)
        chosen_response_type(search.search_type, search.response_type, accepted)
        key = normalize_search_key(search.search_type, search.search_key)
        # The latest tracking of this search under this key, from the state's index (a scan
        # of every tracking for each one registered made 10,000 take minutes, D177).
        known = self.state.tracking_by_search.get((config.key, search.search_type, key))
        other = self.state.trackings.get(known) if known is not None else None
        if other is not None and other.status != "deleted":
            self.state.stats.count_tracking("already_exists")
            raise ServiceError(
                409,
                f"tracking {other.tracking_id} already follows this {search.search_type}",
                name=ALREADY_EXISTS,
            )
        return key

    def _owner(self, config: KeyConfig) -> tuple[str, str]:
        """The user and company ids of a key (the same for a whole bulk call)."""
        found = self._owners.get(config.key)
        if found is None:
            found = (self.state.user_id(config.key), self.state.company_id(config.key))
            self._owners[config.key] = found
        return found

    def _make(self, config: KeyConfig, body: TrackingIn, key: str) -> TrackingEntry:
        state = self.state
        search = body.search
        response_type = search.response_type or response_types_for(search.search_type)[0]
        user_id, company_id = self._owner(config)
        now = state.clock.now()
        fixed_time = bool(body.fixed_time)
        search = search.model_copy(
            update={
                "search_key": key,
                "response_type": response_type,
                "should_search_branches": None,
            }
        )
        echo_search: dict[str, Any] = search.model_dump(mode="json", exclude_none=True)
        echo_search.setdefault("on_demand", False)
        # D12: with_attachments only for lawsuit_cnj.
        with_attachments = bool(body.with_attachments) and search.search_type == "lawsuit_cnj"
        record: dict[str, Any] = {
            "tracking_id": state.ids.next("tracking"),
            "user_id": user_id,
            "company_id": company_id,
            "request_id": None,
            "status": "created",
            "recurrence": body.recurrence or 1,
            "with_attachments": with_attachments,
            "search": echo_search,
            "notification_emails": list(body.notification_emails or []),
            "tracked_items_count": 0,
            "tracked_items_steps_count": 0,
            "notification_filters": {
                "step_terms": list(
                    (body.notification_filters.step_terms if body.notification_filters else None)
                    or []
                )
            },
            "callback_url": body.callback_url,
            "tags": dict(body.tags or {}),
            "plan_config_type": _plan_type(search.search_type, fixed_time),
            "fixed_time": fixed_time,
            "hour_range": body.hour_range if body.hour_range is not None else 0,
            "execution_minute": body.execution_minute if body.execution_minute is not None else 0,
            "created_at": iso(now),
            "updating_at": None,
            "updated_at": iso(now),
            "paused_at": None,
            "deleted_at": None,
        }
        entry = TrackingEntry(record, config, search, baseline=now)
        if search.search_type not in LAWSUIT_SEARCHES:
            entry.known = set(state.world.find(search.search_type, key))
        entry.record["tracked_items_count"] = len(
            entry.known if entry.known else state.world.find("lawsuit_cnj", key)
        )
        state.trackings[entry.tracking_id] = entry
        state.stats.count_tracking("created")
        state.tracking_by_search[(config.key, search.search_type, key)] = entry.tracking_id
        self._schedule(entry)
        return entry

    async def _refresh_items(self, entries: list[TrackingEntry], at: datetime) -> None:
        """The tracked items of new trackings, and their counts (in the world's thread)."""
        await self.state.run_world(lambda: refresh_items(self.state, entries, at))

    def get(self, config: KeyConfig, tracking_id: str, *, live: bool = False) -> TrackingEntry:
        """The caller's tracking; 404 TRACKING_NOT_FOUND (also when deleted and ``live``)."""
        entry = self.state.trackings.get(tracking_id)
        if entry is None or entry.key != config.key or (live and entry.status == "deleted"):
            raise ServiceError.not_found(
                "TRACKING_NOT_FOUND", f"tracking {tracking_id} not found", tracking_id=tracking_id
            )
        return entry

    def pause(self, entry: TrackingEntry) -> None:
        """D29: from created/updating/updated (or suspended) to paused; paused stays paused."""
        if entry.status == "paused":
            return
        now = self.state.clock.now()
        self._unschedule(entry)
        entry.record.update(status="paused", paused_at=iso(now), updated_at=iso(now))

    def resume(self, entry: TrackingEntry) -> None:
        """D29: updated if it has run before, else created; an active tracking is unchanged."""
        if entry.status not in ("paused", "suspended"):
            return
        now = self.state.clock.now()
        status = "updated" if entry.last_run is not None else "created"
        entry.record.update(status=status, updated_at=iso(now))
        self._schedule(entry)

    def delete(self, entry: TrackingEntry) -> None:
        if entry.status == "deleted":  # D28: logical and idempotent
            return
        now = self.state.clock.now()
        self._unschedule(entry)
        entry.record.update(status="deleted", deleted_at=iso(now), updated_at=iso(now))

    def patch(self, entry: TrackingEntry, body: TrackingPatchIn) -> None:
        changes = body.model_dump(exclude_unset=True)
        record = entry.record
        for name in (
            "recurrence",
            "callback_url",
            "notification_emails",
            "with_attachments",
            "tags",
            "fixed_time",
            "hour_range",
            "execution_minute",
        ):
            if name in changes and changes[name] is not None:
                record[name] = changes[name]
        if "callback_url" in changes and changes["callback_url"] is None:
            record["callback_url"] = None
        if body.notification_filters is not None:
            record["notification_filters"] = {
                "step_terms": list(body.notification_filters.step_terms or [])
            }
        if record["with_attachments"] and entry.search.search_type != "lawsuit_cnj":
            record["with_attachments"] = False  # D12
        record["plan_config_type"] = _plan_type(entry.search.search_type, record["fixed_time"])
        record["updated_at"] = iso(self.state.clock.now())
        if entry.status in ACTIVE and entry.status != "updating":
            self._unschedule(entry)
            self._schedule(entry)

    # ----------------------------------------------------------------- schedule

    def next_run(self, entry: TrackingEntry, now: datetime) -> datetime:
        """D27: fixed_time at hour_range:execution_minute UTC, else recurrence days after."""
        record = entry.record
        days = int(record["recurrence"])
        if not record["fixed_time"]:
            return (entry.last_run or entry.baseline) + days * DAY
        hour, minute = int(record["hour_range"]), int(record["execution_minute"])
        if entry.last_run is None:
            at = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
            return at if at > now else at + DAY
        at = (entry.last_run + days * DAY).replace(
            hour=hour, minute=minute, second=0, microsecond=0
        )
        while at <= entry.last_run:
            at += DAY
        return at

    def due(self, tracking_id: str) -> datetime | None:
        """When the tracking next runs (None: paused, deleted, running now...)."""
        entry = self.state.trackings.raw_get(tracking_id)
        if entry is None or entry.status not in ACTIVE or entry.status == "updating":
            return None
        return self.next_run(entry, entry.scheduled_from or entry.baseline)

    def _schedule(self, entry: TrackingEntry, now: datetime | None = None) -> None:
        entry.scheduled_from = now or self.state.clock.now()
        self.state.wake("trackings", entry.tracking_id)

    def _unschedule(self, entry: TrackingEntry) -> None:
        """Nothing to cancel: a tracking that is not active is not due (see :meth:`due`)."""

    # ----------------------------------------------------------------- runs

    async def advance(self, tracking_id: str, at: datetime) -> None:
        """Run the tracking due at ``at``, if it still is (the ``trackings`` kind)."""
        async with self.state.transaction():
            entry = self.state.trackings.get(tracking_id)
            if entry is not None and self.due(tracking_id) == at:
                self._run(entry, at)

    def _run(self, entry: TrackingEntry, at: datetime) -> None:
        if entry.status not in ACTIVE:
            return
        engine = self.requests
        entry.record.update(status="updating", updating_at=iso(at), updated_at=iso(at))
        body = CreateRequestIn(
            search=entry.search,
            callback_url=entry.record.get("callback_url"),
            with_attachments=entry.record.get("with_attachments"),
            tags=entry.record.get("tags"),
        )
        run = engine.create(
            entry.config,
            body,
            origin="tracking",
            origin_id=entry.tracking_id,
            plan_type=entry.record["plan_config_type"],
            at=at,
        )[0]
        run.tracking_id = entry.tracking_id
        entry.record["request_id"] = run.request_id
        engine.schedule(run)

    def run_results(self, run: RequestEntry, at: datetime) -> RunOutcome:
        """What the run ``run`` reports (in the world's thread; changes nothing: what the
        tracking keeps of it is applied when the results are delivered)."""
        entry = self.state.trackings.raw_get(str(run.tracking_id))
        if entry is None:
            return RunOutcome([])
        world = self.state.world
        engine = self.requests
        search = entry.search
        results: list[Result] = []
        hits = search_hits(world, search)
        fresh: list[tuple[str, int]] = []
        if search.search_type not in LAWSUIT_SEARCHES:
            fresh = [h for h in hits if h not in entry.known]
        terms = [fold(t) for t in (entry.record["notification_filters"].get("step_terms") or [])]
        advanced = True
        suspended = False
        baseline = entry.baseline
        for code, instance in hits:
            if world.court_is_down(code):
                advanced = False
                results.append(
                    Result("application_error", application_error("CRAWLER_ERROR"), False)
                )
                continue
            barred = engine.access(run, code, instance)
            if barred is not None:
                if barred == "INVALID_CREDENTIAL":  # D29: suspended until re-registration
                    suspended = True
                    results.append(Result("application_error", application_error(barred), False))
                    advanced = False
                continue
            if search.search_type in LAWSUIT_SEARCHES:
                new_steps = world.steps_between(code, instance, baseline, at)
                if terms:
                    new_steps = [
                        s
                        for s in new_steps
                        if any(t in fold(str(s.get("content", ""))) for t in terms)
                    ]
                if not new_steps:
                    continue
            elif (code, instance) not in fresh:
                continue
            for lawsuit in world.court_view(code, instance, at):
                shaped = engine.shape(run, lawsuit, cached=False)
                if shaped is not None:
                    results.append(shaped)

        def keep() -> None:
            kept = self.state.trackings.get(entry.tracking_id)
            if kept is None:
                return
            if suspended:
                kept.record.update(status="suspended", updated_at=iso(at))
            if advanced:
                kept.baseline = at
                kept.known.update(hits)

        return RunOutcome(results, keep)

    async def run_kept(self, run: RequestEntry, at: datetime) -> None:
        """The run's results were delivered: the tracking's items follow (in a transaction)."""
        entry = self.state.trackings.get(str(run.tracking_id))
        if entry is not None:
            await self.state.run_world(lambda: refresh_items(self.state, [entry], at))

    def run_finished(self, run: RequestEntry, at: datetime) -> None:
        """The run completed: the tracking is updated and its next run counted from the run's
        start (recurrence counts from run start: no drift)."""
        entry = self.state.trackings.get(str(run.tracking_id))
        if entry is None:
            return
        started = str(run.record["created_at"]).replace("Z", "+00:00")
        entry.last_run = datetime.fromisoformat(started)
        if entry.status == "updating":
            entry.record.update(status="updated", updated_at=iso(at))
        if entry.status in ACTIVE:
            self._schedule(entry, at)

    def _counts(self, entry: TrackingEntry, at: datetime) -> tuple[int, int]:
        """tracked_items_count and tracked_items_steps_count (in the world's thread)."""
        world = self.state.world
        search = entry.search
        if search.search_type in LAWSUIT_SEARCHES:
            hits = world.find("lawsuit_cnj", search.search_key)
        else:
            hits = sorted(entry.known)
        # bounded: a busy document has hundreds; counted without building a portfolio
        # lawsuit (a run of each of 10,000 trackings would build them all, D177)
        steps = sum(world.steps_count(code, instance, at) for code, instance in hits[:50])
        return len(hits), steps

    # ----------------------------------------------------------------- the demo portfolio

    def backdate(self, entry: TrackingEntry, last_run: datetime) -> None:
        """Take ``entry`` as having run last at ``last_run``: a portfolio registered in one
        go then runs spread over its recurrence, each run reporting its whole period (D177)."""
        entry.last_run = last_run
        entry.baseline = min(entry.baseline, last_run)  # its first run reports since then
        if entry.status in ACTIVE and entry.status != "updating":
            self._schedule(entry)

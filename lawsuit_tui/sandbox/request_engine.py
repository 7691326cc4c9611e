"""Requests and their lifecycle on the sandbox clock (D11-D19), and the responses they make.

A request is created ``pending``; ~0.2 s later it is ``started`` and the stored copy (if any,
and not ``on_demand``) is delivered as a cached response; ~1.5 s after creation the court's
answer is delivered when it differs from the stored copy (or there was none); at ~2 s the
request is ``completed`` (D15). Court failures are ``application_error`` responses (D19).

The engine keeps nothing of its own: every request and response lives in the state, so a
route makes one per call (:mod:`lawsuit_tui.sandbox.dependencies`). When a request's next step
is due follows from its record (status, stage, created_at: :meth:`RequestEngine.due`), and
:meth:`RequestEngine.advance` takes it (the ``requests`` kind of sandbox/timed.py): the
world's views, CPU-heavy, are computed outside any transaction (routes answer meanwhile),
between a transaction that reads the request and one that delivers, if the request is still
where it was (D180: another process may have taken the step, or it was cancelled).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from lawsuit_tui.domain.completion import COMPLETION_CODE, COMPLETION_MESSAGE, COMPLETION_TYPE
from lawsuit_tui.domain.courts import court_for
from lawsuit_tui.sandbox import special_searches
from lawsuit_tui.sandbox.clock import iso
from lawsuit_tui.sandbox.errors import ServiceError
from lawsuit_tui.sandbox.keys import KeyConfig
from lawsuit_tui.sandbox.lawsuit_filters import filters_count, matches
from lawsuit_tui.sandbox.records import RequestEntry, Result, Stage
from lawsuit_tui.sandbox.schemas import CreateRequestIn
from lawsuit_tui.sandbox.searches import (
    LAWSUIT_SEARCHES,
    application_error,
    chosen_response_type,
    cost_of,
    entity_plan_config_type,
    normalize_search_key,
    plan_config_type,
    request_response_types,
)
from lawsuit_tui.sandbox.state import SandboxState
from lawsuit_tui.sandbox.summaries import summary_of

__all__ = [
    "CANCEL_AFTER",
    "COMPLETE_AFTER",
    "COURT_AFTER",
    "START_AFTER",
    "RequestEngine",
    "RunHooks",
    "RunOutcome",
]

START_AFTER = 0.2  # D15, sandbox seconds
COURT_AFTER = 1.5
COMPLETE_AFTER = 2.0
CANCEL_AFTER = 0.1  # D16: cancelling -> cancelled


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@dataclass
class RunOutcome:
    """What a tracking's run found (computed in the world's thread), to be delivered."""

    results: list[Result]
    apply: Callable[[], None] | None = None  # what the tracking keeps of it (in a transaction)


class RunHooks(Protocol):
    """The tracking engine, for the requests that are its runs (D30)."""

    def run_results(self, run: RequestEntry, at: datetime) -> RunOutcome: ...

    async def run_kept(self, run: RequestEntry, at: datetime) -> None: ...

    def run_finished(self, run: RequestEntry, at: datetime) -> None: ...


@dataclass
class _Plan:
    """A step that needs the world: computed outside the lock, delivered if still due."""

    stage: str
    status: str
    compute: Callable[[], Any]
    results: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


def same_lawsuit(stored: dict[str, Any] | None, court: dict[str, Any]) -> bool:
    """Whether the court's copy holds nothing the stored copy lacks (same steps)."""
    if stored is None:
        return False
    a, b = stored.get("last_step") or {}, court.get("last_step") or {}
    return (
        len(stored.get("steps") or []) == len(court.get("steps") or [])
        and a.get("step_id") == b.get("step_id")
        and a.get("steps_count") == b.get("steps_count")
    )


def _tribunal_acronym(code: str) -> str | None:
    digits = "".join(c for c in code if c.isdigit())
    if len(digits) != 20:
        return None
    court = court_for(int(digits[13]), int(digits[14:16]))
    return court.acronym if court else None


class RequestEngine:
    def __init__(self, state: SandboxState, runs: RunHooks | None = None) -> None:
        self.state = state
        self.runs = runs

    def get(self, config: KeyConfig, request_id: str) -> RequestEntry:
        """The caller's request, else 404 REQUEST_NOT_FOUND."""
        entry = self.state.requests.get(request_id)
        if entry is None or entry.key != config.key:
            raise ServiceError.not_found(
                "REQUEST_NOT_FOUND", f"request {request_id} not found", request_id=request_id
            )
        return entry

    # ----------------------------------------------------------------- creation

    def create(
        self,
        config: KeyConfig,
        body: CreateRequestIn,
        *,
        origin: str = "api",
        origin_id: str | None = None,
        plan_type: str | None = None,
        at: datetime | None = None,
    ) -> list[RequestEntry]:
        """Create the request (and one per branch, D17); the original comes first.

        ``at``: the sandbox time of creation (a timed event's due time; default now).
        """
        when = at or self.state.clock.now()
        search = body.search
        search_type = search.search_type
        accepted = request_response_types(search_type)  # D68
        response_type = chosen_response_type(search_type, search.response_type, accepted)
        special_searches.check(search)
        key = normalize_search_key(search_type, search.search_key)
        params = search.search_params
        branches = bool(
            search.should_search_branches
            if search.should_search_branches is not None
            else (params.should_search_branches if params else False)
        )
        branches = branches and search_type == "cnpj"
        entries = [
            self._create_one(
                config, body, key, response_type, origin, origin_id, branches, plan_type, when
            )
        ]
        if branches:
            original = entries[0].request_id
            for branch in self.state.world.branches(key):
                if branch == key:
                    continue
                entries.append(
                    self._create_one(
                        config, body, branch, response_type, origin, original, True, plan_type, when
                    )
                )
        return entries

    def _create_one(
        self,
        config: KeyConfig,
        body: CreateRequestIn,
        key: str,
        response_type: str,
        origin: str,
        origin_id: str | None,
        branches: bool,
        plan_type: str | None,
        now: datetime,
    ) -> RequestEntry:
        state = self.state
        search = body.search
        params = search.search_params
        # D12, D68: with_attachments means something for lawsuit_cnj and warrant searches.
        with_attachments = bool(body.with_attachments) and (
            search.search_type == "lawsuit_cnj" or response_type == "warrant"
        )
        summary = "summary" in (body.judit_ia or [])
        special = special_searches.plan_and_cost(
            search.model_copy(update={"response_type": response_type}), with_attachments
        )
        on_demand = bool(search.on_demand)
        echo_params: dict[str, Any] = (
            params.model_dump(mode="json", exclude_none=True) if params is not None else {}
        )
        if branches or search.should_search_branches is not None:
            echo_params["should_search_branches"] = branches  # D5: echoed under search_params
        echo_search: dict[str, Any] = {
            "search_type": search.search_type,
            "search_key": key,
            "search_params": echo_params,
            "on_demand": on_demand,
            "search_name": search.search_name,
            "response_type": response_type,
            "cache_ttl_in_days": search.cache_ttl_in_days,
        }
        request_id = state.ids.next("request")
        record: dict[str, Any] = {
            "request_id": request_id,
            "search": echo_search,
            "origin": origin,
            # D93: the OAS requires a string; a request of its own is its own origin (the
            # callbacks page's example), a branch names its original, a run its tracking.
            "origin_id": origin_id or request_id,
            "company_id": state.company_id(config.key),
            "user_id": state.user_id(config.key),
            "status": "pending",
            "created_at": iso(now),
            "updated_at": iso(now),
            "started_at": None,
            "cancelled_at": None,
            "completed_at": None,
            "deleted_at": None,
            "with_attachments": with_attachments,
            "tags": dict(body.tags or {}),
            "source_name": "sandbox",
            "plan_config_type": plan_type
            or (special[0] if special else None)
            or (
                entity_plan_config_type(search.search_type, on_demand)
                if response_type == "entity"
                else plan_config_type(
                    search.search_type, with_attachments, on_demand, branches, summary
                )
            ),
            "judit_ia": ["summary"] if summary else [],  # D80
            "cost": 0.0
            if origin == "tracking"
            else special[1]
            if special
            else cost_of(search.search_type, with_attachments),
            "callback_url": body.callback_url,
            "responses_count": 0,
            "filters_count": filters_count(params.filter if params else None),
            "is_unique_name": search.search_type != "name",
            "ip": "127.0.0.1",
            "trace_id": state.ids.next("trace").replace("-", ""),
        }
        customer_key = "*"
        if params and params.credential and params.credential.customer_key:
            customer_key = params.credential.customer_key
        entry = RequestEntry(
            record=record,
            key=config.key,
            search=search.model_copy(update={"search_key": key, "response_type": response_type}),
            customer_key=customer_key,
            document=key if search.search_type in ("cpf", "cnpj", "oab") else None,
        )
        state.requests[request_id] = entry
        return entry

    def schedule(self, entry: RequestEntry) -> None:
        """D15: start, court answer and completion on the clock (read off the record)."""
        self.schedule_id(entry.request_id)

    def schedule_id(self, request_id: str) -> None:
        self.state.wake("requests", request_id)

    # ----------------------------------------------------------------- lifecycle

    def due(self, request_id: str) -> datetime | None:
        """When the request's next step is due (None: nothing left to do)."""
        entry = self.state.requests.raw_get(request_id)
        if entry is None:
            return None
        status, stage = entry.status, entry.stage
        if status == "cancelling":
            asked = entry.cancel_asked_at
            return asked + timedelta(seconds=CANCEL_AFTER) if asked is not None else None
        created = _moment(str(entry.record["created_at"]))
        if status == "pending" and stage == Stage.CREATED:
            return created + timedelta(seconds=START_AFTER)
        if status == "started" and stage == Stage.STARTED:
            return created + timedelta(seconds=COURT_AFTER)
        if status == "started" and stage == Stage.COURT:
            return created + timedelta(seconds=COMPLETE_AFTER)
        return None

    async def advance(self, request_id: str, at: datetime) -> None:
        """Take the step of ``request_id`` due at ``at``, if it still is.

        The world's views are CPU-heavy (a busy document has hundreds of lawsuits), so a step
        that needs them computes in the world's thread outside any transaction, and delivers
        in a second one, stamped with the time it was due at, if the request has not moved on
        (cancelled meanwhile, D16: no more responses)."""
        state = self.state
        if request_id in state.phases:
            return  # its phase is being computed here: it looks again when done
        async with state.transaction():
            entry = state.requests.get(request_id)
            if entry is None or self.due(request_id) != at:
                return
            plan = await self._step(entry, at)
        if plan is not None:
            state.phases.add(request_id)
            state.background.spawn(self._phase(request_id, plan, at))

    async def _phase(self, request_id: str, plan: _Plan, at: datetime) -> None:
        state = self.state
        try:
            plan.results = await state.run_world(plan.compute)
            async with state.transaction():
                entry = state.requests.get(request_id)
                if entry is None or (entry.stage, entry.status) != (plan.stage, plan.status):
                    return
                await self._deliver_step(entry, plan, at)
        finally:
            state.phases.discard(request_id)
            self.schedule_id(request_id)

    async def _step(self, entry: RequestEntry, at: datetime) -> _Plan | None:
        """Take a step that needs no world view; plan one that does."""
        if entry.status == "cancelling":
            entry.record.update(status="cancelled", cancelled_at=iso(at), updated_at=iso(at))
            entry.stage = Stage.DONE
            return None
        if entry.stage == Stage.CREATED:
            if entry.tracking_id is not None:  # a run has no cached phase
                self._started(entry, at)
                return None
            return _Plan(entry.stage, entry.status, lambda: self._cached_results(entry, at))
        if entry.stage == Stage.STARTED:
            return _Plan(entry.stage, entry.status, lambda: self._court_compute(entry, at))
        await self._finish(entry, at)
        return None

    def _started(self, entry: RequestEntry, at: datetime) -> None:
        entry.record.update(status="started", started_at=iso(at), updated_at=iso(at))
        entry.stage = Stage.STARTED

    def _court_compute(self, entry: RequestEntry, at: datetime) -> Any:
        if entry.tracking_id is not None and self.runs is not None:
            return self.runs.run_results(entry, at)
        return self._court_results(entry, at) if entry.court_needed else []

    async def _deliver_step(self, entry: RequestEntry, plan: _Plan, at: datetime) -> None:
        if plan.stage == Stage.CREATED:
            results, stored_from, court_needed = plan.results
            self._started(entry, at)
            entry.stored_from = stored_from
            entry.court_needed = court_needed
        else:
            entry.stage = Stage.COURT
            results = plan.results
            if isinstance(results, RunOutcome):
                if results.apply is not None:
                    results.apply()
                if self.runs is not None:
                    await self.runs.run_kept(entry, at)
                results = results.results
        summaries = "summary" in (entry.record.get("judit_ia") or [])
        for result in results:
            response_id = self._deliver(entry, result, at)
            if summaries and result.response_type == "lawsuit":
                # D80: the AI summary comes as a response of its own, after the lawsuit's.
                data = {"data": [summary_of(result.data)], "origin": "response"}
                self._deliver(
                    entry, Result("summary", {**data, "origin_id": response_id}, result.cached), at
                )

    async def _finish(self, entry: RequestEntry, at: datetime) -> None:
        entry.record.update(status="completed", completed_at=iso(at), updated_at=iso(at))
        entry.stage = Stage.DONE
        if entry.tracking_id is not None and self.runs is not None:
            self.runs.run_finished(entry, at)
        if self.state.faults.legacy_completion:
            # D69: the Portuguese callbacks page's form, a response of its own (kept, so
            # that GET /responses shows it too), instead of the request_completed event.
            notice = {"code": COMPLETION_CODE, "message": COMPLETION_MESSAGE}
            self._deliver(entry, Result(COMPLETION_TYPE, notice, False), at, counted=False)
            return
        callback_id = self.state.ids.next("callback")
        envelope = self._envelope(
            entry, callback_id, "request_completed", "request", entry.request_id, dict(entry.record)
        )
        self.state.webhooks.send(self._target(entry), callback_id, envelope)

    def _target(self, entry: RequestEntry) -> str | None:
        """D42: the request's callback_url (a tracking run: the tracking's), else the account's."""
        url = entry.record.get("callback_url")
        if entry.tracking_id is not None:
            tracking = self.state.trackings.get(entry.tracking_id)
            url = tracking.record.get("callback_url") if tracking is not None else None
        return self.state.webhooks.target(url)

    def cancel_or_delete(self, entry: RequestEntry) -> dict[str, Any]:
        """D16: cancel a running request, soft-delete a finished one."""
        now = self.state.clock.now()
        if entry.status in ("pending", "started"):
            entry.record.update(status="cancelling", updated_at=iso(now))
            entry.cancel_asked_at = now
            self.schedule(entry)
        elif entry.status in ("completed", "cancelled") and entry.record.get("deleted_at") is None:
            entry.deleted = True
            entry.record.update(deleted_at=iso(now), updated_at=iso(now))
        return entry.record

    # ----------------------------------------------------------------- delivery

    def _envelope(
        self,
        entry: RequestEntry,
        callback_id: str,
        event_type: str,
        reference_type: str,
        reference_id: str,
        payload: dict[str, Any],
    ) -> dict[str, Any]:
        return {
            "user_id": entry.record["user_id"],
            "callback_id": callback_id,
            "event_type": event_type,
            "reference_type": reference_type,
            "reference_id": reference_id,
            "payload": payload,
        }

    def _deliver(
        self, entry: RequestEntry, result: Result, at: datetime, *, counted: bool = True
    ) -> str:
        """Store a response of ``entry`` and send it to its webhook target; its id."""
        state = self.state
        record = entry.record
        response = {
            "request_id": entry.request_id,
            "response_id": state.ids.next("response"),
            "origin": record["origin"],
            "origin_id": record["origin_id"],
            "user_id": record["user_id"],
            "response_type": result.response_type,
            "response_data": result.data,
            "request_created_at": record["created_at"],
            "created_at": iso(at),
            "updated_at": iso(at),
            "is_scrapper_info": False,
            "force_overwrite": False,
            "cached": result.cached,
            "tags": {"dashboard_id": None, "cached_response": result.cached},
        }
        state.add_response(entry.key, response)
        if counted:
            record["responses_count"] = int(record["responses_count"]) + 1
        record["updated_at"] = iso(at)
        if result.code:
            state.mark_retrieved(entry.key, result.code)
        payload = {
            k: response[k]
            for k in (
                "request_id",
                "response_id",
                "response_type",
                "response_data",
                "user_id",
                "created_at",
                "request_created_at",
                "is_scrapper_info",
                "tags",
                "origin",
                "origin_id",
            )
        }
        callback_id = state.ids.next("callback")
        if entry.tracking_id is not None:  # D43
            envelope = self._envelope(
                entry, callback_id, "tracking_response", "tracking", entry.tracking_id, payload
            )
        else:
            envelope = self._envelope(
                entry, callback_id, "response_created", "request", entry.request_id, payload
            )
        state.webhooks.send(self._target(entry), callback_id, envelope)
        return str(response["response_id"])

    # ----------------------------------------------------------------- results

    def _hits(self, entry: RequestEntry) -> list[tuple[str, int]] | None:
        """The lawsuits a request is about; None for a name matching several people."""
        world = self.state.world
        search = entry.search
        key = search.search_key
        if search.search_type in LAWSUIT_SEARCHES:
            instance = search.search_params.lawsuit_instance if search.search_params else None
            found = world.find("lawsuit_cnj", key)
            return [(c, i) for c, i in found if instance is None or i == instance]
        if search.search_type == "name" and len(world.homonyms(key)) > 1:
            return None
        return list(world.find(search.search_type, key))

    def access(self, entry: RequestEntry, code: str, instance: int) -> str | None:
        """The application error code that bars reaching a secret lawsuit, else None."""
        world = self.state.world
        if not world.is_secret(code, instance):
            return None
        system = world.court_system(code, instance)
        status = self.state.vault.status(system, entry.customer_key)
        if status == "active":
            return None
        return "INVALID_CREDENTIAL" if status == "inactive" else "SECRECY_RESTRICTED"

    def shape(self, entry: RequestEntry, lawsuit: dict[str, Any], cached: bool) -> Result | None:
        """D11: the response for one lawsuit, or None when the filter leaves it out."""
        params = entry.search.search_params
        flt = params.filter if params else None
        if not matches(lawsuit, flt, entry.document):
            return None
        code = str(lawsuit.get("code"))
        instance = lawsuit.get("instance")
        response_type = entry.search.response_type or "lawsuit"
        if response_type in ("lawsuit", "lawsuits"):
            return Result("lawsuit", lawsuit, cached, code)
        if response_type == "parties":
            data = {"code": code, "instance": instance, "parties": lawsuit.get("parties") or []}
            return Result("parties", data, cached, code)
        if response_type == "attachments":
            data = {
                "code": code,
                "instance": instance,
                "attachments": lawsuit.get("attachments") or [],
            }
            return Result("attachments", data, cached, code)
        steps = sorted(
            lawsuit.get("steps") or [], key=lambda s: str(s.get("step_date", "")), reverse=True
        )
        return Result("step", {"code": code, "instance": instance, "steps": steps}, cached, code)

    def _wanted(self, entry: RequestEntry, lawsuit: dict[str, Any]) -> bool:
        """Whether the request's filter keeps ``lawsuit`` (D11's filters)."""
        params = entry.search.search_params
        return matches(lawsuit, params.filter if params else None, entry.document)

    def _court_failure(self, entry: RequestEntry, code: str, acronym: str, cnj: str) -> Result:
        """D92: a court that could not be reached, named in the error: by its acronym in the
        details and in ``tribunal_acronym``, and, for a lawsuit search, by the lawsuit."""
        court = acronym or "the court"
        if code == "CRAWLER_ERROR":
            details = f"Collection from the court failed: {court} is down."
        else:
            details = f"{court} limited collection; it will be retried in the next cycle."
        data = application_error(code, details)
        data["tribunal_acronym"] = acronym or None
        if entry.search.search_type in LAWSUIT_SEARCHES:
            data["lawsuit_cnj"] = cnj
        return Result("application_error", data, False)

    def _entity_result(self, entry: RequestEntry, cached: bool) -> Result:
        world = self.state.world
        document = entry.search.search_key
        if entry.search.search_type == "name":  # the one person of that name (else ambiguous)
            found = world.homonyms(document)
            document = found[0] if len(found) == 1 else ""
        entity = world.entity(document) if document else None
        if entity is None:
            return Result("application_error", application_error("ENTITY_NOT_FOUND"), cached)
        return Result("entity", entity, cached)

    def _entities(self, entry: RequestEntry, read_at: datetime | None) -> list[Result]:
        """D110: registration data, as POST /entities answers them: one response per entity
        (every homonym of a name); the datalake's copy at start, the Receita's (``read_at``)
        when asked on demand."""
        world = self.state.world
        search = entry.search
        documents = (
            world.homonyms(search.search_key)
            if search.search_type == "name"
            else [search.search_key]
        )
        cached = read_at is None
        return [
            Result("entity", entity, cached)
            for document in documents
            if (entity := world.entity(document, read_at=read_at)) is not None
        ]

    def _cached_results(
        self, entry: RequestEntry, at: datetime
    ) -> tuple[list[Result], list[tuple[str, int]], bool]:
        """D13, D14: the stored copies (none with on_demand), where they were taken from, and
        whether the court runs."""
        if entry.search.on_demand:
            return [], [], True
        if special_searches.is_special(entry.search):
            return [], [], True  # no stored copy: the answer comes from the court
        if entry.search.response_type == "entity":
            held = self._entities(entry, None)
            return held, [], not held
        hits = self._hits(entry)
        if not hits:
            return [], [], True
        world = self.state.world
        ttl = entry.search.cache_ttl_in_days
        fresh_enough = ttl is not None
        stored_from: list[tuple[str, int]] = []
        for code, instance in hits:
            if self.access(entry, code, instance) is not None:
                fresh_enough = False
                continue
            stored = self.state.stored_view(code, instance)
            stored_at = world.stored_at(code, instance)
            if not stored or stored_at is None:
                fresh_enough = False
                continue
            if ttl is not None and stored_at < at - timedelta(days=ttl):
                fresh_enough = False
            stored_from.append((code, instance))
        copies = self._stored_copies(stored_from)
        results: list[Result] = []
        if (
            entry.search.response_type == "parties"
            and entry.search.search_type not in LAWSUIT_SEARCHES
        ):
            if copies:
                results.append(self._entity_result(entry, cached=True))
        else:
            for lawsuit in copies.values():
                shaped = self.shape(entry, lawsuit, cached=True)
                if shaped is not None:
                    results.append(shaped)
        # D13: within cache_ttl_in_days the stored copy is the whole answer.
        return results, stored_from, not (fresh_enough and copies)

    def _stored_copies(
        self, stored_from: list[tuple[str, int]]
    ) -> dict[tuple[str, int], dict[str, Any]]:
        """The stored copies delivered at start, by lawsuit and instance (world's thread)."""
        copies: dict[tuple[str, int], dict[str, Any]] = {}
        for code, instance in stored_from:
            for lawsuit in self.state.stored_view(code, instance):
                copies[(code, int(lawsuit.get("instance", instance)))] = lawsuit
        return copies

    def _court_results(self, entry: RequestEntry, at: datetime) -> list[Result]:
        if entry.search.response_type == "entity":
            read_at = at if entry.search.on_demand else None
            found = self._entities(entry, read_at)
            return found or [
                Result("application_error", application_error("ENTITY_NOT_FOUND"), False)
            ]
        state = self.state
        world = state.world
        if special_searches.is_special(entry.search):
            return special_searches.results(
                world,
                entry.search,
                at,
                with_attachments=bool(entry.record.get("with_attachments")),
                barred=lambda code, instance: self.access(entry, code, instance),
                courts_down=set(state.faults.courts_down),
            )
        hits = self._hits(entry)
        if hits is None:
            return [Result("application_error", application_error("HOMONYM_AMBIGUOUS"), False)]
        document_search = entry.search.search_type not in LAWSUIT_SEARCHES
        if not hits:
            if not document_search:
                return [Result("application_error", application_error("LAWSUIT_NOT_FOUND"), False)]
            if entry.search.search_type == "name" or world.entity(entry.search.search_key) is None:
                return [Result("application_error", application_error("ENTITY_NOT_FOUND"), False)]
            if entry.search.response_type == "parties":
                return [self._entity_result(entry, cached=False)]
            return []
        results: list[Result] = []
        reported: set[str] = set()
        fetched: list[dict[str, Any]] = []
        known = False  # the court holds some lawsuit for the key, filtered out or not
        for code, instance in hits:
            # Issue 19.4: the filter first. A lawsuit the filter leaves out brings nothing,
            # not even the error of its court (a search filtered to TJSP and TRF3 once
            # answered TRT14 and TJAP were down).
            everything = world.court_view(code, instance, at)
            known = known or bool(everything)
            views = [lw for lw in everything if self._wanted(entry, lw)]
            if not views:
                continue
            acronym = _tribunal_acronym(code) or ""
            if world.court_is_down(code) or acronym.upper() in state.faults.courts_down:
                if acronym not in reported:
                    reported.add(acronym)
                    results.append(self._court_failure(entry, "CRAWLER_ERROR", acronym, code))
                continue
            if world.court_rate_limited(code):
                if not document_search and acronym not in reported:
                    reported.add(acronym)
                    failure = self._court_failure(entry, "RATE_LIMIT_TRIBUNAL", acronym, code)
                    results.append(failure)
                continue
            barred = self.access(entry, code, instance)
            if barred is not None:
                if barred == "INVALID_CREDENTIAL" or not document_search:
                    results.append(Result("application_error", application_error(barred), False))
                continue
            fetched.extend(views)
        stored = self._stored_copies(entry.stored_from)
        if not known and not document_search:
            results.append(
                Result("application_error", application_error("LAWSUIT_NOT_FOUND"), False)
            )
        if document_search and entry.search.response_type == "parties":
            if not stored or any(
                not same_lawsuit(stored.get((str(lw.get("code")), int(lw.get("instance", 0)))), lw)
                for lw in fetched
            ):
                results.append(self._entity_result(entry, cached=False))
            return results
        for lawsuit in fetched:
            copy = stored.get((str(lawsuit.get("code")), int(lawsuit.get("instance", 0))))
            if copy is not None and same_lawsuit(copy, lawsuit):
                continue  # D15: the court's copy is delivered only when it differs
            shaped = self.shape(entry, lawsuit, cached=False)
            if shaped is not None:
                results.append(shaped)
        return results

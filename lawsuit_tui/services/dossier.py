"""Dossiers: the due diligence of a person or company, from the first check to the decision.

The flow is the provider's KYC guide (en/guides/kyc-completo.mdx): a cheap **gate** (does the
document have lawsuits at all?), the size of the exposure (**counts** with filters and
**aggregations**), **registration data**, the full **listing**, **warrants** and penal
**executions** (requests), then a **decision** and a **tracking** of the document.

- :meth:`DossierService.plan` says, before any call, what each step will cost, and which
  steps the cache answers (a kept answer younger than the age, D109): the screen and the
  command ask the analyst **once** for the whole run (D191).
- :meth:`DossierService.run` takes the plan's steps; a failed step says why and the others go
  on. The datalake's steps run one after the other (the gate decides whether the counts and the
  listing are worth their cost, D190), the two requests beside them (the court's time is the
  long part). The dossier's record (store/tables/dossiers.py) is kept after every step, and a
  request's id the moment it is created: an interrupted run never pays twice for a search.
- :meth:`DossierService.kept` puts a dossier together again from the cache alone: offline,
  in well under a second.
"""

from __future__ import annotations

import asyncio
import getpass
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from lawsuit_tui.config import Dossier as DossierSettings
from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.domain.dossier import (
    DATALAKE_STEPS,
    GATED_STEPS,
    StepStatus,
    Verdict,
    side_of,
    steps_for,
)
from lawsuit_tui.domain.enums import ApplicationErrorCode, RequestStatus, ResponseType
from lawsuit_tui.domain.identifiers import InvalidSearchKey, SearchKey, parse_search_key
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.portfolio import ImportRow
from lawsuit_tui.domain.requests import Filter, RequestRecord
from lawsuit_tui.i18n import _
from lawsuit_tui.services.datalake import DatalakeService, Kept, person_or_company
from lawsuit_tui.services.deps import Deps
from lawsuit_tui.services.dossier_model import (
    CountFigure,
    CountSpec,
    Decision,
    Dossier,
    DossierPlan,
    PlannedStep,
    Profile,
    StepCost,
    StepRecord,
    TrackingMade,
    instant,
    listing_cost,
    profile_of,
)
from lawsuit_tui.services.errors import ApiError
from lawsuit_tui.services.lookup import LookupService
from lawsuit_tui.services.portfolio import PortfolioService
from lawsuit_tui.services.portfolio_import import row_body
from lawsuit_tui.services.requests import RequestService
from lawsuit_tui.services.results import Completed, StatusChanged
from lawsuit_tui.services.trackings import TrackingService
from lawsuit_tui.services.warrants import as_execution

__all__ = [
    "DOSSIER_LABEL",
    "DossierProgress",
    "DossierService",
    "DossierSummary",
    "dossier_key",
]

DOSSIER_LABEL = "dossier"
"""D194: the portfolio label of a tracking made from a dossier."""

_RESPONSE_TYPE = {"warrants": ResponseType.WARRANT, "executions": ResponseType.EXECUTION}
_NOTICES = frozenset({ResponseType.APPLICATION_INFO, ResponseType.APPLICATION_WARNING})
# D199: the application errors that answer a search with "there is none": a clean result.
_NONE_FOUND = frozenset(
    str(code)
    for code in (
        ApplicationErrorCode.WARRANT_NOT_FOUND,
        ApplicationErrorCode.EXECUTION_NOT_FOUND,
        ApplicationErrorCode.ENTITY_NOT_FOUND,
        ApplicationErrorCode.LAWSUIT_NOT_FOUND,
    )
)


def dossier_key(text: str) -> SearchKey:
    """The CPF or CNPJ of a dossier; InvalidSearchKey for anything else (a dossier is about
    a person or a company, D190)."""
    return person_or_company(
        parse_search_key(text), _("A dossier is made of a CPF or a CNPJ, not of {kind}.")
    )


@dataclass(frozen=True)
class DossierProgress:
    """A step changed: running (``detail`` says what it waits for), or ended (``record``)."""

    step: str
    status: str
    detail: str = ""
    record: StepRecord | None = None


@dataclass(frozen=True)
class DossierSummary:
    """One line of the list of dossiers."""

    key: SearchKey
    name: str | None
    updated_at: datetime
    verdict: Verdict | None
    failed: int
    tracked: bool


Progress = Callable[[DossierProgress], None]


def _problem(error: BaseException) -> str:
    if isinstance(error, ApiError):
        return error.summary
    text = str(error).strip()
    return text or type(error).__name__


def _failed(step: str, error: BaseException, ran_at: datetime, started: float) -> StepRecord:
    """A step that failed, with why (the others go on)."""
    return StepRecord(
        step,
        StepStatus.FAILED,
        problem=_problem(error),
        ran_at=ran_at,
        seconds=time.monotonic() - started,
    )


def _key_of(record: Mapping[str, Any]) -> SearchKey | None:
    try:
        return parse_search_key(str(record.get("document") or ""))
    except InvalidSearchKey:
        return None


class DossierService:
    def __init__(
        self,
        deps: Deps,
        *,
        datalake: DatalakeService,
        lookup: LookupService,
        requests: RequestService,
        trackings: TrackingService,
        portfolio: PortfolioService,
        settings: DossierSettings | None = None,
    ) -> None:
        self._d = deps
        self._datalake = datalake
        self._lookup = lookup
        self._requests = requests
        self._trackings = trackings
        self._portfolio = portfolio
        self.settings = settings or DossierSettings()

    # --- profiles and plans -----------------------------------------------------------------

    def profile(self, name: str | None = None) -> Profile:
        """The profile ``name`` (the configured default when None); ProfileError if unknown."""
        return profile_of(self.settings, name)

    @property
    def refresh_age(self) -> timedelta | None:
        """D195: how old a step's data may be before a refresh runs it again."""
        hours = self.settings.max_age_hours
        return timedelta(hours=hours) if hours else None

    def plan(
        self,
        key: SearchKey,
        *,
        profile: Profile | None = None,
        steps: list[str] | None = None,
        max_age: timedelta | str | None = "profile",
    ) -> DossierPlan:
        """What a run would do and cost, from the cache alone (no call): each step from the
        cache when a kept answer is younger than ``max_age`` (the profile's by default; None:
        ask everything again), else at its cost (D108, D118). A blocking call (cache reads)."""
        chosen = profile or self.profile()
        age = chosen.max_age if max_age == "profile" else max_age
        assert not isinstance(age, str)
        wanted = steps_for(key.search_type, steps if steps is not None else chosen.steps)
        planned = [self._planned(key, step, chosen, age) for step in wanted]
        return DossierPlan(key, chosen, tuple(planned), age)

    def _fresh(self, kept: Kept[Any] | None, age: timedelta | None) -> datetime | None:
        if kept is None or age is None:
            return None
        return kept.fetched_at if self._d.now() - kept.fetched_at <= age else None

    def _planned(
        self, key: SearchKey, step: str, profile: Profile, age: timedelta | None
    ) -> PlannedStep:
        datalake = self._datalake
        if step == "gate":
            at = self._fresh(datalake.kept_has_lawsuits(key), age)
            return PlannedStep(step, StepCost() if at else StepCost(calls=1), at)
        if step == "count":
            calls = 0
            times: list[datetime] = []
            for spec in profile.counts:
                at = self._fresh(datalake.kept_count(key, spec.filter), age)
                if at is None:
                    calls += 1
                else:
                    times.append(at)
            kept_at = min(times) if not calls and times else None
            return PlannedStep(step, StepCost(calls=calls), kept_at)
        if step == "aggregations":
            at = self._fresh(datalake.kept_synthetic(key), age)
            return PlannedStep(step, StepCost() if at else StepCost(calls=1), at)
        if step == "entity":
            at = self._fresh(datalake.kept_entity(key), age)
            return PlannedStep(step, StepCost() if at else StepCost(calls=1), at)
        if step == "lawsuits":
            cached = self._lookup.cached_at(key)
            if cached is not None and age is not None and self._d.now() - cached <= age:
                return PlannedStep(step, StepCost(), cached)
            total = datalake.kept_count(key)
            return PlannedStep(step, listing_cost(total.value if total is not None else None))
        at = self._request_fresh(key, step, age)
        return PlannedStep(step, StepCost() if at else StepCost(requests=1), at)

    def _request_fresh(self, key: SearchKey, step: str, age: timedelta | None) -> datetime | None:
        """When the data of a request step were fetched (this app's clock, as every step's:
        the service's own times may run on another clock), if younger than ``age`` and the
        request is complete in the cache."""
        record = self._d.cache.dossier(key.key) or {}
        request_id = (record.get("requests") or {}).get(step)
        if not request_id or age is None:
            return None
        done = StepRecord.from_json(step, (record.get("steps") or {}).get(step))
        if done.status != StepStatus.DONE or done.fetched_at is None:
            return None
        cached = self._requests.cached_record(str(request_id))
        if cached is None or cached.status != RequestStatus.COMPLETED:
            return None
        at = done.fetched_at
        return at if self._d.now() - at <= age else None

    # --- running ------------------------------------------------------------------------------

    async def run(self, plan: DossierPlan, progress: Progress | None = None) -> Dossier:
        """Run the plan's steps (paid ones as the plan said: the caller has asked); a failed
        step is recorded with why, and the others go on. Returns the dossier as it stands,
        every part the cache holds included (the steps not in this run too)."""
        key = plan.key
        say: Progress = progress or (lambda _event: None)
        record = await asyncio.to_thread(self._record_of, key, plan.profile)
        lock = asyncio.Lock()

        async def finish(result: StepRecord) -> None:
            async with lock:
                record["steps"][result.step] = result.to_json()
                record["updated_at"] = self._d.now().isoformat()
                await self._d.cache.keep_dossier(record)
            say(DossierProgress(result.step, result.status, record=result))

        async def datalake_chain() -> None:
            any_lawsuit: bool | None = None
            for planned in plan.steps:
                step = planned.step
                if step not in DATALAKE_STEPS:
                    continue  # the requests run beside this chain
                if step in GATED_STEPS and any_lawsuit is False:
                    # D190: the gate found nothing; counting it would cost and answer zero.
                    await finish(
                        StepRecord(
                            step,
                            StepStatus.SKIPPED,
                            problem=_("the gate found no lawsuit: nothing to count or list"),
                            ran_at=self._d.now(),
                        )
                    )
                    continue
                extras: dict[str, Any] = {}
                result = await self._run_step(plan, planned, say, extras)
                if "listing" in extras:
                    record["listing"] = extras["listing"]  # D198, kept by finish()
                if step == "gate" and result.status == StepStatus.DONE:
                    kept = self._datalake.kept_has_lawsuits(key)
                    any_lawsuit = kept.value if kept is not None else None
                await finish(result)

        async def request_step(planned: PlannedStep) -> None:
            result = await self._run_request(plan, planned, record, lock, say)
            await finish(result)

        jobs = [datalake_chain()]
        jobs.extend(request_step(p) for p in plan.steps if p.step in _RESPONSE_TYPE)
        await asyncio.gather(*jobs)
        dossier = await asyncio.to_thread(self.kept, key)
        assert dossier is not None
        return dossier

    async def _run_step(
        self, plan: DossierPlan, planned: PlannedStep, say: Progress, extras: dict[str, Any]
    ) -> StepRecord:
        step, key, age = planned.step, plan.key, plan.max_age
        started, ran_at = time.monotonic(), self._d.now()
        say(DossierProgress(step, StepStatus.RUNNING, self._running_words(step)))
        datalake = self._datalake
        try:
            if step == "gate":
                kept: Kept[Any] = await datalake.has_lawsuits(key, max_age=age)
                fetched, from_cache, cost = kept.fetched_at, kept.from_cache, kept.cost.calls
            elif step == "count":
                fetched, from_cache, cost = await self._counts(plan)
            elif step == "aggregations":
                kept = await datalake.synthetic(key, max_age=age)
                fetched, from_cache, cost = kept.fetched_at, kept.from_cache, kept.cost.calls
            elif step == "entity":
                kept = await datalake.entity(key, max_age=age)
                fetched, from_cache, cost = kept.fetched_at, kept.from_cache, kept.cost.calls
            else:
                fetched, from_cache, cost = await self._listing(key, planned, extras)
        except Exception as error:  # a failed step says why; the others go on
            return _failed(step, error, ran_at, started)
        return StepRecord(
            step,
            StepStatus.DONE,
            fetched_at=fetched,
            from_cache=from_cache,
            cost=StepCost(calls=cost),
            ran_at=ran_at,
            seconds=time.monotonic() - started,
        )

    async def _counts(self, plan: DossierPlan) -> tuple[datetime, bool, int]:
        calls, oldest, all_cached = 0, None, True
        for spec in plan.profile.counts:
            kept = await self._datalake.count(plan.key, spec.filter, max_age=plan.max_age)
            calls += kept.cost.calls
            all_cached = all_cached and kept.from_cache
            oldest = kept.fetched_at if oldest is None else min(oldest, kept.fetched_at)
        return oldest or self._d.now(), all_cached, calls

    async def _listing(
        self, key: SearchKey, planned: PlannedStep, extras: dict[str, Any]
    ) -> tuple[datetime, bool, int]:
        if planned.from_cache and planned.kept_at is not None:
            kept = await asyncio.to_thread(self._lookup.cached_summaries, key)
            extras["listing"] = [_summary(lawsuit, key.key) for lawsuit in kept or []]
            return planned.kept_at, True, 0
        result = await self._lookup.lookup(key)
        extras["listing"] = [_summary(lawsuit, key.key) for lawsuit in result.lawsuits]
        return result.fetched_at, False, listing_cost(len(result.lawsuits)).calls

    def _running_words(self, step: str) -> str:
        if step == "lawsuits":
            return _("reading the listing (one call per 1,000 lawsuits)")
        return _("asking the datalake")

    async def _run_request(
        self,
        plan: DossierPlan,
        planned: PlannedStep,
        record: dict[str, Any],
        lock: asyncio.Lock,
        say: Progress,
    ) -> StepRecord:
        step, key = planned.step, plan.key
        started, ran_at = time.monotonic(), self._d.now()
        if planned.from_cache and planned.kept_at is not None:
            return StepRecord(
                step, StepStatus.DONE, fetched_at=planned.kept_at, from_cache=True, ran_at=ran_at
            )
        say(DossierProgress(step, StepStatus.RUNNING, _("creating the request")))
        try:
            request_id = await self._unfinished_request(record, step)
            if request_id is None:
                body = CreateRequestBody(
                    search=SearchBody(
                        search_type=key.search_type,
                        search_key=key.key,
                        response_type=_RESPONSE_TYPE[step],
                    )
                )
                [created] = (await self._requests.create(body))[:1]
                request_id = created.request_id
                async with lock:
                    # Kept before it is followed: a run cut short follows it next time
                    # instead of paying for another (D196).
                    record.setdefault("requests", {})[step] = request_id
                    await self._d.cache.keep_dossier(record)
            final: RequestRecord | None = None
            async for event in self._requests.follow(request_id):
                if isinstance(event, StatusChanged):
                    say(DossierProgress(step, StepStatus.RUNNING, _status_words(event.record)))
                elif isinstance(event, Completed):
                    final = event.record
            done = final is not None and final.status == RequestStatus.COMPLETED
            errors = await asyncio.to_thread(self._search_errors, request_id) if done else {}
        except Exception as error:
            return _failed(step, error, ran_at, started)
        amount = final.cost if final is not None else None
        problem = None if done else _("the request was cancelled")
        if errors:
            # D199: answered, but only with errors (the BNMP down, a court limiting): that is
            # no "none found", and saying so would clear a person nobody searched.
            problem = _("the service could not search ({errors}); refresh to ask again").format(
                errors="; ".join(
                    f"{code}: {text}" if text and text != code else code
                    for code, text in errors.items()
                )
            )
        return StepRecord(
            step,
            StepStatus.DONE if done and not errors else StepStatus.FAILED,
            # When this app got the answers (its clock, as for every other step).
            fetched_at=self._d.now(),
            cost=StepCost(
                requests=1, amount=float(amount) if isinstance(amount, int | float) else None
            ),
            problem=problem,
            ran_at=ran_at,
            seconds=time.monotonic() - started,
            error_codes=tuple(errors),
        )

    def _search_errors(self, request_id: str) -> dict[str, str]:
        """Each application-error code of a search answered with nothing else, and what the
        service said of it, bar the codes that mean "none found" (D199); {} otherwise."""
        said: dict[str, str] = {}
        for response in self._requests.cached_responses(request_id):
            if response.response_type in _NOTICES:
                continue  # D69's completion notice, a warning: neither found nor failed
            error = response.application_error
            if error is None:
                return {}  # something was found: the errors are of some courts only
            code = str(error.code or "?")
            if code.upper() in _NONE_FOUND:
                return {}
            text = error.details if isinstance(error.details, str) and error.details else None
            said.setdefault(code, text or error.message or "")
        return said

    async def _unfinished_request(self, record: Mapping[str, Any], step: str) -> str | None:
        """The request an earlier run created for ``step`` and did not see end (D196)."""
        request_id = (record.get("requests") or {}).get(step)
        if not request_id:
            return None
        cached = await asyncio.to_thread(self._requests.cached_record, str(request_id))
        if cached is None or cached.status in (RequestStatus.COMPLETED, RequestStatus.CANCELLED):
            return None
        return str(request_id)

    def _record_of(self, key: SearchKey, profile: Profile) -> dict[str, Any]:
        now = self._d.now().isoformat()
        record = self._d.cache.dossier(key.key) or {
            "document": key.key,
            "search_type": key.search_type,
            "display": key.display,
            "created_at": now,
            "steps": {},
            "requests": {},
            "decisions": [],
        }
        record["profile"] = profile.name
        record["counts"] = [
            {"name": s.name, "label": s.label, "filter": s.wire_filter()} for s in profile.counts
        ]
        record.setdefault("steps", {})
        record["updated_at"] = now
        return record

    # --- what the cache holds ---------------------------------------------------------------

    def kept(self, document: str | SearchKey) -> Dossier | None:
        """The dossier of ``document`` from the cache alone (offline; None when there is no
        dossier of it). A blocking call: from a worker thread."""
        key = document if isinstance(document, SearchKey) else parse_search_key(document)
        record = self._d.cache.dossier(key.key)
        if record is None:
            return None
        return self._assemble(key, record)

    def _assemble(self, key: SearchKey, record: Mapping[str, Any]) -> Dossier:
        steps_data = record.get("steps") or {}
        created = instant(record.get("created_at")) or self._d.now()
        dossier = Dossier(
            key=key,
            created_at=created,
            updated_at=instant(record.get("updated_at")) or created,
            profile=str(record.get("profile") or ""),
            steps={
                name: StepRecord.from_json(name, steps_data[name])
                for name in steps_for(key.search_type, steps_data)
            },
            request_ids={str(k): str(v) for k, v in (record.get("requests") or {}).items()},
            decisions=[
                d for d in (Decision.from_json(x) for x in record.get("decisions") or []) if d
            ],
            tracking=TrackingMade.from_json(record.get("tracking")),
        )
        datalake = self._datalake
        ran = dossier.steps
        if "gate" in ran:
            gate = datalake.kept_has_lawsuits(key)
            dossier.has_lawsuits = gate.value if gate is not None else None
        if "count" in ran:
            for item in record.get("counts") or []:
                spec = _count_spec(item)
                kept = datalake.kept_count(key, spec.filter)
                dossier.counts.append(
                    CountFigure(
                        spec,
                        kept.value if kept is not None else None,
                        kept.fetched_at if kept is not None else None,
                    )
                )
        if "aggregations" in ran:
            synthetic = datalake.kept_synthetic(key)
            dossier.aggregations = synthetic.value if synthetic is not None else None
        if "entity" in ran:
            entity = datalake.kept_entity(key)
            dossier.entities = list(entity.value.response_data) if entity is not None else None
        if "lawsuits" in ran and ran["lawsuits"].status != StepStatus.SKIPPED:
            # D198: the listing as the dossier keeps it (each lawsuit without its steps, its
            # parties but the document's holder): the table, the charts and the report read
            # nothing else, and opening a lawsuit reads it whole from the cache.
            listing = record.get("listing")
            if isinstance(listing, list):
                dossier.lawsuits = [Lawsuit.model_validate(item) for item in listing]
            else:
                dossier.lawsuits = self._lookup.cached_summaries(key)
        elif "lawsuits" in ran:
            dossier.lawsuits = []
        for step in ("warrants", "executions"):
            request_id = dossier.request_ids.get(step)
            if step in ran and request_id:
                self._criminal(
                    dossier, step, request_id, failed=ran[step].status == StepStatus.FAILED
                )
        return dossier

    def _criminal(self, dossier: Dossier, step: str, request_id: str, *, failed: bool) -> None:
        """The warrants or executions the step's request found; a failed search that found
        none leaves them unknown (None), never "none found" (D199)."""
        responses = self._requests.cached_responses(request_id)
        request = self._requests.cached_record(request_id)
        if step == "warrants":
            warrants = [r.warrant for r in responses if r.warrant is not None]
            dossier.warrants = warrants if warrants or not failed else None
        else:
            found: list[Lawsuit] = []
            for response in responses:
                execution = as_execution(response, request)
                if execution is not None:
                    found.append(execution)
            dossier.executions = found if found or not failed else None

    def recent(self, limit: int | None = None) -> list[DossierSummary]:
        """Every dossier kept, the one updated last first (blocking: from a thread)."""
        summaries = []
        for record in self._d.cache.recent_dossiers(limit):
            key = _key_of(record)
            if key is None:
                continue
            decisions = [Decision.from_json(x) for x in record.get("decisions") or []]
            last = next((d for d in reversed(decisions) if d is not None), None)
            steps = record.get("steps") or {}
            failed = sum(
                1
                for s in steps.values()
                if isinstance(s, Mapping) and s.get("status") == StepStatus.FAILED
            )
            summaries.append(
                DossierSummary(
                    key=key,
                    name=str(record["name"]) if record.get("name") else None,
                    updated_at=instant(record.get("updated_at")) or self._d.now(),
                    verdict=last.verdict if last is not None else None,
                    failed=failed,
                    tracked=bool(record.get("tracking")),
                )
            )
        return summaries

    async def remember_name(self, dossier: Dossier) -> None:
        """Keep the holder's name on the record, so the list names the dossier offline."""
        record = self._d.cache.dossier(dossier.key.key)
        if record is not None and dossier.name and record.get("name") != dossier.name:
            record["name"] = dossier.name
            await self._d.cache.keep_dossier(record)

    # --- the decision and the tracking ------------------------------------------------------

    def analyst(self) -> str:
        """Who decides (D193): the configured analyst, else the system's user name."""
        if self.settings.analyst:
            return self.settings.analyst
        try:
            return getpass.getuser()
        except (KeyError, OSError):
            return "?"

    async def decide(
        self, key: SearchKey, verdict: Verdict, note: str, *, by: str | None = None
    ) -> Decision:
        """Record the analyst's decision on the dossier of ``key`` (kept with the earlier
        ones: the history is part of the file). The note is required for anything but a
        plain approval (D193)."""
        note = note.strip()
        if verdict != Verdict.APPROVE and not note:
            raise ValueError(_("say why: a decision other than a plain approval needs a note"))
        decision = Decision(verdict, note, (by or self.analyst()).strip() or "?", self._d.now())
        record = self._d.cache.dossier(key.key)
        if record is None:
            raise LookupError(
                _("there is no dossier of {key} to decide on").format(key=key.display)
            )
        record.setdefault("decisions", []).append(decision.to_json())
        record["updated_at"] = decision.at.isoformat()
        await self._d.cache.keep_dossier(record)
        return decision

    def existing_tracking(self, key: SearchKey) -> str | None:
        """The active tracking of this document the cache knows of (blocking)."""
        for entry in self._portfolio.cached_entries():
            same = entry.search_key == key.key and entry.search_type == key.search_type
            if same and entry.active:
                return entry.tracking_id
        return None

    async def track(self, key: SearchKey, tier: str, *, name: str | None = None) -> TrackingMade:
        """A tracking of the document in ``tier`` (D194): the tier's recurrence and terms,
        the label ``dossier``; none is created when the document is tracked already."""
        existing = await asyncio.to_thread(self.existing_tracking, key)
        now = self._d.now()
        if existing is not None:
            made = TrackingMade(existing, tier, now, existing=True)
        else:
            choice = self._portfolio.tiers
            if tier not in choice.tiers:
                raise ValueError(
                    _("{tier!r} is not a tier (known: {known})").format(
                        tier=tier, known=", ".join(choice.tiers)
                    )
                )
            row = ImportRow(0, key.display, key=key, tier=tier, labels=(DOSSIER_LABEL,), name=name)
            created = await self._trackings.create(row_body(row, choice))
            made = TrackingMade(created.tracking_id, tier, now)
        record = self._d.cache.dossier(key.key)
        if record is not None:
            record["tracking"] = made.to_json()
            await self._d.cache.keep_dossier(record)
        return made


# --- helpers ----------------------------------------------------------------------------


_SUMMARY_DROPS = ("steps", "attachments", "phase_history", "pipelines", "related_lawsuits")


def _summary(lawsuit: Lawsuit, document: str) -> dict[str, Any]:
    """A lawsuit of the listing as the dossier keeps it (D198): what its table, charts and
    report read, the side of the document's holder included, without steps and the other
    parties (a dossier of 10,000 steps reopens in milliseconds)."""
    data = lawsuit.to_json_dict()
    for name in _SUMMARY_DROPS:
        data.pop(name, None)
    side = side_of(lawsuit, document)
    data["parties"] = [{"main_document": document, "side": side}] if side is not None else []
    return data


def _status_words(record: RequestRecord) -> str:
    from lawsuit_tui.domain.vocabulary import REQUEST_STATUS_WORDS, word

    return _("the court is being asked ({status})").format(
        status=word(REQUEST_STATUS_WORDS, record.status)
    )


def _count_spec(item: Any) -> CountSpec:
    data = item if isinstance(item, Mapping) else {}
    raw = data.get("filter")
    flt = Filter.model_validate(raw) if isinstance(raw, Mapping) else None
    name = str(data.get("name") or "")
    return CountSpec(name, str(data.get("label") or name), flt)
